// SPDX-License-Identifier: MIT
// The nearest-neighbour (greedy) tour: start somewhere, always go to the nearest unvisited city.
// Uchida et al. section 2.3 use its length L_nn to set the initial pheromone tau_0 = n / L_nn.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

struct StopFlag;

/// Nearest-neighbour tour from `start`: O(n log n) on average for coordinate instances (k-d tree
/// with removal), O(n^2) for EXPLICIT ones. Ties break by the lower city index. Throws
/// SetupStopped (core/search.h) when `stop` asks before the tour is done.
std::vector<int32_t> nearest_neighbour_tour(const Instance& instance, int start = 0, const StopFlag* stop = nullptr);

}  // namespace formica
