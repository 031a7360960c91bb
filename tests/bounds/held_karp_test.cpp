// SPDX-License-Identifier: MIT
// The Held-Karp bound: never above the optimum (by enumeration on tiny instances, the TSPLIB
// optima on real ones), close to it, proven over the complete graph, deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "bounds/complete_graph.h"
#include "bounds/held_karp.h"
#include "bounds/sparse_graph.h"
#include "core/fixed_edges.h"
#include "core/tour.h"
#include "io/known_optima.h"
#include "test_support.h"

namespace formica::bounds {
namespace {

/// The optimum by enumerating every tour that starts at city 0 (and holds the fixed edges).
int64_t brute_force_optimum(const Instance& instance) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do
    if (!missing_fixed_edge(order, instance.fixed_edges())) best = std::min(best, tour_length(instance, order));
  while (std::next_permutation(order.begin() + 1, order.end()));
  return best;
}

TEST(HeldKarp, AtMostTheOptimumByEnumerationUpToNineCities) {
  const EdgeWeightType types[] = {EdgeWeightType::Euc2D, EdgeWeightType::Att, EdgeWeightType::Max2D,
                                  EdgeWeightType::Geo};
  for (const EdgeWeightType type : types)
    for (int n = 3; n <= 9; ++n)
      for (const double side : {5.0, 1000.0}) {
        const Instance instance = test::random_instance(type, n, 100 + n, side);
        const LowerBound bound = lower_bound(instance);
        const int64_t optimum = brute_force_optimum(instance);
        EXPECT_LE(bound.bound, optimum) << to_string(type) << " n = " << n << " side " << side;
        EXPECT_GE(bound.bound, optimum * 9 / 10) << to_string(type) << " n = " << n;
        if (bound.tour) {
          EXPECT_EQ(bound.bound, optimum);
        }
      }
}

TEST(HeldKarp, WithFixedEdgesBoundsTheToursThroughThemByEnumeration) {
  int stronger = 0;
  for (int n = 5; n <= 9; ++n)
    for (const uint64_t seed : {1, 2, 3}) {
      Instance instance = test::random_instance(EdgeWeightType::Euc2D, n, 300 + 10 * n + seed, 1000.0);
      const int64_t free_bound = lower_bound(instance).bound;
      // A path of two fixed edges between cities far apart in index (no order of the search's).
      instance.set_fixed_edges({{0, n - 1}, {n - 1, n / 2}});
      const LowerBound bound = lower_bound(instance);
      const int64_t optimum = brute_force_optimum(instance);
      EXPECT_EQ(bound.fixed_edges, FixedEdgesInBound::Kept);
      EXPECT_LE(bound.bound, optimum) << "n = " << n << " seed " << seed;
      EXPECT_GE(bound.bound, free_bound) << "n = " << n << " seed " << seed;  // never weaker here
      if (bound.tour) {
        EXPECT_EQ(bound.bound, optimum) << "n = " << n << " seed " << seed;
      }
      stronger += bound.bound > free_bound;
    }
  EXPECT_GT(stronger, 5);  // the fixed edges count: most bounds rise above the free instance's
}

TEST(HeldKarp, ExplicitMatrices) {
  // A random symmetric matrix of 8 cities, then one where the 1-tree at pi = 0 is already a tour.
  RandomStream rng(5, 0);
  const int n = 8;
  std::vector<int32_t> w(static_cast<size_t>(n * n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) w[i * n + j] = w[j * n + i] = 1 + static_cast<int32_t>(rng.next_double() * 100);
  const Instance instance = Instance::from_matrix("m8", n, w);
  EXPECT_LE(lower_bound(instance).bound, brute_force_optimum(instance));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) w[i * n + j] = i == j ? 0 : (std::abs(i - j) == 1 || std::abs(i - j) == n - 1 ? 1 : 50);
  const LowerBound ring = lower_bound(Instance::from_matrix("ring", n, w));
  EXPECT_TRUE(ring.tour);
  EXPECT_EQ(ring.bound, n);
}

struct Classic {
  const char* name;
  double at_least;  // bound / optimum (Held-Karp's gap on these is known to be small)
};

TEST(HeldKarp, TsplibBoundsAreBelowTheOptimaAndClose) {
  FORMICA_REQUIRE_TSPLIB();
  const Classic classics[] = {{"eil51", 0.99},    {"berlin52", 0.99}, {"st70", 0.99},     {"kroA100", 0.98},
                              {"ch130", 0.99},    {"att48", 0.99},    {"gr96", 0.985},     {"bays29", 0.99},
                              {"lin318", 0.99},   {"a280", 0.99},     {"pcb442", 0.99},   {"rat783", 0.99}};
  for (const Classic& c : classics) {
    const Instance instance = test::tsplib_instance(c.name);
    const int64_t optimum = *known_optimum(instance.name(), instance.n());
    const LowerBound bound = lower_bound(instance);
    EXPECT_LE(bound.bound, optimum) << c.name;
    EXPECT_GE(static_cast<double>(bound.bound), c.at_least * static_cast<double>(optimum))
        << c.name << ": bound " << bound.bound << ", optimum " << optimum;
  }
}

TEST(HeldKarp, ReportedFigureIsTheCompleteGraphsOneTree) {
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance("pr439");
  BoundOptions options;
  options.iterations = 300;
  const LowerBound bound = lower_bound(instance, options);
  // Recomputed from scratch by dense Prim for the reported penalties.
  CompleteGraph dense(instance, instance.n());
  const OneTree check = dense.one_tree(bound.penalties, 2);
  EXPECT_EQ(ceil_bound(scaled_value(check, bound.penalties)), bound.bound);
  EXPECT_LE(bound.value, bound.history.back().value + 1e-9);  // never above the sparse ascent's best
  EXPECT_EQ(bound.iterations, 300);
  EXPECT_EQ(bound.stop_reason, "iterations");
}

TEST(HeldKarp, DeterministicWhateverTheThreads) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 4000, 3, 100000.0);
  BoundOptions options;
  options.iterations = 60;
  options.threads = 1;
  const LowerBound one = lower_bound(instance, options);
  options.threads = 2;
  const LowerBound two = lower_bound(instance, options);
  EXPECT_EQ(one.bound, two.bound);
  EXPECT_EQ(one.penalties, two.penalties);
  EXPECT_EQ(one.method, "k-d tree Boruvka");
}

TEST(HeldKarp, TimeLimitIsKept) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 20000, 4, 1e6);
  BoundOptions options;
  options.time_limit = 1.0 * test::time_scale();
  const LowerBound bound = lower_bound(instance, options);
  EXPECT_EQ(bound.stop_reason, "time limit");
  EXPECT_LT(bound.seconds, 1.2 * options.time_limit);
  EXPECT_GT(bound.bound, 0);
}

TEST(SparseGraph, TheSameGraphWhateverThePairsOrderRepeatsAndThreads) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 3000, 8, 1e5);
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (int i = 0; i < instance.n(); ++i)
    for (const int step : {1, 2, 7, 500}) pairs.emplace_back(i, (i + step) % instance.n());
  std::vector<std::pair<int32_t, int32_t>> shuffled = pairs;
  for (auto& [a, b] : shuffled) std::swap(a, b);
  shuffled.insert(shuffled.end(), pairs.begin(), pairs.begin() + 1000);  // repeats, both ways
  std::reverse(shuffled.begin(), shuffled.end());
  const SparseGraph one(instance, pairs, 1);
  const SparseGraph other(instance, shuffled, 2);
  EXPECT_EQ(one.edges(), 4 * instance.n());
  EXPECT_EQ(other.edges(), one.edges());
  std::vector<int64_t> pi(static_cast<size_t>(instance.n()));
  for (int i = 0; i < instance.n(); ++i) pi[i] = (i * 37 % 11 - 5) * kPenaltyScale;
  const OneTree a = one.one_tree(pi), b = other.one_tree(pi);
  EXPECT_EQ(scaled_value(a, pi), scaled_value(b, pi));
  EXPECT_EQ(a.degrees(instance.n()), b.degrees(instance.n()));
}

TEST(SparseGraph, StopsWhenAsked) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 2000, 9, 1e5);
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (int i = 0; i < instance.n(); ++i) pairs.emplace_back(i, (i + 1) % instance.n());
  StopFlag past;
  past.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  EXPECT_THROW((void)SparseGraph(instance, pairs, 2, &past), SetupStopped);
  std::atomic<bool> interrupt{true};
  const StopFlag interrupted{&interrupt};
  EXPECT_THROW((void)SparseGraph(instance, pairs, 1, &interrupted), SetupStopped);
}

}  // namespace
}  // namespace formica::bounds
