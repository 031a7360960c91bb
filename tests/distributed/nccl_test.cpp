// The NCCL communicator (distributed/nccl_communicator.h) with one rank on one GPU: its collectives
// over device buffers return the rank's own values. Compiled into distributed_tests only where
// NCCL is built (FORMICA_NCCL); the exchange between several GPUs needs a machine that has them.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

#include "cuda_support.h"
#include "distributed/nccl_communicator.h"
#include "distributed/single_rank.h"

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

}  // namespace
}  // namespace formica::distributed
