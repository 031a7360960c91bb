// SPDX-License-Identifier: MIT
// The optimal closed tour of a small instance by Held-Karp dynamic programming over subsets
// (Held and Karp 1962; Bellman 1962): O(2^n n^2) time, O(2^n n) memory, instant up to
// kExactTourCities cities. formica::solve returns it for instances that small.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

/// The largest instance solve() solves exactly (12 cities: 2,048 x 12 states, well under a millisecond).
inline constexpr int kExactTourCities = 12;

/// An optimal tour of `instance` (n <= 20: the table has 2^(n-1) n entries), starting at city 0.
std::vector<int32_t> exact_tour(const Instance& instance);

}  // namespace formica
