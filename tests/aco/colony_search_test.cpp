// SPDX-License-Identifier: MIT
// The colony variants on the CPU: the shared pheromone algebra (closed-form local update, MMAS
// bounds, depositor schedule), the decision rules over candidate rows (chi-square, greedy,
// fallback), valid tours and reproducibility for every variant, bounds after every update, one
// MMAS update checked by hand, and MMAS quality against Stutzle and Hoos (2000).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numeric>

#include "aco/candidate_set.h"
#include "aco/colony_rules.h"
#include "aco/cpu/candidate_selection.h"
#include "aco/cpu/colony_search.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "io/known_optima.h"
#include "test_support.h"

namespace formica::aco {
namespace {

ColonyConfig config_for(ColonyVariant variant, uint64_t seed = 1) {
  ColonyConfig config;
  config.variant = variant;
  config.seed = seed;
  return config;
}

TEST(ColonyRules, LocalUpdateClosedFormEqualsRepeatedApplication) {
  for (int c : {0, 1, 2, 5, 17}) {
    const float tau = 0.37f, target = 0.01f, keep = 0.9f;
    double sequential = tau;
    for (int t = 0; t < c; ++t) sequential = keep * sequential + (1.0 - keep) * target;
    EXPECT_NEAR(local_update(tau, target, keep, c), sequential, 1e-6) << c << " crossings";
  }
  EXPECT_EQ(local_update(0.25f, 0.01f, 0.9f, 0), 0.25f);
}

TEST(ColonyRules, MmasBoundsFollowStutzleHoosEquation11) {
  const int n = 51;
  const double p_dec = std::pow(0.05, 1.0 / n);
  EXPECT_NEAR(mmas_min_factor(n, 0.05), (1 - p_dec) / ((n / 2.0 - 1) * p_dec), 1e-12);
  EXPECT_EQ(mmas_min_factor(3, 0.05), 1.0);  // avg <= 1: tau_min = tau_max
  const Bounds b = matrix_bounds(BoundsKind::Mmas, 430, 0.02, mmas_min_factor(n, 0.05), 0.0);
  EXPECT_FLOAT_EQ(b.tau_max, static_cast<float>(1.0 / (0.02 * 430)));
  EXPECT_FLOAT_EQ(b.tau_min, static_cast<float>(mmas_min_factor(n, 0.05) / (0.02 * 430)));
  const Bounds g = matrix_bounds(BoundsKind::Gaco, 430, 0.02, mmas_min_factor(n, 0.05), 0.0);
  EXPECT_FLOAT_EQ(g.tau_max, 1.0f / 430);  // Li and Jin's merged upper bound 1 / L_bs
  EXPECT_LT(g.tau_min, g.tau_max);
}

TEST(ColonyRules, DepositorScheduleIsAcotsps) {
  ColonyRecord r = fresh_colony_record();
  std::vector<int> depositors;
  for (int it = 1; it <= 50; ++it) {
    record_iteration(r, 1000 - it, 0, it, false, false, 25);
    depositors.push_back(r.depositor);
  }
  for (int it = 1; it <= 50; ++it)
    EXPECT_EQ(depositors[it - 1], static_cast<int>(it % 25 ? Depositor::IterationBest : Depositor::RestartBest)) << it;
  EXPECT_EQ(mmas_best_every(true, 25, 10), 25);
  EXPECT_EQ(mmas_best_every(true, 25, 100), 3);
  EXPECT_EQ(mmas_best_every(true, 25, 300), 1);
  r = fresh_colony_record();
  EXPECT_EQ(record_iteration(r, 500, 3, 1, true, false, 25), 3);  // both bests improve
  EXPECT_EQ(r.depositor, static_cast<int>(Depositor::BestSoFar));
  EXPECT_EQ(record_iteration(r, 600, 1, 2, true, false, 25), 0);
  EXPECT_EQ(r.best_length, 500);
}

TEST(CandidateSelection, ProportionalRuleSamplesTheExactDistribution) {
  const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 3);
  const CandidateSet set = build_candidate_set(instance, 12, 0, 2.0, 1);
  AntPath path(40);
  path.reset(0);
  path.visit(set.row(0)[3]);  // a visited candidate must get probability 0
  path.visit(5);
  const int from = 5;
  std::vector<float> f(set.eta_beta.begin() + from * set.width, set.eta_beta.begin() + (from + 1) * set.width);
  f[1] *= 7.0f;  // uneven weights
  std::vector<double> p(static_cast<size_t>(set.width), 0.0);
  double total = 0;
  for (int s = 0; s < set.width; ++s)
    if (!path.visited(set.row(from)[s])) total += f[s];
  for (int s = 0; s < set.width; ++s)
    if (!path.visited(set.row(from)[s])) p[s] = f[s] / total;
  std::vector<long> counts(static_cast<size_t>(set.width), 0);
  RandomStream rng(11, 0);
  for (int draw = 0; draw < 200000; ++draw) {
    const CandidateChoice c = select_proportional(set.row(from), f, path, rng.next_double());
    ASSERT_GE(c.slot, 0);
    ASSERT_EQ(set.row(from)[c.slot], c.city);
    ++counts[c.slot];
  }
  EXPECT_GT(test::chi_square_test(counts, p), 1e-4);
}

TEST(CandidateSelection, ProportionalRuleOverRowsLongerThanAWarp) {
  // 45 candidates: two blocks of the warp-order scan, the second one partial.
  const Instance instance = io::generate_instance(60, io::InstanceKind::Uniform, 8);
  const CandidateSet set = build_candidate_set(instance, 45, 0, 2.0, 1);
  ASSERT_EQ(set.width, 45);
  AntPath path(60);
  const int from = 9;
  path.reset(from);
  for (const int s : {0, 17, 33, 40}) path.visit(set.row(from)[s]);
  std::vector<float> f(set.eta_beta.begin() + from * set.width, set.eta_beta.begin() + (from + 1) * set.width);
  f[38] *= 40.0f;  // much of the mass in the second block
  std::vector<double> p(45, 0.0);
  double total = 0;
  for (int s = 0; s < 45; ++s)
    if (!path.visited(set.row(from)[s])) total += f[s];
  for (int s = 0; s < 45; ++s)
    if (!path.visited(set.row(from)[s])) p[s] = f[s] / total;
  std::vector<long> counts(45, 0);
  RandomStream rng(12, 0);
  for (int draw = 0; draw < 200000; ++draw) {
    const CandidateChoice c = select_proportional(set.row(from), f, path, rng.next_double());
    ASSERT_GE(c.slot, 0);
    ASSERT_FALSE(path.visited(c.city));
    ++counts[c.slot];
  }
  EXPECT_GT(test::chi_square_test(counts, p), 1e-4);
}

TEST(CandidateSelection, WarpOrderPrefixIsThePrefixSumInAWarpScansGrouping) {
  std::array<double, 32> values{};
  for (int s = 0; s < 32; ++s) values[s] = s + 1;  // integers: exact in any order
  const std::array<double, 32> prefix = warp_order_prefix(values);
  for (int s = 0; s < 32; ++s) EXPECT_EQ(prefix[s], (s + 1) * (s + 2) / 2.0) << s;
  // Where rounding shows, the grouping is the scan's: lane 3 = (v0 + v1) + (v2 + v3), not ((v0 + v1) + v2) + v3.
  values.fill(0.0);
  values[0] = 1.0, values[1] = 1e-16, values[2] = 1e-16, values[3] = 1e-16;
  EXPECT_EQ(warp_order_prefix(values)[3], (1.0 + 1e-16) + (1e-16 + 1e-16));
  EXPECT_NE(warp_order_prefix(values)[3], ((1.0 + 1e-16) + 1e-16) + 1e-16);
}

TEST(CandidateSelection, GreedyTakesTheLargestUnvisitedWeight) {
  const Instance instance = io::generate_instance(30, io::InstanceKind::Uniform, 4);
  const CandidateSet set = build_candidate_set(instance, 8, 0, 2.0, 1);
  AntPath path(30);
  path.reset(2);
  std::vector<float> f(8, 1.0f);
  f[5] = 9.0f;
  f[6] = 9.0f;  // tie: the lower slot wins
  EXPECT_EQ(select_greedy(set.row(2), f, path).slot, 5);
  path.visit(set.row(2)[5]);
  path.visit(2 == set.row(2)[5] ? 0 : set.row(2)[0]);
  EXPECT_EQ(select_greedy(set.row(2), f, path).slot, 6);
}

TEST(CandidateSelection, FallbackListLengthFollowsTheSize) {
  EXPECT_EQ(fallback_list_length(600, 10), kFallbackListLength);
  EXPECT_EQ(fallback_list_length(600, 10, true), kLongFallbackListLength);
  EXPECT_EQ(fallback_list_length(200, 10, true), 199);  // never past the other cities
  EXPECT_EQ(fallback_list_length(kLongFallbackMaxCities + 1, 10, true), kFallbackListLength);
  EXPECT_EQ(fallback_list_length(kLongFallbackMaxCities + 1, 100, true), 100);  // never below k
  EXPECT_EQ(fallback_list_length(1000, 300), 300);
  const Instance instance = io::generate_instance(600, io::InstanceKind::Uniform, 5);
  EXPECT_EQ(build_candidate_set(instance, 10, 0, 2.0, 1, NeighbourShape::Nearest, true).fallback_length,
            kLongFallbackListLength);
}

TEST(CandidateSelection, FallbackTakesTheNearestUnvisitedCity) {
  const Instance instance = io::generate_instance(600, io::InstanceKind::Uniform, 5);
  const CandidateSet set = build_candidate_set(instance, 10, 0, 2.0, 1);
  ASSERT_EQ(set.fallback_length, kFallbackListLength);
  const int32_t* list = set.fallback.data() + 7 * set.fallback_length;
  AntPath path(600);
  path.reset(list[0]);
  for (int s = 1; s < 20; ++s) path.visit(list[s]);
  EXPECT_EQ(select_fallback(instance, set, 7, path), list[20]);  // first unvisited of the list
  for (int s = 20; s < set.fallback_length; ++s) path.visit(list[s]);
  path.visit(7);  // the ant stands at 7 with its whole list visited
  int nearest = -1;  // beyond the list: a scan by exact distance
  for (int j = 0; j < 600; ++j)
    if (!path.visited(j) && (nearest < 0 || instance.distance(7, j) < instance.distance(7, nearest))) nearest = j;
  EXPECT_EQ(select_fallback(instance, set, 7, path), nearest);
  // select_candidate falls back when every candidate is visited
  const std::vector<float> f(static_cast<size_t>(set.width), 1.0f);
  EXPECT_EQ(select_candidate(instance, set, f, path, 0.0, 1.0, 0.5).city, nearest);
}

std::pair<int64_t, std::vector<int32_t>> run(const Instance& instance, ColonyConfig config, int iterations) {
  ColonySearchCpu search(instance, config);
  for (int i = 0; i < iterations; ++i) EXPECT_TRUE(search.step(StopFlag{}));
  const Tour best(instance, search.best_tour());  // validates the permutation
  EXPECT_EQ(best.length(), search.best_length());
  const auto tours = search.tours();
  for (int a = 0; a < search.layout().total_ants(); ++a) {
    const std::vector<int32_t> tour(tours.begin() + a * instance.n(), tours.begin() + (a + 1) * instance.n());
    EXPECT_EQ(Tour(instance, tour).length(), search.tour_lengths()[a]);
  }
  const auto groups = search.group_best_lengths();
  EXPECT_EQ(*std::min_element(groups.begin(), groups.end()), search.best_length());
  for (int m = 0; m < search.layout().matrices; ++m)
    EXPECT_EQ(Tour(instance, search.group_best_tour(m)).length(), groups[m]);
  return {search.best_length(), search.best_tour()};
}

TEST(ColonySearchCpu, EveryVariantGivesValidToursAtSmallSizes) {
  for (int n : {3, 4, 5, 33, 70}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    for (auto variant : {ColonyVariant::Mmas, ColonyVariant::Acs, ColonyVariant::Gaco}) {
      ColonyConfig config = config_for(variant, 3);
      config.candidates = 6;
      config.colonies = variant == ColonyVariant::Gaco ? 4 : 2;
      config.exchange_interval = 2;
      run(instance, config, 5);
    }
  }
}

TEST(ColonySearchCpu, SameSeedSameResultWhateverTheThreadCount) {
  const Instance instance = io::generate_instance(90, io::InstanceKind::Clustered, 8);
  for (auto variant : {ColonyVariant::Mmas, ColonyVariant::Acs, ColonyVariant::Gaco}) {
    ColonyConfig config = config_for(variant, 21);
    config.colonies = variant == ColonyVariant::Gaco ? 4 : 2;
    config.exchange_interval = 5;
    const auto sequential = run(instance, config, 12);
    config.threads = 3;
    EXPECT_EQ(run(instance, config, 12), sequential) << to_string(variant);
    config.seed = 22;
    EXPECT_NE(run(instance, config, 12).second, sequential.second) << to_string(variant);
  }
}

TEST(ColonySearchCpu, BoundsHoldAfterEveryUpdate) {
  const Instance instance = io::generate_instance(60, io::InstanceKind::Uniform, 9);
  for (auto variant : {ColonyVariant::Mmas, ColonyVariant::Acs, ColonyVariant::Gaco}) {
    ColonyConfig config = config_for(variant, 5);
    config.restart_after = 20;  // with a fast evaporation, restarts happen inside the run
    config.mmas_rho = 0.2;
    config.colonies = variant == ColonyVariant::Gaco ? 2 : 1;
    ColonySearchCpu search(instance, config);
    for (int it = 0; it < 400; ++it) {
      ASSERT_TRUE(search.step(StopFlag{}));
      const Bounds b = search.bounds(0);
      const double l = static_cast<double>(search.best_length());
      EXPECT_FLOAT_EQ(b.tau_max, static_cast<float>(variant == ColonyVariant::Mmas ? 1.0 / (0.2 * l) : 1.0 / l));
      ASSERT_LE(b.tau_min, b.tau_max);
      for (float tau : search.pheromone(0)) {
        ASSERT_GE(tau, b.tau_min) << to_string(variant) << " iteration " << it;
        ASSERT_LE(tau, b.tau_max) << to_string(variant) << " iteration " << it;
      }
    }
    if (variant == ColonyVariant::Mmas) {
      EXPECT_GT(search.restarts(), 0);
    }
  }
}

TEST(ColonySearchCpu, OneMmasUpdateByHand) {
  const Instance instance = io::generate_instance(12, io::InstanceKind::Uniform, 2);
  ColonyConfig config = config_for(ColonyVariant::Mmas, 4);
  config.candidates = 5;
  ColonySearchCpu search(instance, config);
  const float initial = search.pheromone(0)[0];
  ASSERT_TRUE(search.step(StopFlag{}));
  // Iteration 1 deposits the iteration-best tour (1 % 25 != 0) of length L = the best so far.
  const auto lengths = search.tour_lengths();
  const int best = static_cast<int>(std::min_element(lengths.begin(), lengths.end()) - lengths.begin());
  const std::vector<int32_t> tour(search.tours().begin() + best * 12, search.tours().begin() + (best + 1) * 12);
  const Tour t(instance, tour);
  std::vector<int32_t> next(12), previous(12);
  for (int p = 0; p < 12; ++p) next[tour[p]] = tour[(p + 1) % 12], previous[tour[(p + 1) % 12]] = tour[p];
  const Bounds b = search.bounds(0);
  const CandidateSet& set = search.candidates(0);
  for (int i = 0; i < 12; ++i)
    for (int s = 0; s < set.width; ++s) {
      const int j = set.row(i)[s];
      float expected = initial * static_cast<float>(1.0 - 0.02);
      if (next[i] == j || previous[i] == j) expected = expected + static_cast<float>(1.0 / t.length());
      EXPECT_FLOAT_EQ(search.pheromone(0)[i * set.width + s], clamp_pheromone(expected, b)) << i << "," << j;
    }
}

// Stutzle and Hoos 2000, Table 3 (MMAS, no local search, m = n, rho = 0.02, 10000 n tour
// constructions): eil51 average 427.6 (optimum 426), kroA100 21320.3 (optimum 21282). A tenth of
// their iterations with 20 candidates must land within the bands below.
struct QualityCase {
  const char* name;
  int iterations;
  double max_gap;  // percent above the optimum, mean over the seeds
};

class MmasQuality : public ::testing::TestWithParam<QualityCase> {};

TEST_P(MmasQuality, NearStutzleHoos) {
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance(GetParam().name);
  const int64_t optimum = *known_optimum(instance.name(), instance.n());
  double sum = 0;
  const int seeds = 2;
  for (int seed = 1; seed <= seeds; ++seed) {
    ColonyConfig config = config_for(ColonyVariant::Mmas, static_cast<uint64_t>(seed));
    sum += static_cast<double>(run(instance, config, GetParam().iterations).first);
  }
  const double gap = 100.0 * (sum / seeds - static_cast<double>(optimum)) / static_cast<double>(optimum);
  RecordProperty("gap_percent", std::to_string(gap));
  EXPECT_GE(gap, 0.0);
  EXPECT_LE(gap, GetParam().max_gap);
}

INSTANTIATE_TEST_SUITE_P(StutzleHoos2000, MmasQuality,
                         ::testing::Values(QualityCase{"eil51", 1000, 1.5}, QualityCase{"kroA100", 1000, 2.0}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace formica::aco

namespace formica::aco {
namespace {

// Search::adopt (the island model's way in, solver/islands.h): a tour found elsewhere is merged with
// the best colony's best; a shorter result becomes that colony's best and the tour its focused ants
// walk from next.
TEST(ColonySearchCpu, AdoptsAShorterTourFromOutsideAndGoesOnFromIt) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 17);
  ColonyConfig weak = config_for(ColonyVariant::Mmas, 2);
  weak.focused_edges = 8;
  weak.colonies = 2;
  ColonyConfig strong = weak;
  strong.seed = 9;
  strong.local_search = localsearch::LocalSearchKind::ThreeOpt;
  ColonySearchCpu search(instance, weak), elsewhere(instance, strong);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(search.step(StopFlag{}));
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(elsewhere.step(StopFlag{}));
  ASSERT_LT(elsewhere.best_length(), search.best_length());
  ASSERT_TRUE(search.supports_adoption());
  EXPECT_TRUE(search.adopt(elsewhere.best_tour(), elsewhere.best_length()));
  EXPECT_LE(search.best_length(), elsewhere.best_length());
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), search.best_length());
  // The colony that took it walks from it next iteration.
  bool walks_from_it = false;
  for (int c = 0; c < 2; ++c) {
    const std::span<const int32_t> source = search.source_tour(c);
    walks_from_it = walks_from_it || std::vector<int32_t>(source.begin(), source.end()) == search.best_tour();
  }
  EXPECT_TRUE(walks_from_it);
  // A longer tour leaves the best as it is.
  const int64_t best = search.best_length();
  std::vector<int32_t> identity(300);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_FALSE(search.adopt(identity, tour_length(instance, identity)));
  EXPECT_EQ(search.best_length(), best);
  ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_LE(search.best_length(), best);
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), search.best_length());
}

TEST(ColonySearchCpu, AdoptRefusesAListThatIsNotATour) {
  const Instance instance = io::generate_instance(30, io::InstanceKind::Uniform, 3);
  ColonySearchCpu search(instance, config_for(ColonyVariant::Mmas, 1));
  ASSERT_TRUE(search.step(StopFlag{}));
  std::vector<int32_t> repeated(30, 0);
  EXPECT_THROW(search.adopt(repeated, 0), InputError);
}

}  // namespace
}  // namespace formica::aco
