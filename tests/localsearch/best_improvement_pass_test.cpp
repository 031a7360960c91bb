// SPDX-License-Identifier: MIT
// The CPU best-improvement pass against brute force on every metric, and its climb to a 2-opt
// local optimum checked independently, at n = 3, 4, 5, 17, 200 and 1000.
#include <gtest/gtest.h>

#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/best_improvement_pass.h"
#include "localsearch/start_tour.h"
#include "two_opt_check.h"

namespace formica::localsearch::cpu {
namespace {

class BestImprovementPass : public ::testing::TestWithParam<EdgeWeightType> {};

TEST_P(BestImprovementPass, EveryRowKeepsItsBestMoveWithItsExactGain) {
  for (int n : {3, 4, 5, 17, 200}) {
    const Instance instance = test::metric_instance(GetParam(), n, 31 * n);
    const std::vector<int32_t> tour = random_start(n, 2, n);
    const std::vector<Candidate> found = improving_moves(instance, tour, 1);
    // Brute force: the best gain of each row i over j.
    std::vector<int64_t> row_best(static_cast<size_t>(n), 0);
    for (int i = 0; i < n; ++i)
      for (int j = i + 2; j < n; ++j)
        if (is_move(n, i, j)) row_best[i] = std::max(row_best[i], two_opt_gain(instance, tour, {i, j}));
    size_t rows_improving = 0;
    for (int64_t g : row_best) rows_improving += g > 0;
    ASSERT_EQ(found.size(), rows_improving) << "n = " << n;
    for (size_t c = 0; c < found.size(); ++c) {
      const Candidate& candidate = found[c];
      ASSERT_TRUE(is_move(n, candidate.move.i, candidate.move.j));
      EXPECT_EQ(candidate.gain, two_opt_gain(instance, tour, candidate.move));
      EXPECT_EQ(candidate.gain, row_best[candidate.move.i]);
      if (c > 0) {
        EXPECT_GE(found[c - 1].gain, candidate.gain);  // best first
      }
    }
    if (!found.empty()) {
      EXPECT_EQ(found.front().gain, test::best_two_opt_gain(instance, tour));
    }
    EXPECT_EQ(improving_moves(instance, tour, 3).size(), found.size());  // threads change nothing
  }
}

TEST_P(BestImprovementPass, ClimbEndsInALocalOptimum) {
  for (int n : {3, 4, 5, 17, 200}) {
    const Instance instance = test::metric_instance(GetParam(), n, 7 * n);
    for (int k : {1, 4, kUnlimitedSwaps}) {
      std::vector<int32_t> tour = random_start(n, 3, k);
      const ClimbCounts counts = climb_best_improvement(instance, tour, k, 2);
      EXPECT_TRUE(counts.completed);
      EXPECT_EQ(counts.evaluations, counts.passes * moves_per_pass(n));
      FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, tour);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllMetrics, BestImprovementPass, ::testing::ValuesIn(test::all_metrics()),
                         [](const auto& param_info) {
                           std::string name(to_string(param_info.param));
                           std::erase(name, '_');
                           return name;
                         });

TEST(BestImprovementClimb, ThousandCitiesAndThreads) {
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Clustered, 5);
  std::vector<int32_t> one = random_start(1000, 4, 0), four = one;
  const ClimbCounts a = climb_best_improvement(instance, one, kUnlimitedSwaps, 1);
  const ClimbCounts b = climb_best_improvement(instance, four, kUnlimitedSwaps, 4);
  EXPECT_EQ(one, four);
  EXPECT_EQ(a.passes, b.passes);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, one);
}

TEST(BestImprovementClimb, InfinitySwapNeedsFarFewerPassesThanOneSwap) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Uniform, 6);
  std::vector<int32_t> one = random_start(500, 1, 0), many = one;
  const ClimbCounts k1 = climb_best_improvement(instance, one, 1, 2);
  const ClimbCounts kinf = climb_best_improvement(instance, many, kUnlimitedSwaps, 2);
  EXPECT_EQ(k1.moves + 1, k1.passes);  // one move per pass, then the pass that finds none
  EXPECT_LT(kinf.passes * 4, k1.passes);
}

TEST(BestImprovementClimb, StopRequestEndsTheClimb) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 6);
  std::vector<int32_t> tour = random_start(300, 1, 0);
  std::atomic<bool> interrupt{true};
  StopFlag stop;
  stop.interrupt = &interrupt;
  EXPECT_FALSE(climb_best_improvement(instance, tour, 1, 1, &stop).completed);
}

}  // namespace
}  // namespace formica::localsearch::cpu
