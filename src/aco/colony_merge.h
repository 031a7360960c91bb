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
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/colony_rules.h"
#include "core/instance.h"

namespace formica::aco {

constexpr int kMergeInterval = 10;

class ColonyMerger {
 public:
  /// True when `iteration` is a merge iteration and a colony's best or restart-best length
  /// changed since the last merge.
  bool due(const std::vector<ColonyRecord>& records, int iteration) const;

  /// Merges as the file comment says. `best_tours` and `restart_tours` hold the colonies' tours,
  /// colonies x n. Returns the colony whose records now hold the merged tour (written to `merged`;
  /// the caller copies it into that colony's best and restart-best tours), or -1 when the merge
  /// found nothing shorter.
  int merge(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
            std::span<const int32_t> best_tours, std::span<const int32_t> restart_tours,
            std::vector<int32_t>& merged);

 private:
  std::vector<long long> seen_;  // best and restart-best lengths at the last merge
};

}  // namespace formica::aco
