// SPDX-License-Identifier: MIT
// The one-big-tour GPU climber: every block of the GPU works on the same tour, the paper's future
// work (Robinson et al. section 7) for when there are fewer tours than blocks the GPU can hold.
// A pass is a grid-wide search (the units of two_opt_pass.cuh dealt over all warps of the grid),
// a device-wide sort of the candidates by gain, one block's k-swap selection, and a grid-wide
// reversal. Large tours first get the neighbour-list pre-climb (neighbour_list_pass.cuh), then
// full passes certify the 2-opt local optimum. Host header: no CUDA types.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/instance.h"
#include "core/search.h"
#include "localsearch/config.h"
#include "localsearch/cuda/device_instance.h"
#include "localsearch/k_swap.h"

namespace formica::localsearch::cuda {

struct GridClimbResult {
  int64_t length = 0;            ///< exact
  int64_t passes = 0;            ///< full passes (fast and exact)
  int64_t neighbour_passes = 0;  ///< neighbour-list passes
  int64_t moves = 0;             ///< moves applied
  double kernel_ms = 0.0;        ///< CUDA events from the first kernel to the last
};

class GridClimber {
 public:
  /// Allocates the O(n) buffers of one tour; builds the neighbour lists when config.neighbours > 0.
  GridClimber(const DeviceInstance& cities, const Instance& instance, const TwoOptConfig& config);
  ~GridClimber();
  GridClimber(const GridClimber&) = delete;
  GridClimber& operator=(const GridClimber&) = delete;

  /// Climbs `tour` (replaced by the result) to a 2-opt local optimum of the exact metric: the
  /// neighbour-list pre-climb first when `neighbour_lists` (and the climber has lists), then fast
  /// full passes, then exact ones. Polls `stop` between passes; false if it stopped early.
  bool climb(std::vector<int32_t>& tour, bool neighbour_lists, const StopFlag& stop, GridClimbResult& out);
  /// The same from the random start of `restart`, built on the device.
  bool climb_random(int64_t restart, bool neighbour_lists, const StopFlag& stop, std::vector<int32_t>& tour,
                    GridClimbResult& out);

  /// Blocks of the fast grid search (the resident-block limit).
  int blocks() const;

  /// Test hooks. One grid-wide pass over `tour`: every thread's improving candidate with the gain
  /// the kernel computed, sorted best first.
  std::vector<Candidate> pass_candidates(std::span<const int32_t> tour, bool exact);
  /// The neighbour-list candidates of every city of `tour` (all active), sorted best first.
  std::vector<Candidate> neighbour_candidates(std::span<const int32_t> tour);
  /// The device selection and reversal on `ranked` (best first, moves on `tour`): returns the kept
  /// moves and applies them to `tour`.
  std::vector<Candidate> select_and_apply(std::vector<int32_t>& tour, std::span<const Candidate> ranked, int k);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace formica::localsearch::cuda
