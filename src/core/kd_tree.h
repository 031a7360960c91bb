// SPDX-License-Identifier: MIT
// KdTree: a static k-d tree over an instance's cities for k-nearest and nearest-unvisited queries.
//
// Distances inside the tree are the continuous metric behind the instance's TSPLIB type (L2 for
// EUC_2D, CEIL_2D, ATT and EUC_3D; L1 for MAN_2D; L-infinity for MAX_2D; chord length on the unit
// sphere for GEO). Each TSPLIB integer distance is a non-decreasing function of that metric, so the
// nearest points under it are nearest under the exact distance too. Ties break by city index.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

struct StopFlag;

class KdTree {
 public:
  /// Builds the tree in O(n log n) over the cities with coordinates: all but the path city of an
  /// instance that has one (which no query may name or return). Throws InputError for EXPLICIT
  /// instances, and SetupStopped (core/search.h) when `stop` (null: never) asks before the tree
  /// is built (a million cities: half a second).
  explicit KdTree(const Instance& instance, const StopFlag* stop = nullptr);

  /// The k nearest other cities of `city`, nearest first (k is clamped to n - 1).
  std::vector<int32_t> k_nearest(int city, int k) const;

  /// Whether quadrant queries are available: planar coordinates (every 2D TSPLIB type) or GEO.
  bool has_quadrants() const { return dims_ == 2 || geo_; }
  /// The quadrant around `city` that `other` lies in (needs has_quadrants()). Planar: bit 0 is
  /// clear when x(other) >= x(city), bit 1 when y(other) >= y(city). GEO: the same in the plane
  /// tangent to the sphere at `city`, x pointing east and y north. A city at the same point as
  /// `city` is in quadrant 0.
  int quadrant_of(int city, int other) const;
  /// The k nearest other cities of `city` in one quadrant around it (quadrant_of), nearest first
  /// (fewer when the quadrant holds fewer). Needs has_quadrants().
  std::vector<int32_t> k_nearest_in_quadrant(int city, int quadrant, int k) const;

  /// Quadrant neighbours of `city` in one walk of the tree: the `share` nearest of each quadrant
  /// (quadrant_of), then the nearest others up to k, all nearest first (ties by index). Needs
  /// has_quadrants().
  std::vector<int32_t> quadrant_neighbours(int city, int share, int k) const;

  /// The nearest city to `city` that has not been removed, or -1 if none is left.
  int nearest_alive(int city) const;
  /// Removes a city from nearest_alive queries (k_nearest ignores removals).
  void remove(int city);

  /// Continuous distance used for ordering (squared for L2 metrics).
  double key_distance(int a, int b) const;

  /// The cities in the tree's order: neighbouring positions are near in space, so queries made in
  /// this order touch memory that the previous query touched.
  const std::vector<int32_t>& order() const { return order_; }

 private:
  enum class Metric { L1, L2, LInf };
  struct Node {
    int begin, end;   // range of order_ covered by this node
    int left, right;  // child node indices, -1 for a leaf
    int axis;
    double split;
    int alive;  // cities in this subtree not removed
    // The lowest city index in the subtree (removals aside) and the box around its points: a
    // subtree at the same distance as the worst city kept can be skipped when its every city has a
    // higher index, and a planar quadrant when the box lies outside it. Without them, 50,000 cities
    // at one point made every query visit the whole tree (all distances tie at 0).
    int32_t min_city;
    double lo[3], hi[3];
  };

  int build(int begin, int end, const StopFlag* stop);
  /// k_nearest, restricted to one quadrant when quadrant >= 0.
  std::vector<int32_t> k_nearest_where(int city, int k, int quadrant) const;
  /// k_nearest_where for one metric and dimension, its distances inlined.
  template <int Dims, Metric M>
  static double metric_key(const double* p, const double* q);
  template <int Dims, Metric M>
  std::vector<int32_t> k_nearest_in(int city, int k, int quadrant) const;
  template <int Dims, Metric M>
  std::vector<int32_t> quadrant_neighbours_in(int city, int share, int k) const;
  /// The key_distance lower bound from point q to any point in `node`'s box.
  double box_key(const double* q, int node) const;
  /// The children of `node` in the order a query at q visits them: the one whose box is nearer
  /// first, and at equal distances the one holding the lower indices (coincident cities tie).
  struct Visit {
    int near, far;
    double near_key, far_key;
  };
  Visit visit_order(const double* q, const Node& node) const;

  Metric metric_;
  int dims_;
  bool geo_ = false;                    // coords_ are points on the unit sphere
  std::vector<double> coords_;          // dims_ per city
  std::vector<int32_t> order_;          // city indices, partitioned by the tree
  std::vector<double> ordered_coords_;  // coords_ in order_'s order: a leaf's cities side by side
  std::vector<Node> nodes_;
  std::vector<int32_t> leaf_of_;  // node holding each city (for removal)
  std::vector<int32_t> parent_;   // parent of each node
  std::vector<uint8_t> removed_;
};

}  // namespace formica
