// SPDX-License-Identifier: MIT
// The Held-Karp lower bound: minimum 1-trees under node penalties raised by subgradient ascent
// (Held and Karp 1970, 1971; the step schedule of Helsgaun's LKH, 2000).
//
// For any penalties pi, the minimum 1-tree's weight under d(i, j) + pi(i) + pi(j), less 2 sum(pi),
// is at most every tour's length. The ascent moves pi(i) with the degree of i in the 1-tree (down
// when a city is a leaf, up when it has three or more edges) towards penalties whose 1-tree is
// as close to a tour as it can be. The ascent runs on a sparse graph (nearest and quadrant
// neighbours plus a complete-graph spanning tree) for speed; the figure reported is then proven
// over the complete graph: the minimum 1-tree of the complete graph for the best penalties
// (complete_graph.h), every pair looked at or skipped only when proved too heavy, exact TSPLIB
// integer distances. Its value, rounded up (tour lengths are integers), is the bound.
//
// Exact for every instance the reader takes: penalties and steps stay within +-kMaxPenalty and
// sums are 128-bit (penalised_edge.h), and the value reported is recomputed from the distances
// for the 1-tree reported (exact_value). A sparse graph can hold no tour (cities stacked on two
// far points, every list filled by cities on the same point): its value then has no upper bound
// and the ascent runs to the penalties' limit; the complete graph's value stays proven, but weak.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bounds/one_tree.h"
#include "core/instance.h"

namespace formica::bounds {

/// Host bytes per city that one thread's ascent and the alpha-nearest lists built from it hold at
/// their peak (the sparse graph, the 1-trees and penalties, the pool and the alpha tables): what a
/// memory plan counts for an ascent that runs beside a search (docs/reliability.md#memory-plans).
inline constexpr size_t kAscentBytesPerCity = 700;

/// LowerBound::method of the bound that a time limit leaves when no complete-graph 1-tree finished
/// in it (BoundOptions::hold_time_limit).
inline constexpr std::string_view kNearestPairsMethod = "two nearest neighbours";

struct BoundOptions {
  /// Most ascent iterations (one sparse 1-tree each); 0: until the step schedule ends.
  int64_t iterations = 0;
  /// Seconds for the whole computation; the ascent stops early enough (by the time the first
  /// complete-graph 1-tree took) that the final one fits. Infinity: until the schedule ends.
  double time_limit = std::numeric_limits<double>::infinity();
  int threads = 0;     ///< 0: every hardware thread; the result does not depend on it
  int neighbours = 10; ///< nearest, and quadrant where the type has quadrants, per city in the sparse graph
  /// The ascent's first period (iterations before the step halves); 0: default_initial_period(n).
  int initial_period = 0;
  const std::atomic<bool>* interrupt = nullptr;  ///< stops the ascent (the final 1-tree is still computed)
  /// false: an interrupt also skips what is left (the sparse graph, the final 1-tree), and the
  /// bound is the plain 1-tree's, for callers that drop an interrupted bound (a run that ends); an
  /// interrupt during a complete-graph tree leaves it at once, with bound 0.
  bool certify_when_interrupted = true;
  /// true: the time limit holds for the complete-graph 1-trees too (requested_bound).
  /// A final 1-tree it stops leaves the first one's bound; a first one it stops, on a coordinate
  /// instance without a path city, leaves the bound of every city's two nearest neighbours (half
  /// their sum: a tour has two edges at each city), stop reason "time limit": the first tree is
  /// given half the limit at most, the rest is that bound's.
  bool hold_time_limit = false;
  /// Where time_limit counts from (a command's start, so that reading the instance counts too);
  /// the default, the epoch: the call.
  std::chrono::steady_clock::time_point start{};
};

struct AscentPoint {
  int64_t iteration;
  double seconds;
  double value;  ///< w(pi) over the sparse graph (not proven), in distance units
  int64_t step;  ///< the step size t, scaled (kPenaltyScale = one distance unit)
};

/// How a bound treats an instance's fixed edges (TSPLIB's FIXED_EDGES_SECTION).
enum class FixedEdgesInBound {
  None,     ///< the instance has none
  Kept,     ///< a bound of the tours through them (lower_bound)
  Ignored,  ///< a bound of every tour, where the tours through them could not be bounded apart
};

struct LowerBound {
  int64_t bound = 0;   ///< proven: every tour is at least this long
  double value = 0.0;  ///< w(pi) over the complete graph in distance units; bound = ceil(value)
  bool tour = false;   ///< the minimum 1-tree was a tour: bound is the optimum
  std::vector<int64_t> penalties;  ///< pi, scaled by kPenaltyScale, within +-kMaxPenalty
  OneTree one_tree;                ///< the complete graph's minimum 1-tree for `penalties`
  std::vector<AscentPoint> history;  ///< every improvement of the sparse w(pi)
  int64_t iterations = 0;
  double seconds = 0.0;          ///< all of it
  double certify_seconds = 0.0;  ///< the complete-graph 1-trees alone
  int64_t sparse_edges = 0;
  std::string method;            ///< how the complete graph was searched ("dense Prim", ...)
  std::string stop_reason;       ///< "schedule", "tour", "iterations", "time limit", "interrupted"
  /// kNearestPairsMethod: the cities whose two nearest neighbours were summed; fewer than n when
  /// the time limit cut the sum short (still proven: every city adds at least its share), 0 when
  /// it came before the k-d tree was built (bound 0).
  int64_t summed_cities = 0;
  FixedEdgesInBound fixed_edges = FixedEdgesInBound::None;
};

/// The time the command line gives the bound by default: n / 2000 s, from 10 to 120 s.
double default_bound_time(int n);

/// The options of a bound a user asks for (`formica bound`, `solve --bound`, formica.lower_bound)
/// of n cities: `time_limit` (none: default_bound_time(n)) holds for the whole computation, its
/// 1-trees too (hold_time_limit), unless `iterations` are given without a time limit, which then
/// certifies whatever it takes. 200,000 cities at one point certified for minutes past a 100-s
/// default while only a named limit held.
BoundOptions requested_bound(int n, std::optional<int64_t> iterations, std::optional<double> time_limit, int threads);

/// The threads BoundOptions::threads asks for: `requested`, or every hardware thread when 0.
int thread_count(int requested);

/// The ascent's first period: n / 2 from 100 to 300 up to 20,000 cities, then 100. The whole
/// schedule takes about 3 to 4 periods of iterations. Measured on a 2-core VM: 20,000 random cities
/// end 0.004 % (period 300) and 0.008 % (100) below the 1,000 of n / 2 capped at 1,000, in 6.2 and
/// 4.7 s against 28 s; 200,000 cities take 746 iterations (64 s there) with 100.
int default_initial_period(int n);

/// The Held-Karp bound of `instance`. Deterministic: the same instance and options (iterations,
/// not a time limit) give the same bound and penalties whatever the thread count. An instance with
/// fixed edges gets a bound of the tours through them (LowerBound::fixed_edges says how).
LowerBound lower_bound(const Instance& instance, const BoundOptions& options = {});

}  // namespace formica::bounds
