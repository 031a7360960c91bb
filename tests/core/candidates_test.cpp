// SPDX-License-Identifier: MIT
// Candidate lists against brute force, for every coordinate metric and for matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "core/candidates.h"
#include "core/kd_tree.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/search.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica {
namespace {

/// Brute force: every other city sorted by the tree's continuous key, then index.
std::vector<int32_t> brute_force(const KdTree& tree, int n, int city, int k) {
  std::vector<int32_t> others;
  for (int j = 0; j < n; ++j)
    if (j != city) others.push_back(j);
  std::sort(others.begin(), others.end(), [&](int a, int b) {
    const double da = tree.key_distance(city, a), db = tree.key_distance(city, b);
    return da != db ? da < db : a < b;
  });
  others.resize(k);
  return others;
}

class CandidatesByType : public ::testing::TestWithParam<EdgeWeightType> {};

TEST_P(CandidatesByType, MatchBruteForce) {
  for (int n : {3, 4, 17, 300}) {
    for (double side : {20.0, 1000.0}) {
      const Instance instance = test::random_instance(GetParam(), n, 11 * n, side);
      const KdTree tree(instance);
      const int k = std::min(10, n - 1);
      const CandidateLists lists = build_candidate_lists(instance, 10);
      ASSERT_EQ(lists.k(), k);
      for (int i = 0; i < n; ++i) {
        const auto got = lists.of(i);
        const auto want = brute_force(tree, n, i, k);
        ASSERT_EQ(std::vector<int32_t>(got.begin(), got.end()), want) << "city " << i << " n " << n;
        // The exact integer distance never decreases along a list.
        for (int p = 1; p < k; ++p) EXPECT_LE(instance.distance(i, got[p - 1]), instance.distance(i, got[p]));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllMetrics, CandidatesByType,
                         ::testing::Values(EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                           EdgeWeightType::Geo, EdgeWeightType::Man2D, EdgeWeightType::Max2D,
                                           EdgeWeightType::Euc3D));

TEST(Candidates, ExplicitMatrixByExactDistance) {
  const Instance instance = Instance::from_matrix("m", 4, {0, 5, 2, 9, 5, 0, 5, 1, 2, 5, 0, 7, 9, 1, 7, 0});
  const CandidateLists lists = build_candidate_lists(instance, 2);
  EXPECT_EQ(std::vector<int32_t>(lists.of(0).begin(), lists.of(0).end()), (std::vector<int32_t>{2, 1}));
  EXPECT_EQ(std::vector<int32_t>(lists.of(1).begin(), lists.of(1).end()), (std::vector<int32_t>{3, 0}));
  EXPECT_EQ(std::vector<int32_t>(lists.of(2).begin(), lists.of(2).end()), (std::vector<int32_t>{0, 1}));
}

/// Brute force: the k nearest others of `city` in quadrant q (kd_tree.h's definition: from the
/// coordinates for planar types, KdTree::quadrant_of for GEO), by key then index.
std::vector<int32_t> brute_force_quadrant(const Instance& instance, const KdTree& tree, int city, int q,
                                          int k) {
  std::vector<int32_t> inside;
  const auto x = instance.x(), y = instance.y();
  const auto in_quadrant = [&](int j) {
    if (instance.type() == EdgeWeightType::Geo) return tree.quadrant_of(city, j) == q;
    return (x[j] >= x[city]) == ((q & 1) == 0) && (y[j] >= y[city]) == ((q & 2) == 0);
  };
  for (int j = 0; j < instance.n(); ++j)
    if (j != city && in_quadrant(j)) inside.push_back(j);
  std::sort(inside.begin(), inside.end(), [&](int a, int b) {
    const double da = tree.key_distance(city, a), db = tree.key_distance(city, b);
    return da != db ? da < db : a < b;
  });
  inside.resize(std::min<size_t>(inside.size(), static_cast<size_t>(k)));
  return inside;
}

class QuadrantsByType : public ::testing::TestWithParam<EdgeWeightType> {};

TEST_P(QuadrantsByType, QueriesAndListsMatchBruteForce) {
  for (int n : {3, 6, 17, 300}) {
    for (double side : {20.0, 1000.0}) {  // side 20: many cities share a coordinate or a point
      const Instance instance = test::random_instance(GetParam(), n, 7 * n + 1, side);
      const KdTree tree(instance);
      ASSERT_TRUE(tree.has_quadrants());
      for (int i = 0; i < n; ++i)
        for (int q = 0; q < 4; ++q)
          ASSERT_EQ(tree.k_nearest_in_quadrant(i, q, 3), brute_force_quadrant(instance, tree, i, q, 3))
              << "city " << i << " quadrant " << q << " n " << n;
      // A list: each quadrant's share, filled up with the nearest others, sorted nearest first
      // (k = 3: the four quadrants' one each are more than k, the nearest of them kept).
      for (const int wanted_k : {3, 10}) {
        const int k = std::min(wanted_k, n - 1);
        const CandidateLists lists = build_candidate_lists(instance, wanted_k, 2, NeighbourShape::Quadrant);
        ASSERT_EQ(lists.k(), k);
        for (int i = 0; i < n; ++i) {
          std::vector<int32_t> want;
          for (int q = 0; q < 4; ++q)
            for (int32_t c : brute_force_quadrant(instance, tree, i, q, quadrant_share(k))) want.push_back(c);
          for (int32_t c : brute_force(tree, n, i, n - 1))
            if (static_cast<int>(want.size()) < k && std::find(want.begin(), want.end(), c) == want.end())
              want.push_back(c);
          std::sort(want.begin(), want.end(), [&](int a, int b) {
            const double da = tree.key_distance(i, a), db = tree.key_distance(i, b);
            return da != db ? da < db : a < b;
          });
          want.resize(static_cast<size_t>(k));
          const auto got = lists.of(i);
          ASSERT_EQ(std::vector<int32_t>(got.begin(), got.end()), want)
              << "city " << i << " n " << n << " k " << k;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PlanarAndGeoMetrics, QuadrantsByType,
                         ::testing::Values(EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                           EdgeWeightType::Man2D, EdgeWeightType::Max2D,
                                           EdgeWeightType::Geo));

TEST(Candidates, GeoQuadrantsPointEastAndNorthOnTheSphere) {
  // TSPLIB GEO: x is the latitude, y the longitude, both DDD.MM (degrees and minutes).
  const auto quadrants_around = [](double lat, double lon, std::vector<std::pair<double, double>> others) {
    std::vector<double> x{lat}, y{lon};
    for (const auto& [a, b] : others) x.push_back(a), y.push_back(b);
    const KdTree tree(Instance("geo", EdgeWeightType::Geo, x, y));
    EXPECT_TRUE(tree.has_quadrants());
    std::vector<int> q;
    for (int j = 1; j < static_cast<int>(x.size()); ++j) q.push_back(tree.quadrant_of(0, j));
    return q;
  };
  // North-east, north-west, south-east, south-west of the centre: quadrants 0, 1, 2, 3.
  const std::vector<int> expected{0, 1, 2, 3};
  EXPECT_EQ(quadrants_around(10.0, 20.0, {{10.3, 21.0}, {10.3, 19.0}, {9.3, 21.0}, {9.3, 19.0}}), expected);
  EXPECT_EQ(quadrants_around(-35.0, 150.0, {{-34.3, 150.3}, {-34.3, 149.3}, {-35.3, 150.3}, {-35.3, 149.3}}),
            expected);
  // Across the date line: 179.30 E and 179.30 W are half a degree either side of it.
  EXPECT_EQ(quadrants_around(0.0, 179.3, {{0.3, -179.3}, {0.3, 179.0}, {-0.3, -179.3}, {-0.3, 179.0}}),
            expected);
}

TEST(Candidates, QuadrantListsAreNearestListsWithoutPlanarOrGeoCoordinates) {
  const auto same_lists = [](const Instance& instance, int k) {
    const CandidateLists quadrant = build_candidate_lists(instance, k, 1, NeighbourShape::Quadrant);
    const CandidateLists nearest = build_candidate_lists(instance, k);
    return std::ranges::equal(quadrant.data(), nearest.data());
  };
  const Instance instance = test::random_instance(EdgeWeightType::Euc3D, 60, 3, 1000.0);
  EXPECT_FALSE(KdTree(instance).has_quadrants());
  EXPECT_TRUE(same_lists(instance, 8));
  EXPECT_TRUE(same_lists(Instance::from_matrix("m", 4, {0, 5, 2, 9, 5, 0, 5, 1, 2, 5, 0, 7, 9, 1, 7, 0}), 2));
}

TEST(Candidates, QuadrantListsLeaveAClusterWhereNearestListsCannot) {
  // Two clusters of 30 cities, 1000 apart: every nearest list of 10 stays inside its cluster, so
  // no candidate edge joins them; a quadrant list of a city on the near edge of a cluster does.
  std::vector<double> x, y;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 30; ++i) x.push_back(1000.0 * c + i % 6), y.push_back(i / 6);
  const Instance instance("clusters", EdgeWeightType::Euc2D, x, y, {});
  const auto crosses = [&](const CandidateLists& lists) {
    int edges = 0;
    for (int i = 0; i < 60; ++i)
      for (int32_t j : lists.of(i)) edges += (i < 30) != (j < 30);
    return edges;
  };
  EXPECT_EQ(crosses(build_candidate_lists(instance, 10)), 0);
  EXPECT_GT(crosses(build_candidate_lists(instance, 10, 1, NeighbourShape::Quadrant)), 0);
}

TEST(Candidates, NeighbourShapeNames) {
  for (const auto& [name, help] : neighbour_shape_names()) {
    ASSERT_TRUE(parse_neighbour_shape(name).has_value()) << name;
    EXPECT_EQ(to_string(*parse_neighbour_shape(name)), name);
  }
  EXPECT_FALSE(parse_neighbour_shape("quadrants").has_value());
}

// 50,000 cities at one point: every distance ties at 0, and a query that had to look at every tie
// for the lowest index visited the whole tree (the nearest-neighbour tour and the lists took
// seconds each, quadratic in n); the lowest index under each node and the nodes' boxes prune them.
TEST(Candidates, FiftyThousandCitiesAtOnePointInASecond) {
  constexpr int n = 50'000;
  const Instance instance("one_point", EdgeWeightType::Euc2D, std::vector<double>(n, 7.0), std::vector<double>(n, 7.0));
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int32_t> tour = nearest_neighbour_tour(instance, 0);
  const CandidateLists nearest = build_candidate_lists(instance, 10);
  const CandidateLists quadrant = build_candidate_lists(instance, 10, 1, NeighbourShape::Quadrant);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Ties go to the lower index: the tour is 0, 1, 2, ... and every list the lowest other cities.
  std::vector<int32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(tour, identity);
  for (int city : {0, 3, 9, 10, 4711, n - 1})
    for (const CandidateLists* lists : {&nearest, &quadrant}) {
      std::vector<int32_t> lowest;
      for (int other = 0; static_cast<int>(lowest.size()) < 10; ++other)
        if (other != city) lowest.push_back(other);
      const auto row = lists->of(city);
      EXPECT_EQ(std::vector<int32_t>(row.begin(), row.end()), lowest) << "city " << city;
    }
  EXPECT_LT(seconds, 1.0 * test::time_scale()) << "50,000 cities at one point took " << seconds << " s";
}

// 200,000 cities stacked on three far points: once a point's cities are all visited, the nearest
// others tie at one distance on another point, and a query that went to the child holding the
// higher indices first looked at all of them (63 s here, 0.9 s now); the nearer
// box first, at equal distances the lower indices.
TEST(Candidates, TwoHundredThousandCitiesOnThreePointsInSeconds) {
  constexpr int n = 200'000;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    const uint32_t corner = static_cast<uint32_t>(i * 2654435761u) % 3;  // scattered over the indices
    x[i] = corner == 1 ? 1e6 : 0.0;
    y[i] = corner == 2 ? 1e6 : 0.0;
  }
  const Instance instance("three_points", EdgeWeightType::Euc2D, x, y);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int32_t> tour = nearest_neighbour_tour(instance, 0);
  const CandidateLists quadrant = build_candidate_lists(instance, 10, 1, NeighbourShape::Quadrant);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(static_cast<int>(tour.size()), n);
  EXPECT_EQ(quadrant.n(), n);
  EXPECT_LT(seconds, 3.0 * test::time_scale()) << "200,000 cities on three points took " << seconds << " s";
}

TEST(Candidates, HundredThousandCitiesInSeconds) {
  const Instance instance = io::generate_instance(100'000, io::InstanceKind::Uniform, 5);
  const auto start = std::chrono::steady_clock::now();
  const CandidateLists lists = build_candidate_lists(instance, 16);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(lists.n(), 100'000);
  const double bound = 10.0 * test::time_scale();  // sanitizer builds run a few times slower
  EXPECT_LT(seconds, bound) << "k-nearest lists for 100,000 cities took " << seconds << " s";
  const auto quadrant_start = std::chrono::steady_clock::now();
  EXPECT_EQ(build_candidate_lists(instance, 10, 1, NeighbourShape::Quadrant).n(), 100'000);
  const double quadrant_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - quadrant_start).count();
  EXPECT_LT(quadrant_seconds, bound) << "quadrant lists for 100,000 cities took " << quadrant_seconds << " s";
  // Spot-check a few rows against brute force.
  const KdTree tree(instance);
  for (int city : {0, 4242, 99'999}) {
    const auto got = lists.of(city);
    EXPECT_EQ(std::vector<int32_t>(got.begin(), got.end()), brute_force(tree, instance.n(), city, 16));
  }
}

}  // namespace
TEST(Candidates, AStopThatHasComeEndsTheListsAndTheNearestNeighbourTour) {
  const Instance instance = io::generate_instance(5000, io::InstanceKind::Uniform, 2);
  StopFlag passed;
  passed.deadline = std::chrono::steady_clock::now();
  for (const NeighbourShape shape : {NeighbourShape::Nearest, NeighbourShape::Quadrant})
    EXPECT_THROW(build_candidate_lists(instance, 8, 2, shape, &passed), SetupStopped);
  EXPECT_THROW(nearest_neighbour_tour(instance, 0, &passed), SetupStopped);
  const int m = 300;
  std::vector<int32_t> weights(static_cast<size_t>(m) * m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) weights[static_cast<size_t>(i) * m + j] = i == j ? 0 : (i * j) % 97 + 1;
  const Instance matrix = Instance::from_matrix("matrix", m, std::move(weights));
  EXPECT_THROW(build_candidate_lists(matrix, 8, 1, NeighbourShape::Nearest, &passed), SetupStopped);
  // A stop that has not come changes nothing.
  StopFlag later;
  later.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  EXPECT_EQ(build_candidate_lists(instance, 8, 2, NeighbourShape::Quadrant, &later).data().size(),
            build_candidate_lists(instance, 8, 2, NeighbourShape::Quadrant).data().size());
  EXPECT_EQ(nearest_neighbour_tour(instance, 0, &later), nearest_neighbour_tour(instance, 0));
}

}  // namespace formica
