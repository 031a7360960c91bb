// Edges of the complete graph under penalised weights, the currency of the Held-Karp bound.
//
// Held and Karp (1970) add a penalty pi(i) to every city: w(i, j) = d(i, j) + pi(i) + pi(j). Every
// tour's length grows by exactly 2 * sum(pi), so a minimum 1-tree under w, less 2 * sum(pi), is a
// lower bound on every tour. Distances are scaled by kPenaltyScale so that the penalties can be
// integers (as LKH does with its PRECISION): every weight and every comparison here is exact.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "core/instance.h"

namespace formica::bounds {

/// Scale of the penalised weights: a penalty of 1 is a hundredth of a distance unit.
inline constexpr int64_t kPenaltyScale = 100;

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
