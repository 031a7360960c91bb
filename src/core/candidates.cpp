// Candidate-list construction (k-d tree for coordinates, row partial sort for matrices).
#include "core/candidates.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "core/kd_tree.h"
#include "core/path_city.h"

namespace formica {

CandidateLists::CandidateLists(int n, int k, std::vector<int32_t> ids)
    : n_(n), k_(k), ids_(std::move(ids)) {
  FORMICA_EXPECTS(ids_.size() == static_cast<size_t>(n) * static_cast<size_t>(k),
                  "candidate lists need n * k entries");
}

namespace {

constexpr NamedEntry<NeighbourShape> kNeighbourShapes[] = {
    {NeighbourShape::Nearest, {"nearest", "the k nearest cities"}},
    {NeighbourShape::Quadrant,
     {"quadrant", "the k/5 nearest in each quadrant around the city, filled up with the nearest (planar and "
                  "GEO instances, GEO's quadrants east and north on the sphere; others get the nearest)"}},
};

}  // namespace

std::vector<NamedValue> neighbour_shape_names() { return names_of(kNeighbourShapes); }
std::string_view to_string(NeighbourShape shape) { return name_of(kNeighbourShapes, shape); }
std::optional<NeighbourShape> parse_neighbour_shape(std::string_view name) {
  return value_of(kNeighbourShapes, name);
}

namespace {

/// Quadrant neighbours of `city`: quadrant_share(k) from each quadrant, then the nearest others
/// up to k, nearest first (ties by index).
std::vector<int32_t> quadrant_neighbours(const KdTree& tree, int city, int k) {
  std::vector<int32_t> chosen;
  for (int q = 0; q < 4; ++q) {
    const std::vector<int32_t> near = tree.k_nearest_in_quadrant(city, q, quadrant_share(k));
    chosen.insert(chosen.end(), near.begin(), near.end());
  }
  for (int32_t c : tree.k_nearest(city, k)) {
    if (static_cast<int>(chosen.size()) >= k) break;
    if (std::find(chosen.begin(), chosen.end(), c) == chosen.end()) chosen.push_back(c);
  }
  const auto closer = [&](int32_t a, int32_t b) {
    const double da = tree.key_distance(city, a), db = tree.key_distance(city, b);
    return da != db ? da < db : a < b;
  };
  std::sort(chosen.begin(), chosen.end(), closer);
  chosen.resize(std::min<size_t>(chosen.size(), static_cast<size_t>(k)));
  return chosen;
}

}  // namespace

CandidateLists build_candidate_lists(const Instance& instance, int k, int threads, NeighbourShape shape) {
  const int n = instance.n();
  FORMICA_EXPECTS(k >= 1, "candidate list size must be at least 1, got ", k);
  k = std::min(k, n - 1);
  std::vector<int32_t> ids(static_cast<size_t>(n) * k);
  if (instance.has_coordinates()) {
    const KdTree tree(instance);  // over every city but a path city, which is placed by its distance
    const int base = instance.base_n(), base_k = std::min(k, base - 1);
    const bool quadrants = effective_shape(shape, instance.type()) == NeighbourShape::Quadrant;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int i = 0; i < base; ++i) {
      std::vector<int32_t> near = quadrants ? quadrant_neighbours(tree, i, base_k) : tree.k_nearest(i, base_k);
      if (base < n) place_path_city(instance, i, near, k);
      std::copy(near.begin(), near.end(), ids.begin() + static_cast<ptrdiff_t>(i) * k);
    }
    if (base < n) {
      const std::vector<int32_t> near = path_city_neighbours(instance, tree, k);
      std::copy(near.begin(), near.end(), ids.begin() + static_cast<ptrdiff_t>(base) * k);
    }
  } else {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (int i = 0; i < n; ++i) {
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
  return CandidateLists(n, k, std::move(ids));
}

}  // namespace formica
