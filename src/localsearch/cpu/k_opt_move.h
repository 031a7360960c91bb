// SPDX-License-Identifier: MIT
// Sequential k-opt moves on an ArrayTour, for any k (LKH's basic move, Helsgaun 2009): the cities
// t[0], ..., t[2k-1] name the move that removes the tour edges (t[2i], t[2i+1]) and adds
// (t[2i+1], t[2i+2]), t[2k] = t[0]. Whether the result is one tour is decided from the tour
// positions alone, in O(k log k): the removed edges cut the tour into k stretches, and the move is
// feasible when walking stretch, added edge, stretch, ... from t[0] visits all k of them before it
// comes back (Helsgaun's FeasibleKOptMove does the same). A feasible move is applied by writing the
// stretches in their new order and direction, all but the longest, which stays where it is: the
// cost is the number of cities outside the longest stretch, and the move's inverse (undo) is the
// same cities shifted by one, t[1], ..., t[2k-1], t[0].
//
// The step of Lin-Kernighan with k-opt moves searches these moves depth first from t1 = t[0] and
// t2 = t[1] over the candidate lists with the positive gain criterion, as sequential_three_opt.h
// does for k = 3: the first feasible move at any depth that closes a shorter tour is taken,
// otherwise the feasible k-opt moves of largest open gain are returned for the chain to go on from.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/sequential_three_opt.h"

namespace formica::localsearch::cpu {

/// The largest k of the k-opt step.
inline constexpr int kMaxKOpt = 6;

/// A k-opt move found by the search: its cities (2k of them) and the closed gain (a closing move)
/// or the open gain (a move the chain goes on from, with (t[2k-1], t[0]) next to go).
struct KOptMove {
  int32_t t[2 * kMaxKOpt];
  int size = 0;  ///< 2k
  int64_t gain = 0;
  std::span<const int32_t> cities() const { return {t, static_cast<size_t>(size)}; }
  int last() const { return t[size - 1]; }
};

/// True when the sequential move `t` (an even number of cities, each (t[2i], t[2i+1]) a distinct
/// tour edge) leaves one tour.
bool feasible_k_opt(const ArrayTour& tour, std::span<const int32_t> t);

/// Applies the feasible sequential move `t`, rewriting all but its longest stretch; `scratch` is
/// work space. Returns the number of positions rewritten.
int apply_k_opt(ArrayTour& tour, std::span<const int32_t> t, std::vector<int32_t>& scratch);

/// The step's search from t1 and its tour neighbour t2 with chain gain g, moves of at most k
/// exchanges (2 <= k <= kMaxKOpt) over the first `neighbours` cities of each list. Returns true
/// with `closing` when a move closes a shorter tour; otherwise fills `open` with up to `width`
/// feasible k-opt moves of positive open gain, the largest first. `edges` as in
/// search_sequential_three_opt.
bool search_sequential_k_opt(const ArrayTour& tour, const Instance& instance, const CandidateLists& lists,
                             int neighbours, int k, const ChainEdges& edges, int t1, int t2, int64_t g, int width,
                             KOptMove& closing, std::vector<KOptMove>& open);

}  // namespace formica::localsearch::cpu
