// SPDX-License-Identifier: MIT
// The block-per-tour GPU climber (Robinson et al. sections 3.1, 3.3 and 3.4): a fixed grid of as
// many blocks as the occupancy API says can be resident, each climbing whole tours from start to
// 2-opt local optimum and reusing its memory from restart to restart (3.3.1), restarts handed out Q
// at a time by an atomic counter or, without a queue, divided evenly (3.3.2), k-swap per pass
// (3.4). Host header: no CUDA types.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/search.h"
#include "localsearch/config.h"
#include "localsearch/cuda/device_instance.h"
#include "localsearch/k_swap.h"

namespace formica::localsearch::cuda {

/// T and S of the paper (section 4.1): threads per block (a power of two, 32..1024) and
/// shared-memory elements per block, split evenly among the block's warps as their tiles.
struct BlockShape {
  int threads = 256;
  int tile = 1024;
};

struct RestartBatchResult {
  int64_t best_restart = -1;  ///< lowest-indexed restart of the shortest length
  int64_t best_length = 0;
  std::vector<int32_t> best_tour;
  std::vector<int64_t> lengths;  ///< exact length of each restart of the batch
  int64_t passes = 0;            ///< full passes, summed over the batch's restarts
  int64_t moves = 0;             ///< moves applied, summed
  int64_t neighbour_passes = 0;  ///< neighbour-list passes of the pre-climb, summed
  double kernel_ms = 0.0;        ///< CUDA events around the kernel
};

class BlockPerTourClimber {
 public:
  /// Sizes the grid with the occupancy API and allocates every block's memory once. With
  /// neighbour lists (n x k cities, nearest first), every climb starts with the neighbour-list
  /// pre-climb (O(n k) per pass) before the full passes; without, it is the paper's climb.
  BlockPerTourClimber(const DeviceInstance& cities, const TwoOptConfig& config, BlockShape shape,
                      std::span<const int32_t> neighbour_lists = {}, int neighbours_per_city = 0);
  ~BlockPerTourClimber();
  BlockPerTourClimber(const BlockPerTourClimber&) = delete;
  BlockPerTourClimber& operator=(const BlockPerTourClimber&) = delete;

  /// Blocks of the fixed grid: the resident-block limit, or fewer if memory is short.
  int blocks() const;
  const BlockShape& shape() const;

  /// Climbs restarts first .. first + count - 1 (restart r from its random start, or from
  /// start_tours[(r - first) n ...] when given). Polls `stop`; returns false if it ended the batch
  /// early, in which case nothing of the batch is reported.
  bool climb(int64_t first, int64_t count, std::span<const int32_t> start_tours, const StopFlag& stop,
             RestartBatchResult& out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Resident blocks per multiprocessor of the climb kernel of this instance's metric with this shape.
int resident_blocks_per_sm(const DeviceCities& cities, BlockShape shape);

/// The random start tour of restart `restart`, built on the device (it must equal random_start).
std::vector<int32_t> device_random_start(int n, uint64_t seed, int64_t restart);

/// One pass over `tour` by a single block of the climber's kernel: every thread's best improving
/// move, as (gain, move) with the gain the kernel computed (fast float policy, or the exact one),
/// sorted best first. For tests against the host pass.
std::vector<Candidate> device_pass_candidates(const DeviceInstance& cities, std::span<const int32_t> tour,
                                              bool exact, BlockShape shape);

}  // namespace formica::localsearch::cuda
