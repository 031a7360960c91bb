// SPDX-License-Identifier: MIT
// Nearest-neighbour tour construction.
#include "core/nearest_neighbour.h"

#include <algorithm>
#include <limits>

#include "core/error.h"
#include "core/kd_tree.h"
#include "core/path_city.h"
#include "core/search.h"

namespace formica {

namespace {

/// Steps between two looks at the stop.
constexpr size_t kStopCheckSteps = 4096;

}  // namespace

std::vector<int32_t> nearest_neighbour_tour(const Instance& instance, int start, const StopFlag* stop) {
  const int n = instance.n();
  FORMICA_EXPECTS(start >= 0 && start < n, "start city ", start, " is outside 0..", n - 1);
  std::vector<int32_t> tour;
  tour.reserve(static_cast<size_t>(n));
  tour.push_back(start);
  const auto check_stop = [&] {
    if (stop != nullptr && tour.size() % kStopCheckSteps == 0 && stop->requested()) throw SetupStopped();
  };
  if (instance.has_coordinates()) {
    // A path city has no coordinates: the tour of the others, then the path city inserted, the
    // tour turned to begin at `start`.
    const int base = instance.base_n();
    if (start >= base) tour.front() = 0;
    KdTree tree(instance, stop);
    tree.remove(tour.front());
    for (int current = tour.front(); static_cast<int>(tour.size()) < base;) {
      current = tree.nearest_alive(current);
      tree.remove(current);
      tour.push_back(current);
      check_stop();
    }
    insert_path_city(instance, tour);
    std::rotate(tour.begin(), std::find(tour.begin(), tour.end(), start), tour.end());
    return tour;
  }
  std::vector<uint8_t> visited(static_cast<size_t>(n), 0);
  visited[start] = 1;
  for (int current = start; static_cast<int>(tour.size()) < n;) {
    int64_t best_d = std::numeric_limits<int64_t>::max();
    int best = -1;
    for (int j = 0; j < n; ++j)
      if (!visited[j] && instance.distance(current, j) < best_d)
        best_d = instance.distance(current, j), best = j;
    visited[best] = 1;
    tour.push_back(best);
    check_stop();
    current = best;
  }
  return tour;
}

}  // namespace formica
