// SPDX-License-Identifier: MIT
// The pheromone-update designs of Cecilia et al. and Zhou et al. on the GPU: after one iteration
// every design holds the CPU reference matrix (evaporation, then 1 / L_k on both directions of
// every ant's edges) within float tolerance and is exactly symmetric; the fixed-point designs
// agree bit for bit with one another and from run to run; scatter-gather refuses sizes past its
// work limit before touching the GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "test_support.h"

#if FORMICA_HAVE_CUDA
#include "aco/cuda/ant_system_cuda.h"
#endif

namespace formica::aco {
namespace {

#if FORMICA_HAVE_CUDA

AntSystemConfig config_of(PheromoneUpdate design, uint64_t seed = 5) {
  AntSystemConfig config;
  config.pheromone_update = design;
  config.selection = Selection::Roulette;
  config.rho = 0.3;
  config.seed = seed;
  return config;
}

std::vector<PheromoneUpdate> every_design() {
  std::vector<PheromoneUpdate> designs;
  for (const auto& name : pheromone_update_names()) designs.push_back(*parse_pheromone_update(name.name));
  return designs;
}

// One test per size and design, so that a tool's slowdown of one (racecheck's of the 777-city
// scatter-gather designs) holds back no other and each can run in a process of its own.
class OneUpdate : public ::testing::TestWithParam<std::tuple<int, PheromoneUpdate>> {};

TEST_P(OneUpdate, MatchesTheCpuReferenceAndIsSymmetric) {
  FORMICA_REQUIRE_CUDA();
  const auto [n, design] = GetParam();
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 3 * n);
  AntSystemConfig config = config_of(design);
  config.ants = test::test_ants(n);
  AntSystemCuda colony(instance, config);
  ASSERT_TRUE(colony.step(StopFlag{}));
  const auto tours = colony.tours();
  const auto lengths = colony.tour_lengths();
  const auto tau = colony.pheromone();
  std::vector<double> expected(static_cast<size_t>(n) * n,
                               (1.0 - config.rho) * static_cast<float>(colony.initial_pheromone()));
  for (int k = 0; k < colony.ants(); ++k)
    for (int p = 0; p < n; ++p) {
      const int a = tours[static_cast<size_t>(k) * n + p], b = tours[static_cast<size_t>(k) * n + (p + 1) % n];
      expected[static_cast<size_t>(a) * n + b] += 1.0 / static_cast<double>(lengths[k]);
      expected[static_cast<size_t>(b) * n + a] += 1.0 / static_cast<double>(lengths[k]);
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const size_t ij = static_cast<size_t>(i) * n + j, ji = static_cast<size_t>(j) * n + i;
      ASSERT_NEAR(tau[ij], expected[ij], 1e-5 * expected[ij]) << i << "," << j;
      ASSERT_EQ(tau[ij], tau[ji]) << "not exactly symmetric at " << i << "," << j;
    }
}

INSTANTIATE_TEST_SUITE_P(PheromoneDesigns, OneUpdate,
                         ::testing::Combine(::testing::Values(3, 4, 33, 200, 777), ::testing::ValuesIn(every_design())),
                         [](const auto& param_info) {
                           return test::size_name(std::get<0>(param_info.param)) + "_" +
                                  test::test_name(to_string(std::get<1>(param_info.param)));
                         });

TEST(PheromoneDesigns, FixedPointDesignsAgreeBitForBitAndRunToRun) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 4);
  const auto run = [&](PheromoneUpdate design) {
    AntSystemConfig config = config_of(design, 11);
    config.ants = test::test_ants(instance.n());
    AntSystemCuda colony(instance, config);
    for (int it = 0; it < 4; ++it) colony.step(StopFlag{});  // later tours depend on the earlier matrices
    return std::make_pair(colony.pheromone(), colony.best_tour());
  };
  const auto reference = run(PheromoneUpdate::Atomic);
  EXPECT_EQ(run(PheromoneUpdate::Atomic), reference);  // float atomics would not repeat
  for (PheromoneUpdate design : {PheromoneUpdate::AtomicTiled, PheromoneUpdate::ScatterGather,
                                 PheromoneUpdate::ScatterGatherTiled, PheromoneUpdate::ScatterGatherReduction}) {
    const auto other = run(design);
    EXPECT_EQ(other.first, reference.first) << to_string(design);
    EXPECT_EQ(other.second, reference.second) << to_string(design);
  }
  EXPECT_EQ(run(PheromoneUpdate::Symmetrize), run(PheromoneUpdate::Symmetrize));
}

// One test per design and construction (as OneUpdate).
class EveryDesign : public ::testing::TestWithParam<std::tuple<PheromoneUpdate, Construction>> {};

TEST_P(EveryDesign, WorksWithTheConstructionOverIterations) {
  FORMICA_REQUIRE_CUDA();
  const auto [design, construction] = GetParam();
  const Instance instance = io::generate_instance(150, io::InstanceKind::Uniform, 6);
  AntSystemConfig config = config_of(design);
  config.construction = construction;
  config.ants = test::test_ants(instance.n());
  AntSystemCuda colony(instance, config);
  for (int it = 0; it < 20; ++it) ASSERT_TRUE(colony.step(StopFlag{}));
  const auto tau = colony.pheromone();
  for (int i = 0; i < instance.n(); ++i)
    for (int j = 0; j < instance.n(); ++j) {
      const float t = tau[static_cast<size_t>(i) * instance.n() + j];
      ASSERT_TRUE(std::isfinite(t) && t > 0.f) << i << "," << j;
      ASSERT_EQ(t, tau[static_cast<size_t>(j) * instance.n() + i]);
    }
  EXPECT_GT(colony.last_step_times().pheromone_ms, 0.0);
}

INSTANTIATE_TEST_SUITE_P(PheromoneDesigns, EveryDesign,
                         ::testing::Combine(::testing::ValuesIn(every_design()),
                                            ::testing::Values(Construction::WarpPerAnt, Construction::BlockPerAnt,
                                                              Construction::StDynamic)),
                         [](const auto& param_info) {
                           return test::test_name(to_string(std::get<0>(param_info.param))) + "_" +
                                  test::test_name(to_string(std::get<1>(param_info.param)));
                         });

TEST(PheromoneDesigns, ScatterGatherRefusesLargeInstancesWithTheNumbers) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(1577, io::InstanceKind::Uniform, 1);
  for (PheromoneUpdate design : {PheromoneUpdate::ScatterGather, PheromoneUpdate::ScatterGatherTiled,
                                 PheromoneUpdate::ScatterGatherReduction}) {
    try {
      AntSystemCuda colony(instance, config_of(design));
      FAIL() << to_string(design) << " accepted n = 1577 with m = n";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("edge checks per iteration for n = 1577"), std::string::npos) << e.what();
    }
  }
}

#else

TEST(PheromoneDesigns, NotBuilt) { GTEST_SKIP() << "skipped: built without CUDA"; }

#endif

}  // namespace
}  // namespace formica::aco
