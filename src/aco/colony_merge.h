// Merging the colonies' best tours (--merge-tours), the same on the CPU and the GPU: every
// kMergeInterval iterations in which some colony's best or restart-best tour changed, the other
// colonies' best tours and every colony's restart-best are merged into the best tour of all by
// partition merge (localsearch/partition_merge.h): the stretches where one of them is shorter than
// the best tour and that close into one tour (alone or fused with others) are swapped in, largest
// gain first, where they do not overlap; donors one after another, shortest first. Independent
// colonies, and one colony's successive restarts, settle in different basins; their best tours are
// each good in places, and the merge combines the places (the tunnelling of partition crossover
// between local optima, Whitley et al.). The merged tour becomes the best colony's best-so-far and
// restart-best when it is shorter.
//
// With --lk-threads the merger also owns host threads of iterated Lin-Kernighan
// (localsearch/cpu/iterated_lin_kernighan.h): their shortest tour is one more donor, or the tour
// merged into when it is the shortest of all, and every merge hands its result back to them. The
// colonies then search around the threads' best tour and the threads kick the colonies' best.
// With --lk-independent the threads walk on alone and each one's best tour is a donor as well.
// With --lk-stretch they walk stretches of the tour instead of the whole of it
// (localsearch/cpu/stretch_lin_kernighan.h), on very large tours. With --lk-lists alpha
// a Held-Karp ascent runs on a thread of its own beside the whole-tour threads, which walk on
// quadrant lists until it hands them its alpha-nearest (ThreadListsAscent). With --host-search eax
// the threads run GA-EAX instead (localsearch/cpu/eax_companion.h): the merged tour joins its
// population, and the population's shortest tour is the donor.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "aco/colony_config.h"
#include "aco/colony_rules.h"
#include "core/candidates.h"
#include "core/credits.h"
#include "core/instance.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"

namespace formica::aco {

constexpr int kMergeInterval = 10;
/// Neighbours per city of the Lin-Kernighan threads when the colonies have no local-search lists.
constexpr int kMergerNeighbours = 10;

/// The shape of the lists the Lin-Kernighan threads build for themselves: theirs by `lists`, or
/// `colonies` (the shape they follow with LkLists::Colonies). Instances without planar coordinates
/// get the nearest whatever the shape (effective_shape).
NeighbourShape threads_shape(LkLists lists, NeighbourShape colonies);

/// The alpha-nearest per city that --lk-lists alpha hands the Lin-Kernighan threads (LKH's 5).
/// pla85900, 14 threads alone from the solver's 30-s tour (0.319 %), 90 s, the device tool's H200
/// host: 5 alpha-nearest 0.206 % (0.227 % 79 s after the start, the ascent's 11.3 s counted), 8
/// 0.217 %, quadrant lists of 10 0.247 % (stalled from 60 s on). End to end it is not ahead: the
/// solver at 120 s, seeds 1-5, median 0.2295 % against the default's 0.2195 % (two seeds at
/// 0.16 %, three worse; bench/results/alpha_threads_2026-12-01), so it is not auto's choice.
constexpr int kThreadsAlphaNeighbours = 5;

/// LKH's candidate lists for running Lin-Kernighan threads: a Held-Karp ascent on a thread of its
/// own (one core: the ascent does not get faster with more), whose kThreadsAlphaNeighbours
/// alpha-nearest go to `search` (IteratedLinKernighan::use_lists) when it ends.
class ThreadListsAscent {
 public:
  /// Starts the ascent; `instance` and `search` must outlive this object (or its stop()).
  ThreadListsAscent(const Instance& instance, localsearch::cpu::IteratedLinKernighan& search);
  ~ThreadListsAscent() { end(); }
  ThreadListsAscent(const ThreadListsAscent&) = delete;
  ThreadListsAscent& operator=(const ThreadListsAscent&) = delete;
  /// Interrupts the ascent (the lists it would have made are dropped) and joins its thread;
  /// rethrows what the ascent threw.
  void stop();
  /// True once `search` has the alpha lists.
  bool handed_over() const { return handed_over_.load(std::memory_order_acquire); }

 private:
  void end();  // interrupts and joins

  std::atomic<bool> stop_{false};
  std::atomic<bool> handed_over_{false};
  std::exception_ptr failure_;  // written by the thread, read after join
  std::thread thread_;
};

/// A tour and its exact length, to merge.
using LengthTour = std::pair<long long, std::span<const int32_t>>;

/// Partition merge of several tours: `donors` (at least one, each a permutation of at least 5
/// cities) sorted by length, then merged one after another into the shortest, each into the tour
/// the ones before it left. The result is written to `merged`; its exact length is returned. The
/// colonies' merge and the ranks' (solver/islands.h) both go through it.
int64_t merge_tours(const Instance& instance, std::vector<LengthTour>& donors, std::vector<int32_t>& merged);

class ColonyMerger {
 public:
  ColonyMerger();
  ~ColonyMerger();  // stops the ascent before the threads it hands lists to
  ColonyMerger(ColonyMerger&&) noexcept;
  ColonyMerger& operator=(ColonyMerger&&) noexcept;  // the ascent first, while its threads live
  /// A merger with config.lk_threads Lin-Kernighan threads (none when 0), idle until the first merge.
  /// Their chains choose among `lists` (the colonies' local-search lists, copied), or, when null,
  /// among kMergerNeighbours neighbours of config.neighbour_lists' shape built here.
  ColonyMerger(const Instance& instance, const ColonyConfig& config, const CandidateLists* lists);

  /// True when `iteration` is a merge iteration and a colony's best or restart-best length, or the
  /// Lin-Kernighan threads' best, changed since the last merge.
  bool due(const std::vector<ColonyRecord>& records, int iteration) const;

  /// Merges as the file comment says (on the calling thread). `best_tours` and `restart_tours` hold the
  /// colonies' tours, colonies x n. Returns the colony whose records now hold the merged tour (written to
  /// `merged`; the caller copies it into that colony's best and restart-best tours), or -1 when the merge
  /// found nothing shorter.
  int merge(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
            std::span<const int32_t> best_tours, std::span<const int32_t> restart_tours,
            std::vector<int32_t>& merged);

  /// Adoption of a tour found outside the colonies (Search::adopt; another rank's in the island
  /// model): `tour` of exact length `length` and the best colony's best tour are merged, the shorter
  /// as the base; when the result is shorter than that colony's best it becomes its best and
  /// restart-best (records updated, tour written to `merged`) and that colony is returned, else -1.
  /// The Lin-Kernighan threads are offered the result either way.
  int adopt(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
            std::span<const int32_t> best_tours, std::span<const int32_t> tour, int64_t length,
            std::vector<int32_t>& merged);

  /// Hands the Lin-Kernighan threads (if any) their first tour before the first merge: the
  /// focused colonies' start tour.
  void start(std::span<const int32_t> tour, int64_t length) {
    credits_.start(length);
    if (companion_) companion_->offer(tour, length);
  }

  /// The colonies' best length after an iteration (kNoLength before they have one): a drop since
  /// the last merge or observation is credited to the colonies.
  void observe(int64_t best_length) {
    if (best_length != kNoLength) credits_.credit(Finder::Search, best_length);
  }
  /// Who found the improvements so far (core/credits.h): the colonies, the host threads, the merges,
  /// other ranks' tours (adopt).
  const Credits& credits() const { return credits_; }

  /// The last merge, after the last iteration: stops the Lin-Kernighan threads and, if there are
  /// any, merges as merge() does whether due or not. Returns what merge() returns (-1 without
  /// threads).
  int finish(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
             std::span<const int32_t> best_tours, std::span<const int32_t> restart_tours,
             std::vector<int32_t>& merged);

  /// With --lk-lists alpha: true once the threads have the ascent's lists.
  bool alpha_lists() const { return ascent_ && ascent_->handed_over(); }

  /// Kicks the Lin-Kernighan threads tried so far (0 without them).
  int64_t lk_kicks() const { return companion_ ? companion_->kicks() : 0; }

 private:
  std::vector<long long> lengths(const std::vector<ColonyRecord>& records) const;
  /// Offers `current` to the Lin-Kernighan threads and, when shorter than colony `best`'s best,
  /// records it there and moves it to `merged`; returns the colony or -1.
  int take(std::vector<ColonyRecord>& records, int best, int iteration, std::vector<int32_t>& current,
           int64_t length, std::vector<int32_t>& merged);

  std::vector<long long> seen_;  // best and restart-best lengths (and the threads' best) at the last merge
  Credits credits_;
  Finder host_ = Finder::LinKernighan;  // what the host threads run
  // Declared before companion_, so that a move assignment ends the old ascent before it ends
  // the old threads it hands lists to (the destructor stops it first as well).
  std::unique_ptr<ThreadListsAscent> ascent_;
  std::unique_ptr<localsearch::cpu::TourCompanion> companion_;
};

}  // namespace formica::aco
