// SPDX-License-Identifier: MIT
// The Hilbert curve visits every grid cell once, moving to an adjacent cell each step, and its tour
// is a short, valid permutation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "core/error.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica {
namespace {

TEST(HilbertIndex, OrderOneIsTheBasicU) {
  EXPECT_EQ(hilbert_index(0, 0, 1), 0u);
  EXPECT_EQ(hilbert_index(0, 1, 1), 1u);
  EXPECT_EQ(hilbert_index(1, 1, 1), 2u);
  EXPECT_EQ(hilbert_index(1, 0, 1), 3u);
}

TEST(HilbertIndex, VisitsEveryCellOnceThroughAdjacentCells) {
  for (int order : {2, 3, 5}) {
    const uint32_t side = 1u << order;
    std::vector<int> x(side * side, -1), y(side * side, -1);
    for (uint32_t i = 0; i < side; ++i)
      for (uint32_t j = 0; j < side; ++j) {
        const uint64_t d = hilbert_index(i, j, order);
        ASSERT_LT(d, side * side);
        ASSERT_EQ(x[d], -1) << "cell index " << d << " used twice";
        x[d] = static_cast<int>(i);
        y[d] = static_cast<int>(j);
      }
    for (uint32_t d = 1; d < side * side; ++d)
      EXPECT_EQ(std::abs(x[d] - x[d - 1]) + std::abs(y[d] - y[d - 1]), 1) << "order " << order << " step " << d;
  }
}

TEST(SpaceFillingCurveTour, IsAShortPermutation) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 3);
  const Tour curve(instance, space_filling_curve_tour(instance));
  const Tour random(instance, localsearch::random_start(instance.n(), 1, 0));
  // About 0.92 sqrt(n A) x 1.25 against 0.52 n sqrt(A): roughly 20 times shorter at n = 2000.
  EXPECT_LT(curve.length() * 10, random.length());
}

TEST(SpaceFillingCurveTour, VariantsDifferAndRepeat) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Clustered, 4);
  const auto canonical = space_filling_curve_tour(instance);
  const auto variant = space_filling_curve_tour(instance, 1, 9);
  validate_permutation(variant, instance.n());
  EXPECT_NE(variant, canonical);
  EXPECT_EQ(variant, space_filling_curve_tour(instance, 1, 9));
  EXPECT_NE(variant, space_filling_curve_tour(instance, 2, 9));
}

TEST(SpaceFillingCurveTour, SmallAndDegenerateInstances) {
  for (int n : {3, 4, 5}) validate_permutation(space_filling_curve_tour(io::generate_instance(n, io::InstanceKind::Uniform, n)), n);
  const Instance same("same", EdgeWeightType::Euc2D, {5, 5, 5, 5}, {1, 1, 1, 1});  // all cities coincide
  EXPECT_EQ(space_filling_curve_tour(same), (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(SpaceFillingCurveTour, NeedsCoordinates) {
  const Instance matrix = Instance::from_matrix("m", 3, {0, 1, 2, 1, 0, 3, 2, 3, 0});
  EXPECT_THROW(space_filling_curve_tour(matrix), InputError);
}

}  // namespace
}  // namespace formica
