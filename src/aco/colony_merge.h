// SPDX-License-Identifier: MIT
// Merging the colonies' best tours (--merge-tours), the same on the CPU and the GPU: every
// kMergeInterval iterations in which some colony's best or restart-best tour changed, the other
// colonies' best tours and every colony's restart-best are merged into the best tour of all by
// partition merge (population/partition_merge.h): the stretches where one of them is shorter than
// the best tour and that close into one tour (alone or fused with others) are swapped in, largest
// gain first, where they do not overlap; donors one after another, shortest first. Independent
// colonies, and one colony's successive restarts, settle in different basins; their best tours are
// each good in places, and the merge combines the places (the tunnelling of partition crossover
// between local optima, Whitley et al.). The merged tour becomes the best colony's best-so-far and
// restart-best when it is shorter.
//
// With --lk-threads the merger also holds host threads that search beside the colonies
// (localsearch/cpu/tour_companion.h): their shortest tour is one more donor, or the tour merged
// into when it is the shortest of all, and every merge hands its result back to them. The colonies
// then search around the threads' best tour and the threads kick the colonies' best. Which threads
// those are (Lin-Kernighan over the whole tour or over stretches, GA-EAX) is the hybrid's choice
// (hybrid/host_threads.h): whoever builds a colony search hands it the StartHostThreads that
// starts them, so the colonies do not depend on the searches that run beside them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "aco/colony_config.h"
#include "aco/colony_rules.h"
#include "core/candidates.h"
#include "core/credits.h"
#include "core/instance.h"
#include "localsearch/cpu/tour_companion.h"

namespace formica::aco {

constexpr int kMergeInterval = 10;
/// Neighbours per city of the Lin-Kernighan threads when the colonies have no local-search lists.
constexpr int kMergerNeighbours = 10;

/// Host threads that search beside the colonies (none: null).
using HostThreads = std::unique_ptr<localsearch::cpu::TourCompanion>;
/// Starts the host threads that `config` asks for (config.lk_threads of them) on `instance`; `lists`
/// are the colonies' local-search lists when they have them (the threads may copy them), else null;
/// lists built before the threads start throw SetupStopped when `stop` asks (null: never).
/// The solver hands the colony searches hybrid::start_host_threads.
using StartHostThreads = std::function<HostThreads(const Instance& instance, const ColonyConfig& config,
                                                   const CandidateLists* lists, const StopFlag* stop)>;

class ColonyMerger {
 public:
  ColonyMerger() = default;
  /// A merger with `threads` beside the colonies (none when null), idle until the first merge;
  /// `host` says what they run, for the credits.
  explicit ColonyMerger(HostThreads threads, Finder host = Finder::LinKernighan)
      : host_(host), companion_(std::move(threads)) {}
  /// A merger with the host threads that `start` starts when config.lk_threads > 0 (then `start`
  /// must be given), none otherwise.
  ColonyMerger(const StartHostThreads& start, const Instance& instance, const ColonyConfig& config,
               const CandidateLists* lists, const StopFlag* stop = nullptr);

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
  bool alpha_lists() const { return companion_ && companion_->alpha_lists(); }

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
  HostThreads companion_;
};

}  // namespace formica::aco
