// SPDX-License-Identifier: MIT
// The 2-opt move on a tour stored as an array of cities, and when two moves overlap (Robinson et
// al. sections 2.2 and 3.4). Host and device code share these definitions.
//
// Move (i, j) on the tour t[0..n-1] removes the edges (t[i], t[i+1]) and (t[j], t[j+1 mod n]), adds
// (t[i], t[j]) and (t[i+1], t[j+1 mod n]), and so reverses the positions i+1..j. It is a real move
// when 0 <= i, i + 2 <= j <= n - 1 and (i, j) != (0, n - 1): n(n - 3) / 2 moves in all.
//
// Edge e is (t[e], t[e+1 mod n]). A move touches the edges i..j: it removes edges i and j and
// reverses the edges between them. Two moves overlap when these closed intervals [i, j] meet: they
// share an edge, one lies inside the other, or they cross. Moves that do not overlap change disjoint
// sets of edges and positions, so they can be applied together, in any order, and their gains add.
#pragma once

#include <cstdint>

#include "core/distance.h"  // FORMICA_HD

namespace formica::localsearch {

struct Move {
  int32_t i = 0;
  int32_t j = 0;
};

FORMICA_HD inline bool operator==(Move a, Move b) { return a.i == b.i && a.j == b.j; }

/// True for the n(n - 3) / 2 real 2-opt moves of a tour of n cities.
FORMICA_HD inline bool is_move(int n, int i, int j) {
  return i >= 0 && j <= n - 1 && j >= i + 2 && !(i == 0 && j == n - 1);
}

/// True when the edge intervals [a.i, a.j] and [b.i, b.j] meet.
FORMICA_HD inline bool overlap(Move a, Move b) { return a.i <= b.j && b.i <= a.j; }

/// Moves evaluated by one full pass over a tour of n cities.
FORMICA_HD inline int64_t moves_per_pass(int64_t n) { return n >= 3 ? n * (n - 3) / 2 : 0; }

}  // namespace formica::localsearch
