// SPDX-License-Identifier: MIT
// How the host thread waits for the GPU (cuda::set_wait_mode): spinning keeps its core busy for as
// long as the kernels run, blocking leaves the core to other threads. Measured on the thread's own
// CPU time over a GPU-bound search that waits for each launch in cudaEventSynchronize: 2-opt of one
// 12,000-city tour by the whole grid, full O(n^2) passes (the restarts' block-per-tour climbs wait
// by polling with sleeps instead, whatever the mode).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "cuda/device.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/config.h"

#if FORMICA_HAVE_CUDA
#include "localsearch/cuda/two_opt_cuda.h"
#endif

namespace formica::cuda {
namespace {

#if FORMICA_HAVE_CUDA

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// The share of half a second of GPU-bound search that its thread spent on a core, waiting `mode`.
double busy_share(WaitMode mode) {
  set_wait_mode(mode);
  const Instance instance = io::generate_instance(12'000, io::InstanceKind::Uniform, 5);
  localsearch::TwoOptConfig config;
  config.restarts = 1'000;
  config.layout = localsearch::Layout::GridPerTour;
  config.neighbours = 0;  // the paper's full passes on the GPU, no pre-climb on the host
  config.block_neighbours = 0;
  const auto search = localsearch::cuda::make_two_opt_cuda(instance, config);
  const StopFlag never;
  search->step(never);  // the first launch and its set-up
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_seconds();
  double wall = 0;
  do {
    search->step(never);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (wall < 0.5);
  return (thread_cpu_seconds() - cpu_start) / wall;
}

TEST(CudaWait, ABlockingWaitLeavesTheCoreWhileTheKernelsRun) {
  FORMICA_REQUIRE_CUDA();
  const double spinning = busy_share(WaitMode::Spin);
  const double blocking = busy_share(WaitMode::Block);
  set_wait_mode(WaitMode::Spin);  // the runtime's own choice in a process of one context
  std::printf("the driving thread on its core: %.3f of the time spinning, %.3f blocking\n", spinning, blocking);
  RecordProperty("busy_share_spin", std::to_string(spinning));
  RecordProperty("busy_share_block", std::to_string(blocking));
  EXPECT_GT(spinning, 0.7) << "a spinning wait keeps the thread on its core";
  EXPECT_LT(blocking, spinning / 2) << "a blocking wait sleeps while the kernels run (spin: " << spinning << ")";
}

#endif

}  // namespace
}  // namespace formica::cuda
