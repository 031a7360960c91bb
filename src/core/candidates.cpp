// SPDX-License-Identifier: MIT
// Candidate-list construction (k-d tree for coordinates, row partial sort for matrices).
#include "core/candidates.h"

#include <algorithm>
#include <atomic>
#include <numeric>

#include "core/error.h"
#include "core/kd_tree.h"
#include "core/path_city.h"
#include "core/search.h"

namespace formica {

CandidateLists::CandidateLists(int n, int k, std::vector<int32_t> ids) : n_(n), k_(k), ids_(std::move(ids)) {
  FORMICA_EXPECTS(ids_.size() == static_cast<size_t>(n) * static_cast<size_t>(k),
                  "candidate lists need n * k entries");
}

namespace {

constexpr NamedEntry<NeighbourShape> kNeighbourShapes[] = {
    {NeighbourShape::Nearest, {"nearest", "the k nearest cities"}},
    {NeighbourShape::Quadrant,
     {"quadrant",
      "the k/5 nearest in each quadrant around the city, filled up with the nearest (planar and "
      "GEO instances, GEO's quadrants east and north on the sphere; others get the nearest)"}},
};

}  // namespace

std::vector<NamedValue> neighbour_shape_names() { return names_of(kNeighbourShapes); }
std::string_view to_string(NeighbourShape shape) { return name_of(kNeighbourShapes, shape); }
std::optional<NeighbourShape> parse_neighbour_shape(std::string_view name) {
  return value_of(kNeighbourShapes, name);
}

namespace {

/// Cities between two looks at the stop: a few milliseconds of queries.
constexpr int kStopCheckCities = 1024;

}  // namespace

CandidateLists build_candidate_lists(const Instance& instance, int k, int threads, NeighbourShape shape,
                                     const StopFlag* stop) {
  const int n = instance.n();
  FORMICA_EXPECTS(k >= 1, "candidate list size must be at least 1, got ", k);
  k = std::min(k, n - 1);
  std::vector<int32_t> ids(static_cast<size_t>(n) * k);
  // Every thread looks at the stop once per block of cities and skips the rest once it asked.
  std::atomic<bool> stop_seen{false};
  const auto stopped = [&](int i) {
    if (stop == nullptr) return false;
    if (i % kStopCheckCities == 0 && stop->requested()) stop_seen.store(true, std::memory_order_relaxed);
    return stop_seen.load(std::memory_order_relaxed);
  };
  if (instance.has_coordinates()) {
    const KdTree tree(instance, stop);  // over every city but a path city, which is placed by its distance
    const int base = instance.base_n(), base_k = std::min(k, base - 1);
    const bool quadrants = effective_shape(shape, instance.type()) == NeighbourShape::Quadrant;
    // In the tree's order, each query finds most of its nodes where the previous one left them.
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int p = 0; p < base; ++p) {
      if (stopped(p)) continue;
      const int i = tree.order()[static_cast<size_t>(p)];
      std::vector<int32_t> near =
          quadrants ? tree.quadrant_neighbours(i, quadrant_share(base_k), base_k) : tree.k_nearest(i, base_k);
      if (base < n) place_path_city(instance, i, near, k);
      std::copy(near.begin(), near.end(), ids.begin() + static_cast<ptrdiff_t>(i) * k);
    }
    if (base < n && !stop_seen.load()) {
      const std::vector<int32_t> near = path_city_neighbours(instance, tree, k);
      std::copy(near.begin(), near.end(), ids.begin() + static_cast<ptrdiff_t>(base) * k);
    }
  } else {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int i = 0; i < n; ++i) {
      if (stopped(i)) continue;
      std::vector<int32_t> others(static_cast<size_t>(n));
      std::iota(others.begin(), others.end(), 0);
      others.erase(others.begin() + i);
      std::partial_sort(others.begin(), others.begin() + k, others.end(), [&](int a, int b) {
        const int64_t da = instance.distance(i, a), db = instance.distance(i, b);
        return da != db ? da < db : a < b;
      });
      std::copy(others.begin(), others.begin() + k, ids.begin() + static_cast<ptrdiff_t>(i) * k);
    }
  }
  if (stop_seen.load()) throw SetupStopped();
  return CandidateLists(n, k, std::move(ids));
}

}  // namespace formica
