// SPDX-License-Identifier: MIT
// The batch's GPU walks against its CPU walks: with a kick budget the same seed gives the same
// tours on both, kick for kick and move for move.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "batch/batch_solver.h"
#include "batch/stretch_batch.h"
#include "core/nearest_neighbour.h"
#include "io/generator.h"
#include "batch_support.h"
#include "cuda_support.h"
#include "test_support.h"

namespace formica::batch {
namespace {

using test::matrix_instance;
using test::uniform_batch;

/// Every result a permutation of its instance's cities, its length exact.
void expect_valid_tours(const Batch& batch, const std::vector<Instance>& instances) {
  for (size_t i = 0; i < instances.size(); ++i) {
    validate_permutation(batch.results[i].tour.order(), instances[i].n());
    EXPECT_EQ(batch.results[i].tour.length(), tour_length(instances[i], batch.results[i].tour.order()));
  }
}

/// The GPU batch, after checking that it matched the CPU's tour for tour.
Batch expect_same_on_both(const std::vector<Instance>& instances, BatchConfig config) {
  config.backend = Backend::Cpu;
  const Batch cpu = solve_batch(instances, config);
  config.backend = Backend::Cuda;
  const Batch gpu = solve_batch(instances, config);
  EXPECT_EQ(gpu.backend, Backend::Cuda);
  for (size_t i = 0; i < instances.size(); ++i) {
    EXPECT_EQ(gpu.results[i].tour.length(), cpu.results[i].tour.length()) << "instance " << i;
    EXPECT_TRUE(std::ranges::equal(gpu.results[i].tour.order(), cpu.results[i].tour.order())) << "instance " << i;
    EXPECT_EQ(gpu.results[i].kicks, cpu.results[i].kicks) << "instance " << i;
  }
  return gpu;
}

TEST(BatchWalksCuda, JaggedBatchMatchesTheCpuKickForKick) {
  FORMICA_REQUIRE_CUDA();
  BatchConfig config;
  config.kicks = 300;
  config.walks = 3;
  expect_same_on_both(uniform_batch({3, 5, 8, 9, 13, 31, 32, 33, 64, 100, 127, 200, 513, 1000}), config);
}

TEST(BatchWalksCuda, SmallInstancesClimbOnADistanceMatrixInSharedMemoryAndMatchTheCpu) {
  FORMICA_REQUIRE_CUDA();
  // At most 50 cities: the launch stages each walk's distance matrix instead of its coordinates.
  std::vector<Instance> instances = uniform_batch({8, 9, 20, 31, 33, 47, 50});
  instances.push_back(matrix_instance(25, 9));
  BatchConfig config;
  config.kicks = 400;
  config.walks = 3;
  expect_same_on_both(instances, config);
}

TEST(BatchWalksCuda, BlocksShareEachInstancesMatrixAmongItsWalksAndMatchTheCpu) {
  FORMICA_REQUIRE_CUDA();
  // Several walks per instance: a block computes each of its instances' matrices once, for all of
  // their walks (blocks that straddle instances with 3 and 5 walks, aligned ones with 4), which
  // keeps more walks resident than a matrix per walk.
  std::vector<int> sizes;
  for (int i = 0; i < 120; ++i) sizes.push_back(8 + (i * 7) % 43);  // 8..50 cities
  std::vector<Instance> instances = uniform_batch(sizes, 5);
  instances.push_back(matrix_instance(40, 3));
  for (const int walks : {3, 4, 5}) {
    BatchConfig config;
    config.kicks = 150;
    config.walks = walks;
    const Batch gpu = expect_same_on_both(instances, config);
    EXPECT_NE(gpu.layout.find("shared by each block's walks"), std::string::npos) << walks << " walks: " << gpu.layout;
  }
}

TEST(BatchWalksCuda, AnInstanceWhoseMatrixWouldOverflowAnIntStaysInGlobalMemory) {
  FORMICA_REQUIRE_CUDA();
  // 46,500^2 distances pass INT_MAX: the layout's sizes are 64-bit, so this instance's walk keeps
  // its data in global memory beside the small instances of the same launch.
  const std::vector<Instance> instances = uniform_batch({12, 46500, 30}, 9);
  BatchConfig config;
  config.backend = Backend::Cuda;
  config.kicks = 2;
  config.walks = 1;
  const Batch batch = solve_batch(instances, config);
  EXPECT_NE(batch.layout.find("global memory"), std::string::npos) << batch.layout;
  expect_valid_tours(batch, instances);
}

TEST(BatchWalksCuda, EveryMoveSetAndMatricesMatchTheCpu) {
  FORMICA_REQUIRE_CUDA();
  std::vector<Instance> instances = uniform_batch({40, 90, 150});
  instances.push_back(matrix_instance(30, 5));
  instances.push_back(matrix_instance(61, 6));
  for (const localsearch::LocalSearchKind moves : {localsearch::LocalSearchKind::TwoOpt, localsearch::LocalSearchKind::OrOpt, localsearch::LocalSearchKind::ThreeOpt}) {
    BatchConfig config;
    config.kicks = 200;
    config.walks = 2;
    config.local_search = moves;
    config.neighbour_lists = NeighbourShape::Nearest;
    expect_same_on_both(instances, config);
  }
}

TEST(BatchWalksCuda, ManyInstancesAtOnceAndLimits) {
  FORMICA_REQUIRE_CUDA();
  std::vector<int> sizes;
  for (int i = 0; i < 3000; ++i) sizes.push_back(20 + i % 81);
  const std::vector<Instance> instances = uniform_batch(sizes, 11);
  BatchConfig config;
  config.backend = Backend::Cuda;
  config.time_limit = 1.0 * formica::test::time_scale();
  std::vector<InstanceLimits> limits(instances.size());
  limits[5].kicks = 7;
  limits[6].target = 1'000'000'000;
  const auto start = std::chrono::steady_clock::now();
  const Batch batch = solve_batch(instances, config, limits);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 3.0 * formica::test::time_scale());
  expect_valid_tours(batch, instances);
  EXPECT_EQ(batch.results[5].kicks, 7 * batch.walks);
  EXPECT_EQ(batch.results[6].stop_reason, "target");
  EXPECT_EQ(batch.results[0].stop_reason, "time limit");
}

TEST(BatchWalksCuda, TheStartToursAndClimbsOfALargeInstanceKeepTheTimeLimit) {
  FORMICA_REQUIRE_CUDA();
  // 64 walks of 200,000 cities: their nearest-neighbour tours and first climbs alone take seconds,
  // so the start tours give way to the space-filling curve's and the climbs are cut off.
  const std::vector<Instance> instances = uniform_batch({200'000, 60}, 5);
  BatchConfig config;
  config.backend = Backend::Cuda;
  const double limit = 0.5 * formica::test::time_scale();
  config.time_limit = limit;
  const auto start = std::chrono::steady_clock::now();
  const Batch batch = solve_batch(instances, config);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(batch.walks, 64);
  EXPECT_LT(seconds, 1.2 * limit + 0.3);
  expect_valid_tours(batch, instances);
  EXPECT_EQ(batch.results[0].stop_reason, "time limit");
}

TEST(BatchWalksCuda, WalksWhoseListsWereNotBuiltInTimeKeepValidTours) {
  FORMICA_REQUIRE_CUDA();
  // 50,000 cities' lists take longer than half of 20 ms: the walks run without candidates.
  const std::vector<Instance> instances = uniform_batch({50'000, 40}, 9);
  BatchConfig config;
  config.backend = Backend::Cuda;
  config.time_limit = 0.02;
  const Batch batch = solve_batch(instances, config);
  expect_valid_tours(batch, instances);
  EXPECT_EQ(batch.results[0].stop_reason, "time limit");
}

TEST(BatchWalksCuda, AStretchRoundOnTheGpuGivesTheCpusTourAndItsExactGain) {
  FORMICA_REQUIRE_CUDA();
  // The tour's stretches as a batch of closed instances (a dummy city fixing each path's ends),
  // every walk starting from the tour's own path: with a kick budget both backends walk the same.
  const Instance instance = io::generate_instance(5000, io::InstanceKind::Uniform, 12);
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  BatchConfig config;
  config.kicks = 200;
  config.walks = 2;
  std::vector<int32_t> on_cpu = start, on_gpu = start;
  config.backend = Backend::Cpu;
  const StretchRound cpu = improve_stretches(instance, on_cpu, 1000, 321, config);
  config.backend = Backend::Cuda;
  const StretchRound gpu = improve_stretches(instance, on_gpu, 1000, 321, config);
  validate_permutation(on_gpu, instance.n());
  EXPECT_GT(gpu.gain, 0);
  EXPECT_EQ(gpu.stretches, 5);
  EXPECT_EQ(tour_length(instance, start) - tour_length(instance, on_gpu), gpu.gain);
  EXPECT_EQ(gpu.gain, cpu.gain);
  EXPECT_EQ(gpu.kicks, cpu.kicks);
  EXPECT_EQ(on_gpu, on_cpu);
}

TEST(BatchWalksCuda, TheStretchSearchShortensATourOnTheGpu) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(20000, io::InstanceKind::Uniform, 13);
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  const int64_t start_length = tour_length(instance, start);
  BatchConfig config;
  config.backend = Backend::Cuda;
  StretchBatchSearch search(instance, config, 1000, 0.5);
  search.offer(start, start_length);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  search.stop();
  ASSERT_FALSE(search.failure());
  std::vector<int32_t> out;
  const int64_t length = search.best(out);
  validate_permutation(out, instance.n());
  EXPECT_EQ(tour_length(instance, out), length);
  EXPECT_LT(length, start_length * 0.95) << "a nearest-neighbour tour is some 25 % above a good one";
}

}  // namespace
}  // namespace formica::batch
