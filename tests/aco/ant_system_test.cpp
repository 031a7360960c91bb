// SPDX-License-Identifier: MIT
// The CPU Ant System: the pheromone rule by hand, determinism across thread counts, and the
// solution quality Uchida et al. report for plain AS after 100 iterations (their Table 4).
#include <gtest/gtest.h>

#include "aco/cpu/ant_system.h"
#include "core/nearest_neighbour.h"
#include "core/tour.h"
#include "io/generator.h"
#include "io/known_optima.h"
#include "test_support.h"

namespace formica::aco {
namespace {

TEST(AntSystemCpu, InitialPheromoneIsAntsOverNearestNeighbourLength) {
  const Instance instance = io::generate_instance(60, io::InstanceKind::Uniform, 4);
  AntSystemConfig config;
  const AntSystemCpu colony(instance, config);
  const double l_nn = static_cast<double>(tour_length(instance, nearest_neighbour_tour(instance, 0)));
  EXPECT_DOUBLE_EQ(colony.initial_pheromone(), 60 / l_nn);
  for (float tau : colony.pheromone()) EXPECT_FLOAT_EQ(tau, static_cast<float>(60 / l_nn));
}

TEST(AntSystemCpu, UpdateEvaporatesThenDepositsOnBothDirections) {
  const Instance instance("square", EdgeWeightType::Euc2D, {0, 10, 10, 0}, {0, 0, 10, 10});
  AntSystemConfig config;
  config.rho = 0.25;
  AntSystemCpu colony(instance, config);
  const float tau0 = colony.pheromone()[1];
  const std::vector<int32_t> tours = {0, 1, 2, 3, /* second ant */ 0, 2, 1, 3};
  const std::vector<int64_t> lengths = {40, 48};
  colony.update_pheromone(tours, lengths);
  const auto tau = colony.pheromone();
  const auto at = [&](int i, int j) { return tau[i * 4 + j]; };
  const float kept = 0.75f * tau0;
  EXPECT_FLOAT_EQ(at(0, 1), kept + 1.0f / 40);          // first ant only
  EXPECT_FLOAT_EQ(at(1, 2), kept + 1.0f / 40 + 1.0f / 48);  // both ants
  EXPECT_FLOAT_EQ(at(0, 2), kept + 1.0f / 48);          // second ant only
  EXPECT_FLOAT_EQ(at(0, 0), kept);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(at(i, j), at(j, i));
}

std::pair<int64_t, std::vector<int32_t>> run(const Instance& instance, Selection selection, int threads,
                                             uint64_t seed, int iterations) {
  AntSystemConfig config;
  config.selection = selection;
  config.threads = threads;
  config.seed = seed;
  AntSystemCpu colony(instance, config);
  for (int i = 0; i < iterations; ++i) EXPECT_TRUE(colony.step(StopFlag{}));
  const Tour best(instance, colony.best_tour());  // validates the permutation
  EXPECT_EQ(best.length(), colony.best_length());
  for (int k = 0; k < colony.ants(); ++k) {
    const auto tours = colony.tours();
    const std::vector<int32_t> tour(tours.begin() + k * instance.n(), tours.begin() + (k + 1) * instance.n());
    EXPECT_EQ(Tour(instance, tour).length(), colony.tour_lengths()[k]);
  }
  return {colony.best_length(), colony.best_tour()};
}

TEST(AntSystemCpu, EverySelectionGivesValidToursAtSmallSizes) {
  for (int n : {3, 4, 5, 31, 32, 33}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    for (auto selection : {Selection::Roulette, Selection::Compression, Selection::StochasticTrial, Selection::Hybrid})
      run(instance, selection, 1, 7, 3);
  }
}

TEST(AntSystemCpu, SameSeedSameResultWhateverTheThreadCount) {
  const Instance instance = io::generate_instance(120, io::InstanceKind::Clustered, 8);
  for (auto selection : {Selection::Roulette, Selection::Hybrid}) {
    const auto sequential = run(instance, selection, 1, 99, 10);
    const auto threaded = run(instance, selection, 4, 99, 10);
    EXPECT_EQ(sequential, threaded);
    EXPECT_NE(run(instance, selection, 4, 100, 10).second, sequential.second);
  }
}

TEST(AntSystemCpu, StopRequestAbandonsTheIteration) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 1);
  AntSystemCpu colony(instance, AntSystemConfig{});
  std::atomic<bool> interrupt{true};
  StopFlag stop;
  stop.interrupt = &interrupt;
  EXPECT_FALSE(colony.step(stop));
  EXPECT_TRUE(colony.best_tour().empty());
}

// Uchida et al. Table 4, plain AS (alpha 1, beta 2, rho 0.5, m = n), 100 iterations:
// d198 +6.4 % (CPU) / +7.4 % (GPU), lin318 +15.5 % / +13.6 %, pcb442 +24.7 % / +22.4 %.
struct QualityCase {
  const char* name;
  double min_gap, max_gap;  // percent
};

class AntSystemQuality : public ::testing::TestWithParam<QualityCase> {};

TEST_P(AntSystemQuality, HundredIterationsLandInThePapersRange) {
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance(GetParam().name);
  const auto sequential = run(instance, Selection::Roulette, 1, 1, 100);
  const auto threaded = run(instance, Selection::Roulette, 4, 1, 100);
  EXPECT_EQ(sequential, threaded);
  const double gap = 100.0 * (sequential.first - *known_optimum(instance.name(), instance.n())) /
                     static_cast<double>(*known_optimum(instance.name(), instance.n()));
  RecordProperty("gap_percent", std::to_string(gap));
  EXPECT_GE(gap, GetParam().min_gap);
  EXPECT_LE(gap, GetParam().max_gap);
}

INSTANTIATE_TEST_SUITE_P(Uchida2012Table4, AntSystemQuality,
                         ::testing::Values(QualityCase{"d198", 3.0, 15.0}, QualityCase{"lin318", 10.0, 20.0},
                                           QualityCase{"pcb442", 18.0, 30.0}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace formica::aco
