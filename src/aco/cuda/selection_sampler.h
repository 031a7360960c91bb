// SPDX-License-Identifier: MIT
// Draws many next cities from one fitness row on the GPU with the production selection code of
// every construction strategy, to measure the distribution each samples: the chi-square tests of
// the exact methods, and I-Roulette's distance from the exact distribution. STC and ST-DYNAMIC are
// sampled at the step level: one step of their tour list, visited cities before the cursor and
// the unvisited ones after it. Host header, no CUDA types.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/config.h"

namespace formica::aco::cuda {

struct SamplerRequest {
  Construction construction = Construction::WarpPerAnt;  ///< any but Auto
  Selection selection = Selection::Roulette;
  int trials = 8;            ///< w for stochastic trial and hybrid
  bool trial_phase = true;   ///< hybrid: before (true) or after (false) its switch point
  bool prefix_sums = false;  ///< warp-per-ant trials: search the prefix sums, not the alias table
  int block_size = 0;        ///< threads per block (block strategies); 0: auto_block_size at this n
  long draws = 100000;
  uint64_t seed = 1;
};

/// How often each city was drawn from `fitness_row` given `visited` (one byte per city; at least
/// one city visited and one not): `request.draws` draws in all, spread over the samplers.
std::vector<long> sample_selection(const SamplerRequest& request, std::span<const float> fitness_row,
                                   std::span<const uint8_t> visited);

/// The alias table that the Ant System builds for a fitness row (alias_table.cuh), read back: entry
/// c keeps city c below the threshold `entries[c] >> bits` (out of 2^(32 - bits)) and gives the
/// alias `entries[c] & (2^bits - 1)` otherwise.
struct AliasRow {
  int bits = 0;
  std::vector<uint32_t> entries;
};
AliasRow alias_table_of(std::span<const float> fitness_row);

}  // namespace formica::aco::cuda
