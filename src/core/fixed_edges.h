// SPDX-License-Identifier: MIT
// Fixed edges (TSPLIB's FIXED_EDGES_SECTION): edges every tour must contain, and the
// transformation that makes every solver keep them.
//
// The fixed edges of n cities are a set of paths, or one tour through every city: no self-loop,
// no edge twice, at most two at a city, no cycle but the whole tour (FixedEdgeChecker). They are
// kept as LKH keeps them, by the weights: the solved instance is an EXPLICIT matrix with
//   w(i, j) = d(i, j) for a fixed edge,   d(i, j) + B for any other,
// L an upper bound on the longest edge (longest_edge_bound), k the fixed edges and
// B = (n - k) L + 1, or where weights would pass 2^30 (two of them must sum in 32 bits) the largest
// B that keeps them below (at least 2 L + 1, else the instance is refused). A tour with j of the k fixed edges measures its length
// plus (n - j) B: with the first B every tour holding all fixed edges is shorter than every tour
// without one of them, so the optimum holds them, and a local search sees a missing fixed edge as
// a gain of about B (a 2-opt move that adds one gains at least B - 2 L > 0 whenever the two edges
// it removes are free). The tour that comes back is checked to hold them all, and mended where it does not
// (keep_fixed_edges: each path of fixed edges spliced in whole where the tour first meets it), so
// every tour a solver returns keeps them; lengths are measured in the true metric. Called by
// io/tsplib.cpp (the checks) and solver/route_solver.cpp (the transformation).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/instance.h"

namespace formica {

/// Takes fixed edges one at a time and throws InputError (a reason without a prefix, for the
/// caller to place) at the first that breaks the rules above. Memory grows with the edges added.
class FixedEdgeChecker {
 public:
  explicit FixedEdgeChecker(int n) : n_(n) {}
  /// `a` and `b` are 1-based, as in a file and in messages, and are checked in range.
  void add(int64_t a, int64_t b);
  const std::vector<FixedEdge>& edges() const { return edges_; }

 private:
  struct City {
    int32_t root;
    int32_t size;  // of the component, valid at its root
    int32_t neighbour[2];
    int degree;
  };
  City& city(int32_t c);
  int32_t find(int32_t c);

  int n_;
  std::unordered_map<int32_t, City> cities_;
  std::vector<FixedEdge> edges_;
};

/// Throws InputError ("fixed edge k (a-b): reason", cities 1-based) unless `edges` (0-based) follow
/// the rules above.
void validate_fixed_edges(std::span<const FixedEdge> edges, int n);

/// The first edge of `edges` that the closed tour `order` (a permutation) lacks; nullopt if none.
std::optional<FixedEdge> missing_fixed_edge(std::span<const int32_t> order, std::span<const FixedEdge> edges);

/// `order` (a permutation) if it holds every fixed edge; otherwise the tour that visits the cities in
/// the order `order` first meets them, each path of fixed edges walked whole from the end nearer the
/// city before it. A tour of all n cities in `edges` is returned as that tour. O(n).
std::vector<int32_t> keep_fixed_edges(const Instance& instance, std::span<const int32_t> order,
                                      std::span<const FixedEdge> edges);

class FixedEdgeTransform {
 public:
  /// Builds the n x n EXPLICIT instance of weights above. Throws InputError when no B fits (above)
  /// and OutOfMemoryError when the matrix does not fit in host memory.
  explicit FixedEdgeTransform(const Instance& instance);

  const Instance& instance() const { return transformed_; }
  /// (n - k) B: what a tour holding all k fixed edges measures beyond its length on instance().
  int64_t offset() const { return offset_; }
  /// The tour of the original instance for a tour of instance(): keep_fixed_edges.
  std::vector<int32_t> tour(std::span<const int32_t> order) const;

 private:
  FixedEdgeTransform(const Instance& instance, int64_t bonus);
  /// B for `instance` (above); InputError when not even 2 L + 1 keeps the weights below 2^30.
  static int64_t bonus_for(const Instance& instance);
  static Instance build(const Instance& instance, int64_t bonus);

  const Instance* original_;
  int64_t offset_ = 0;
  Instance transformed_;
};

}  // namespace formica
