// SPDX-License-Identifier: MIT
// exact_tour: Held-Karp's optimal tours against every permutation (n <= 9) and against the tests'
// own dynamic programming (n = 12).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "core/exact_tour.h"
#include "core/tour.h"
#include "io/generator.h"
#include "solver/route_support.h"

namespace formica {
namespace {

int64_t brute_force_tour(const Instance& instance) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do {
    best = std::min(best, tour_length(instance, order));
  } while (std::next_permutation(order.begin() + 1, order.end()));
  return best;
}

TEST(ExactTour, EveryPermutationAgreesUpToNineCities) {
  for (int n = 3; n <= 9; ++n)
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, seed);
      const Tour tour(instance, exact_tour(instance));  // validates the permutation
      EXPECT_EQ(tour.length(), brute_force_tour(instance)) << n << " cities, seed " << seed;
    }
}

TEST(ExactTour, TwelveClusteredCitiesMatchTheReferenceDynamicProgram) {
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    const Instance instance = io::generate_instance(kExactTourCities, io::InstanceKind::Clustered, seed);
    const Tour tour(instance, exact_tour(instance));
    EXPECT_EQ(tour.length(),
              test::held_karp(instance.n(), [&](int i, int j) { return instance.distance(i, j); }, true));
  }
}

}  // namespace
}  // namespace formica
