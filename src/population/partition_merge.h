// SPDX-License-Identifier: MIT
// Partition merge: the stretches where other tours are shorter than a base tour are swapped into
// it, wherever they fit together. The colonies' best tours (aco/colony_merge.h) are such tours:
// each colony, and each restart, settles in its own basin and is good in different places.
//
// It is partition crossover (GPX; Whitley, Hains and Howe 2009) with the base as one parent: the
// edges in which a tour differs from the base fall into connected components, each an exchange of
// base edges for new ones. A component that shortens the base and leaves a single cycle when it is
// applied alone is a candidate. Most components of two good tours only close into one cycle
// together with others, so, as GPX's fusion does, a component that shortens the base grows by the
// component that leaves the fewest cycles until one is left; and the other tour's whole difference
// with its costly components dropped (while it stays one cycle) is a candidate too. Candidates are
// taken greedily, largest gain first, skipping one that shares a city with an exchange taken or
// that would split the tour together with those taken. Lengths stay exact: the merged tour's length
// is the base's minus the gains taken.
//
// The cycle test of an exchange of k edges takes O(k log k), not O(n): the removed edges cut the
// base into k paths, and the added edges join path ends; one walk over the paths decides whether
// they close into one cycle (the test LKH applies to its k-opt moves).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/instance.h"

namespace formica::population {

/// An undirected edge, a < b.
struct Edge {
  int32_t a = 0, b = 0;
  friend bool operator==(const Edge&, const Edge&) = default;
  friend auto operator<=>(const Edge&, const Edge&) = default;
};

inline Edge make_edge(int32_t u, int32_t v) { return u < v ? Edge{u, v} : Edge{v, u}; }

/// Base edges removed and edges added, with the length they save (removed minus added).
struct Exchange {
  int64_t gain = 0;
  std::vector<Edge> removed, added;
};

struct MergedTour {
  std::vector<int32_t> tour;  ///< empty when no exchange was taken
  int64_t length = 0;
  int exchanges = 0;  ///< exchanges taken
};

class MergeBase {
 public:
  /// `tour` must be a permutation of the instance's cities with at least 5 of them; `length` is
  /// its exact length.
  MergeBase(const Instance& instance, std::span<const int32_t> tour, int64_t length);
  /// The base becomes `tour` (the same conditions), its arrays reused: one base per thread serves
  /// pair after pair (GA-EAX's generations) without allocating.
  void reset(std::span<const int32_t> tour, int64_t length);

  int n() const { return static_cast<int>(tour_.size()); }
  int64_t length() const { return length_; }
  std::span<const int32_t> tour() const { return tour_; }
  bool adjacent(int a, int b) const { return links_[2 * a] == b || links_[2 * a + 1] == b; }
  int32_t succ(int city) const { return links_[2 * city]; }
  int32_t pred(int city) const { return links_[2 * city + 1]; }
  int position(int city) const { return pos_[city]; }

  /// The edges in which `tour` (a permutation) differs from the base, each once, in no order.
  void difference(std::span<const int32_t> tour, std::vector<Edge>& added, std::vector<Edge>& removed) const;

  /// The exchanges of a difference (removed edges must be base edges, added edges not) that
  /// shorten the base and leave one cycle: its components that do so alone, fused components, and
  /// the whole difference less its costly components (see the file comment); each with its edges
  /// sorted, in order of their smallest edge: the same list whatever the order of the input.
  std::vector<Exchange> improving_exchanges(std::span<const Edge> added, std::span<const Edge> removed) const;

  /// Whether the base with `removed` replaced by `added` is one cycle through every city; writes
  /// that tour into `out` when given. False too when the edges are inconsistent (a removed edge
  /// that is not a base edge, a city whose removed and added edges differ in number).
  bool exchange_is_a_tour(std::span<const Edge> removed, std::span<const Edge> added,
                          std::vector<int32_t>* out = nullptr) const;

  /// The number of cycles the base with `removed` replaced by `added` falls into (1: a tour), 0
  /// when the edges are inconsistent.
  int exchange_cycles(std::span<const Edge> removed, std::span<const Edge> added) const;

  /// The cycles of an exchange as pieces of the base: the removed edges' positions `cut` (edge
  /// (tour[p], tour[p + 1]) is cut p), sorted, so that piece i runs from position cut[i] + 1 to
  /// cut[i + 1] (the last one round the end of the tour); `cycle[i]` the cycle piece i lies on and
  /// `size[c]` the cities of cycle c.
  struct Pieces {
    std::vector<int> cut, cycle, size;
    /// The piece that holds position p.
    int piece_at(int p) const;
  };
  /// Writes the pieces of an exchange and returns its number of cycles (what exchange_cycles
  /// returns; 0 when the edges are inconsistent, and `pieces` is then unspecified).
  int exchange_pieces(std::span<const Edge> removed, std::span<const Edge> added, Pieces& pieces) const;

  /// Takes `candidates` greedily as the file comment says (largest gain first, ties in the given
  /// order) and returns the merged tour.
  MergedTour merge(std::vector<Exchange> candidates) const;

 private:
  struct Paths {
    std::vector<int> cut, link;  // removed edges' positions; path-end slot -> slot joined by an added edge
  };
  bool link_paths(std::span<const Edge> removed, std::span<const Edge> added, Paths& paths) const;

  const Instance& instance_;
  std::vector<int32_t> tour_, pos_;
  std::vector<int32_t> links_;  // per city its successor, then its predecessor: one cache line for both
  int64_t length_;
};

/// Segment merge: the stretches of `base` that `other` visits as the same set of cities, in an
/// order of its own, between the same neighbours outside them. Both tours are read from a city
/// where they agree (two common edges in a row); from there the base is cut into the shortest
/// pieces that hold the same cities as the same stretch of positions of the other tour, and each
/// piece is replaced by the other's order where that is shorter (its two edges to the rest
/// counted, left to right, so the gains add up exactly). Unlike an exchange of the partition merge
/// a piece always leaves one tour, however its edges fall into components: this is what puts
/// together tours that differ in disjoint stretches (the islands' split of the stretch
/// decomposition, decomposition/stretch_lin_kernighan.h), whose components rarely close alone.
/// O(n). Returns an empty tour when no piece is shorter, or when the tours share no two edges in a
/// row.
MergedTour segment_merge(const Instance& instance, std::span<const int32_t> base, int64_t base_length,
                         std::span<const int32_t> other);

/// A tour and its exact length, to merge.
using LengthTour = std::pair<long long, std::span<const int32_t>>;

/// Partition merge of several tours: `donors` (at least one, each a permutation of at least 5
/// cities) sorted by length, then merged one after another into the shortest, each into the tour
/// the ones before it left (partition merge, then segment merge of what it left). The result is
/// written to `merged`; its exact length is returned. The colonies' merge (aco/colony_merge.h) and
/// the ranks' (solver/islands.h) both go through it.
int64_t merge_tours(const Instance& instance, std::vector<LengthTour>& donors, std::vector<int32_t>& merged);

}  // namespace formica::population
