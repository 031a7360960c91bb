// SPDX-License-Identifier: MIT
// The construction strategies of Cecilia et al. and Zhou et al. on the GPU: every exact method
// samples f_ij / (sum over unvisited) (chi-square through the production selection code, at the
// step level for STC and ST-DYNAMIC), I-Roulette samples its own closed-form distribution and its
// distance from the exact one is recorded, every strategy builds valid tours with exact lengths at
// n = 3, 4, 33, 1000 and 4461, KE-ONE builds the very tours KE-ALL builds, and the same seed gives
// the same result.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include "aco/i_roulette_distribution.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "io/known_optima.h"
#include "solver/report.h"
#include "test_support.h"

#if FORMICA_HAVE_CUDA
#include "aco/colony_support.h"
#include "aco/cuda/ant_system_cuda.h"
#include "aco/sampler_support.h"
#endif

namespace formica::aco {
namespace {

#if FORMICA_HAVE_CUDA

struct StrategyCase {
  Construction construction;
  Selection selection;
  int block_size;  // 0: auto
  int n;
};

std::string case_name(const StrategyCase& c) {
  std::string name = std::string(to_string(c.construction)) + "_" + std::string(to_string(c.selection)) + "_b" +
                     (c.block_size == 0 ? std::string("auto") : std::to_string(c.block_size)) + "_n" +
                     std::to_string(c.n);
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

double sampled_p_value(const StrategyCase& c, const sampling::Row& row, const std::vector<double>& expected,
                       std::vector<long>* counts_out = nullptr) {
  cuda::SamplerRequest request;
  request.construction = c.construction;
  request.selection = c.selection;
  request.block_size = c.block_size;
  request.trials = 2;  // few trials: the roulette fallback is exercised too
  request.draws = 0;   // the default count for n
  return sampling::two_stage_p_value(request, row, expected, counts_out);
}

class ExactStrategy : public ::testing::TestWithParam<StrategyCase> {};

TEST_P(ExactStrategy, SamplesTheExactDistribution) {
  FORMICA_REQUIRE_CUDA();
  const StrategyCase c = GetParam();
  const sampling::Row row = sampling::make_row(c.n, 17 + c.n);
  const double p = sampled_p_value(c, row, roulette_distribution(sampling::candidate_weights(row)));
  RecordProperty("p_value", std::to_string(p));
  EXPECT_GT(p, 1e-3) << case_name(c);
}

/// The smallest block that holds n cities in 32 register tiles (and at least a warp).
int smallest_block(int n) {
  int threads = 32;
  while (threads * 32 < n) threads *= 2;
  return threads;
}

std::vector<StrategyCase> exact_cases() {
  std::vector<StrategyCase> cases;
  for (int n : {40, 450, 1000, 2000, 5000}) {
    cases.push_back({Construction::ThreadPerAnt, Selection::Roulette, 0, n});
    for (int block : {0, smallest_block(n)}) {
      if (block == 0 || block != auto_block_size(Construction::BlockPerAnt, n)) {
        cases.push_back({Construction::BlockPerAnt, Selection::TileRoulette, block, n});
        cases.push_back({Construction::BlockPerAnt, Selection::Roulette, block, n});
      }
    }
    cases.push_back({Construction::BlockPerAnt, Selection::Compression, smallest_block(n), n});
    cases.push_back({Construction::BlockPerAnt, Selection::StochasticTrial, smallest_block(n), n});
    for (auto selection : {Selection::Roulette, Selection::TileRoulette}) {
      // Many tiles per group (64 threads), and one group covering everything (1024).
      cases.push_back({Construction::Stc, selection, 64, n});
      cases.push_back({Construction::Stc, selection, 1024, n});
      cases.push_back({Construction::StDynamic, selection, 1024, n});  // n = 40, 450: a shrunk group
      cases.push_back({Construction::StDynamic, selection, 32, n});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(CeciliaZhou, ExactStrategy, ::testing::ValuesIn(exact_cases()),
                         [](const auto& param_info) { return case_name(param_info.param); });

class IRouletteStrategy : public ::testing::TestWithParam<StrategyCase> {};

TEST_P(IRouletteStrategy, SamplesItsClosedFormAndRecordsItsDistanceFromRoulette) {
  FORMICA_REQUIRE_CUDA();
  const StrategyCase c = GetParam();
  const sampling::Row row = sampling::make_row(c.n, 31 + c.n);
  const std::vector<double> weights = sampling::candidate_weights(row);
  const std::vector<double> own = i_roulette_distribution(weights), exact = roulette_distribution(weights);
  std::vector<long> counts;
  const double p = sampled_p_value(c, row, own, &counts);
  EXPECT_GT(p, 1e-3) << case_name(c) << ": I-Roulette does not sample the distribution derived for it";
  const long total = std::accumulate(counts.begin(), counts.end(), 0L);
  std::vector<double> sampled(counts.size());
  for (size_t j = 0; j < counts.size(); ++j) sampled[j] = static_cast<double>(counts[j]) / static_cast<double>(total);
  const double tvd = total_variation_distance(sampled, exact);
  RecordProperty("total_variation_distance_from_roulette", std::to_string(tvd));
  RecordProperty("closed_form_distance", std::to_string(total_variation_distance(own, exact)));
  EXPECT_NEAR(tvd, total_variation_distance(own, exact), sampling::noise_scaled(0.02));
}

std::vector<StrategyCase> i_roulette_cases() {
  std::vector<StrategyCase> cases;
  for (int n : {40, 1000, 5000})
    for (auto construction : {Construction::WarpPerAnt, Construction::BlockPerAnt, Construction::ThreadPerAnt,
                              Construction::Stc, Construction::StDynamic})
      cases.push_back({construction, Selection::IRoulette, 0, n});
  cases.push_back({Construction::Stc, Selection::IRoulette, 64, 5000});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cecilia323, IRouletteStrategy, ::testing::ValuesIn(i_roulette_cases()),
                         [](const auto& param_info) { return case_name(param_info.param); });

struct Strategy {
  Construction construction;
  Selection selection;
  Launch launch;
};

std::string strategy_name(const Strategy& s) {
  return std::string(to_string(s.construction)) + " " + std::string(to_string(s.selection)) + " " +
         std::string(to_string(s.launch));
}

/// Every supported construction x selection x launch (from the one table in config.cpp).
std::vector<Strategy> every_strategy() {
  std::vector<Strategy> all;
  for (const auto& c : construction_names())
    for (const auto& s : selection_names())
      for (const auto& l : launch_names()) {
        const Strategy strategy{*parse_construction(c.name), *parse_selection(s.name), *parse_launch(l.name)};
        if (strategy.construction != Construction::Auto && supports(strategy.construction, strategy.selection) &&
            supports(strategy.construction, strategy.launch))
          all.push_back(strategy);
      }
  return all;
}

AntSystemConfig config_of(const Strategy& s, uint64_t seed = 5) {
  AntSystemConfig config;
  config.construction = s.construction;
  config.selection = s.selection;
  config.launch = s.launch;
  config.seed = seed;
  return config;
}

using colony::expect_valid_tours;

/// A strategy as a test name's part: block_per_ant_roulette_ke_all.
std::string strategy_tag(const Strategy& s) {
  return test::test_name(strategy_name(s));
}

std::string strategy_test_name(const ::testing::TestParamInfo<Strategy>& info) {
  return strategy_tag(info.param);
}

TEST(ConstructionStrategies, EveryConstructionSelectionAndLaunchThatIsSupported) {
  EXPECT_EQ(every_strategy().size(), 31u);
}

// One test per size and strategy, so that a slow strategy (or a tool's slowdown of it) holds back
// no other and each can run in a process of its own.
class EveryStrategy : public ::testing::TestWithParam<std::tuple<int, Strategy>> {};

TEST_P(EveryStrategy, BuildsValidToursWithExactLengths) {
  FORMICA_REQUIRE_CUDA();
  const auto [n, s] = GetParam();
  const Instance instance = n == 4461 && test::tsplib_dir() ? test::tsplib_instance("fnl4461")
                                                            : io::generate_instance(n, io::InstanceKind::Clustered, n);
  AntSystemConfig config = config_of(s);
  config.ants = test::test_ants(n > 1000 ? 64 : n);  // n > 1000: every ant's tour is checked on the host
  AntSystemCuda colony(instance, config);
  EXPECT_EQ(colony.plan().construction, s.construction);
  for (int it = 0; it < 2; ++it) ASSERT_TRUE(colony.step(StopFlag{}));
  expect_valid_tours(instance, colony);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EveryStrategy,
                         ::testing::Combine(::testing::Values(3, 4, 33, 1000, 4461),
                                            ::testing::ValuesIn(every_strategy())),
                         [](const auto& param_info) {
                           return test::size_name(std::get<0>(param_info.param)) + "_" +
                                  strategy_tag(std::get<1>(param_info.param));
                         });

class OddBlockSizes : public ::testing::TestWithParam<Strategy> {};

TEST_P(OddBlockSizes, BuildValidTours) {
  FORMICA_REQUIRE_CUDA();
  const Strategy s = GetParam();
  const Instance instance = io::generate_instance(777, io::InstanceKind::Uniform, 3);
  for (int block : {32, 1024}) {
    if (s.construction == Construction::BlockPerAnt && block * 32 < instance.n()) continue;
    SCOPED_TRACE("block " + std::to_string(block));
    AntSystemConfig config = config_of(s);
    config.block_size = block;
    config.ants = test::test_ants(instance.n());
    AntSystemCuda colony(instance, config);
    ASSERT_TRUE(colony.step(StopFlag{}));
    expect_valid_tours(instance, colony);
  }
}

std::vector<Strategy> strategies_with_block_sizes() {
  std::vector<Strategy> strategies;
  for (const Strategy& s : every_strategy())
    if (s.construction != Construction::WarpPerAnt) strategies.push_back(s);
  return strategies;
}

INSTANTIATE_TEST_SUITE_P(ConstructionStrategies, OddBlockSizes,
                         ::testing::ValuesIn(strategies_with_block_sizes()), strategy_test_name);

// One test per size and strategy (as EveryStrategy): a tool's slowdown of one holds back no other.
class KeOne : public ::testing::TestWithParam<std::tuple<int, Strategy>> {};

TEST_P(KeOne, BuildsTheToursKeAllBuilds) {
  FORMICA_REQUIRE_CUDA();
  const auto [n, s] = GetParam();
  const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 7 * n);
  const auto run = [&](Launch launch) {
    AntSystemConfig config = config_of(s);
    config.launch = launch;
    config.ants = test::test_ants(n);
    AntSystemCuda colony(instance, config);
    for (int it = 0; it < 3; ++it) colony.step(StopFlag{});  // the graph is replayed with new keys
    return std::make_pair(colony.tours(), colony.pheromone());
  };
  const auto all = run(Launch::KeAll), one = run(Launch::KeOne);
  EXPECT_EQ(all.first, one.first);
  EXPECT_EQ(all.second, one.second);
}

/// The strategies that KE-ONE launches.
std::vector<Strategy> ke_one_strategies() {
  std::vector<Strategy> strategies;
  for (const Strategy& s : every_strategy())
    if (s.launch == Launch::KeOne) strategies.push_back(s);
  return strategies;
}

INSTANTIATE_TEST_SUITE_P(Sizes, KeOne,
                         ::testing::Combine(::testing::Values(33, 1000), ::testing::ValuesIn(ke_one_strategies())),
                         [](const auto& param_info) {
                           return test::size_name(std::get<0>(param_info.param)) + "_" +
                                  strategy_tag(std::get<1>(param_info.param));
                         });

class SameSeed : public ::testing::TestWithParam<Strategy> {};

TEST_P(SameSeed, SameResult) {
  FORMICA_REQUIRE_CUDA();
  const Strategy s = GetParam();
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 1);
  const auto run = [&](uint64_t seed) {
    AntSystemConfig config = config_of(s, seed);
    config.ants = test::test_ants(instance.n());
    AntSystemCuda colony(instance, config);
    for (int it = 0; it < 3; ++it) colony.step(StopFlag{});
    return std::make_pair(colony.best_tour(), colony.pheromone());
  };
  const auto a = run(7), b = run(7), c = run(8);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, b.second);
  EXPECT_NE(a.first, c.first);
}

INSTANTIATE_TEST_SUITE_P(ConstructionStrategies, SameSeed, ::testing::ValuesIn(every_strategy()),
                         strategy_test_name);

// One test per strategy, so that a tool's slowdown of one (racecheck's of the block-per-ant
// roulettes) holds back no other and each can run in a process of its own.
class HundredIterationsOnD198 : public ::testing::TestWithParam<Strategy> {};

TEST_P(HundredIterationsOnD198, LandInThePapersRange) {
  FORMICA_REQUIRE_CUDA();
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance("d198");
  const Strategy s = GetParam();
  AntSystemCuda colony(instance, config_of(s, 1));
  for (int it = 0; it < 100; ++it) colony.step(StopFlag{});
  const double gap = gap_percent(colony.best_length(), *known_optimum(instance.name(), instance.n()));
  RecordProperty("gap_percent", std::to_string(gap));
  expect_valid_tours(instance, colony);
  // I-Roulette is not the Ant System's rule: its quality is recorded, not bounded by the paper's.
  if (s.selection == Selection::IRoulette) return;
  // Uchida et al. Table 4: +7.4 % on the GPU; the CPU test documents our spread (3-15 %).
  EXPECT_GE(gap, 3.0);
  EXPECT_LE(gap, 15.0);
}

INSTANTIATE_TEST_SUITE_P(ConstructionStrategies, HundredIterationsOnD198,
                         ::testing::Values(Strategy{Construction::BlockPerAnt, Selection::Roulette, Launch::KeAll},
                                           Strategy{Construction::BlockPerAnt, Selection::TileRoulette, Launch::KeAll},
                                           Strategy{Construction::ThreadPerAnt, Selection::Roulette, Launch::KeAll},
                                           Strategy{Construction::Stc, Selection::TileRoulette, Launch::KeAll},
                                           Strategy{Construction::StDynamic, Selection::Roulette, Launch::KeAll},
                                           Strategy{Construction::BlockPerAnt, Selection::IRoulette, Launch::KeAll}),
                         strategy_test_name);

TEST(ConstructionStrategies, AutoRunsTheMeasuredDefault) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 2);
  AntSystemConfig config;
  AntSystemCuda colony(instance, config);
  EXPECT_EQ(colony.plan().construction, resolve_construction(Construction::Auto, config.selection, config.launch));
  config.selection = Selection::TileRoulette;
  AntSystemCuda tiles(instance, config);
  EXPECT_EQ(tiles.plan().construction, Construction::BlockPerAnt);
  ASSERT_TRUE(tiles.step(StopFlag{}));
  expect_valid_tours(instance, tiles);
}

#else

TEST(ConstructionStrategies, NotBuilt) { GTEST_SKIP() << "skipped: built without CUDA"; }

#endif

}  // namespace
}  // namespace formica::aco
