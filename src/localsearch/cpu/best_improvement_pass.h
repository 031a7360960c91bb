// SPDX-License-Identifier: MIT
// The CPU counterpart of the GPU 2-opt pass (Robinson et al. sections 3.1 and 3.4): one
// best-improvement pass over all n(n - 3) / 2 moves with exact TSPLIB gains, and the climb that
// repeats it with k-swap until no move improves the tour.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"
#include "core/search.h"
#include "localsearch/k_swap.h"

namespace formica::localsearch::cpu {

/// The best move of every position i (the "row" of moves (i, j), j > i), kept when it improves the
/// tour, sorted best first (sort_candidates). Each distance is computed once per pass: row i reuses
/// row i + 1's distances for its second new edge. Rows are shared among `threads`; the result does
/// not depend on the thread count. When `stop` (null: never) asks during the pass (a look every
/// few rows: a pass over 20,000 cities is 2 * 10^8 moves, most of a second), the pass ends there and
/// `*stopped` (when given) is set; the moves found are then not all there are.
std::vector<Candidate> improving_moves(const Instance& instance, std::span<const int32_t> tour, int threads,
                                       const StopFlag* stop = nullptr, bool* stopped = nullptr);

struct ClimbCounts {
  int64_t passes = 0;       ///< full passes, the last one finding nothing
  int64_t evaluations = 0;  ///< moves evaluated: n(n - 3) / 2 per pass
  int64_t moves = 0;        ///< moves applied
  bool completed = true;    ///< false when a stop request ended the climb early
};

/// Climbs `tour` to a 2-opt local optimum under the exact metric: passes of improving_moves, each
/// followed by select_disjoint(k_swap) and apply_moves, until a pass finds no improving move.
/// `stop`, when given, is polled before every pass and inside it.
ClimbCounts climb_best_improvement(const Instance& instance, std::span<int32_t> tour, int k_swap, int threads,
                                   const StopFlag* stop = nullptr);

}  // namespace formica::localsearch::cpu
