// SPDX-License-Identifier: MIT
// The sparse graph the subgradient ascent runs on: every city's candidate neighbours (nearest and
// quadrant lists) and the edges of a complete-graph minimum spanning tree, which keeps it
// connected on clustered instances. Its minimum 1-trees are fast to find but prove nothing: a
// missing edge can only make them heavier. held_karp.h certifies the final penalties over the
// complete graph.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "bounds/one_tree.h"
#include "core/instance.h"
#include "core/search.h"  // StopFlag

namespace formica::bounds {

class SparseGraph {
 public:
  /// The graph of the undirected `pairs` (either order, repeats allowed), built on `threads`
  /// threads. Throws SetupStopped when `stop` (null: never) asks before it is built. one_tree()
  /// throws std::logic_error if it is not connected.
  SparseGraph(const Instance& instance, std::span<const std::pair<int32_t, int32_t>> pairs, int threads = 1,
              const StopFlag* stop = nullptr);

  int n() const { return static_cast<int>(offset_.size()) - 1; }
  int64_t edges() const { return static_cast<int64_t>(target_.size()) / 2; }

  /// The minimum 1-tree of this graph under pi (Prim with a binary heap, then one_tree_of).
  OneTree one_tree(std::span<const int64_t> pi) const;

 private:
  /// Rows sorted between two looks at the stop.
  static constexpr int kStopCheckRows = 4096;
  // Inside, cities are numbered along a space-filling curve (when the instance has coordinates), so
  // that a city's neighbours and their keys sit close in memory: at 200,000 cities this halves a
  // 1-tree's time. Edges leave with the instance's numbering.
  std::vector<int32_t> city_;   // instance city of each internal number
  std::vector<int32_t> local_;  // internal number of each instance city
  std::vector<int64_t> offset_;
  std::vector<int32_t> target_;
  std::vector<int64_t> distance_;  // kPenaltyScale * d, beside target_
};

}  // namespace formica::bounds
