// SPDX-License-Identifier: MIT
// The nearest-neighbour tour against a plain O(n^2) reference.
#include <gtest/gtest.h>

#include <limits>

#include "core/nearest_neighbour.h"
#include "core/tour.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica {
namespace {

/// True if every step of `tour` goes to a nearest unvisited city under the exact distance.
bool is_greedy(const Instance& instance, const std::vector<int32_t>& tour) {
  const int n = instance.n();
  std::vector<uint8_t> seen(n, 0);
  seen[tour[0]] = 1;
  for (int p = 0; p + 1 < n; ++p) {
    int64_t nearest = std::numeric_limits<int64_t>::max();
    for (int j = 0; j < n; ++j)
      if (!seen[j]) nearest = std::min(nearest, instance.distance(tour[p], j));
    if (seen[tour[p + 1]] || instance.distance(tour[p], tour[p + 1]) != nearest) return false;
    seen[tour[p + 1]] = 1;
  }
  return true;
}

TEST(NearestNeighbour, EveryStepGoesToANearestUnvisitedCity) {
  for (int n : {3, 4, 5, 100, 1000}) {
    for (auto kind : {io::InstanceKind::Uniform, io::InstanceKind::Clustered}) {
      const Instance instance = io::generate_instance(n, kind, n);
      const auto tour = nearest_neighbour_tour(instance, n / 2);
      validate_permutation(tour, n);
      EXPECT_EQ(tour[0], n / 2);
      EXPECT_TRUE(is_greedy(instance, tour)) << n;
    }
  }
}

TEST(NearestNeighbour, ExplicitInstances) {
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance("gr24");
  const auto tour = nearest_neighbour_tour(instance, 0);
  validate_permutation(tour, instance.n());
  EXPECT_TRUE(is_greedy(instance, tour));
}

}  // namespace
}  // namespace formica
