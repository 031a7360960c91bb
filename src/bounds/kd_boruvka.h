// SPDX-License-Identifier: MIT
// Minimum spanning trees of the complete graph of a coordinate instance by Boruvka's algorithm
// over a k-d tree, exact under penalised weights; what makes 200,000 cities affordable where
// dense Prim's n^2 pairs are not.
//
// Each round finds, for every city, its lightest edge to another component, searching the tree
// nearest box first and skipping a box when a lower bound on every edge into it is heavier than
// the best edge known for the city's component: the bound is the TSPLIB distance of the gap
// between the city and the box, scaled, plus the city's penalty and the least penalty in the box.
// Boxes whose cities all lie in the city's own component are skipped too. Every component's
// lightest outgoing edge (under `lighter`, a total order) belongs to the unique minimum spanning
// tree, so the rounds build exactly the tree dense Prim builds.
//
// Why the skip is exact: TSPLIB distances are non-decreasing in |dx|, |dy| (and |dz|) one axis
// at a time, also as computed in floating point (subtraction, squares, sums, sqrt, nint and ceil
// all round monotonically). The gap to a box is computed from a coordinate of a city inside it by
// the same subtraction the distance uses, so it is never larger than any city's |dx| there, and
// the distance of the gaps is never larger than the exact distance to any city in the box. The
// skip is strict (only boxes whose bound exceeds the best weight), so ties are all seen and the
// total order decides them whatever the thread count.
#pragma once

#include <span>
#include <vector>

#include "bounds/one_tree.h"
#include "bounds/penalised_edge.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::bounds {

/// EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D and EUC_3D; not GEO (no box bound) nor EXPLICIT.
bool kd_boruvka_supported(EdgeWeightType type);

class KdBoruvka {
 public:
  /// Builds the tree once, O(n log n), over the cities with coordinates (all but a path city,
  /// which the trees and edges here leave out: CompleteGraph adds it); the penalties may change
  /// between calls. Throws std::invalid_argument for an unsupported type.
  explicit KdBoruvka(const Instance& instance);

  /// The minimum spanning tree of the complete graph (the unique one under `lighter`). Throws
  /// TreeAbandoned once `abandon` (null: never) asks, looked at before every city's search.
  std::vector<Edge> spanning_tree(std::span<const int64_t> pi, int threads,
                                  const StopFlag* abandon = nullptr);

  /// The lightest edge (city, v) over every v other than city and `excluded`. Needs the box
  /// penalties of the last spanning_tree() call's pi, which must be `pi`.
  Edge lightest_edge(std::span<const int64_t> pi, int city, int excluded) const;

 private:
  struct Node {
    int begin, end;   // range of order_
    int left, right;  // children, -1 for a leaf
    double lo[3], hi[3];
  };

  int build(int begin, int end);
  int64_t distance_to_box(int city, const Node& node) const;
  /// Lowers `best` to the lightest edge (city, v) with v admitted by `admit` and in a box that
  /// `open` admits.
  template <class Admit, class Open>
  void search(int city, std::span<const int64_t> pi, Admit admit, Open open, Edge& best) const;

  const Instance& instance_;
  int dims_;
  std::vector<double> coords_;  // dims_ per city
  std::vector<int32_t> order_;
  std::vector<Node> nodes_;     // a parent before its children
  std::vector<int64_t> box_pi_;      // least penalty under each node
  std::vector<int32_t> box_component_;  // the component of all cities under a node, or -1
};

}  // namespace formica::bounds
