// SPDX-License-Identifier: MIT
// Instance construction and validation.
#include <gtest/gtest.h>

#include <limits>

#include "core/error.h"
#include "core/instance.h"

namespace formica {
namespace {

TEST(Instance, CoordinateDistancesAreSymmetricAndZeroOnTheDiagonal) {
  const Instance instance("t", EdgeWeightType::Euc2D, {0, 3, 0}, {0, 4, 1});
  EXPECT_EQ(instance.n(), 3);
  EXPECT_EQ(instance.distance(0, 1), 5);
  EXPECT_EQ(instance.distance(1, 0), 5);
  EXPECT_EQ(instance.distance(2, 2), 0);
}

TEST(Instance, RejectsFewerThanThreeCities) {
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc2D, {0, 1}, {0, 1}), InputError);
  EXPECT_THROW(Instance::from_matrix("t", 2, {0, 1, 1, 0}), InputError);
}

TEST(Instance, RejectsNonFiniteCoordinates) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc2D, {0, nan, 1}, {0, 1, 2}), InputError);
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc2D, {0, 1, 1}, {0, inf, 2}), InputError);
}

// Found by fuzz_tsplib: a coordinate of 1e300 made every distance from its city infinite, and
// nint(inf) overflowed int64 (undefined behaviour) instead of giving an error.
TEST(Instance, RejectsCoordinatesWhoseDistancesOverflow) {
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc2D, {0, 1e300, 1}, {0, 1, 2}), InputError);
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc3D, {0, 1, 2}, {0, 1, 2}, {0, -5.1e8, 1}), InputError);
  const Instance widest("t", EdgeWeightType::Man2D, {-kMaxCoordinate, kMaxCoordinate, 0},
                        {-kMaxCoordinate, kMaxCoordinate, 0});
  EXPECT_EQ(widest.distance(0, 1), 2'000'000'000);
}

TEST(Instance, RejectsMismatchedCoordinateArrays) {
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc2D, {0, 1, 2}, {0, 1}), InputError);
  EXPECT_THROW(Instance("t", EdgeWeightType::Euc3D, {0, 1, 2}, {0, 1, 2}), InputError);
}

TEST(Instance, MatrixMustBeSymmetricAndNonNegative) {
  EXPECT_THROW(Instance::from_matrix("t", 3, {0, 1, 2, 1, 0, 3, 2, 4, 0}), InputError);
  EXPECT_THROW(Instance::from_matrix("t", 3, {0, -1, 2, -1, 0, 3, 2, 3, 0}), InputError);
  const Instance ok = Instance::from_matrix("t", 3, {0, 1, 2, 1, 0, 3, 2, 3, 0});
  EXPECT_EQ(ok.distance(1, 2), 3);
  EXPECT_FALSE(ok.has_coordinates());
}

}  // namespace
}  // namespace formica
