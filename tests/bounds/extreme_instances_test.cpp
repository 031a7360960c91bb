// SPDX-License-Identifier: MIT
// The Held-Karp bound at the edges of what the reader accepts: coordinates up to kMaxCoordinate in
// every metric, EXPLICIT weights up to 2^31 - 1, a path city's largest penalty. The bound is never
// above a tour's exact length (the optimum where n is small), is the exact value of
// the reported 1-tree, and its penalties stay where every weight is exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bounds/complete_graph.h"
#include "bounds/held_karp.h"
#include "core/exact_tour.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/tour.h"
#include "test_support.h"

namespace formica::bounds {
namespace {

constexpr int32_t kLargestWeight = std::numeric_limits<int32_t>::max();

/// n cities in tight groups at `corners` of the corners (+-scale, +-scale) (all eight of
/// +-scale in z too for EUC_3D), within `spread` of them and never beyond: the attack's shape. The
/// plain 1-tree leaves out one of the long edges every tour needs, so the ascent raises penalties
/// by about a long edge; with few corners and many cities on one point, the ascent's sparse graph
/// can hold no tour at all, and its value then grows without bound.
Instance corner_instance(EdgeWeightType type, int n, double scale, uint64_t seed, int corners = 8,
                         double spread = 1000) {
  RandomStream rng(seed, 11);
  spread = std::min(spread, scale / 10);
  const auto at = [&](uint32_t bits, int axis) {
    const double side = (bits >> axis & 1u) != 0 ? -1.0 : 1.0;
    return side * (scale - std::floor(rng.next_double() * spread));
  };
  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n)), z;
  if (type == EdgeWeightType::Euc3D) z.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const uint32_t corner = rng.below(static_cast<uint32_t>(corners));
    x[i] = at(corner, 0), y[i] = at(corner, 1);
    if (!z.empty()) z[i] = at(corner, 2);
  }
  return Instance("corners", type, x, y, z);
}

/// n cities uniform in [-scale, scale]^2, whole numbers.
Instance spread_instance(EdgeWeightType type, int n, double scale, uint64_t seed) {
  RandomStream rng(seed, 12);
  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n)), z;
  const auto draw = [&] { return std::floor((2 * rng.next_double() - 1) * scale); };
  for (int i = 0; i < n; ++i) x[i] = draw(), y[i] = draw();
  if (type == EdgeWeightType::Euc3D) {
    z.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) z[i] = draw();
  }
  return Instance("spread", type, x, y, z);
}

/// The shortest of the nearest-neighbour tours from every city (or from the first 20), exactly.
int64_t short_tour_length(const Instance& instance) {
  int64_t best = std::numeric_limits<int64_t>::max();
  for (int start = 0; start < std::min(instance.n(), 20); ++start) {
    const std::vector<int32_t> tour = nearest_neighbour_tour(instance, start);
    validate_permutation(tour, instance.n());
    best = std::min(best, tour_length(instance, tour));
  }
  return best;
}

/// Checks everything a bound of `instance` must satisfy; returns it for further checks.
LowerBound checked_bound(const Instance& instance, const std::string& what) {
  const LowerBound bound = lower_bound(instance);
  // The optimum by dynamic programming where n is small, else a short tour.
  const bool optimal = instance.n() <= kExactTourCities;
  const int64_t tour = optimal ? tour_length(instance, exact_tour(instance)) : short_tour_length(instance);
  EXPECT_GE(bound.bound, 0) << what;
  EXPECT_LE(bound.bound, tour) << what << ": the bound is above a tour's length";
  if (bound.tour && optimal) {
    EXPECT_EQ(bound.bound, tour) << what << ": a 1-tree that is a tour is optimal";
  }
  for (const int64_t p : bound.penalties) EXPECT_LE(p < 0 ? -p : p, kMaxPenalty) << what;
  // The figure is that of the reported 1-tree, recomputed from the distances, and of the complete
  // graph's minimum 1-tree for the reported penalties (dense Prim over every pair).
  EXPECT_EQ(ceil_bound(exact_value(instance, bound.one_tree, bound.penalties)), bound.bound) << what;
  CompleteGraph dense(instance, instance.n());
  EXPECT_EQ(ceil_bound(scaled_value(dense.one_tree(bound.penalties, 1), bound.penalties)), bound.bound)
      << what;
  return bound;
}

TEST(ExtremeInstances, CornersAtEveryScaleAndMetricStayBelowATour) {
  const EdgeWeightType types[] = {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                  EdgeWeightType::Geo,   EdgeWeightType::Man2D,  EdgeWeightType::Max2D,
                                  EdgeWeightType::Euc3D};
  for (const EdgeWeightType type : types)
    for (const double scale : {1e6, 4e8, kMaxCoordinate})  // the reader's largest, 5e8
      for (const int n : {5, 12, 40, 120}) {
        const std::string what =
            std::string(to_string(type)) + " scale " + std::to_string(scale) + " n " + std::to_string(n);
        const Instance instance = corner_instance(type, n, scale, 7 + n);
        const LowerBound bound = checked_bound(instance, what);
        // Not merely valid but useful: at least three of the four long edges (seven of eight)
        // that every tour has are seen. GEO's distances wrap around the globe: no such structure.
        if (type != EdgeWeightType::Geo && n >= 40) {
          EXPECT_GE(static_cast<double>(bound.bound), 0.7 * static_cast<double>(short_tour_length(instance)))
              << what;
        }
      }
}

TEST(ExtremeInstances, CitiesStackedOnTwoOrThreeCornersStayBelowATour) {
  // The attack: 400 cities on two or three corners at 5e8 or 4e8, a point each. The ascent's
  // sparse graph holds no tour there, its value grows without bound, and the penalties ran past
  // 2^62: the bound printed was above 10^16 in every metric here but ATT (found with 2 corners
  // at 5e8 in EUC_2D, CEIL_2D, MAN_2D, MAX_2D; 3 in ATT and MAX_2D).
  for (const EdgeWeightType type : {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                    EdgeWeightType::Man2D, EdgeWeightType::Max2D})
    for (const double scale : {4e8, kMaxCoordinate})
      for (const int corners : {2, 3}) {
        std::vector<double> x, y;
        for (int i = 0; i < 400; ++i) {
          x.push_back(i % corners == 1 ? -scale : scale);
          y.push_back(i % corners == 2 ? -scale : scale);
        }
        const Instance instance("stacked", type, x, y);
        const LowerBound bound =
            checked_bound(instance, std::string(to_string(type)) + " scale " + std::to_string(scale) +
                                        " corners " + std::to_string(corners));
        EXPECT_GE(bound.bound, instance.distance(0, 1)) << to_string(type);  // a long edge at least
      }
  // Near the corners rather than on them.
  for (const int corners : {2, 3})
    for (const double spread : {1.0, 1000.0})
      checked_bound(corner_instance(EdgeWeightType::Ceil2D, 200, kMaxCoordinate, corners, corners, spread),
                    "near " + std::to_string(corners) + " corners");
}

TEST(ExtremeInstances, SpreadCitiesAtTheLargestCoordinatesStayBelowATour) {
  for (const EdgeWeightType type : {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                    EdgeWeightType::Man2D, EdgeWeightType::Euc3D})
    for (const int n : {11, 60, 200})
      checked_bound(spread_instance(type, n, kMaxCoordinate, 3 + n), std::string(to_string(type)));
}

TEST(ExtremeInstances, TheKdTreeAgreesWithDensePrimAtTheLargestPenalties) {
  // Penalties anywhere in +-kMaxPenalty at the largest coordinates: the k-d tree's box bounds and
  // the weights stay exact, so Boruvka finds dense Prim's tree, and sums past 2^63 are kept.
  for (const EdgeWeightType type : {EdgeWeightType::Euc2D, EdgeWeightType::Man2D, EdgeWeightType::Euc3D}) {
    const Instance instance = spread_instance(type, 400, kMaxCoordinate, 21);
    RandomStream rng(22, 0);
    for (const int64_t range : {kPenaltyScale * int64_t{1'000'000'000}, kMaxPenalty}) {
      std::vector<int64_t> pi(static_cast<size_t>(instance.n()));
      for (int64_t& p : pi)
        p = static_cast<int64_t>((2 * rng.next_double() - 1) * static_cast<double>(range));
      pi[0] = kMaxPenalty, pi[1] = -kMaxPenalty;
      CompleteGraph dense(instance, instance.n()), kd(instance, 0);
      ASSERT_EQ(kd.method(), "k-d tree Boruvka");
      OneTree a = dense.one_tree(pi, 1), b = kd.one_tree(pi, 2);
      std::sort(a.tree.begin(), a.tree.end(), lighter);
      std::sort(b.tree.begin(), b.tree.end(), lighter);
      EXPECT_EQ(a.tree, b.tree) << to_string(type);
      EXPECT_EQ(scaled_value(a, pi), scaled_value(b, pi)) << to_string(type);
      EXPECT_EQ(exact_value(instance, a, pi), scaled_value(a, pi)) << to_string(type);
    }
  }
}

TEST(ExtremeInstances, CoordinatesBeyondTheLargestAreRefused) {
  const std::vector<double> x = {0.0, 1.0, 2.0 * kMaxCoordinate}, y = {0.0, 1.0, 0.0};
  EXPECT_THROW(Instance("far", EdgeWeightType::Euc2D, x, y), InputError);
  EXPECT_THROW(Instance("far", EdgeWeightType::Euc2D, y, std::vector<double>{0.0, -kMaxCoordinate - 1, 0.0}),
               InputError);
}

TEST(ExtremeInstances, PenaltiesBeyondTheRangeAreRefused) {
  const Instance instance = corner_instance(EdgeWeightType::Euc2D, 10, kMaxCoordinate, 1);
  std::vector<int64_t> pi(10, 0);
  pi[3] = kMaxPenalty + 1;
  CompleteGraph dense(instance);
  EXPECT_THROW(dense.one_tree(pi, 1), std::invalid_argument);
  EXPECT_THROW(exact_value(instance, dense.one_tree(std::vector<int64_t>(10, 0), 1), pi), std::logic_error);
}

TEST(ExtremeInstances, ExplicitMatricesOfTheLargestWeights) {
  RandomStream rng(31, 0);
  for (const int n : {4, 10, 30}) {
    // Every weight near 2^31 - 1.
    std::vector<int32_t> w(static_cast<size_t>(n) * n, 0);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        w[i * n + j] = w[j * n + i] = kLargestWeight - static_cast<int32_t>(rng.below(1u << 20));
    checked_bound(Instance::from_matrix("heavy", n, w), "heavy n " + std::to_string(n));
    // Two groups joined only by the largest weight: every tour crosses twice.
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        w[i * n + j] = w[j * n + i] =
            (i < n / 2) == (j < n / 2) ? static_cast<int32_t>(rng.below(10)) : kLargestWeight;
    const LowerBound two =
        checked_bound(Instance::from_matrix("two groups", n, w), "groups n " + std::to_string(n));
    EXPECT_GE(two.bound, int64_t{kLargestWeight}) << n;
    // The largest weight or nothing: a weight-0 ring is hidden among them.
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        w[i * n + j] = w[j * n + i] = j == i + 1 || (i == 0 && j == n - 1) ? 0 : kLargestWeight;
    const LowerBound ring = checked_bound(Instance::from_matrix("ring", n, w), "ring n " + std::to_string(n));
    EXPECT_EQ(ring.bound, 0);
  }
}

TEST(ExtremeInstances, APathCityOfTheLargestPenalty) {
  const Instance base = corner_instance(EdgeWeightType::Euc2D, 60, kMaxCoordinate, 41);
  const int32_t ends[] = {0, 1};
  checked_bound(Instance::with_path_city(base, ends, kLargestWeight), "path city");
  checked_bound(Instance::with_path_city(base, {}, kLargestWeight), "open path city");
}

TEST(ExtremeInstances, ValuesPast64BitsAreSummedExactly) {
  // 2,049 edges of weight 2^53 (what n = 10^8 cities 2e9 apart reach, scaled): 2^64 and more.
  OneTree tree;
  for (int i = 0; i < 2048; ++i) tree.tree.push_back(Edge{int64_t{1} << 53, i, i + 1});
  tree.special = 0;
  tree.extra = Edge{int64_t{1} << 53, 0, 2};
  EXPECT_EQ(tree.weight(), WeightSum{2049} << 53);
  const std::vector<int64_t> pi(2049, -(int64_t{1} << 50));
  EXPECT_EQ(scaled_value(tree, pi), (WeightSum{2049} << 53) + (WeightSum{2049} << 51));
  EXPECT_EQ(ceil_bound(WeightSum{std::numeric_limits<int64_t>::max()} * kPenaltyScale),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ceil_bound(WeightSum{std::numeric_limits<int64_t>::max()} * kPenaltyScale - 99),
            std::numeric_limits<int64_t>::max());
  EXPECT_THROW(ceil_bound(WeightSum{std::numeric_limits<int64_t>::max()} * kPenaltyScale + 1),
               std::logic_error);
  EXPECT_EQ(ceil_bound(-5), 0);
  EXPECT_EQ(ceil_bound(101), 2);
}

}  // namespace
}  // namespace formica::bounds
