// SPDX-License-Identifier: MIT
// The NCCL communicator (distributed/nccl_communicator.h): with one rank on one GPU its collectives
// over device buffers return the rank's own values; with one rank per GPU of the machine (threads
// of this process, bootstrapped through a ThreadTeam instead of MPI) every rank gets every GPU's
// values. Compiled into distributed_tests only where NCCL is built (FORMICA_NCCL).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "cuda_support.h"
#include "distributed/nccl_communicator.h"
#include "distributed/single_rank.h"
#include "distributed/thread_team.h"

namespace formica::distributed {
namespace {

TEST(Nccl, AllgatherAndGatherOfOneRankOnOneGpu) {
  FORMICA_REQUIRE_CUDA();
  NcclCommunicator nccl(std::make_unique<SingleRank>());
  const std::vector<int32_t> mine = {4, 0, 3, 1, 2};
  std::vector<int32_t> all(5, -1), gathered(5, -1);
  nccl.allgather(mine, all);
  nccl.gather(mine, gathered, 0);
  EXPECT_EQ(all, mine);
  EXPECT_EQ(gathered, mine);
  const std::vector<int64_t> length = {int64_t{1} << 40};
  std::vector<int64_t> lengths(1);
  nccl.allgather(std::span<const int64_t>(length), lengths);
  EXPECT_EQ(lengths, length);
}

TEST(Nccl, EveryGpuOfTheMachineExchangesThroughDeviceBuffers) {
  FORMICA_REQUIRE_CUDA();
  int gpus = 0;
  ASSERT_EQ(cudaGetDeviceCount(&gpus), cudaSuccess);
  if (gpus < 2) GTEST_SKIP() << "one GPU: the exchange between GPUs needs two";
  // Rank r holds r + 1 values (a tour of its own and its length); each runs on GPU r.
  constexpr int kValues = 1000;
  ThreadTeam team(gpus, gpus);
  std::vector<std::vector<int32_t>> allgathered(gpus), gathered(gpus);
  std::vector<std::vector<int64_t>> lengths(gpus);
  std::vector<std::exception_ptr> errors(gpus);
  std::vector<std::thread> ranks;
  for (int r = 0; r < gpus; ++r)
    ranks.emplace_back([&, r] {
      try {
        if (cudaSetDevice(r) != cudaSuccess) throw std::runtime_error("cudaSetDevice");
        NcclCommunicator nccl(std::make_unique<TeamMember>(team, r));
        EXPECT_EQ(nccl.rank(), r);
        EXPECT_EQ(nccl.size(), gpus);
        std::vector<int32_t> mine(kValues);
        for (int i = 0; i < kValues; ++i) mine[i] = r * kValues + i;
        allgathered[r].assign(static_cast<size_t>(kValues) * gpus, -1);
        nccl.allgather(mine, allgathered[r]);
        gathered[r].assign(r == 0 ? static_cast<size_t>(kValues) * gpus : 0, -1);
        nccl.gather(mine, gathered[r], 0);
        const std::vector<int64_t> length = {(int64_t{1} << 40) + r};
        lengths[r].assign(gpus, -1);
        nccl.allgather(std::span<const int64_t>(length), lengths[r]);
      } catch (...) {
        errors[r] = std::current_exception();
        team.break_team();
      }
    });
  for (std::thread& t : ranks) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<int32_t> every(static_cast<size_t>(kValues) * gpus);
  for (size_t i = 0; i < every.size(); ++i) every[i] = static_cast<int32_t>(i);
  for (int r = 0; r < gpus; ++r) {
    EXPECT_EQ(allgathered[r], every) << "rank " << r;
    for (int s = 0; s < gpus; ++s) EXPECT_EQ(lengths[r][s], (int64_t{1} << 40) + s) << "rank " << r;
  }
  EXPECT_EQ(gathered[0], every);
}

}  // namespace
}  // namespace formica::distributed
