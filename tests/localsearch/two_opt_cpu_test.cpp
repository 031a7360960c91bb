// SPDX-License-Identifier: MIT
// The CPU 2-opt search with random restarts: it finishes after its restarts, every restart ends in
// a local optimum, the result is the best restart, and the same seed gives the same result.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/two_opt_cpu.h"
#include "localsearch/start_tour.h"
#include "solver/parameters.h"
#include "solver/solver.h"
#include "two_opt_check.h"

namespace formica::localsearch::cpu {
namespace {

TwoOptConfig config_of(int64_t restarts, int k, StartKind start, int threads, uint64_t seed = 1) {
  TwoOptConfig c;
  c.restarts = restarts;
  c.k_swap = k;
  c.start = start;
  c.threads = threads;
  c.seed = seed;
  return c;
}

void run_to_end(TwoOptSearch& search) {
  while (!search.finished()) ASSERT_TRUE(search.step(StopFlag{}));
}

TEST(TwoOptCpu, FinishesAfterItsRestartsWithTheBestOfThem) {
  const Instance instance = io::generate_instance(150, io::InstanceKind::Uniform, 8);
  TwoOptCpu search(instance, config_of(7, kUnlimitedSwaps, StartKind::Random, 3));
  run_to_end(search);
  EXPECT_EQ(search.restarts_done(), 7);
  EXPECT_EQ(search.stats().restarts, 7);
  EXPECT_TRUE(search.step(StopFlag{}));  // a finished search does nothing more
  EXPECT_EQ(search.stats().restarts, 7);
  // Recompute every restart on its own: the search's best is the shortest, first among equals.
  int64_t best = std::numeric_limits<int64_t>::max(), best_restart = -1;
  for (int r = 0; r < 7; ++r) {
    std::vector<int32_t> tour = random_start(150, 1, r);
    climb_best_improvement(instance, tour, kUnlimitedSwaps, 1);
    FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, tour);
    if (tour_length(instance, tour) < best) best = tour_length(instance, tour), best_restart = r;
  }
  EXPECT_EQ(search.best_length(), best);
  EXPECT_EQ(search.best_restart(), best_restart);
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), best);
}

TEST(TwoOptCpu, TakesNoToursFromOutsideAndSaysSo) {
  const Instance instance = io::generate_instance(20, io::InstanceKind::Uniform, 2);
  TwoOptConfig config;
  config.restarts = 4;
  TwoOptCpu search(instance, config);
  ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_FALSE(search.supports_adoption());
  EXPECT_THROW(search.adopt(search.best_tour(), search.best_length()), std::logic_error);
}

TEST(TwoOptCpu, SameSeedSameResultWhateverTheThreads) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 9);
  for (StartKind start : {StartKind::Random, StartKind::NearestNeighbour, StartKind::SpaceFillingCurve}) {
    TwoOptCpu one(instance, config_of(5, 3, start, 1, 42)), four(instance, config_of(5, 3, start, 4, 42));
    run_to_end(one);
    run_to_end(four);
    EXPECT_EQ(one.best_tour(), four.best_tour());
    EXPECT_EQ(one.stats().passes, four.stats().passes);
    FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, one.best_tour());
  }
  TwoOptCpu a(instance, config_of(3, 1, StartKind::Random, 2, 1)), b(instance, config_of(3, 1, StartKind::Random, 2, 2));
  run_to_end(a);
  run_to_end(b);
  EXPECT_NE(a.best_tour(), b.best_tour());
}

TEST(TwoOptCpu, LargeToursTakeTheNeighbourListPathAndEndInALocalOptimum) {
  const Instance instance = io::generate_instance(kNeighbourListMinCities, io::InstanceKind::Uniform, 10);
  TwoOptCpu search(instance, config_of(1, kUnlimitedSwaps, StartKind::SpaceFillingCurve, 2));
  run_to_end(search);
  EXPECT_GT(search.stats().neighbour_passes, 0);
  EXPECT_GE(search.stats().passes, 1);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search.best_tour());
}

TEST(TwoOptCpu, StopRequestKeepsNothingOfTheBatch) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 1);
  TwoOptCpu search(instance, config_of(4, 1, StartKind::Random, 1));
  std::atomic<bool> interrupt{true};
  StopFlag stop;
  stop.interrupt = &interrupt;
  EXPECT_FALSE(search.step(stop));
  EXPECT_TRUE(search.best_tour().empty());
  EXPECT_EQ(search.restarts_done(), 0);
}

TEST(TwoOptSolver, RestartsEndTheRunAndParametersParse) {
  const Instance instance = io::generate_instance(120, io::InstanceKind::Uniform, 12);
  SolverConfig config;
  set_parameter(config, "algorithm", "two-opt");
  set_parameter(config, "backend", "cpu");
  set_parameter(config, "restarts", "5");
  set_parameter(config, "k-swap", "inf");
  set_parameter(config, "start", "nearest-neighbour");
  set_parameter(config, "threads", "2");
  EXPECT_EQ(config.two_opt.k_swap, kUnlimitedSwaps);
  const Result result = solve(instance, config);
  EXPECT_EQ(result.stop_reason, "finished");
  EXPECT_GE(result.iterations, 1);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, result.tour.order());
  EXPECT_EQ(parameters_json(config)["k_swap"], "inf");
  set_parameter(config, "k-swap", "16");
  EXPECT_EQ(config.two_opt.k_swap, 16);
  EXPECT_THROW(set_parameter(config, "k-swap", "0"), InputError);
  EXPECT_THROW(set_parameter(config, "k-swap", "many"), InputError);
  EXPECT_THROW(set_parameter(config, "start", "greedy"), InputError);
  config.two_opt.threads_per_block = 100;
  EXPECT_THROW(config.validate(), InputError);
  config.two_opt.threads_per_block = 0;
  set_parameter(config, "block-neighbours", "8");  // the GPU block climber's pre-climb lists
  EXPECT_EQ(config.two_opt.block_neighbours, 8);
  EXPECT_EQ(parameters_json(config)["block_neighbours"], 8);
  config.two_opt.block_neighbours = 65;
  EXPECT_THROW(config.validate(), InputError);
}

TEST(TwoOptSolver, SpaceFillingCurveStartNeedsCoordinates) {
  const Instance matrix = Instance::from_matrix("m", 4, {0, 5, 2, 9, 5, 0, 5, 1, 2, 5, 0, 7, 9, 1, 7, 0});
  TwoOptConfig config;
  config.start = StartKind::SpaceFillingCurve;
  EXPECT_THROW(TwoOptCpu(matrix, config), InputError);
  config.start = StartKind::Random;
  TwoOptCpu search(matrix, config_of(3, 1, StartKind::Random, 1));
  run_to_end(search);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(matrix, search.best_tour());
}

}  // namespace
}  // namespace formica::localsearch::cpu
