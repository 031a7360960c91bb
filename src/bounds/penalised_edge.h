// SPDX-License-Identifier: MIT
// Edges of the complete graph under penalised weights, the currency of the Held-Karp bound.
//
// Held and Karp (1970) add a penalty pi(i) to every city: w(i, j) = d(i, j) + pi(i) + pi(j). Every
// tour's length grows by exactly 2 * sum(pi), so a minimum 1-tree under w, less 2 * sum(pi), is a
// lower bound on every tour. Distances are scaled by kPenaltyScale so that the penalties can be
// integers (as LKH does with its PRECISION): every weight and every comparison here is exact.
//
// Exact also at the widest instances: every distance is below 2^31 (core/instance.h), so a scaled
// distance is below 2^38; penalties stay within +-kMaxPenalty, so a penalised weight, and the
// difference of two, fit 64 bits with room to spare; sums of n weights (up to 2^65 at 10^8 cities
// 2e9 apart) are taken in 128 bits (WeightSum).
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "core/instance.h"

namespace formica::bounds {

/// Scale of the penalised weights: a penalty of 1 is a hundredth of a distance unit.
inline constexpr int64_t kPenaltyScale = 100;

/// Every distance of every instance is below this (coordinates within kMaxCoordinate, EXPLICIT
/// weights and path penalties are 32-bit integers).
inline constexpr int64_t kDistanceLimit = int64_t{1} << 31;
static_assert(4 * kMaxCoordinate < static_cast<double>(kDistanceLimit), "MAN_2D's longest distance must fit");

/// The largest penalty magnitude, scaled: about 4.5e13 distance units, 20,000 times the longest
/// distance, far beyond any penalty that raises a bound. The ascent clamps its penalties to it.
inline constexpr int64_t kMaxPenalty = int64_t{1} << 52;
static_assert(kPenaltyScale * kDistanceLimit + 2 * kMaxPenalty < (int64_t{1} << 54),
              "a penalised weight and the difference of two must fit 64 bits");

/// Sums of penalised weights and 1-tree values, scaled: exact in 128 bits for any n.
__extension__ typedef __int128 WeightSum;

/// An undirected edge with its (scaled, penalised) weight; a < b.
struct Edge {
  int64_t weight;
  int32_t a, b;
  bool operator==(const Edge&) const = default;
};

/// The total order every tree here is minimal under: weight, then the endpoints. Under a total
/// order the minimum spanning tree is unique, so Prim, Boruvka and any thread count agree on it.
inline bool lighter(const Edge& x, const Edge& y) {
  if (x.weight != y.weight) return x.weight < y.weight;
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

inline Edge make_edge(int64_t weight, int u, int v) { return u < v ? Edge{weight, u, v} : Edge{weight, v, u}; }

/// Heavier than every edge; a search that finds nothing returns it.
inline constexpr Edge kNoEdge{std::numeric_limits<int64_t>::max(), std::numeric_limits<int32_t>::max(),
                              std::numeric_limits<int32_t>::max()};

/// The penalised weight of the complete graph's edge (i, j): kPenaltyScale * d(i, j) + pi(i) + pi(j),
/// d the instance's exact TSPLIB distance.
inline int64_t penalised(const Instance& instance, std::span<const int64_t> pi, int i, int j) {
  return kPenaltyScale * instance.distance(i, j) + pi[static_cast<size_t>(i)] + pi[static_cast<size_t>(j)];
}

inline Edge penalised_edge(const Instance& instance, std::span<const int64_t> pi, int i, int j) {
  return make_edge(penalised(instance, pi, i, j), i, j);
}

}  // namespace formica::bounds
