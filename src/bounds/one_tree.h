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
#include <vector>

#include "bounds/penalised_edge.h"

namespace formica::bounds {

struct OneTree {
  std::vector<Edge> tree;  ///< a minimum spanning tree of all cities, n - 1 edges
  int special = -1;        ///< a leaf of `tree`
  Edge extra = kNoEdge;    ///< the special city's second-lightest edge

  /// Sum of the n edges' penalised weights.
  int64_t weight() const;
  /// Each city's degree in the 1-tree (2 everywhere: the 1-tree is a tour).
  std::vector<int32_t> degrees(int n) const;
};

/// The 1-tree of the minimum spanning tree `tree` of n cities. `second(leaf, neighbour)` is the
/// leaf's lightest edge to a city other than its tree neighbour, over whatever graph the tree is
/// minimal in; the leaf whose second edge is heaviest becomes special. Leaves are asked on
/// `threads` threads; the result does not depend on it.
OneTree one_tree_of(std::vector<Edge> tree, int n, const std::function<Edge(int, int)>& second, int threads);

/// w(pi) in scaled units: the 1-tree's weight less 2 * sum(pi).
int64_t scaled_value(const OneTree& one_tree, std::span<const int64_t> pi);

/// The integer bound a scaled value proves: tour lengths are integers, so ceil(value / scale).
int64_t ceil_bound(int64_t scaled);

}  // namespace formica::bounds
