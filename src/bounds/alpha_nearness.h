// SPDX-License-Identifier: MIT
// Alpha-nearness (Helsgaun 2000, LKH): alpha(i, j) is how much heavier the minimum 1-tree gets
// when it must contain the edge (i, j), under the Held-Karp penalties. Edges of the minimum 1-tree
// have alpha 0; optimal tours' edges mostly have small alpha, which is why the few alpha-nearest
// neighbours of a city make better candidate lists than its nearest.
//
// With the special city v a leaf whose second edge is e_v (one_tree.h): for i, j other than v,
// forcing (i, j) into the spanning tree of the other cities drops the heaviest edge on the tree
// path from i to j, so alpha(i, j) = w(i, j) - max(path); for (v, j), e_v is dropped, so
// alpha(v, j) = w(v, j) - w(e_v). The path maxima come from binary lifting over the tree rooted
// at a non-special city, O(log n) a pair.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bounds/held_karp.h"
#include "core/candidates.h"
#include "core/instance.h"

namespace formica::bounds {

class AlphaNearness {
 public:
  /// The alpha values of the 1-tree `tree` (minimum under `pi`). O(n log n) time and memory.
  AlphaNearness(const Instance& instance, const OneTree& tree, std::span<const int64_t> pi);

  /// alpha(i, j), scaled by kPenaltyScale; 0 for the 1-tree's edges, never negative.
  int64_t alpha(int i, int j) const;

 private:
  int64_t heaviest_on_path(int i, int j) const;

  const Instance& instance_;
  std::vector<int64_t> pi_;
  int special_;
  int64_t special_second_;  // weight of the special city's second edge
  int32_t special_first_;   // its tree neighbour
  int levels_;
  std::vector<int32_t> depth_;
  std::vector<int32_t> up_;       // levels_ x n ancestors (2^level up), the root its own
  std::vector<int64_t> heaviest_; // levels_ x n heaviest edge on those 2^level steps
};

/// Every city's k alpha-nearest among `pool` (its pool row and its 1-tree neighbours): by alpha,
/// ties by distance, then city index. k is clamped to the pool's width. `threads` rows at once;
/// the lists do not depend on it.
CandidateLists alpha_candidate_lists(const Instance& instance, const LowerBound& bound, const CandidateLists& pool,
                                     int k, int threads);

/// The same over a pool of max(4k, 20) nearest and quadrant neighbours per city, built here.
CandidateLists alpha_candidate_lists(const Instance& instance, const LowerBound& bound, int k, int threads);

/// The k alpha-nearest of every city from a fresh Held-Karp ascent (`options`), over the pool
/// above: what the local search's --ls-candidates alpha reads.
CandidateLists alpha_candidate_lists(const Instance& instance, int k, const BoundOptions& options);

}  // namespace formica::bounds
