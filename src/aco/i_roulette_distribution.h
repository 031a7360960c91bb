// SPDX-License-Identifier: MIT
// The distribution I-Roulette really samples (Cecilia et al. 3.2.3), in closed form, and its
// distance from the roulette wheel it stands in for. With a uniform u_l in (0, 1] per candidate,
// city j wins when u_j w_j is the largest product:
//   P_j = integral over y in (0, w_j] of G(y) / y,   G(y) = product over l of min(1, y / w_l),
// which is piecewise a power of y between the sorted weights and is integrated exactly.
// Roulette would give w_j / sum w_l; I-Roulette favours the heavy cities.
#pragma once

#include <span>
#include <vector>

namespace formica::aco {

/// P(I-Roulette picks j) for candidate weights w (0 for a visited or zero-fitness city, which is
/// never picked while a positive weight remains). All zero: every entry 0.
std::vector<double> i_roulette_distribution(std::span<const double> weights);

/// w_j / sum w_l: the distribution roulette samples.
std::vector<double> roulette_distribution(std::span<const double> weights);

/// Total variation distance, half the L1 distance between two distributions on the same cities.
double total_variation_distance(std::span<const double> p, std::span<const double> q);

}  // namespace formica::aco
