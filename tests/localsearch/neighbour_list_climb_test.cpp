// SPDX-License-Identifier: MIT
// The neighbour-list climb with don't-look bits: it ends with no improving move among those it
// searches (2-opt, Or-opt and 3-opt, checked by brute force), every metric, with exact gains; the Or-opt
// move of ArrayTour matches a tour rebuilt by hand; and it shortens a tour a lot.
#include <gtest/gtest.h>

#include <set>

#include "core/candidates.h"
#include "core/error.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/k_swap.h"
#include "localsearch/start_tour.h"
#include "or_opt_check.h"
#include "three_opt_check.h"
#include "two_opt_check.h"

namespace formica::localsearch::cpu {
namespace {

TEST(NeighbourListClimb, EndsWithNoImprovingListedMove) {
  for (int n : {3, 4, 5, 17, 200, 2000}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n);
    const CandidateLists lists = build_candidate_lists(instance, 8);
    for (const bool from_curve : {false, true}) {
      std::vector<int32_t> tour = from_curve ? space_filling_curve_tour(instance) : random_start(n, 1, 0);
      const int64_t before = tour_length(instance, tour);
      const NeighbourClimbCounts counts = climb_neighbour_lists(instance, lists, tour);
      EXPECT_TRUE(counts.completed);
      const Tour after(instance, tour);
      const std::vector<int64_t> gains = test::listed_move_gains(instance, lists, tour);
      EXPECT_EQ(*std::max_element(gains.begin(), gains.end()), 0) << "n = " << n;
      if (n >= 200) {
        EXPECT_GT(counts.moves, 0);
        EXPECT_LT(after.length(), before);
      }
    }
  }
}

TEST(NeighbourListClimb, GetsCloseToTheFullLocalOptimum) {
  // From a random start, the list climb leaves few improving 2-opt moves for the full passes.
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Uniform, 2);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = random_start(1500, 2, 0);
  climb_neighbour_lists(instance, lists, tour);
  const Tour listed(instance, tour);
  // A 2-opt local optimum of a uniform instance is about 5% above optimal; the random tour is
  // about 20 times longer. The list climb must land within a few percent of a full climb.
  const double optimum_estimate = 0.7124 * std::sqrt(1500.0 * 1e12);
  EXPECT_LT(static_cast<double>(listed.length()), 1.15 * optimum_estimate);
}

/// Each city's two tour neighbours: equal for two orders of the same cyclic tour.
std::vector<std::set<int32_t>> adjacency(const std::vector<int32_t>& tour) {
  const int n = static_cast<int>(tour.size());
  std::vector<std::set<int32_t>> next(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    next[tour[p]].insert(tour[(p + 1) % n]);
    next[tour[(p + 1) % n]].insert(tour[p]);
  }
  return next;
}

std::vector<int32_t> positions(const std::vector<int32_t>& tour) {
  std::vector<int32_t> pos(tour.size());
  for (size_t p = 0; p < tour.size(); ++p) pos[tour[p]] = static_cast<int32_t>(p);
  return pos;
}

TEST(ArrayTour, OrOptMatchesTheTourBuiltByHand) {
  // Every segment of 1-3 cities, every edge outside it, both ways round, on tours of 4..9 cities.
  for (int n = 4; n <= 9; ++n) {
    const std::vector<int32_t> start = random_start(n, 5, n);
    for (int first = 0; first < n; ++first)
      for (int length = 1; length <= 3 && length <= n - 3; ++length)
        for (int j = 0; j < n; ++j) {
          const int u = start[j], v = start[(j + 1) % n];
          bool touches = false;
          for (int s = 0; s < length; ++s)
            touches |= start[(first + s) % n] == u || start[(first + s) % n] == v;
          if (touches) continue;
          for (const bool forward : {true, false})
            for (const bool first_next_to_c : {true, false}) {
              const int c = forward ? u : v, e = forward ? v : u;
              const int s1 = start[first], sl = start[(first + length - 1) % n];
              std::vector<int32_t> tour = start, pos = positions(start);
              ArrayTour t(tour, pos);
              // x, the end that goes next to c, given as either end; y the other
              t.or_opt(first_next_to_c ? s1 : sl, first_next_to_c ? sl : s1, c, e);
              const auto expected = test::moved_segment_tour(start, first, length, c, e, first_next_to_c);
              ASSERT_EQ(adjacency(tour), adjacency(expected))
                  << "n = " << n << " first " << first << " length " << length << " edge " << j;
              ASSERT_EQ(pos, positions(tour));
            }
        }
  }
}

TEST(NeighbourListClimb, OrOptAndThreeOptEndInTheLocalOptimaOfTheirNeighbourhoodsOnEveryMetric) {
  for (const LocalSearchKind kind : {LocalSearchKind::OrOpt, LocalSearchKind::ThreeOpt})
    for (const EdgeWeightType type : test::all_metrics())
      for (const int n : {4, 5, 6, 7, 8, 9, 12, 40, 150}) {
        const Instance instance = test::metric_instance(type, n, 100 + n, n < 20 ? 20 : 1000);
        const CandidateLists lists = build_candidate_lists(instance, 8);
        std::vector<int32_t> tour = random_start(n, 3, n);
        const int64_t before = tour_length(instance, tour);
        NeighbourClimber climber(instance, lists, climb_options(kind, true));
        const NeighbourClimbCounts counts = climber.climb(tour);
        const std::string what = concat(to_string(kind), " ", to_string(type), " n = ", n);
        EXPECT_TRUE(counts.completed);
        const Tour after(instance, tour);  // validates the permutation
        EXPECT_EQ(counts.gain, before - after.length()) << what;
        const std::vector<int64_t> gains = test::listed_move_gains(instance, lists, tour);
        EXPECT_EQ(*std::max_element(gains.begin(), gains.end()), 0) << what;
        EXPECT_EQ(test::best_listed_or_opt_gain(instance, lists, tour, n <= 40), 0) << what;
        const bool three_opt = kind == LocalSearchKind::ThreeOpt && n >= kThreeOptMinCities;
        if (three_opt) {
          EXPECT_EQ(test::best_listed_three_opt_gain(instance, lists, tour), 0) << what;
        } else {
          EXPECT_EQ(counts.three_opt_moves, 0) << what;
        }
        if (n >= 40) {
          EXPECT_GT(counts.or_moves, 0) << what;
        }
        if (n >= 40 && three_opt) {
          EXPECT_GT(counts.three_opt_moves, 0) << what;
        }
      }
}

TEST(NeighbourListClimb, ThreeOptMovesAreExactOnARunOfClimbs) {
  // Every 3-opt move the climber applies changes the length by exactly its gain: many climbs from
  // broken local optima, each checked against the measured tour.
  const Instance instance = io::generate_instance(400, io::InstanceKind::Clustered, 9);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  NeighbourClimber climber(instance, lists, climb_options(LocalSearchKind::ThreeOpt, false));
  std::vector<int32_t> tour = random_start(400, 9, 0);
  int64_t three_opt_moves = 0;
  for (int round = 0; round < 20; ++round) {
    std::vector<int32_t> pos = positions(tour);
    ArrayTour t(tour, pos);
    const int a = tour[(round * 37) % 400], b = t.succ(a), c = tour[(round * 37 + 150) % 400], d = t.succ(c);
    t.exchange(a, b, c, d);
    const int64_t broken = tour_length(instance, tour);
    const std::vector<int32_t> active = {a, b, c, d};
    const NeighbourClimbCounts counts = climber.climb(tour, pos, active, nullptr);
    three_opt_moves += counts.three_opt_moves;
    ASSERT_EQ(counts.gain, broken - Tour(instance, tour).length()) << "round " << round;
    ASSERT_EQ(pos, positions(tour));
  }
  EXPECT_GT(three_opt_moves, 0);
}

TEST(NeighbourListClimb, FullListsCertifyTheTwoOptOptimum) {
  // With every city listed, the gain criterion loses no improving 2-opt move.
  for (const EdgeWeightType type : {EdgeWeightType::Euc2D, EdgeWeightType::Geo, EdgeWeightType::Explicit}) {
    const int n = 120;
    const Instance instance = test::metric_instance(type, n, 7);
    const CandidateLists lists = build_candidate_lists(instance, n - 1);
    for (const bool or_opt : {false, true}) {
      std::vector<int32_t> tour = random_start(n, 4, 0);
      NeighbourClimber(instance, lists, ClimbOptions{.or_opt = or_opt}).climb(tour);
      FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, tour);
    }
  }
}

TEST(NeighbourListClimb, OrOptBeatsTwoOptAlone) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 4);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> two = space_filling_curve_tour(instance), both = two;
  NeighbourClimber(instance, lists, ClimbOptions{}).climb(two);
  NeighbourClimber(instance, lists, ClimbOptions{.or_opt = true}).climb(both);
  EXPECT_LT(tour_length(instance, both), tour_length(instance, two));
}

TEST(NeighbourListClimb, ThreeOptBeatsOrOpt) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 4);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> or_opt = space_filling_curve_tour(instance), three_opt = or_opt;
  NeighbourClimber(instance, lists, climb_options(LocalSearchKind::OrOpt, true)).climb(or_opt);
  NeighbourClimber(instance, lists, climb_options(LocalSearchKind::ThreeOpt, true)).climb(three_opt);
  EXPECT_LT(tour_length(instance, three_opt), tour_length(instance, or_opt));
}

TEST(NeighbourListClimb, FocusedClimbStartsFromTheActiveCitiesAndKeepsPositions) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Clustered, 6);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = space_filling_curve_tour(instance);
  NeighbourClimber climber(instance, lists, ClimbOptions{.or_opt = true});
  climber.climb(tour);
  // A local optimum stays put when nothing is active.
  std::vector<int32_t> pos = positions(tour);
  const std::vector<int32_t> optimum = tour;
  const NeighbourClimbCounts none = climber.climb(tour, pos, {}, nullptr);
  EXPECT_EQ(none.moves, 0);
  EXPECT_EQ(tour, optimum);
  // Break two edges with a 2-opt move: the climb from its four cities, without the sweep, repairs it.
  ArrayTour t(tour, pos);
  const int a = tour[10], b = tour[11], c = tour[300], d = tour[301];
  t.exchange(a, b, c, d);
  const int64_t broken = tour_length(instance, tour);
  NeighbourClimber focused(instance, lists, ClimbOptions{.or_opt = true, .sweep = false});
  const std::vector<int32_t> active = {a, b, c, d};
  const NeighbourClimbCounts counts = focused.climb(tour, pos, active, nullptr);
  EXPECT_GT(counts.moves, 0);
  EXPECT_EQ(counts.gain, broken - tour_length(instance, tour));
  EXPECT_LT(tour_length(instance, tour), broken);
  EXPECT_EQ(pos, positions(tour));
  EXPECT_LT(counts.evaluated, 200)
      << "a focused climb looks at the changed cities and their surroundings only";
}

}  // namespace
}  // namespace formica::localsearch::cpu
