// SPDX-License-Identifier: MIT
// The single-rank Communicator (see single_rank.h).
#include "distributed/single_rank.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace formica::distributed {

void SingleRank::allgather(std::span<const int32_t> mine, std::span<int32_t> all) {
  expect_gather_sizes(mine.size(), all.size(), 1, "allgather");
  std::copy(mine.begin(), mine.end(), all.begin());
}

void SingleRank::allgather(std::span<const int64_t> mine, std::span<int64_t> all) {
  expect_gather_sizes(mine.size(), all.size(), 1, "allgather");
  std::copy(mine.begin(), mine.end(), all.begin());
}

void SingleRank::gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) {
  if (root != 0) throw std::invalid_argument("gather: root " + std::to_string(root) + " of a single rank");
  allgather(mine, all);
}

void SingleRank::abort(int code) noexcept { std::exit(code); }

}  // namespace formica::distributed
