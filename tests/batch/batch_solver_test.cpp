// SPDX-License-Identifier: MIT
// The batch solver on the CPU: jagged batches, exact lengths, determinism, limits, errors.
#include "batch/batch_solver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "batch_support.h"
#include "core/error.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica::batch {
namespace {

using test::brute_force_optimum;
using test::matrix_instance;
using test::uniform_batch;

BatchConfig cpu_config(int64_t kicks, int walks = 2) {
  BatchConfig config;
  config.backend = Backend::Cpu;
  config.kicks = kicks;
  config.walks = walks;
  config.threads = 2;
  return config;
}

TEST(BatchSolver, JaggedBatchGivesValidToursWithExactLengths) {
  const std::vector<Instance> instances = uniform_batch({3, 4, 7, 8, 9, 31, 32, 33, 100, 257, 1000});
  const Batch batch = solve_batch(instances, cpu_config(50));
  ASSERT_EQ(batch.results.size(), instances.size());
  EXPECT_EQ(batch.backend, Backend::Cpu);
  for (size_t i = 0; i < instances.size(); ++i) {
    const BatchResult& r = batch.results[i];
    validate_permutation(r.tour.order(), instances[i].n());
    EXPECT_EQ(r.tour.length(), tour_length(instances[i], r.tour.order())) << "instance " << i;
    ASSERT_FALSE(r.history.empty());
    EXPECT_EQ(r.history.back().length, r.tour.length());
    if (instances[i].n() < 8) {
      EXPECT_EQ(r.stop_reason, "exact");
    } else {
      EXPECT_EQ(r.stop_reason, "kicks");
      EXPECT_EQ(r.kicks, 50 * 2) << "every walk spends its budget";
      EXPECT_EQ(r.walks, 2);
    }
  }
}

TEST(BatchSolver, SameSeedGivesTheSameToursWhateverTheThreads) {
  const std::vector<Instance> instances = uniform_batch({12, 50, 101, 200});
  BatchConfig one = cpu_config(80, 3), two = one;
  one.threads = 1;
  two.threads = 2;
  const Batch a = solve_batch(instances, one), b = solve_batch(instances, two);
  for (size_t i = 0; i < instances.size(); ++i) {
    EXPECT_EQ(a.results[i].tour.length(), b.results[i].tour.length());
    EXPECT_TRUE(std::ranges::equal(a.results[i].tour.order(), b.results[i].tour.order())) << "instance " << i;
  }
  BatchConfig other = one;
  other.seed = 99;
  const Batch c = solve_batch(instances, other);
  bool differs = false;
  for (size_t i = 0; i < instances.size(); ++i)
    differs |= !std::ranges::equal(a.results[i].tour.order(), c.results[i].tour.order());
  EXPECT_TRUE(differs) << "another seed should walk elsewhere on some instance";
}

TEST(BatchSolver, AnInstanceSolvedAloneWithItsSeedGivesWhatItGaveInTheBatch) {
  const std::vector<Instance> instances = uniform_batch({60, 80, 120});
  const BatchConfig config = cpu_config(60, 2);
  const Batch batch = solve_batch(instances, config);
  BatchConfig alone = config;
  alone.seed = config.seed + 2;
  const Batch single = solve_batch(std::span(instances).subspan(2, 1), alone);
  EXPECT_EQ(single.results[0].seed, batch.results[2].seed);
  EXPECT_TRUE(std::ranges::equal(single.results[0].tour.order(), batch.results[2].tour.order()));
}

TEST(BatchSolver, SmallInstancesReachTheOptimum) {
  std::vector<Instance> instances;
  for (int i = 0; i < 12; ++i) instances.push_back(io::generate_instance(3 + i % 9, io::InstanceKind::Uniform, 100 + i));
  for (int i = 0; i < 4; ++i) instances.push_back(matrix_instance(6 + i, 200 + i));
  const Batch batch = solve_batch(instances, cpu_config(300));
  for (size_t i = 0; i < instances.size(); ++i)
    EXPECT_EQ(batch.results[i].tour.length(), brute_force_optimum(instances[i])) << "instance " << i;
}

TEST(BatchSolver, KicksShortenTheClimbedStart) {
  const std::vector<Instance> instances = uniform_batch({300, 400});
  const Batch none = solve_batch(instances, cpu_config(0, 1)), some = solve_batch(instances, cpu_config(2000, 1));
  for (size_t i = 0; i < instances.size(); ++i) {
    EXPECT_EQ(none.results[i].kicks, 0);
    EXPECT_LT(some.results[i].tour.length(), none.results[i].tour.length()) << "instance " << i;
  }
}

TEST(BatchSolver, PerInstanceLimitsApply) {
  const std::vector<Instance> instances = uniform_batch({100, 100, 100});
  BatchConfig config = cpu_config(100, 1);
  std::vector<InstanceLimits> limits(3);
  limits[0].kicks = 5;
  limits[1].seed = 1234;
  limits[2].target = 1'000'000'000;  // any tour is shorter: stops after the first climb
  const Batch batch = solve_batch(instances, config, limits);
  EXPECT_EQ(batch.results[0].kicks, 5);
  EXPECT_EQ(batch.results[1].seed, 1234u);
  EXPECT_EQ(batch.results[1].kicks, 100);
  EXPECT_EQ(batch.results[2].stop_reason, "target");
  EXPECT_EQ(batch.results[2].kicks, 0);
}

TEST(BatchSolver, AnInstanceOfLengthZeroEndsAsOptimalWithoutItsBudget) {
  // Every city on one point: the climbed start is optimal, and no walk kicks on for the time limit.
  std::vector<Instance> instances = uniform_batch({60});
  const std::vector<double> zeros(60, 0.0);
  instances.emplace_back("one-point", EdgeWeightType::Euc2D, zeros, zeros);
  BatchConfig config = cpu_config(0);
  config.kicks.reset();
  config.time_limit = 30.0;
  std::vector<InstanceLimits> limits(2);
  limits[0].kicks = 20;
  const auto start = std::chrono::steady_clock::now();
  const Batch batch = solve_batch(instances, config, limits);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(batch.results[0].stop_reason, "kicks");
  EXPECT_EQ(batch.results[1].tour.length(), 0);
  EXPECT_EQ(batch.results[1].stop_reason, "optimal");
  EXPECT_EQ(batch.results[1].kicks, 0);
}

TEST(BatchSolver, TimeLimitEndsEveryWalkAndSharesTheTimeAmongThem) {
  // 40 walks on 2 threads: each gets its share of the second, none is left without kicks. A walk's
  // climbed start tour takes its share too (about 10 ms each on a busy 2-core machine: with 0.3 s
  // the last walk sometimes began after the limit), so the limit leaves room for all 40 climbs.
  const std::vector<Instance> instances = uniform_batch(std::vector<int>(40, 300));
  BatchConfig config;
  config.backend = Backend::Cpu;
  config.threads = 2;
  config.time_limit = 1.0 * formica::test::time_scale();
  const auto start = std::chrono::steady_clock::now();
  const Batch batch = solve_batch(instances, config);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0 * formica::test::time_scale());
  for (const BatchResult& r : batch.results) {
    EXPECT_EQ(r.stop_reason, "time limit");
    EXPECT_GT(r.kicks, 0);
  }
}

TEST(BatchSolver, InterruptKeepsEveryInstancesBestTour) {
  const std::vector<Instance> instances = uniform_batch({200, 300});
  std::atomic<bool> interrupt{true};
  BatchOptions options;
  options.interrupt = &interrupt;
  BatchConfig config = cpu_config(1'000'000, 1);
  const Batch batch = solve_batch(instances, config, {}, options);
  for (size_t i = 0; i < instances.size(); ++i) {
    EXPECT_EQ(batch.results[i].stop_reason, "interrupted");
    validate_permutation(batch.results[i].tour.order(), instances[i].n());
  }
}

TEST(BatchSolver, ProgressCountsEveryInstance) {
  const std::vector<Instance> instances = uniform_batch({5, 20, 40, 60});
  BatchOptions options;
  int last = -1, total = 0;
  options.on_progress = [&](const BatchProgress& p) {
    EXPECT_GE(p.done, last);
    last = p.done;
    total = p.total;
  };
  solve_batch(instances, cpu_config(20), {}, options);
  EXPECT_EQ(last, 4);
  EXPECT_EQ(total, 4);
}

TEST(BatchSolver, BadInputNamesTheInstance) {
  const std::vector<Instance> instances = uniform_batch({10, 10, 10});
  std::vector<InstanceLimits> limits(3);
  limits[2].kicks = -1;
  try {
    solve_batch(instances, cpu_config(10), limits);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("instance 2"), std::string::npos) << e.what();
  }
  limits.pop_back();
  EXPECT_THROW(solve_batch(instances, cpu_config(10), limits), InputError);
  EXPECT_THROW(solve_batch(std::span<const Instance>(), cpu_config(10)), InputError);
  BatchConfig bad = cpu_config(10);
  bad.neighbours = 1;
  EXPECT_THROW(solve_batch(instances, bad), InputError);
  bad = cpu_config(10);
  bad.local_search = localsearch::LocalSearchKind::None;
  EXPECT_THROW(solve_batch(instances, bad), InputError);
  bad = cpu_config(10);
  bad.time_limit = -1.0;
  EXPECT_THROW(solve_batch(instances, bad), InputError);
}

TEST(BatchSolver, AutoWalksFillTheThreadsOrTheGpu) {
  BatchConfig config;
  config.threads = 16;
  EXPECT_EQ(resolve_walks(config, 1, Backend::Cpu), 16);
  EXPECT_EQ(resolve_walks(config, 16, Backend::Cpu), 1);
  EXPECT_EQ(resolve_walks(config, 10000, Backend::Cuda), 1);
  EXPECT_EQ(resolve_walks(config, 1000, Backend::Cuda), 9);
  EXPECT_EQ(resolve_walks(config, 1, Backend::Cuda), 64);
  config.walks = 3;
  EXPECT_EQ(resolve_walks(config, 1, Backend::Cuda), 3);
}

}  // namespace
}  // namespace formica::batch
