// SPDX-License-Identifier: MIT
// The next-city selection methods on the CPU: the four of Uchida et al. (section 4.2), Cecilia et
// al.'s I-Roulette (3.2.3) and Zhou et al.'s tile roulette (B.4.1), so that every GPU speed-up is
// measured against the same method. All but I-Roulette return an unvisited city j with
// probability f_ij / (sum of f_il over unvisited l), exactly up to rounding.
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

/// I-Roulette (Cecilia et al. 3.2.3): a uniform in (0, 1] per unvisited city times its fitness; the
/// largest product wins. An approximation of roulette: it samples i_roulette_distribution(), which
/// favours the heavier cities (tests and bench/selection_deviation measure by how much).
int select_i_roulette(std::span<const float> fitness_row, const AntPath& path, RandomStream& rng);

/// Tile roulette (Zhou et al. B.4.1): one uniform per step; the sums of tiles of kCpuTile cities
/// locate the tile that holds the threshold, and only that tile is walked. Exact.
int select_tile_roulette(std::span<const float> fitness_row, const AntPath& path, RandomStream& rng);

/// Cities per tile of the CPU tile roulette.
constexpr int kCpuTile = 128;

/// Dispatches to the method in `config` (hybrid switches from trial to compression once
/// `config.hybrid_switch` of the cities are visited).
int select_next(const AntSystemConfig& config, std::span<const float> fitness_row,
                std::span<const double> prefix_row, const AntPath& path, RandomStream& rng);

}  // namespace formica::aco
