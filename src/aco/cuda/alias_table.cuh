// SPDX-License-Identifier: MIT
// Walker's alias tables of the fitness rows: a draw from a whole row's distribution f_ij / sum_j
// f_ij in one memory access. Stochastic trial (Uchida 4.2.3) draws cities from the whole row and
// keeps the first unvisited one; with the prefix sums q'_ij a draw is a search (a summary's round
// trip, then a segment's), with an alias table it is one load at a random column: column c keeps
// city c with probability prob_c and otherwise gives its alias. The tables are built every
// iteration from the fitness matrix, a block per row, by the parallel form of the sweep
// construction (Huebschle-Schneider and Sanders, "Parallel Weighted Random Sampling", 2019): with
// p_j = n f_j / sum f the cities are light (p < 1) or heavy (p > 1); in index order, light i's
// deficit 1 - p_i is covered by the first heavy k whose cumulative excess B_k = sum over heavies
// up to k of (p - 1) reaches the deficits of the lights before i, A_i; heavy k keeps
// 1 - (A' - B_k) of its own column, A' the deficits of the lights covered by heavies up to k, and
// its alias is the next heavy. That is exactly the sequential sweep, built with scans and binary
// searches (sums in double).
//
// An entry packs the threshold of its column in the high 32 - b bits and the alias in the low b
// bits, b = alias_index_bits(n): one 32-bit word per city, the size of a prefix-sum row.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "aco/config.h"

namespace formica::aco::cuda {

/// Longest row an alias table is built for (its light and heavy lists, 12 bytes a city, live in
/// the block's shared memory); longer rows keep the prefix sums.
constexpr int kAliasRowLimit = 16384;

/// True when a construction's trials draw from alias tables: warp-per-ant stochastic trial and
/// hybrid on rows that fit them (the other plans and longer rows search the prefix sums).
inline bool uses_alias_tables(Construction construction, Selection selection, int n) {
  return needs_prefix_sums(selection) && construction == Construction::WarpPerAnt && n <= kAliasRowLimit;
}

/// Bits of the alias index for rows of n cities: indices below n fit (at least 1).
__host__ __device__ constexpr int alias_index_bits(int n) {
  int bits = 1;
  while ((1 << bits) < n) ++bits;
  return bits;
}

/// Builds the alias tables of `rows` rows of the fitness matrix (row stride ld, n cities each:
/// columns [0, n)) into `alias` (same stride). A row whose total is not positive and finite gets
/// entries that always give the row's own index, `self_base + row`: a trial from it fails, and the
/// caller falls back to its roulette.
void launch_alias_tables(const float* fitness, uint32_t* alias, int n, int ld, int rows, int self_base,
                         cudaStream_t stream);

/// One draw from an alias row of n entries with index bits `bits`: `draw` uniform in [0, 2^32)
/// picks the column (its high bits) and, through the remainder of draw * n, the side of the
/// column's threshold; the bias of either is at most n / 2^32.
__device__ __forceinline__ int alias_draw(const uint32_t* row, int n, int bits, uint32_t draw) {
  const unsigned long long product = static_cast<unsigned long long>(draw) * static_cast<unsigned>(n);
  const int column = static_cast<int>(product >> 32);
  const uint32_t residue = static_cast<uint32_t>(product);
  const uint32_t entry = __ldg(row + column);
  return (residue >> bits) < (entry >> bits) ? column : static_cast<int>(entry & ((1u << bits) - 1u));
}

}  // namespace formica::aco::cuda
