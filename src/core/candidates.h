// SPDX-License-Identifier: MIT
// Candidate lists: k neighbours of every city, nearest first: the k nearest, or quadrant
// neighbours (the nearest few in each quadrant around the city, filled up with the nearest).
//
// Quadrant lists matter on clustered instances: when a cluster holds more than k cities, the k
// nearest of every city lie inside its cluster, so no move and no ant choice can add an edge that
// leaves it, and a tour that crosses between clusters badly stays that way (pr152, fl1577). The
// nearest cities in each quadrant include the next cluster's for cities on a cluster's edge
// (Johnson and McGeoch's "quad neighbours"; LKH's quadrant candidate sets).
//
// Built with a k-d tree for coordinate instances, O(n log n) for nearest and planar quadrant lists
// (100,000 cities in well under a second; a GEO quadrant cannot prune the tree by its sides, so a
// quadrant holding few cities costs up to O(n) per query) and by partial sorting of each matrix row for EXPLICIT ones. Ant construction, 2-opt and
// Or-opt read these lists so that a step costs O(k) rather than O(n).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/instance.h"
#include "core/named_table.h"

namespace formica {

struct StopFlag;

class CandidateLists {
 public:
  CandidateLists() = default;
  CandidateLists(int n, int k, std::vector<int32_t> ids);

  int n() const { return n_; }
  int k() const { return k_; }
  /// The k nearest other cities of `city`, nearest first.
  std::span<const int32_t> of(int city) const {
    return {ids_.data() + static_cast<size_t>(city) * k_, static_cast<size_t>(k_)};
  }
  /// All lists, row-major n x k (what the GPU kernels copy).
  std::span<const int32_t> data() const { return ids_; }

 private:
  int n_ = 0, k_ = 0;
  std::vector<int32_t> ids_;
};

enum class NeighbourShape {
  Nearest,   ///< the k nearest
  Quadrant,  ///< the quadrant_share(k) nearest of each quadrant, then the nearest up to k
};

/// Names on the command line ("nearest", "quadrant") with a line of help each.
std::vector<NamedValue> neighbour_shape_names();
std::string_view to_string(NeighbourShape shape);
std::optional<NeighbourShape> parse_neighbour_shape(std::string_view name);

/// Cities a quadrant list takes from each quadrant before filling up with the nearest: k / 5 (at
/// least 1), so that at least a fifth of the list stays the nearest cities whatever the quadrants.
/// (For k < 4 the list is the k nearest of the quadrants' nearest.)
inline int quadrant_share(int k) { return k / 5 > 1 ? k / 5 : 1; }

/// The shape build_candidate_lists gives for `shape` on instances of `type`: quadrant lists need
/// planar or GEO coordinates, so EUC_3D and EXPLICIT instances get the nearest whatever was asked.
constexpr NeighbourShape effective_shape(NeighbourShape shape, EdgeWeightType type) {
  const bool quadrants = type != EdgeWeightType::Euc3D && type != EdgeWeightType::Explicit;
  return quadrants ? shape : NeighbourShape::Nearest;
}

/// k neighbours of every city (k is clamped to n - 1), sorted nearest first, ties by city index
/// (a path city's neighbours, all at one distance, are chosen apart: core/path_city.h).
/// Quadrant lists need planar coordinates (EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D) or GEO ones (the
/// quadrants of the plane tangent to the sphere at the city, KdTree::quadrant_of); EUC_3D and
/// EXPLICIT instances get the k nearest whatever the shape. `threads` > 1 builds rows in
/// parallel; the result does not depend on it. Throws SetupStopped (core/search.h) when `stop`
/// asks before the lists are done.
CandidateLists build_candidate_lists(const Instance& instance, int k, int threads = 1,
                                     NeighbourShape shape = NeighbourShape::Nearest, const StopFlag* stop = nullptr);

}  // namespace formica
