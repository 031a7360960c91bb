// SPDX-License-Identifier: MIT
// Start tours: each kind gives a permutation fixed by (seed, restart), and restarts differ.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "core/nearest_neighbour.h"
#include "core/search.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/start_tour.h"

namespace formica::localsearch {
namespace {

TEST(StartTour, EveryKindIsAPermutationFixedBySeedAndRestart) {
  const Instance instance = io::generate_instance(257, io::InstanceKind::Uniform, 3);
  for (StartKind kind : {StartKind::Random, StartKind::NearestNeighbour, StartKind::SpaceFillingCurve}) {
    const auto first = start_tour(instance, kind, 11, 1);
    validate_permutation(first, instance.n());
    EXPECT_EQ(first, start_tour(instance, kind, 11, 1)) << to_string(kind);
    EXPECT_NE(first, start_tour(instance, kind, 11, 2)) << to_string(kind);
  }
}

TEST(StartTour, RestartZeroOfTheDeterministicStartsIsTheClassicTour) {
  const Instance instance = io::generate_instance(100, io::InstanceKind::Clustered, 3);
  EXPECT_EQ(start_tour(instance, StartKind::NearestNeighbour, 5, 0), nearest_neighbour_tour(instance, 0));
  EXPECT_EQ(start_tour(instance, StartKind::SpaceFillingCurve, 5, 0), space_filling_curve_tour(instance));
  EXPECT_EQ(start_tour(instance, StartKind::Random, 5, 3), random_start(100, 5, 3));
}

// A start tour due by a deadline: the nearest-neighbour tour while the stop allows, else at once
// the space-filling curve's, or the identity for cities without coordinates (a matrix).
TEST(StartTour, InTimeIsTheNearestNeighbourTourUntilTheStopAsks) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 4);
  StopFlag late;
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EXPECT_EQ(start_tour_in_time(instance, 5, 0, nullptr), nearest_neighbour_tour(instance, 0));
  EXPECT_EQ(start_tour_in_time(instance, 5, 0, &late), space_filling_curve_tour(instance));
  const Instance matrix = Instance::from_matrix("matrix", 4, std::vector<int32_t>{0, 1, 2, 3, 1, 0, 4, 5, 2, 4, 0, 6,
                                                                                  3, 5, 6, 0});
  EXPECT_EQ(start_tour_in_time(matrix, 5, 0, &late), (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(StartTour, RandomStartsAreTheKeyedPermutation) {
  const auto tour = random_start(1000, 8, 12);
  const RandomPermutation permutation(1000, random_start_key(8, 12));
  for (uint32_t p = 0; p < 1000; ++p) EXPECT_EQ(tour[p], static_cast<int32_t>(permutation(p)));
  EXPECT_NE(random_start_key(8, 12), random_start_key(8, 13));
  EXPECT_NE(random_start_key(8, 12), random_start_key(9, 12));
}

TEST(StartTour, NamesRoundTrip) {
  for (const auto& named : start_names()) EXPECT_EQ(to_string(*parse_start(named.name)), named.name);
  EXPECT_FALSE(parse_start("greedy"));
  EXPECT_EQ(*parse_k_swap("inf"), kUnlimitedSwaps);
  EXPECT_EQ(*parse_k_swap("256"), 256);
  EXPECT_FALSE(parse_k_swap("-3"));
  EXPECT_FALSE(parse_k_swap("0"));
  EXPECT_EQ(k_swap_text(kUnlimitedSwaps), "inf");
}

}  // namespace
}  // namespace formica::localsearch
