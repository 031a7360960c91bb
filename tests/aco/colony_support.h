// SPDX-License-Identifier: MIT
// Checks shared by the GPU colony tests (CUDA builds only).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "aco/cuda/ant_system_cuda.h"
#include "core/tour.h"

namespace formica::aco::colony {

/// Every ant's last tour is a permutation whose exact length the GPU reported, and the best tour
/// is valid and no longer than any of them.
inline void expect_valid_tours(const Instance& instance, const AntSystemCuda& colony) {
  const int n = instance.n();
  const auto tours = colony.tours();
  const auto lengths = colony.tour_lengths();
  for (int k = 0; k < colony.ants(); ++k) {
    const std::vector<int32_t> order(tours.begin() + static_cast<ptrdiff_t>(k) * n,
                                     tours.begin() + static_cast<ptrdiff_t>(k + 1) * n);
    const Tour tour(instance, order);  // throws unless a permutation
    ASSERT_EQ(tour.length(), lengths[k]) << "ant " << k;
  }
  EXPECT_EQ(Tour(instance, colony.best_tour()).length(), colony.best_length());
  EXPECT_LE(colony.best_length(), *std::min_element(lengths.begin(), lengths.end()));
}

}  // namespace formica::aco::colony
