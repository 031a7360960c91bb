// SPDX-License-Identifier: MIT
// Islands of one process on the GPU (--islands, --gpus): two islands sharing one GPU, one island on
// each of the host's GPUs (where it has two or more), and a count of GPUs that is not there.
#include <gtest/gtest.h>

#include "core/error.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "solver/solver.h"
#include "test_support.h"

namespace formica {
namespace {

// islands = 0: not named, so the solver runs one island per GPU.
SolverConfig gpu_islands(int gpus, int islands) {
  SolverConfig config;
  config.backend = Backend::Cuda;
  config.gpus = gpus;
  if (islands > 0) {
    config.islands = islands;
    config.named.push_back("islands");
  }
  config.time_limit = 3.0 * test::time_scale();  // at least 2 exchanges at 0.5 s, a tool's set-up included
  config.island_interval = 0.5;
  return config;
}

TEST(IslandsCuda, TwoIslandsShareOneGpu) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 4);
  const Result result = solve(instance, gpu_islands(1, 2));
  EXPECT_EQ(result.backend, Backend::Cuda);
  EXPECT_EQ(result.ranks, 2);
  EXPECT_EQ(result.gpus, 1);
  EXPECT_GE(result.exchanges, 2);
  EXPECT_EQ(result.tour.order().size(), 2000u);
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
}

TEST(IslandsCuda, EveryGpuRunsAnIsland) {
  FORMICA_REQUIRE_CUDA();
  const int gpus = cuda::device_count();
  if (gpus < 2) GTEST_SKIP() << "skipped: needs 2 or more GPUs, this process sees " << gpus;
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 6);
  const Result result = solve(instance, gpu_islands(SolverConfig::kAllGpus, 0));
  EXPECT_EQ(result.config.gpus, gpus);
  EXPECT_EQ(result.config.islands, gpus);
  EXPECT_EQ(result.ranks, gpus);
  EXPECT_EQ(result.gpus, gpus);
  EXPECT_EQ(result.transport, "threads (host memory)");
  EXPECT_GE(result.exchanges, 2);
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
}

TEST(IslandsCuda, MoreGpusThanThereAreIsAnInputError) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(100, io::InstanceKind::Uniform, 2);
  EXPECT_THROW(solve(instance, gpu_islands(cuda::device_count() + 1, 0)), InputError);
  EXPECT_THROW(solve(instance, gpu_islands(2, 1)), InputError);  // fewer islands than GPUs (or no 2nd GPU)
}

}  // namespace
}  // namespace formica
