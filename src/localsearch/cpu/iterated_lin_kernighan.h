// SPDX-License-Identifier: MIT
// Iterated Lin-Kernighan on host threads (Johnson and McGeoch's ILK, with the double-bridge kick
// of Martin, Otto and Felten's large-step Markov chains), the companion of the colonies that keeps
// the CPU's cores busy while the GPU builds and climbs the ants' tours (aco/colony_merge.h).
//
// Each worker thread holds a tour and repeats: kick it with a double bridge (three adjacent
// stretches of 1 to kMaxKickSegment cities each, A B C, are put back in the order C B A, each
// stretch unreversed: four edges change, and no sequential move, so no Lin-Kernighan chain, undoes
// that in one step; swapping two stretches, A B -> B A, changes three, a sequential 3-opt move, and
// measured worse: one thread, 8 s, 3 seeds, median gap u2152 0.53 % against 0.31 %, pr2392 0.34 %
// either way), repair it with Lin-Kernighan chains from the eight cities at the changed edges only
// (lin_kernighan.h), and keep the result when it is no longer than before (equal lengths are kept,
// so the walk crosses plateaus of equal distances), else go back. A worker
// whose shortest tour is longer than the shortest any holder has published adopts that one (shared walks),
// or, with independent walks, never does: each worker then walks on from the first tour alone and
// keeps its own shortest tour, which walks() hands to the caller (the colony merger merges them
// all: walks that settle in different basins are each good in places). Lengths are exact TSPLIB
// integers, kept incrementally and checked by the tests against the tour.
//
// From kTwoLevelCities cities a walk edits a two-level list (kicked_tour.h), on which no move
// reverses more than a few segments, so the 3-opt steps' bound on reversals (LinKernighanOptions::
// max_reversal, which once made walks on large arrays fast) does not apply to the walks.
//
// Adopting keeps only the tour of the walk that gained most at each adoption, so that many threads
// go little further than a few (docs/tuning.md#lk-replay). With `replay`
// (--lk-replay), shared walks on two-level lists do not adopt each other's tours: whenever a
// walk's tour is shorter than when it last took the shared tour or handed over, it hands over the
// moves it kept since (kicks, their repairs, plateaus and escapes: KickedTour::logged) to one
// shared tour (a two-level list of its own, the published one), which replays them where they are
// still 2-opt moves of it (TwoLevelTour::replay: the edges they remove are there, with the same
// orientation), so that the gains of every walk add up. A walk takes the shared tour again when
// others changed it (at most every kResyncPeriod) or when its moves were refused. End to end it
// was within the spread of adopting from run to run, so it is off by default
// (docs/tuning.md#lk-replay).
//
// A walk that has gone kStallKicks kicks without a shorter tour leaves its basin: kEscapeBridges
// double bridges in a row, each repaired, kept whatever the length, and the walk goes on from
// there (its shortest tour stays published). On one thread, 30 s, 8 seeds, this project's 2-core
// VM (bench/large_tour_bench --whole-only --nearest), mean gap without / with: pcb3038 0.172 /
// 0.115 % (the walk had stalled from 20 s on), pr2392 0.290 / 0.225 %, fnl4461 0.095 / 0.100 %
// (still improving there). 3000 kicks and 1, 3 or 10 bridges on pcb3038: 0.166, 0.154, 0.120 %.
//
// use_lists() hands the workers other neighbour lists while they walk (each takes them at its
// next kick): the colonies' merger starts them on quadrant lists and hands them LKH's
// alpha-nearest once a Held-Karp ascent beside them has ended (--lk-lists alpha, colony_merge.h).
//
// The threads run freely beside the caller, so what they find depends on timing: a run with
// workers is not repeatable from its seed alone.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/tour_companion.h"
#include "localsearch/cpu/two_level_tour.h"
#include "localsearch/double_bridge.h"

namespace formica::localsearch::cpu {

/// The workers' kick is localsearch::DoubleBridge (double_bridge.h); on tours of fewer than
/// kMinKickCities cities they stay idle.
using localsearch::kMaxKickSegment;
using localsearch::kMinKickCities;

/// Kicks without a shorter tour after which a walk leaves its basin, and the double bridges that
/// take it out (see the file comment).
inline constexpr int64_t kStallKicks = 1000;
inline constexpr int kEscapeBridges = 3;
/// A walk on a two-level list that does not replay publishes its shorter tours at most this often
/// (and when it stops).
inline constexpr std::chrono::milliseconds kPublishPeriod{10};
/// A shared walk on a two-level list takes the shared tour again at most this often when other
/// walks changed it.
inline constexpr std::chrono::milliseconds kResyncPeriod{25};
/// A shared walk whose moves since its last hand-over pass this many takes the shared tour again.
inline constexpr size_t kMaxLoggedMoves = 1 << 20;

class IteratedLinKernighan final : public TourCompanion {
 public:
  /// Starts `threads` workers (at least 1) on `instance` (which must outlive this object), their
  /// chains choosing among `lists`, idle until the first offer(); worker w draws its kicks from
  /// seed and w.
  /// With `adopt_offers` (and `independent`), a walk takes an offered tour whenever it is shorter
  /// than the walk's own shortest: the colonies' merge offers every walk's gains merged into one.
  /// With `replay` (and shared walks on two-level lists: walks_two_level), the walks hand their
  /// gains to the shared tour (the file comment); a replay the walks cannot make throws InputError.
  IteratedLinKernighan(const Instance& instance, CandidateLists lists, int threads, uint64_t seed,
                       bool independent = false, LinKernighanOptions lk = {}, bool adopt_offers = false,
                       bool replay = false);
  /// Stops and joins the workers.
  ~IteratedLinKernighan() override { stop(); }
  IteratedLinKernighan(const IteratedLinKernighan&) = delete;
  IteratedLinKernighan& operator=(const IteratedLinKernighan&) = delete;

  /// From their next kick on the workers' chains choose among `lists` (n rows) instead.
  void use_lists(CandidateLists lists);
  /// How often a worker took lists handed over by use_lists().
  int64_t list_changes() const { return list_changes_.load(std::memory_order_relaxed); }
  /// The workers adopt an offered tour at their next kick.
  void offer(std::span<const int32_t> tour, int64_t length) override;
  int64_t best(std::vector<int32_t>& out) const override;
  int64_t best_length() const override { return best_length_.load(std::memory_order_acquire); }
  /// At once: a chain in progress ends at its next city.
  void stop() override;
  /// With independent walks, each worker's shortest tour so far; empty with shared walks.
  void walks(std::vector<Walk>& out) const override;
  int64_t kicks() const override { return kicks_.load(std::memory_order_relaxed); }
  /// How often a walk took an offered tour (with adopt_offers).
  int64_t adoptions() const { return adoptions_.load(std::memory_order_relaxed); }
  /// Shared walks on two-level lists: the shortening kicks the shared tour replayed, and those it
  /// refused (their edges no longer there, or no longer in the same orientation).
  int64_t replayed() const { return replayed_.load(std::memory_order_relaxed); }
  int64_t refused() const { return refused_.load(std::memory_order_relaxed); }

 private:
  void work(int worker);
  /// Publishes a worker's tour if it is shorter than the shortest published.
  void publish(std::span<const int32_t> tour, int64_t length);
  /// The published tour, its length and the shared tour's version (replays_).
  int64_t take(std::vector<int32_t>& out, int64_t& version) const;
  /// Replays a walk's shortening kick, which changed its length by `delta`, on the shared tour:
  /// the shared tour's version after it, or -1 where it was refused.
  int64_t hand_over(std::span<const std::array<int32_t, 4>> moves, int64_t delta);
  int64_t shared_version() const { return version_.load(std::memory_order_acquire); }

  /// Neighbour lists and the 3-opt step's table of their distances, one for every worker.
  struct Lists {
    CandidateLists lists;
    std::vector<int32_t> distances;
  };
  std::shared_ptr<const Lists> make_lists(CandidateLists lists) const;

  const Instance& instance_;
  const uint64_t seed_;
  const bool independent_;
  const bool adopt_offers_;
  const bool replays_;  // shared walks on two-level lists (the file comment)
  const LinKernighanOptions lk_options_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Lists> lists_;     // guarded by mutex_
  std::atomic<int64_t> lists_version_{0};  // written under mutex_: changes of lists_
  std::atomic<int64_t> list_changes_{0};
  std::condition_variable offered_;
  mutable std::vector<int32_t> best_;  // guarded by mutex_; with replays_, written from shared_
  TwoLevelTour shared_;                // guarded by mutex_: the published tour, with replays_
  mutable bool shared_ahead_ = false;  // guarded by mutex_: best_ behind shared_
  std::atomic<int64_t> version_{0};    // written under mutex_: changes of shared_
  std::vector<Walk> walks_;    // guarded by mutex_; one per worker with independent walks
  std::vector<int32_t> offer_tour_;        // guarded by mutex_: the shortest offer, with adopt_offers_
  std::atomic<int64_t> offer_length_{-1};  // written under mutex_
  std::atomic<int64_t> best_length_{-1};
  std::atomic<int64_t> kicks_{0};
  std::atomic<int64_t> adoptions_{0};
  std::atomic<int64_t> replayed_{0}, refused_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

}  // namespace formica::localsearch::cpu
