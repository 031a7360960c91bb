// Draws many next cities from one fitness row on the GPU with the production selection code,
// to measure the distribution each method samples (the chi-square tests, and later the distance
// of approximate methods such as I-Roulette from the exact one). Host header, no CUDA types.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/config.h"

namespace formica::aco::cuda {

struct SamplerRequest {
  Construction construction = Construction::WarpPerAnt;
  Selection selection = Selection::Roulette;
  int trials = 8;            ///< w for stochastic trial and hybrid
  bool trial_phase = true;   ///< hybrid: before (true) or after (false) its switch point
  long draws = 100000;
  uint64_t seed = 1;
};

/// How often each city was drawn from `fitness_row` given `visited` (one byte per city).
std::vector<long> sample_selection(const SamplerRequest& request, std::span<const float> fitness_row,
                                   std::span<const uint8_t> visited);

}  // namespace formica::aco::cuda
