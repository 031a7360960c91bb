// SPDX-License-Identifier: MIT
// The GPU colony variants: valid tours with exact lengths for every variant and construction at
// n = 3, 4, 33 and 300 (more cities than a block has threads), the same result for the same
// seed, bounds after every update, the first step of each decision rule against its exact
// distribution (chi-square) or its argmax, GACO's crossing counts against the tours, one MMAS and
// one ACS iteration (local updates included) replayed on the host from the GPU's own tours, and
// the lanes per ant that auto picks (host logic, run by CUDA builds without a GPU too), and the
// kernels' fallback city against the CPU's on every metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "aco/candidate_set.h"
#include "aco/colony_rules.h"
#include "core/tour.h"
#include "cuda_support.h"
#include "aco/cpu/ant_path.h"
#include "aco/cpu/candidate_selection.h"
#include "io/generator.h"
#include "localsearch/two_opt_check.h"  // test::metric_instance
#include "test_support.h"

#if FORMICA_HAVE_CUDA
#include "aco/cuda/candidate_fallback.h"
#include "aco/cuda/colony_search_cuda.h"
#include "aco/cuda/construction_lanes.h"
#endif

namespace formica::aco {
namespace {

#if FORMICA_HAVE_CUDA

ColonyConfig gpu_config(ColonyVariant variant, AntConstruction construction, uint64_t seed = 1) {
  ColonyConfig config;
  config.variant = variant;
  config.ant_construction = construction;
  config.seed = seed;
  return config;
}

void check_search(const Instance& instance, const ColonySearchCuda& search) {
  const int n = instance.n();
  const auto tours = search.tours();
  const auto lengths = search.tour_lengths();
  for (int a = 0; a < search.total_ants(); ++a) {
    const std::vector<int32_t> tour(tours.begin() + a * n, tours.begin() + (a + 1) * n);
    ASSERT_EQ(Tour(instance, tour).length(), lengths[a]) << "ant " << a;  // validates too
  }
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), search.best_length());
}

struct Case {
  ColonyVariant variant;
  AntConstruction construction;
};

class GpuColonies : public ::testing::TestWithParam<Case> {};

TEST_P(GpuColonies, ValidToursAndSameResultForTheSameSeed) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {3, 4, 33, 300}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n);
    ColonyConfig config = gpu_config(GetParam().variant, GetParam().construction, 9);
    config.candidates = 8;
    config.colonies = GetParam().variant == ColonyVariant::Gaco ? 4 : 2;
    config.exchange_interval = 3;
    if (n == 300 && GetParam().variant != ColonyVariant::Acs) config.ants = 64;
    std::vector<int32_t> first;
    for (int repeat = 0; repeat < 2; ++repeat) {
      ColonySearchCuda search(instance, config);
      for (int it = 0; it < 6; ++it) ASSERT_TRUE(search.step(StopFlag{}));
      check_search(instance, search);
      if (repeat == 0) first = search.tours();
      else EXPECT_EQ(search.tours(), first) << "n = " << n;
    }
  }
}

TEST_P(GpuColonies, BoundsHoldAfterEveryUpdate) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(120, io::InstanceKind::Uniform, 7);
  ColonyConfig config = gpu_config(GetParam().variant, GetParam().construction, 3);
  config.restart_after = 20;
  config.colonies = GetParam().variant == ColonyVariant::Gaco ? 2 : 1;
  ColonySearchCuda search(instance, config);
  for (int it = 0; it < 300; ++it) {
    ASSERT_TRUE(search.step(StopFlag{}));
    const Bounds b = search.bounds(0);
    const double l = static_cast<double>(search.best_length());
    EXPECT_FLOAT_EQ(b.tau_max, static_cast<float>(GetParam().variant == ColonyVariant::Mmas ? 1.0 / (0.02 * l) : 1.0 / l));
    for (float tau : search.pheromone(0)) {
      ASSERT_GE(tau, b.tau_min) << "iteration " << it;
      ASSERT_LE(tau, b.tau_max) << "iteration " << it;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, GpuColonies,
    ::testing::Values(Case{ColonyVariant::Mmas, AntConstruction::WarpPerAnt},
                      Case{ColonyVariant::Mmas, AntConstruction::HalfWarpPerAnt},
                      Case{ColonyVariant::Mmas, AntConstruction::QuarterWarpPerAnt},
                      Case{ColonyVariant::Mmas, AntConstruction::Auto},
                      Case{ColonyVariant::Mmas, AntConstruction::ThreadPerAnt},
                      Case{ColonyVariant::Acs, AntConstruction::WarpPerAnt},
                      Case{ColonyVariant::Gaco, AntConstruction::WarpPerAnt},
                      Case{ColonyVariant::Gaco, AntConstruction::HalfWarpPerAnt},
                      Case{ColonyVariant::Gaco, AntConstruction::QuarterWarpPerAnt},
                      Case{ColonyVariant::Gaco, AntConstruction::ThreadPerAnt}),
    [](const auto& param_info) {
      return test::test_name(std::string(to_string(param_info.param.variant)) + "_" +
                             std::string(to_string(param_info.param.construction)));
    });

/// First-step statistics: every ant's (start, second city) after one iteration on a uniform
/// matrix, where the proportional rule picks candidate s of the start's row with probability
/// eta_beta[s] / row sum, and the greedy rule always takes the largest.
class GpuFirstStep : public ::testing::TestWithParam<AntConstruction> {};

TEST_P(GpuFirstStep, ProportionalRuleSamplesTheExactDistribution) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(37, io::InstanceKind::Uniform, 12);
  ColonyConfig config = gpu_config(ColonyVariant::Mmas, GetParam(), 5);
  config.candidates = 10;
  config.ants = 20000;
  const CandidateSet set = build_candidate_set(instance, 10, 0, config.beta, 1);
  ColonySearchCuda search(instance, config);
  ASSERT_TRUE(search.step(StopFlag{}));
  const auto tours = search.tours();
  std::vector<long> counts(static_cast<size_t>(37) * set.width, 0);
  std::vector<long> starts(37, 0);
  for (int a = 0; a < config.ants; ++a) {
    const int start = tours[static_cast<size_t>(a) * 37], second = tours[static_cast<size_t>(a) * 37 + 1];
    const int slot = set.slot_of(start, second);
    ASSERT_GE(slot, 0) << "the first step left the candidate list";
    ++counts[static_cast<size_t>(start) * set.width + slot];
    ++starts[start];
  }
  // Chi-square over every (start, slot) cell, with expected counts from each start's total.
  double statistic = 0;
  int cells = 0;
  for (int i = 0; i < 37; ++i) {
    double row = 0;
    for (int s = 0; s < set.width; ++s) row += set.eta_beta[static_cast<size_t>(i) * set.width + s];
    for (int s = 0; s < set.width; ++s) {
      const double expected = starts[i] * set.eta_beta[static_cast<size_t>(i) * set.width + s] / row;
      const double d = counts[static_cast<size_t>(i) * set.width + s] - expected;
      statistic += d * d / expected;
      ++cells;
    }
  }
  EXPECT_GT(test::chi_square_p_value(statistic, cells - 37), 1e-4);
}

TEST_P(GpuFirstStep, GreedyRuleTakesTheLargestCandidate) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(37, io::InstanceKind::Uniform, 13);
  ColonyConfig config = gpu_config(ColonyVariant::Gaco, GetParam(), 6);
  config.candidates = 10;
  config.q0 = 1.0;  // the ACS colonies always choose greedily
  config.ants = 50;
  const CandidateSet set = build_candidate_set(instance, 10, 2, config.beta, 1);
  ColonySearchCuda search(instance, config);
  ASSERT_TRUE(search.step(StopFlag{}));
  const auto tours = search.tours();
  for (int a = 50; a < 100; ++a) {  // colony 1 is the ACS colony
    const int start = tours[static_cast<size_t>(a) * 37], second = tours[static_cast<size_t>(a) * 37 + 1];
    int best = 0;
    for (int s = 1; s < set.k; ++s)
      if (set.eta_beta[static_cast<size_t>(start) * set.width + s] > set.eta_beta[static_cast<size_t>(start) * set.width + best])
        best = s;
    EXPECT_EQ(second, set.row(start)[best]) << "ant " << a;
  }
}

/// Entry index of edge (i, j) in the candidate rows, or -1.
int entry_of(const std::vector<int32_t>& ids, int width, int i, int j) {
  for (int s = 0; s < width; ++s)
    if (ids[static_cast<size_t>(i) * width + s] == j) return i * width + s;
  return -1;
}

TEST_P(GpuFirstStep, GacoCountsTheAcsAntsCrossings) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {5, 57, 300}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 16 + n);
    ColonyConfig config = gpu_config(ColonyVariant::Gaco, GetParam(), 7);
    config.candidates = 6;
    config.ants = 37;  // odd: the last group of lanes in a warp has no ant
    ColonySearchCuda search(instance, config);
    const auto ids = search.candidate_ids(0);  // the rows the ants choose from
    ASSERT_TRUE(search.step(StopFlag{}));
    const auto tours = search.tours();
    const int width = static_cast<int>(ids.size()) / n;
    std::vector<int> expected(ids.size(), 0);
    for (int a = config.ants; a < 2 * config.ants; ++a) {  // colony 1 is the ACS colony
      for (int p = 0; p < n; ++p) {
        const int i = tours[static_cast<size_t>(a) * n + p], j = tours[static_cast<size_t>(a) * n + (p + 1) % n];
        for (const int e : {entry_of(ids, width, i, j), entry_of(ids, width, j, i)})
          if (e >= 0) ++expected[e];
      }
    }
    EXPECT_EQ(search.crossings(0), expected) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Constructions, GpuFirstStep,
                         ::testing::Values(AntConstruction::WarpPerAnt, AntConstruction::HalfWarpPerAnt,
                                           AntConstruction::QuarterWarpPerAnt, AntConstruction::ThreadPerAnt),
                         [](const auto& param_info) {
                           return test::test_name(to_string(param_info.param));
                         });


TEST(GpuColonyUpdate, MmasIterationMatchesTheHostReplay) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(301, io::InstanceKind::Uniform, 14);
  ColonyConfig config = gpu_config(ColonyVariant::Mmas, AntConstruction::WarpPerAnt, 8);
  ColonySearchCuda search(instance, config);
  const auto before = search.pheromone(0);
  ASSERT_TRUE(search.step(StopFlag{}));
  const auto tours = search.tours();
  const auto lengths = search.tour_lengths();
  const int n = 301, best = static_cast<int>(std::min_element(lengths.begin(), lengths.end()) - lengths.begin());
  const auto ids = search.candidate_ids(0);
  const int width = static_cast<int>(ids.size()) / n;
  std::vector<char> on_tour(ids.size(), 0);
  for (int p = 0; p < n; ++p) {
    const int a = tours[static_cast<size_t>(best) * n + p], b = tours[static_cast<size_t>(best) * n + (p + 1) % n];
    for (const int e : {entry_of(ids, width, a, b), entry_of(ids, width, b, a)})
      if (e >= 0) on_tour[e] = 1;
  }
  const Bounds bounds = search.bounds(0);
  const auto after = search.pheromone(0);
  for (size_t e = 0; e < after.size(); ++e) {
    float expected = before[e] * static_cast<float>(1.0 - config.evaporation());
    if (on_tour[e]) expected += static_cast<float>(1.0 / static_cast<double>(lengths[best]));
    EXPECT_FLOAT_EQ(after[e], clamp_pheromone(expected, bounds)) << "entry " << e;
  }
}

TEST(GpuColonyUpdate, AcsLocalAndGlobalUpdatesMatchTheHostReplay) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {4, 57, 300}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 15 + n);
    ColonyConfig config = gpu_config(ColonyVariant::Acs, AntConstruction::WarpPerAnt, 10);
    config.ants = 32;  // many ants on few edges: concurrent updates of one edge are common
    config.candidates = 6;
    ColonySearchCuda search(instance, config);
    const std::vector<float> initial = search.pheromone(0);  // a copy from the device: take it once
    std::vector<double> tau(initial.begin(), initial.end());
    const Bounds start_bounds = search.bounds(0);
    ASSERT_TRUE(search.step(StopFlag{}));
    const auto tours = search.tours();
    const auto lengths = search.tour_lengths();
    const auto ids = search.candidate_ids(0);
    const int width = static_cast<int>(ids.size()) / n;
    const double tau0 = start_bounds.tau_min, keep = 1.0 - config.xi;
    // Lockstep replay: after every step each entry crossed c times moves to tau0 + keep^c (tau - tau0).
    for (int p = 1; p <= n; ++p) {
      std::map<int, int> crossed;
      for (int a = 0; a < 32; ++a) {
        const int i = tours[static_cast<size_t>(a) * n + p - 1], j = tours[static_cast<size_t>(a) * n + p % n];
        for (const int e : {entry_of(ids, width, i, j), entry_of(ids, width, j, i)})
          if (e >= 0) ++crossed[e];
      }
      for (const auto& [e, c] : crossed) tau[e] = tau0 + std::pow(keep, c) * (tau[e] - tau0);
    }
    const int best = static_cast<int>(std::min_element(lengths.begin(), lengths.end()) - lengths.begin());
    std::vector<char> on_tour(ids.size(), 0);
    for (int p = 0; p < n; ++p) {
      const int a = tours[static_cast<size_t>(best) * n + p], b = tours[static_cast<size_t>(best) * n + (p + 1) % n];
      for (const int e : {entry_of(ids, width, a, b), entry_of(ids, width, b, a)})
        if (e >= 0) on_tour[e] = 1;
    }
    const auto after = search.pheromone(0);
    for (size_t e = 0; e < after.size(); ++e) {
      double expected = tau[e];
      if (on_tour[e]) expected = (1 - config.acs_rho) * expected + config.acs_rho / static_cast<double>(lengths[best]);
      EXPECT_NEAR(after[e], expected, 1e-5 * expected) << "n = " << n << " entry " << e;
    }
  }
}

// The fallback when no candidate can be taken, on the device as on the CPU: the first unvisited
// city of the list, and past the list the nearest unvisited city by exact distance with the
// lowest index on ties (integer coordinates in a 40 x 40 square: many equal distances, and at
// 2,100 cities many cities on one point; more than 1,024 cities: the scan takes several rounds).
TEST(GpuFallback, TakesTheCpusCityOnEveryMetric) {
  FORMICA_REQUIRE_CUDA();
  for (const auto& [type, n] : [] {
         std::vector<std::pair<EdgeWeightType, int>> cases;
         for (EdgeWeightType type : test::all_metrics()) cases.emplace_back(type, 300);
         cases.emplace_back(EdgeWeightType::Euc2D, 2100);
         cases.emplace_back(EdgeWeightType::Att, 2100);
         return cases;
       }()) {
    const Instance instance = test::metric_instance(type, n, 21, 40);
    const CandidateSet set = build_candidate_set(instance, 10, 0, 2.0, 1);
    std::mt19937 rng(5);
    std::vector<int32_t> from, expected;
    std::vector<uint8_t> flags;
    int past_the_list = 0;
    for (int q = 0; q < 96; ++q) {
      const int at = static_cast<int>(rng() % n);
      AntPath path(n);
      path.reset(at);
      const int32_t* list = set.fallback.data() + static_cast<size_t>(at) * set.fallback_length;
      // Every third ant has visited its whole list, the others a prefix of it; all of them a share
      // of the other cities too (none, 30 %, 90 %).
      const int prefix = q % 3 == 0 ? set.fallback_length : static_cast<int>(rng() % set.fallback_length);
      for (int s = 0; s < prefix; ++s)
        if (list[s] != at) path.visit(list[s]);
      const double share = (q / 3) % 3 == 0 ? 0.0 : (q / 3) % 3 == 1 ? 0.3 : 0.9;
      for (int c = 0; c < n; ++c)
        if (!path.visited(c) && std::uniform_real_distribution<double>(0, 1)(rng) < share) path.visit(c);
      if (path.visited_count() == n) continue;  // nothing left to fall back to
      from.push_back(at);
      for (int c = 0; c < n; ++c) flags.push_back(path.visited(c) ? 1 : 0);
      expected.push_back(select_fallback(instance, set, at, path));
      bool listed = false;
      for (int s = 0; s < set.fallback_length; ++s) listed = listed || !path.visited(list[s]);
      past_the_list += listed ? 0 : 1;
    }
    ASSERT_GT(past_the_list, 10) << to_string(type) << " n = " << n;
    EXPECT_EQ(cuda::device_fallback_cities(instance, set, from, flags), expected) << to_string(type) << " n = " << n;
  }
}

// A first iteration longer than the time left is cut off inside its kernels: the construction (a
// warp or 16 lanes per ant, a thread per ant, ACS's lockstep block) and the ants' climbs read the
// stop while they run, and the step gives up long before the iteration would have ended. The next
// step, with no deadline, runs whole and gives valid tours (the cut climbs' queues cleared).
TEST(GpuColonies, AFirstIterationPastTheDeadlineIsCutShort) {
  FORMICA_REQUIRE_CUDA();
  using Clock = std::chrono::steady_clock;
  const Instance instance = io::generate_instance(40000, io::InstanceKind::Uniform, 3);
  struct Cut {
    ColonyVariant variant;
    AntConstruction construction;
    localsearch::LocalSearchKind climb;
  };
  for (const Cut c : {Cut{ColonyVariant::Mmas, AntConstruction::WarpPerAnt, localsearch::LocalSearchKind::TwoOpt},
                      Cut{ColonyVariant::Mmas, AntConstruction::HalfWarpPerAnt, localsearch::LocalSearchKind::None},
                      Cut{ColonyVariant::Mmas, AntConstruction::ThreadPerAnt, localsearch::LocalSearchKind::None},
                      Cut{ColonyVariant::Acs, AntConstruction::Auto, localsearch::LocalSearchKind::None}}) {
    ColonyConfig config = gpu_config(c.variant, c.construction, 4);
    config.candidates = 10;
    config.ants = c.variant == ColonyVariant::Acs ? 16 : 256;
    config.local_search = c.climb;
    ColonySearchCuda search(instance, config);
    StopFlag soon;
    soon.deadline = Clock::now() + std::chrono::milliseconds(2);
    const auto cut_at = Clock::now();
    const bool completed = search.step(soon);
    const double cut_ms = std::chrono::duration<double, std::milli>(Clock::now() - cut_at).count();
    const auto whole_at = Clock::now();
    ASSERT_TRUE(search.step(StopFlag{}));
    const double whole_ms = std::chrono::duration<double, std::milli>(Clock::now() - whole_at).count();
    const std::string label = std::string(to_string(c.construction)) + " variant " + std::to_string(static_cast<int>(c.variant));
    ASSERT_GT(whole_ms, 30.0) << label << ": the iteration is too short to show a cut";
    EXPECT_FALSE(completed) << label;
    EXPECT_LT(cut_ms, whole_ms / 3) << label << ": cut after " << cut_ms << " ms, whole " << whole_ms << " ms";
    check_search(instance, search);
  }
}

// The lanes per ant that auto picks (host logic: runs in a CUDA build without a GPU). An H100 has
// 132 SMs, which hold 132 x 8 x 4 = 4,224 warps of the unstaged kernel at once.
TEST(GroupConstruction, AutoPicksTheMeasuredLanesPerAnt) {
  EXPECT_TRUE(cuda::construction_stages(1002, 20, 32));  // pr1002's rows fit in shared memory
  EXPECT_TRUE(cuda::construction_stages(1002, 20, 16));
  EXPECT_FALSE(cuda::construction_stages(4461, 20, 32));
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::Auto, 1002, 20, 1002, 1, 132), 32);
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::Auto, 4461, 20, 4461, 1, 132), 16);   // 2,231 warps: one wave
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::Auto, 13509, 20, 13509, 1, 132), 32);  // 6,755: more
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::Auto, 13509, 20, 100, 1, 132), 16);
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::Auto, 4461, 20, 4461, 4, 132), 32);  // four matrices
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::WarpPerAnt, 4461, 20, 4461, 1, 132), 32);
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::HalfWarpPerAnt, 1002, 20, 1002, 1, 132), 16);
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::QuarterWarpPerAnt, 1002, 20, 1002, 1, 132), 8);
  EXPECT_EQ(cuda::construction_lanes(AntConstruction::ThreadPerAnt, 1002, 20, 1002, 1, 132), 1);
  // The staged block: 8 warps' visited bits plus the rows (ids and weights, 8 bytes a slot).
  EXPECT_EQ(cuda::construction_shared_bytes(1002, 20, 8, 32, true), 32u * 8 * 4 + 1002u * 20 * 8);
  EXPECT_EQ(cuda::construction_shared_bytes(1002, 20, 4, 8, false), 32u * 16 * 4);
}

#else

TEST(GpuColonies, SkippedWithoutCuda) { GTEST_SKIP() << "skipped: built without CUDA"; }

#endif

}  // namespace
}  // namespace formica::aco
