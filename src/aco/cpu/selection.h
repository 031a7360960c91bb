// The four next-city selection methods of Uchida et al. (section 4.2) on the CPU. Each returns an
// unvisited city j with probability f_ij / (sum of f_il over unvisited l), exactly.
#pragma once

#include <span>

#include "aco/config.h"
#include "aco/cpu/ant_path.h"
#include "core/rng.h"

namespace formica::aco {

/// SelectWithoutCompression: roulette over all n cities with f_ij * u_j (section 4.2.1).
int select_roulette(std::span<const float> fitness_row, const AntPath& path, RandomStream& rng);

/// SelectWithCompression: roulette over the unvisited index array only (section 4.2.2).
int select_compression(std::span<const float> fitness_row, const AntPath& path, RandomStream& rng);

/// SelectWithStochasticTrial (section 4.2.3): up to `trials` draws j from the whole row by binary
/// search in its static prefix sums q'_ij; the first unvisited j is taken. Rejection sampling keeps
/// the distribution exact; after `trials` failures, roulette decides.
int select_stochastic_trial(std::span<const float> fitness_row, std::span<const double> prefix_row,
                            const AntPath& path, RandomStream& rng, int trials);

/// Dispatches to the method in `config` (hybrid switches from trial to compression once
/// `config.hybrid_switch` of the cities are visited).
int select_next(const AntSystemConfig& config, std::span<const float> fitness_row,
                std::span<const double> prefix_row, const AntPath& path, RandomStream& rng);

}  // namespace formica::aco
