// SPDX-License-Identifier: MIT
// Tour validation and exact lengths.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/tour.h"

namespace formica {
namespace {

const Instance kSquare("square", EdgeWeightType::Euc2D, {0, 10, 10, 0}, {0, 0, 10, 10});

TEST(Tour, ComputesTheExactClosedLength) {
  const Tour tour(kSquare, {0, 1, 2, 3});
  EXPECT_EQ(tour.length(), 40);
  const Tour crossed(kSquare, {0, 2, 1, 3});
  EXPECT_EQ(crossed.length(), 10 + 14 + 10 + 14);
}

TEST(Tour, SuccessorsFollowTheOrder) {
  const Tour tour(kSquare, {2, 0, 3, 1});
  EXPECT_EQ(tour.successors(), (std::vector<int32_t>{3, 2, 0, 1}));
}

TEST(Tour, RejectsRepeatedCity) {
  EXPECT_THROW(Tour(kSquare, {0, 1, 1, 3}), InputError);
}

TEST(Tour, RejectsWrongSize) {
  EXPECT_THROW(Tour(kSquare, {0, 1, 2}), InputError);
  EXPECT_THROW(Tour(kSquare, {0, 1, 2, 3, 0}), InputError);
}

TEST(Tour, RejectsOutOfRangeCity) {
  EXPECT_THROW(Tour(kSquare, {0, 1, 2, 4}), InputError);
  EXPECT_THROW(Tour(kSquare, {0, 1, 2, -1}), InputError);
}

TEST(Tour, MessageNamesTheProblem) {
  try {
    validate_permutation(std::vector<int32_t>{0, 2, 2, 1}, 4);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "tour visits city 3 twice");
  }
}

}  // namespace
}  // namespace formica
