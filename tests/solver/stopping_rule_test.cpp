// SPDX-License-Identifier: MIT
// StoppingRule, one rule at a time, and the rules as formica::solve applies them: small instances
// exactly, default budgets ending when done, named budgets kept, a callback that stops the run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "core/exact_tour.h"
#include "core/tour.h"
#include "io/generator.h"
#include "solver/parameters.h"
#include "solver/route_support.h"
#include "solver/solver.h"
#include "solver/stopping_rule.h"

namespace formica {
namespace {

TEST(StoppingRule, BeforeAStepInTheSolversOrder) {
  StoppingRule rule;
  std::atomic<bool> interrupt{false};
  rule.stop.interrupt = &interrupt;
  EXPECT_EQ(rule.before_step(5, false, true), "");
  rule.iterations = 5;
  EXPECT_EQ(rule.before_step(4, false, true), "");
  EXPECT_EQ(rule.before_step(5, true, true), "iterations");
  EXPECT_EQ(rule.before_step(4, true, true), "finished");
  interrupt = true;
  EXPECT_EQ(rule.before_step(0, false, false), "");  // the first iteration completes
  EXPECT_EQ(rule.before_step(1, false, true), "interrupted");
  EXPECT_EQ(rule.after_incomplete_step(), "interrupted");
  interrupt = false;
  rule.stop.deadline = std::chrono::steady_clock::now();
  EXPECT_EQ(rule.before_step(1, false, true), "time limit");
  EXPECT_EQ(rule.after_incomplete_step(), "time limit");
}

TEST(StoppingRule, ATimeLimitThatFiredWithTheTargetMetReportsTheTarget) {
  EXPECT_EQ(StoppingRule::final_reason("time limit", 100, 90), "target");
  EXPECT_EQ(StoppingRule::final_reason("time limit", 100, 100), "target");
  EXPECT_EQ(StoppingRule::final_reason("time limit", 100, 101), "time limit");
  EXPECT_EQ(StoppingRule::final_reason("time limit", std::nullopt, 1), "time limit");
  EXPECT_EQ(StoppingRule::final_reason("interrupted", 100, 90), "interrupted");  // the user's word stands
}

TEST(StoppingRule, AfterAStep) {
  StoppingRule rule;
  EXPECT_EQ(rule.after_step(100, 5.0, true), "");
  EXPECT_EQ(rule.after_step(100, 500.0, false), "");  // no stall rule unless asked
  rule.target = 90;
  EXPECT_EQ(rule.after_step(90, 1.0, true), "target");
  rule.target.reset();
  std::atomic<int64_t> bound{0};
  rule.lower_bound = &bound;
  EXPECT_EQ(rule.after_step(80, 1.0, true), "");  // no bound known yet
  bound = 80;
  EXPECT_EQ(rule.after_step(81, 1.0, true), "");
  EXPECT_EQ(rule.after_step(80, 1.0, true), "optimal");
  rule.lower_bound = nullptr;
  int calls = 0;
  rule.keep_going = [&](int64_t, double) { return ++calls < 2; };
  EXPECT_EQ(rule.after_step(70, 1.0, true), "");
  EXPECT_EQ(rule.after_step(70, 1.5, false), "");  // called on improvements only
  EXPECT_EQ(rule.after_step(60, 2.0, true), "callback");
  EXPECT_EQ(calls, 2);
}

TEST(StoppingRule, ATourOfLengthZeroIsOptimalWithoutABound) {
  StoppingRule rule;  // no bound, no target, a named budget: nothing else would stop the run
  EXPECT_EQ(rule.after_step(1, 1.0, true), "");
  EXPECT_EQ(rule.after_step(0, 2.0, true), "optimal");
}

TEST(StoppingRule, AStallAsLongAsTheSearchTookEndsADefaultRun) {
  StoppingRule rule;
  rule.stop_on_stall = true;
  EXPECT_EQ(rule.after_step(100, 0.01, true), "");
  EXPECT_EQ(rule.after_step(100, 0.10, false), "");                         // 0.09 s < 0.1 s
  EXPECT_EQ(rule.after_step(100, 0.12, false), "no improvement");           // at least 0.1 s
  EXPECT_EQ(rule.after_step(90, 2.0, true), "");
  EXPECT_EQ(rule.after_step(90, 3.9, false), "");                           // 1.9 s < 2 s
  EXPECT_EQ(rule.after_step(90, 4.0, false), "no improvement");             // as long as it took
}

TEST(StoppingRule, KnowsWhenTheBestLastImproved) {
  StoppingRule rule;  // the bound beside a default run starts from it (solver.cpp)
  EXPECT_EQ(rule.improved_at(), 0.0);
  EXPECT_EQ(rule.after_step(100, 0.25, true), "");
  EXPECT_EQ(rule.improved_at(), 0.25);
  EXPECT_EQ(rule.after_step(100, 0.5, false), "");
  EXPECT_EQ(rule.improved_at(), 0.25);
  EXPECT_EQ(rule.after_step(90, 0.75, true), "");
  EXPECT_EQ(rule.improved_at(), 0.75);
}

SolverConfig cpu(int threads) {
  SolverConfig config;
  set_parameter(config, "backend", "cpu");
  set_parameter(config, "threads", std::to_string(threads));
  return config;
}

TEST(SolverStopping, UpToTwelveCitiesAreSolvedExactlyAtOnce) {
  const Instance instance = io::generate_instance(kExactTourCities, io::InstanceKind::Uniform, 4);
  SolverConfig config = cpu(1);
  set_parameter(config, "time-limit", "30");
  const Result result = solve(instance, config);
  EXPECT_EQ(result.stop_reason, "exact");
  EXPECT_LT(result.seconds, 0.1);
  EXPECT_EQ(result.tour.length(),
            test::held_karp(instance.n(), [&](int i, int j) { return instance.distance(i, j); }, true));
}

TEST(SolverStopping, CitiesAllOnOnePointStopAtOnceWithTheirTourOfLengthZero) {
  std::vector<double> zeros(50, 0.0);
  const Instance instance("one-point", EdgeWeightType::Euc2D, zeros, zeros);
  SolverConfig config = cpu(1);
  set_parameter(config, "time-limit", "30");
  const Result result = solve(instance, config);
  EXPECT_EQ(result.tour.length(), 0);
  EXPECT_EQ(result.stop_reason, "optimal");
  EXPECT_LT(result.seconds, 5.0);
}

TEST(SolverStopping, ADefaultBudgetEndsWhenDoneANamedOneIsKept) {
  const Instance instance = io::generate_instance(150, io::InstanceKind::Uniform, 2);
  const Result done = solve(instance, cpu(2));
  EXPECT_DOUBLE_EQ(*done.config.time_limit, 1.5);  // n / 100 s
  EXPECT_TRUE(done.stop_reason == "no improvement" || done.stop_reason == "optimal") << done.stop_reason;
  EXPECT_LT(done.seconds, 1.5);
  SolverConfig named = cpu(2);
  set_parameter(named, "time-limit", "0.3");
  const Result kept = solve(instance, named);
  EXPECT_EQ(kept.stop_reason, "time limit");
  EXPECT_GE(kept.seconds, 0.25);
}

TEST(SolverStopping, TheCallbackSeesImprovementsAndStopsTheRun) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 3);
  SolverConfig config = cpu(2);
  set_parameter(config, "time-limit", "20");
  SolveOptions options;
  int64_t last = 0;
  int calls = 0;
  options.on_improvement = [&](std::span<const int32_t> tour, int64_t length, double) {
    EXPECT_EQ(tour_length(instance, tour), length);
    EXPECT_TRUE(calls == 0 || length < last);
    last = length;
    return ++calls < 3;
  };
  const Result result = solve(instance, config, options);
  EXPECT_EQ(result.stop_reason, "callback");
  EXPECT_EQ(calls, 3);
  EXPECT_LE(result.tour.length(), last);  // the final polish may still shorten it
  EXPECT_LT(result.seconds, 10.0);
}

}  // namespace
}  // namespace formica
