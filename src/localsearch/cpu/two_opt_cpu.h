// SPDX-License-Identifier: MIT
// 2-opt hill climbing with random restarts on the CPU: the reference for the CUDA backend and the
// sequential baseline of its speed-ups. Restarts run in parallel (one per thread) on small tours;
// on large ones one restart at a time shares its passes among the threads. Either way the result
// depends only on the seed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/candidates.h"
#include "localsearch/cpu/best_improvement_pass.h"
#include "localsearch/two_opt_search.h"

namespace formica::localsearch::cpu {

class TwoOptCpu final : public TwoOptSearch {
 public:
  TwoOptCpu(const Instance& instance, const TwoOptConfig& config);
  Backend backend() const override { return Backend::Cpu; }
  std::string describe_launch() const override;

  /// Climbs `tour` to a 2-opt local optimum under the exact metric: the neighbour-list pre-climb
  /// first on large tours (see kNeighbourListMinCities), then best-improvement passes with k-swap.
  /// Uses `threads` threads for the passes.
  ClimbCounts climb(std::span<int32_t> tour, int threads, const StopFlag* stop, TwoOptStats& stats);

 private:
  bool climb_batch(int64_t first, int64_t count, const StopFlag& stop, Batch& out) override;
  int64_t batch_size(int64_t remaining) override;
  bool parallel_restarts() const;

  std::optional<CandidateLists> lists_;  // built on the first large climb
};

}  // namespace formica::localsearch::cpu
