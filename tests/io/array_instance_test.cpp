// SPDX-License-Identifier: MIT
// Instances from in-memory arrays (io/array_instance.h), the checks behind the Python entry
// points: a good array of each kind, and one InputError line, with the words Python users see,
// for each way an array can be wrong.
#include "io/array_instance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"
#include "test_support.h"

namespace formica::io {
namespace {

using test::input_error_of;

const std::vector<double> kSquare = {0, 0, 10, 0, 10, 10, 0, 10};  // (4, 2)
const std::vector<int32_t> kWeights = {0, 2, 3, 2, 0, 4, 3, 4, 0};  // (3, 3), symmetric

TEST(ArrayInstance, CoordinatesUnderEveryMetricName) {
  const Instance square = instance_from_coordinates("sq", {kSquare, 4, 2}, "euc_2d");
  EXPECT_EQ(square.n(), 4);
  EXPECT_EQ(square.type(), EdgeWeightType::Euc2D);
  EXPECT_EQ(square.distance(0, 2), 14);
  EXPECT_EQ(instance_from_coordinates("sq", {kSquare, 4, 2}, "Ceil_2D").distance(0, 2), 15);
  const std::vector<double> cube = {0, 0, 0, 3, 4, 0, 0, 0, 12};
  EXPECT_EQ(instance_from_coordinates("cube", {cube, 3, 3}, "EUC_3D").distance(1, 2), 13);
}

TEST(ArrayInstance, BadCoordinatesGetOneClearLine) {
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {kSquare, 4, 2}, "explicit"); }),
            "unknown coordinate metric 'explicit'");
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {kSquare, 4, 2}, "manhattan"); }),
            "unknown coordinate metric 'manhattan'");
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {kSquare, 4, 2}, "euc_3d"); }),
            "EUC_3D needs 3 coordinates per city, got 2");
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {{kSquare.data(), 6}, 2, 3}, "geo"); }),
            "GEO needs 2 coordinates per city, got 3");
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {{kSquare.data(), 4}, 2, 2}, "euc_2d"); }),
            "an instance needs at least 3 cities, got 2");
  EXPECT_EQ(input_error_of([] { instance_from_coordinates("p", {{}, 0, 2}, "euc_2d"); }),
            "an instance needs at least 3 cities, got 0");
  const std::vector<double> nan = {0, 0, 1, std::numeric_limits<double>::quiet_NaN(), 2, 2};
  EXPECT_EQ(input_error_of([&] { instance_from_coordinates("p", {nan, 3, 2}, "euc_2d"); }),
            "city 2 has a non-finite y coordinate");
}

TEST(ArrayInstance, MatricesSymmetricAndDirected) {
  const Instance symmetric = instance_from_matrix("m", {kWeights, 3, 3});
  EXPECT_EQ(symmetric.type(), EdgeWeightType::Explicit);
  EXPECT_EQ(symmetric.distance(1, 2), 4);
  const std::vector<int32_t> directed = {0, 2, 3, 5, 0, 4, 1, 7, 0};
  const AsymmetricMatrix asymmetric = asymmetric_from_matrix("d", {directed, 3, 3});
  EXPECT_EQ(asymmetric.distance(1, 0), 5);
  EXPECT_EQ(asymmetric.distance(0, 1), 2);
}

TEST(ArrayInstance, BadMatricesGetOneClearLine) {
  const std::span<const int32_t> six(kWeights.data(), 6);
  EXPECT_EQ(input_error_of([&] { instance_from_matrix("m", {six, 3, 2}); }), "a distance matrix must be square, got 3 x 2");
  EXPECT_EQ(input_error_of([&] { asymmetric_from_matrix("m", {six, 2, 3}); }),
            "a distance matrix must be square, got 2 x 3");
  EXPECT_EQ(input_error_of([&] { instance_from_matrix("m", {{kWeights.data(), 4}, 2, 2}); }),
            "an instance needs at least 3 cities, got 2");
  const std::vector<int32_t> negative = {0, -1, 3, -1, 0, 4, 3, 4, 0};
  EXPECT_EQ(input_error_of([&] { instance_from_matrix("m", {negative, 3, 3}); }), "negative weight -1 between cities 1 and 2");
  EXPECT_EQ(input_error_of([&] { asymmetric_from_matrix("m", {negative, 3, 3}); }),
            "negative weight -1 from city 1 to city 2");
  const std::vector<int32_t> directed = {0, 2, 3, 5, 0, 4, 1, 7, 0};
  EXPECT_EQ(input_error_of([&] { instance_from_matrix("m", {directed, 3, 3}); }),
            "weights are not symmetric: d(1,2) = 2 but d(2,1) = 5");
}

TEST(ArrayInstance, PickledStatesRebuildTheInstance) {
  const std::vector<double> x = {0, 10, 10, 0}, y = {0, 0, 10, 10};
  const Instance coordinates = instance_from_state({"sq", "a square", "EUC_2D", x, y, {}, {}, {}, {}, {}});
  EXPECT_EQ(coordinates.comment(), "a square");
  EXPECT_EQ(coordinates.distance(0, 2), 14);
  const std::vector<double> display = {0, 1, 2};
  const Instance matrix = instance_from_state({"m", "", "EXPLICIT", {}, {}, {}, kWeights, display, display, {}});
  EXPECT_EQ(matrix.distance(0, 2), 3);
  EXPECT_TRUE(matrix.has_display_coordinates());
}

TEST(ArrayInstance, BadPickledStatesGetOneClearLine) {
  EXPECT_EQ(input_error_of([] { instance_from_state({"s", "", "euc_2d", {}, {}, {}, {}, {}, {}, {}}); }),
            "unpickling an instance: unknown edge weight type 'euc_2d'");
  const std::vector<int32_t> ten(10, 1);
  EXPECT_EQ(input_error_of([&] { instance_from_state({"s", "", "EXPLICIT", {}, {}, {}, ten, {}, {}, {}}); }),
            "a 3-city matrix needs 9 weights, got 10");
  const std::vector<double> two = {0, 1};
  EXPECT_EQ(input_error_of([&] { instance_from_state({"s", "", "EXPLICIT", {}, {}, {}, kWeights, two, two, {}}); }),
            "display data needs 3 points, got 2");
  EXPECT_EQ(input_error_of([&] { instance_from_state({"s", "", "GEO", two, {}, {}, {}, {}, {}, {}}); }),
            "x and y coordinate counts differ (2 vs 0)");
}

}  // namespace
}  // namespace formica::io
