// SPDX-License-Identifier: MIT
// Edge assembly crossover (EAX; Nagata and Kobayashi, INFORMS Journal on Computing 25(2), 2013,
// the single strategy of their GA-EAX), the crossover of the population search
// (population/edge_assembly_search.h).
//
// Parents A and B differ in some edges; those edges, A's and B's, form the graph G_AB, in which
// every city has as many A edges as B edges. G_AB falls into AB-cycles: closed walks that take an
// A edge and a B edge in turn, traced from random cities with random choices where a city has two
// edges of the kind due (ab_cycles). A child is A with one AB-cycle's A edges replaced by its B
// edges: every city keeps two edges, but the result may fall into several subtours. These are
// joined one at a time, the smallest first, by the cheapest 2-opt-type exchange between it and any
// other subtour: an edge (u, u') of the smallest, an edge (v, v') at a listed neighbour v of u
// outside it, replaced by (u, v) and (u', v'). A child is an exchange of A's edges, as a partition
// merge's is (partition_merge.h), with its exact gain; its tour is built only for the child taken.
//
// Block E-sets (Nagata and Kobayashi's second stage, Block2, in a form of this project's own):
// near convergence the parents differ in a few small AB-cycles, and one of them alone mostly leaves
// subtours whose joins cost more than the cycle gains. A block E-set starts from a centre AB-cycle
// and flips, one at a time, the AB-cycles that touch the subtours other than the largest that the
// centre leaves, each time the flip that leaves the fewest subtours (ties: the larger gain), a flip
// just made tabu for a few steps, and keeps the set of fewest subtours seen: a whole region of B
// moved into A at once, with few or no joins.
//
// Unlike the partition merge, which only takes the pieces of B that fit into A as they are, EAX
// assembles new edges where a piece does not fit, so two good tours give children that neither
// parent's neighbourhood holds; that is what lets GA-EAX reach optima that Lin-Kernighan's kicks
// take far longer to find.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/rng.h"
#include "population/partition_merge.h"

namespace formica::population {

/// A child of EAX: the base (parent A) with `removed` (its edges) replaced by `added`, one tour,
/// `gain` its length saved (removed minus added; negative when the child is longer).
struct AssembledChild {
  int64_t gain = 0;
  std::vector<Edge> removed, added;
};

/// The crossover's work buffers for one instance; one per thread.
class EdgeAssembly {
 public:
  /// The subtours are joined over the first `merge_neighbours` cities of each list.
  EdgeAssembly(const Instance& instance, const CandidateLists& lists, int merge_neighbours = 10);

  /// The AB-cycles of parents `a` and `b` (a permutation of the same cities), as cities c0 c1 ...
  /// c(2m-1) with edge (c_i, c_i+1) one of A's for even i and one of B's for odd i (the last
  /// closing to c0), in the order they were traced. Empty when the parents are the same tour.
  void ab_cycles(const MergeBase& a, std::span<const int32_t> b, RandomStream& rng,
                 std::vector<std::vector<int32_t>>& cycles);

  /// The child of `a` with `cycle` (one of ab_cycles') applied and the subtours joined; false
  /// when a subtour has no listed neighbour outside it (no child).
  bool child(const MergeBase& a, std::span<const int32_t> cycle, AssembledChild& out);

  /// How a child is judged: larger is better (the gain, or GA-EAX's entropy-preserving score).
  using ChildScore = std::function<double(const AssembledChild&)>;

  /// Up to `children` children of `a` and `b`, each from another random AB-cycle (alone, or the
  /// centre of a block E-set with `block`), and the one of largest `score` (by default the gain;
  /// the first of equal scores) in `best`; returns the number of children made (0: the parents are
  /// the same tour).
  int best_child(const MergeBase& a, std::span<const int32_t> b, int children, RandomStream& rng,
                 AssembledChild& best, const ChildScore& score = {}, bool block = false);

  /// The block E-set around AB-cycle `centre` of the last ab_cycles call (see the file comment), as
  /// indices into those cycles, the centre first.
  void block_set(const MergeBase& a, int centre, RandomStream& rng, std::vector<int>& set);

  /// The child of `a` with the AB-cycles `set` of the last ab_cycles call applied and the subtours
  /// joined, as child() does for one.
  bool block_child(const MergeBase& a, std::span<const int> set, AssembledChild& out);

 private:
  // The intermediate tour of a child: the base with `removed_` replaced by `added_`. Per city, up
  // to two removed and two added neighbours, valid while stamp_[city] == stamp_now_.
  void reset_child();
  /// Applies one AB-cycle to the intermediate tour; returns its gain (A's lengths less B's).
  int64_t apply_cycle(const MergeBase& a, std::span<const int32_t> cycle);
  /// Joins the intermediate tour's subtours and writes the child; `gain` is the cycles'.
  bool join_subtours(const MergeBase& a, int64_t gain, AssembledChild& out);
  /// The subtours that the AB-cycles marked in in_set_ leave (0: inconsistent), their pieces in
  /// pieces_; `with` (when >= 0) counted as flipped.
  int set_subtours(const MergeBase& a, int with);
  /// Sizes the block E-sets' per-cycle arrays to cycles_ and works out each cycle's gain (block_set
  /// does it when the cycles changed since).
  void index_cycles();
  void touch(int32_t city);
  void remove_edge(const MergeBase& a, int32_t u, int32_t v);
  void add_edge(int32_t u, int32_t v);
  /// The two neighbours of `city` in the intermediate tour.
  void neighbours(const MergeBase& a, int32_t city, int32_t out[2]);

  const Instance& instance_;
  const CandidateLists& lists_;
  int merge_neighbours_;
  std::vector<uint32_t> stamp_;
  uint32_t stamp_now_ = 0;
  std::vector<int32_t> gone_, extra_;  // 2 per city, -1 for none
  std::vector<Edge> removed_, added_;
  std::vector<Edge> diff_added_, diff_removed_;
  // G_AB: per city up to two A edges and two B edges not yet traced, and where it is on the path.
  std::vector<int32_t> ab_, ab_count_, seen_at_;
  std::vector<int32_t> path_, starts_;
  MergeBase::Pieces pieces_;
  std::vector<int> root_;       // per first cycle of a child, the cycle it was joined into
  std::vector<uint32_t> mark_;  // the smallest subtour's cities: mark_[city] == mark_now_
  uint32_t mark_now_ = 0;
  std::vector<std::vector<int32_t>> cycles_;
  std::vector<std::vector<int32_t>> spare_;  // the storage of cycles traced before, for the next ones
  bool indexed_ = false;                     // whether the per-cycle arrays below match cycles_
  AssembledChild candidate_;
  // Block E-sets: per cycle whether in the set, its gain, and the step until which it is tabu.
  std::vector<char> in_set_;
  std::vector<int64_t> cycle_gain_;
  std::vector<int> tabu_until_, flips_, set_, best_set_, chosen_;
  std::vector<Edge> set_removed_, set_added_;
};

}  // namespace formica::population
