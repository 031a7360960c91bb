// SPDX-License-Identifier: MIT
// The path city beside coordinate-based tours and lists (see path_city.h).
#include "core/path_city.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/kd_tree.h"

namespace formica {

void insert_path_city(const Instance& instance, std::vector<int32_t>& tour) {
  if (!instance.has_path_city() || tour.empty()) return;
  const int city = instance.n() - 1;
  const size_t n = tour.size();
  size_t best = 0;  // the path city goes after tour[best]
  int64_t best_cost = std::numeric_limits<int64_t>::max();
  for (size_t p = 0; p < n; ++p) {
    const int32_t a = tour[p], b = tour[(p + 1) % n];
    const int64_t cost = instance.distance(a, city) + instance.distance(city, b) - instance.distance(a, b);
    if (cost < best_cost) best_cost = cost, best = p;
  }
  tour.insert(tour.begin() + static_cast<std::ptrdiff_t>(best) + 1, city);
}

void place_path_city(const Instance& instance, int city, std::vector<int32_t>& list, int k) {
  const int path_city = instance.n() - 1;
  const int64_t d = instance.distance(city, path_city);
  const auto at = std::find_if(list.begin(), list.end(), [&](int32_t c) { return instance.distance(city, c) > d; });
  if (at != list.end() || static_cast<int>(list.size()) < k) list.insert(at, path_city);
  if (static_cast<int>(list.size()) > k) list.resize(static_cast<size_t>(k));
}

std::vector<int32_t> path_city_neighbours(const Instance& instance, const KdTree& tree, int k) {
  const int base = instance.base_n();
  k = std::min(k, base);
  std::vector<int32_t> chosen(instance.path_ends().begin(), instance.path_ends().end());
  std::sort(chosen.begin(), chosen.end());
  const auto add = [&](int32_t c) {
    if (static_cast<int>(chosen.size()) < k && std::find(chosen.begin(), chosen.end(), c) == chosen.end())
      chosen.push_back(c);
  };
  if (chosen.empty()) {
    // Free ends: the city farthest out in each of k directions.
    const auto x = instance.x(), y = instance.y();
    for (int j = 0; j < k; ++j) {
      const double angle = 2.0 * std::numbers::pi * j / k, cx = std::cos(angle), cy = std::sin(angle);
      int32_t best = 0;
      for (int c = 1; c < base; ++c)
        if (x[c] * cx + y[c] * cy > x[best] * cx + y[best] * cy) best = c;
      add(best);
    }
  }
  const std::vector<int32_t> seeds = chosen;
  for (const int32_t seed : seeds)
    for (const int32_t c : tree.k_nearest(seed, k)) add(c);
  for (int c = 0; c < base && static_cast<int>(chosen.size()) < k; ++c) add(c);  // lists that overlapped
  return chosen;
}

}  // namespace formica
