// SPDX-License-Identifier: MIT
// k-swap and infinity-swap (Robinson et al. section 3.4, Figures 4 and 5), on the host: of the
// improving moves one pass found, apply the best, then the next best that overlaps none applied so
// far, and so on, up to k moves (k = 1 is the original one-move-per-pass climb, infinity applies
// every move that survives). The CUDA backend runs the same selection on the device (cuda/k_swap.cuh).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"
#include "localsearch/two_opt_move.h"

namespace formica::localsearch {

/// An improving move and its exact gain (length before minus length after, > 0).
struct Candidate {
  int64_t gain = 0;
  Move move;
};

/// Exact gain of move (i, j) on `tour`.
int64_t two_opt_gain(const Instance& instance, std::span<const int32_t> tour, Move move);

/// Sorts best first: larger gain, then smaller i, then smaller j.
void sort_candidates(std::vector<Candidate>& candidates);

/// The k-swap selection over candidates sorted best first: keeps each candidate that overlaps no
/// candidate kept before it, until `k` are kept (k = 0: no limit). Returns them in that order.
std::vector<Candidate> select_disjoint(std::span<const Candidate> sorted, int k);

/// Applies pairwise non-overlapping moves by reversing each one's segment i+1..j.
void apply_moves(std::span<int32_t> tour, std::span<const Candidate> moves);

}  // namespace formica::localsearch
