// SPDX-License-Identifier: MIT
// Space-filling-curve tours: the cities in the order a Hilbert curve over their bounding square
// visits them (Platzman and Bartholdi 1989). O(n log n), about 25% above optimal on uniform
// instances, and local: cities close on the curve are close in the plane, so a 2-opt climb from it
// needs far fewer moves than one from a random tour. Any algorithm may start from it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

/// Position of grid cell (x, y) along the Hilbert curve of order `order` (a 2^order square grid).
uint64_t hilbert_index(uint32_t x, uint32_t y, int order);

/// The Hilbert-curve tour of the instance's (display) coordinates. Variant 0 is the curve over the
/// bounding square; variant v > 0 draws, from (seed, v), one of the square's eight symmetries and an
/// offset of the curve's grid, so that restarts from this start differ. Ties break by city index.
/// Throws InputError for an instance without coordinates.
std::vector<int32_t> space_filling_curve_tour(const Instance& instance, uint64_t variant = 0,
                                              uint64_t seed = 0);

}  // namespace formica
