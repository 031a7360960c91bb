// SPDX-License-Identifier: MIT
// Iterated Lin-Kernighan on very large tours, a stretch at a time, on every host thread at once:
// the decomposition search that stands in for the whole-tour threads (iterated_lin_kernighan.h)
// beside the colonies on tours of 150,000 cities and more (solver/portfolio.cpp).
//
// Why: whole-tour threads that share one walk keep only the tour of the thread that gained most;
// what the others found elsewhere in the tour is thrown away when they adopt it. And each keeps
// the tour in an array, so every kick that the repair changes costs a copy of the whole tour: at a
// million cities each thread manages a few hundred kicks a second. Here a round cuts the tour
// into stretches of `stretch` consecutive cities (n / threads each on large tours: one a thread);
// a thread takes a stretch, makes it a problem of its own (its cities, the path through them
// closed into a tour by the edge between its two ends, which no chain and no kick removes:
// LinKernighanOptions::fixed_edge), walks it with Lin-Kernighan from its unsettled cities and
// then `kicks` kicks of iterated Lin-Kernighan (kicked_tour.h), and writes the path back into the
// same positions when it is shorter: the tour stays a tour, the threads never wait for each other
// within a round, and every thread's gains add up. Each round cuts at a new random offset, so no
// seam stays where it was; between rounds the threads adopt a shorter tour offered by the merger
// and publish theirs. A city stays settled (not climbed again from the next round's start) while
// its tour edges are those a walk left, away from the stretch's ends. This is the tour-segment
// partitioning of LKH's SUBPROBLEM_SIZE (Helsgaun 2009, "General k-opt submoves for the
// Lin-Kernighan TSP heuristic", and LKH-2's segment subproblems).
//
// A round's result does not depend on the number of threads (each stretch draws its kicks from the
// seed, the round and the stretch), but offers arrive when the merger sends them.
//
// Several islands of one run (ranks, or --gpus) split the decomposition between them: the plane is
// cut into one region per island (city_regions), and an island's threads walk only the stretches
// whose first city lies in its region. Stretches still cross the regions' borders (the cuts move
// every round), so no seam stays; the islands' tours differ in disjoint stretches, which the
// exchange's segment merge (population/partition_merge.h) puts together. Without that split every island
// walks every stretch, and k islands on a host do the work of one with a k-th of its threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/published_tour.h"
#include "localsearch/cpu/tour_companion.h"

namespace formica::decomposition {

/// Cities per stretch unless told otherwise: small enough that a stretch's set-up and its kicks
/// take milliseconds, large enough that the seams are a small part of the tour.
inline constexpr int kDefaultStretchCities = 1000;
/// Kicks per stretch and round unless told otherwise: as many as it has cities, up to this many,
/// so that a round of large stretches (n / threads cities each) ends every few seconds and
/// publishes its tour. H200 host, 14 threads, 60 s (bench/large_tour_bench): stretches of 25,000
/// cities with 5,000 kicks a round took 200,000 cities to 319.87 M, stretches of 10,000 with 3,000
/// to 320.39 M, and the whole-tour threads to 320.29 M; a million cities, stretches of 35,000
/// 717.2 M, of 10,000 718.0 M, whole-tour threads 722.8 M.
inline constexpr int kMaxRoundKicks = 5000;

/// The cities of a stretch as an instance of their own: their coordinates (same metric), or their
/// rows and columns of the matrix.
Instance stretch_instance(const Instance& instance, std::span<const int32_t> cities);

/// Exact length of the path through `cities` in the order `order` gives (indices into cities).
int64_t path_through(const Instance& instance, std::span<const int32_t> cities,
                     std::span<const int32_t> order);

/// Stretch s of a round cut from `offset`: its first position and its number of cities.
struct StretchCut {
  int first, cities;
};
/// The cut of stretch s of n / stretch (the last one takes the remainder).
StretchCut stretch_cut(int n, int stretch, int offset, int s);

/// The island's share of the stretches (see the file comment): region `part` of `parts`.
struct StretchRegion {
  int part = 0;
  int parts = 1;
};

/// The region (0 .. parts - 1) of every city: the plane halved at the median of its longer side
/// until there are `parts` regions of (almost) equal numbers of cities; cities by their index
/// where the instance has no coordinates. The same on every rank for the same instance.
std::vector<int32_t> city_regions(const Instance& instance, int parts);

/// One round of the file comment's, on the calling thread and `threads` - 1 more: `tour`'s
/// stretches of `stretch` cities cut from position `offset` (the last one takes the remainder),
/// each walked with Lin-Kernighan and then `kicks` kicks (0: Lin-Kernighan alone); stretch s draws
/// its kicks from `seed` and s. The result does not depend on `threads`. Returns the exact gain.
/// Tours of fewer than 2 x stretch cities are left as they are. `stop` is polled between kicks and
/// between stretches.
int64_t walk_stretches(const Instance& instance, std::span<int32_t> tour, int stretch, int offset, int kicks,
                       int threads, uint64_t seed, const StopFlag* stop = nullptr);

class StretchLinKernighan final : public localsearch::cpu::TourCompanion {
 public:
  /// Starts `threads` workers (at least 1) on `instance` (which must outlive this object, and have
  /// at least 2 x stretch cities), idle until the first offer(). Each stretch gets `kicks` kicks a
  /// round (0: as many as it has cities, at most kMaxRoundKicks). With `stall_gain` > 0 the rounds end for
  /// good after the first round that shortened the tour by less than that fraction of its length (its share
  /// of it, when `region` leaves the threads a share of the stretches) (stalled()). The stretches' chains
  /// take `step`s (lin_kernighan_options by the stretch's cities) over lists of `shape` (each
  /// stretch's own, kStretchNeighbours a city).
  StretchLinKernighan(const Instance& instance, int threads, uint64_t seed,
                      int stretch = kDefaultStretchCities, int kicks = 0, double stall_gain = 0,
                      StretchRegion region = {},
                      localsearch::LinKernighanStep step = localsearch::LinKernighanStep::TwoOpt,
                      NeighbourShape shape = NeighbourShape::Nearest);
  ~StretchLinKernighan() override { stop(); }
  StretchLinKernighan(const StretchLinKernighan&) = delete;
  StretchLinKernighan& operator=(const StretchLinKernighan&) = delete;

  /// Adopted at the end of the round in progress when it is shorter than the round's tour.
  void offer(std::span<const int32_t> tour, int64_t length) override;
  int64_t best(std::vector<int32_t>& out) const override;
  int64_t best_length() const override { return best_.length(); }
  /// Ends after the stretches in progress (each ends at its next kick).
  void stop() override;
  /// One shared walk: always empty.
  void walks(std::vector<Walk>& out) const override { out.clear(); }
  int64_t kicks() const override { return kicks_.load(std::memory_order_relaxed); }
  /// Rounds completed so far.
  int64_t rounds() const { return rounds_.load(std::memory_order_relaxed); }
  /// Stretches walked so far, all rounds together.
  int64_t stretches_walked() const { return walked_.load(std::memory_order_relaxed); }
  /// True once a round gained less than the stall gain: the workers have ended, best() is final.
  bool stalled() const { return stalled_.load(std::memory_order_acquire); }
  /// Waits until the rounds stall (true) or stop() is called (false).
  bool wait_until_stalled();

 private:
  void work();
  /// Under mutex_, when the last stretch of a round is back: the round's tour published, an
  /// offered shorter tour adopted, the next round's cuts drawn.
  void end_round();
  /// Under mutex_: this round's stretches (those starting in the region) from offset_ and tour_.
  void start_round();
  /// Under mutex_, before tour_ becomes `next`: the cities at edges of `next` that tour_ lacks are
  /// no longer settled.
  void unsettle_changed(std::span<const int32_t> next);

  const Instance& instance_;
  const uint64_t seed_;
  const localsearch::LinKernighanStep step_;       // of the stretches' chains
  const NeighbourShape shape_;                     // of their lists
  const int stretch_, kicks_per_stretch_, count_;  // count_: stretches a round
  const double stall_gain_;
  const StretchRegion region_;
  const std::vector<int32_t> regions_;  // every city's region; empty with one region
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Guarded by mutex_, except tour_'s positions, which the thread holding a stretch reads and writes.
  std::vector<int32_t> tour_;
  localsearch::cpu::PublishedTour best_;
  localsearch::cpu::OfferedTour offered_;
  int64_t length_ = -1, round_gain_ = 0;
  std::vector<int> round_stretches_;  // this round's stretches, in the order they are handed out
  // By city: 1 where a stretch's walk climbed it and its tour edges have not changed since (the
  // next walk starts its chains from the other cities only). Each thread writes its stretch's.
  std::vector<uint8_t> settled_;
  int offset_ = 0, next_ = 0, returned_ = 0;
  std::atomic<int64_t> kicks_{0}, rounds_{0}, walked_{0};
  std::atomic<bool> stop_{false}, stalled_{false};
  std::vector<std::thread> workers_;
};

}  // namespace formica::decomposition
