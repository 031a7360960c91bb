// SPDX-License-Identifier: MIT
// The minimum 1-tree: a minimum spanning tree of all cities plus one more edge at a leaf.
//
// Held and Karp's 1-tree is a spanning tree of the cities other than a special city v plus the two
// lightest edges at v. Taking v to be a leaf of a minimum spanning tree T of all cities (as LKH
// does) gives a minimum 1-tree for that v cheaply: T less v's edge is a minimum spanning tree of
// the other cities (removing a leaf keeps every cut's lightest edge), and v's tree edge is its
// lightest edge (otherwise swapping it for a lighter one would give a lighter spanning tree), so
// the 1-tree is T plus v's second-lightest edge. Every leaf is a valid choice; the heaviest
// second edge gives the highest bound.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "bounds/penalised_edge.h"
#include "core/search.h"

namespace formica::bounds {

/// Thrown by a spanning tree of the complete graph when its caller abandons it: a bound whose
/// result nobody reads any more (the run it was computed for has ended) stops at once instead of
/// finishing a tree of seconds (a million cities; 50,000 at one point, all of whose edges tie).
class TreeAbandoned : public std::runtime_error {
 public:
  TreeAbandoned() : std::runtime_error("the spanning tree was abandoned") {}
};

struct OneTree {
  std::vector<Edge> tree;  ///< a minimum spanning tree of all cities, n - 1 edges
  int special = -1;        ///< a leaf of `tree`
  Edge extra = kNoEdge;    ///< the special city's second-lightest edge

  /// Sum of the n edges' penalised weights.
  WeightSum weight() const;
  /// Each city's degree in the 1-tree (2 everywhere: the 1-tree is a tour).
  std::vector<int32_t> degrees(int n) const;
};

/// The 1-tree of the minimum spanning tree `tree` of n cities. `second(leaf, neighbour)` is the
/// leaf's lightest edge to a city other than its tree neighbour, over whatever graph the tree is
/// minimal in; the leaf whose second edge is heaviest becomes special. Leaves are asked on
/// `threads` threads; the result does not depend on it. Throws TreeAbandoned once `abandon`
/// (null: never) asks, looked at before every leaf's search: a star of cities at one point has
/// n - 1 leaves, each a search of the whole k-d tree (50,000 such cities: 27 s).
OneTree one_tree_of(std::vector<Edge> tree, int n, const std::function<Edge(int, int)>& second, int threads,
                    const StopFlag* abandon = nullptr);

/// w(pi) in scaled units: the 1-tree's weight less 2 * sum(pi).
WeightSum scaled_value(const OneTree& one_tree, std::span<const int64_t> pi);

/// w(pi) of `one_tree` recomputed from the instance: the scaled distances of its edges plus
/// (degree - 2) * pi of every city, in 128 bits. What a reported bound is computed from, so that it
/// is the exact value of a 1-tree whatever the arithmetic that found the tree. Throws
/// std::logic_error unless `one_tree` is a 1-tree of the instance's cities (n - 1 edges spanning
/// them, `special` a leaf of them, `extra` another edge at it) whose stored weights are exactly
/// penalised(instance, pi, a, b).
WeightSum exact_value(const Instance& instance, const OneTree& one_tree, std::span<const int64_t> pi);

/// The integer bound a scaled value proves: tour lengths are integers, so ceil(value / scale), and
/// never negative (no tour is). Throws std::logic_error beyond 64 bits, which no valid bound is:
/// every tour's length fits.
int64_t ceil_bound(WeightSum scaled);

}  // namespace formica::bounds
