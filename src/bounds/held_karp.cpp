// SPDX-License-Identifier: MIT
// Subgradient ascent on a sparse graph, certified over the complete graph (see held_karp.h).
#include "bounds/held_karp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>
#include <utility>
#include <thread>

#include "bounds/complete_graph.h"
#include "bounds/sparse_graph.h"
#include "core/candidates.h"
#include "core/error.h"
#include "core/fixed_edges.h"
#include "core/kd_tree.h"
#include "core/search.h"
#include "core/timer.h"

namespace formica::bounds {
int thread_count(int requested) {
  if (requested > 0) return requested;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? static_cast<int>(hardware) : 1;
}

namespace {

/// The ascent's graph: the nearest and quadrant neighbours of every city and the edges of `tree`.
/// Throws SetupStopped when `stop` asks before the graph is built.
SparseGraph ascent_graph(const Instance& instance, int neighbours, int threads, const OneTree& tree,
                         const StopFlag& stop) {
  std::vector<std::pair<int32_t, int32_t>> pairs;
  const auto add_lists = [&](NeighbourShape shape) {
    const CandidateLists lists = build_candidate_lists(instance, neighbours, threads, shape, &stop);
    for (int i = 0; i < instance.n(); ++i)
      for (const int32_t j : lists.of(i)) pairs.emplace_back(i, j);
  };
  add_lists(NeighbourShape::Nearest);
  if (effective_shape(NeighbourShape::Quadrant, instance.type()) == NeighbourShape::Quadrant)
    add_lists(NeighbourShape::Quadrant);
  for (const Edge& e : tree.tree) pairs.emplace_back(e.a, e.b);
  pairs.emplace_back(tree.extra.a, tree.extra.b);
  return SparseGraph(instance, pairs, threads, &stop);
}

struct Evaluation {
  WeightSum value;  // scaled w(pi)
  std::vector<int32_t> degree;
  int64_t norm;   // sum of (degree - 2)^2
};

Evaluation evaluate(const SparseGraph& graph, const std::vector<int64_t>& pi) {
  const OneTree tree = graph.one_tree(pi);
  Evaluation e{scaled_value(tree, pi), tree.degrees(graph.n()), 0};
  for (const int32_t d : e.degree) e.norm += static_cast<int64_t>(d - 2) * (d - 2);
  return e;
}

/// `out` completed with the higher of the plain 1-tree `first` (pi = 0) and `last` (the complete
/// graph's 1-tree for the ascent's best penalties), both proven, their values recomputed exactly
/// from the instance (exact_value).
LowerBound finished(const Instance& instance, LowerBound out, OneTree first,
                    std::optional<std::pair<OneTree, std::vector<int64_t>>> last, const Stopwatch& clock) {
  const int n = instance.n();
  const WeightSum first_value = exact_value(instance, first, std::vector<int64_t>(static_cast<size_t>(n), 0));
  const WeightSum last_value = last ? exact_value(instance, last->first, last->second) : first_value - 1;
  if (last_value >= first_value) {
    out.penalties = std::move(last->second);
    out.one_tree = std::move(last->first);
  } else {
    out.penalties.assign(static_cast<size_t>(n), 0);
    out.one_tree = std::move(first);
  }
  const WeightSum value = std::max(last_value, first_value);
  out.value = static_cast<double>(value) / kPenaltyScale;
  out.bound = ceil_bound(value);
  const std::vector<int32_t> degree = out.one_tree.degrees(n);
  out.tour = std::all_of(degree.begin(), degree.end(), [](int32_t d) { return d == 2; });
  out.seconds = clock.seconds();
  return out;
}

/// Seconds a city of nearest_pairs_bound() takes at most, its k-d tree's share included (about
/// 1 us measured on 500,000 random cities, 2 busy cores): the time a first tree leaves it.
constexpr double kNearestPairsSecondsPerCity = 2e-6;

/// Cities between two looks at the stop in nearest_pairs_bound().
constexpr int kNearestPairsChunk = 4096;

/// The bound of every city's two nearest neighbours (BoundOptions::hold_time_limit): a tour has two
/// edges at each city, each at least as long as one of the two nearest, so it is at least half the
/// sum of their lengths over all cities, and over any subset of them (distances are never
/// negative): `stop` ends the sum where it is (LowerBound::summed_cities), and the bound is 0 when it
/// comes before the k-d tree is built. O(n log n) with the k-d tree, the cities asked in the tree's
/// order (neighbouring queries share memory), on `threads` threads.
LowerBound nearest_pairs_bound(const Instance& instance, int threads, LowerBound out, const Stopwatch& clock,
                               const StopFlag& stop) {
  out.penalties.assign(static_cast<size_t>(instance.n()), 0);
  out.method = std::string(kNearestPairsMethod);
  out.stop_reason = "time limit";
  std::optional<KdTree> tree;
  try {
    tree.emplace(instance, &stop);
  } catch (const SetupStopped&) {
    out.seconds = clock.seconds();
    return out;
  }
  const std::vector<int32_t>& order = tree->order();
  const int n = static_cast<int>(order.size());
  const int chunks = (n + kNearestPairsChunk - 1) / kNearestPairsChunk;
  int64_t sum = 0;  // at most 2 n (2^31 - 1): exact in 64 bits
  int64_t summed = 0;
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : sum, summed) num_threads(threads) if (threads > 1)
  for (int chunk = 0; chunk < chunks; ++chunk) {
    if (stopped.load(std::memory_order_relaxed) || stop.requested()) {
      stopped.store(true, std::memory_order_relaxed);
      continue;
    }
    const int end = std::min(n, (chunk + 1) * kNearestPairsChunk);
    for (int at = chunk * kNearestPairsChunk; at < end; ++at)
      for (const int32_t other : tree->k_nearest(order[at], 2)) sum += instance.distance(order[at], other);
    summed += end - chunk * kNearestPairsChunk;
  }
  out.bound = (sum + 1) / 2;
  out.value = static_cast<double>(sum) / 2;
  out.summed_cities = summed;
  out.seconds = clock.seconds();
  return out;
}

/// Whether the 1-tree holds every fixed edge of `instance`.
bool holds_fixed_edges(const OneTree& tree, const Instance& instance) {
  std::set<std::pair<int32_t, int32_t>> edges;
  const auto add = [&](const Edge& e) { edges.emplace(std::min(e.a, e.b), std::max(e.a, e.b)); };
  for (const Edge& e : tree.tree) add(e);
  add(tree.extra);
  return std::ranges::all_of(instance.fixed_edges(), [&](const FixedEdge& f) {
    return edges.count({std::min(f[0], f[1]), std::max(f[0], f[1])}) > 0;
  });
}

LowerBound lower_bound_of(const Instance& instance, const BoundOptions& options);

}  // namespace

double default_bound_time(int n) { return std::clamp(n / 2000.0, 10.0, 120.0); }

BoundOptions requested_bound(int n, std::optional<int64_t> iterations, std::optional<double> time_limit, int threads) {
  BoundOptions options;
  options.iterations = iterations.value_or(0);
  options.time_limit = time_limit.value_or(default_bound_time(n));
  options.hold_time_limit = time_limit.has_value() || !iterations.has_value();
  options.threads = threads;
  return options;
}

int default_initial_period(int n) { return n <= 20000 ? std::clamp(n / 2, 100, 300) : 100; }

LowerBound lower_bound(const Instance& instance, const BoundOptions& options) {
  if (instance.fixed_edges().empty()) return lower_bound_of(instance, options);
  // Tours through the fixed edges: the bound of the instance whose free edges weigh B more
  // (FixedEdgeTransform), less the (n - k) B every such tour carries there. Every tour through the
  // fixed edges measures its length plus that offset on the transformed instance, so the difference
  // is a bound of theirs, and stronger than the plain instance's, whose tours need not hold them.
  // Where the transformed matrix does not fit (or no B does), the plain instance's bound: proven
  // too, since a tour through the fixed edges is a tour.
  std::optional<FixedEdgeTransform> transform;
  try {
    transform.emplace(instance);
  } catch (const OutOfMemoryError&) {
  } catch (const InputError&) {
  }
  if (!transform) {
    LowerBound out = lower_bound_of(instance, options);
    out.fixed_edges = FixedEdgesInBound::Ignored;
    // Its 1-tree being a tour proves nothing for tours that must hold the fixed edges.
    out.tour = out.tour && holds_fixed_edges(out.one_tree, instance);
    return out;
  }
  LowerBound out = lower_bound_of(transform->instance(), options);
  const int64_t offset = transform->offset();
  out.bound = std::max<int64_t>(0, out.bound - offset);
  out.value -= static_cast<double>(offset);
  // A tour of the transformed instance is the optimum there; through every fixed edge, here too.
  out.tour = out.tour && holds_fixed_edges(out.one_tree, instance);
  out.fixed_edges = FixedEdgesInBound::Kept;
  return out;
}

namespace {

/// When a bound's complete-graph 1-trees stop (BoundOptions).
struct TreeStops {
  std::chrono::steady_clock::time_point started;
  double time_limit = 0;  ///< seconds from `started`
  bool deadline = false;  ///< whether the trees keep the time limit
  StopFlag tree;          ///< every tree's
  StopFlag first;         ///< the first tree's: early enough to leave the fallback its time

  /// The moment `seconds` after `started`.
  std::chrono::steady_clock::time_point at(double seconds) const {
    return started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(seconds));
  }
};

TreeStops tree_stops(const Instance& instance, const BoundOptions& options) {
  TreeStops stops;
  stops.started = std::chrono::steady_clock::now();
  // What was spent before the call (reading the instance) counts against the limit too.
  stops.time_limit =
      options.start == std::chrono::steady_clock::time_point{}
          ? options.time_limit
          : options.time_limit - std::chrono::duration<double>(stops.started - options.start).count();
  // A bound that is dropped when interrupted leaves its complete-graph trees at once too, and one
  // that holds its time limit leaves them at the limit (the first only where a bound is left).
  if (!options.certify_when_interrupted) stops.tree.interrupt = options.interrupt;
  stops.deadline = options.hold_time_limit && stops.time_limit < 1e9;
  if (stops.deadline) stops.tree.deadline = stops.at(stops.time_limit);
  stops.first = stops.tree;
  const int n = instance.n();
  stops.first.deadline =
      stops.deadline && instance.has_coordinates() && !instance.has_path_city()
          ? stops.at(std::max(
                0.0, std::min(stops.time_limit / 2, stops.time_limit - n * kNearestPairsSecondsPerCity)))
          : std::chrono::steady_clock::time_point::max();
  return stops;
}

/// `stop` where it can ask at all, else null: a tree given none never looks.
const StopFlag* if_it_can_stop(const StopFlag& stop) {
  const bool can = stop.interrupt != nullptr || stop.deadline != std::chrono::steady_clock::time_point::max();
  return can ? &stop : nullptr;
}

/// The subgradient ascent on `graph` from pi = 0: periods from options.initial_period, halved with
/// the step; while the bound rises in the first period the step doubles. Fills out.history,
/// out.iterations and out.stop_reason; stops at a signal or once `clock` reaches `ascent_end`.
/// Returns the best penalties found (all 0 if no step improved).
std::vector<int64_t> subgradient_ascent(const SparseGraph& graph, const BoundOptions& options, double ascent_end,
                                        const Stopwatch& clock, LowerBound& out) {
  const int n = graph.n();
  const auto stop = [&] {
    return (options.interrupt != nullptr && options.interrupt->load(std::memory_order_relaxed)) ||
           clock.seconds() >= ascent_end;
  };
  const auto stop_reason = [&] { return options.interrupt && options.interrupt->load() ? "interrupted" : "time limit"; };
  const int initial_period = options.initial_period > 0 ? options.initial_period : default_initial_period(n);

  std::vector<int64_t> pi(static_cast<size_t>(n), 0);
  if (stop()) {  // not even the first sparse 1-tree: the penalties stay 0
    out.stop_reason = stop_reason();
    return pi;
  }
  Evaluation now = evaluate(graph, pi);
  WeightSum best = now.value;
  std::vector<int64_t> best_pi = pi;
  std::vector<int32_t> last_move(static_cast<size_t>(n), 0);
  out.history.push_back({0, clock.seconds(), static_cast<double>(best) / kPenaltyScale, 0});
  out.stop_reason = "schedule";
  // The first step: a hundredth of the mean 1-tree edge (at least one distance unit), so that the
  // doubling below reaches the instance's scale in a few iterations whatever its units. Steps and
  // penalties stay within kMaxPenalty, so that every weight stays exact (penalised_edge.h).
  int64_t step = static_cast<int64_t>(std::clamp<WeightSum>(now.value / n / 100, kPenaltyScale, kMaxPenalty));
  bool initial_phase = true;
  for (int period = initial_period; period > 0 && step > 0 && out.stop_reason == "schedule";
       period /= 2, step /= 2) {
    for (int p = 1; p <= period && step > 0; ++p) {
      if (now.norm == 0) {
        out.stop_reason = "tour";
        break;
      }
      if (options.iterations > 0 && out.iterations >= options.iterations) {
        out.stop_reason = "iterations";
        break;
      }
      if (stop()) {
        out.stop_reason = stop_reason();
        break;
      }
      // The move blends this degree excess with the last one (7:3, as LKH does) to damp zigzags.
      for (int i = 0; i < n; ++i) {
        const int32_t excess = now.degree[i] - 2;
        const WeightSum moved = pi[i] + WeightSum{step} * (7 * excess + 3 * last_move[i]) / 10;
        pi[i] = static_cast<int64_t>(std::clamp<WeightSum>(moved, -kMaxPenalty, kMaxPenalty));
        last_move[i] = excess;
      }
      now = evaluate(graph, pi);
      ++out.iterations;
      if (now.value > best) {
        best = now.value;
        best_pi = pi;
        out.history.push_back({out.iterations, clock.seconds(), static_cast<double>(best) / kPenaltyScale, step});
        if (initial_phase) step = std::min(2 * step, kMaxPenalty);
        if (p == period) period = std::min(2 * period, initial_period);
      } else if (initial_phase && p > period / 2) {
        // The doubling overshot: settle on three quarters of the step and start the period again.
        initial_phase = false;
        p = 0;
        step = 3 * step / 4;
      }
    }
  }
  return best_pi;
}

LowerBound lower_bound_of(const Instance& instance, const BoundOptions& options) {
  const Stopwatch clock;
  const TreeStops stops = tree_stops(instance, options);
  const int n = instance.n();
  const int threads = thread_count(options.threads);
  LowerBound out;

  const auto dropped = [&] {
    out.stop_reason = "interrupted";
    out.seconds = clock.seconds();
    return out;
  };
  const auto interrupted = [&] { return options.interrupt != nullptr && options.interrupt->load(); };
  // The fallback keeps the limit too, and stops at a signal: what it summed by then is proven.
  const auto pairs_bound = [&] {
    StopFlag pairs_stop = stops.tree;
    pairs_stop.interrupt = options.interrupt;
    LowerBound pairs = nearest_pairs_bound(instance, threads, std::move(out), clock, pairs_stop);
    if (interrupted()) pairs.stop_reason = "interrupted";
    return pairs;
  };
  // No time for a first tree: no k-d tree for one either.
  if (stops.first.deadline <= std::chrono::steady_clock::now()) return pairs_bound();
  CompleteGraph complete(instance);
  out.method = std::string(complete.method());
  // The plain 1-tree bound (pi = 0): proven already, and its tree keeps the sparse graph connected.
  const double before_first = clock.seconds();
  std::optional<OneTree> first_tree;
  try {
    first_tree = complete.one_tree(std::vector<int64_t>(static_cast<size_t>(n), 0), threads,
                                   if_it_can_stop(stops.first));
  } catch (const TreeAbandoned&) {
    if (!options.certify_when_interrupted && interrupted()) return dropped();
    return pairs_bound();
  }
  OneTree first = std::move(*first_tree);
  const double first_seconds = clock.seconds() - before_first;
  out.certify_seconds = first_seconds;
  const auto abandoned = [&] {
    return !options.certify_when_interrupted && options.interrupt != nullptr && options.interrupt->load();
  };
  if (abandoned()) {
    out.stop_reason = "interrupted";
    return finished(instance, std::move(out), std::move(first), std::nullopt, clock);
  }
  // The ascent stops early enough for one more complete-graph 1-tree (and some slack); a bound that
  // holds its limit builds no sparse graph for an ascent that would not start.
  const double ascent_end = stops.time_limit - 1.5 * first_seconds - 0.01;
  if (options.hold_time_limit && clock.seconds() >= ascent_end) {
    out.stop_reason = "time limit";
    return finished(instance, std::move(out), std::move(first), std::nullopt, clock);
  }
  // One that holds its limit stops building the graph where the ascent would have ended.
  StopFlag graph_stop;
  if (options.hold_time_limit) graph_stop.deadline = stops.at(std::max(0.0, ascent_end));
  std::optional<SparseGraph> sparse;
  try {
    sparse.emplace(ascent_graph(instance, std::min(options.neighbours, n - 1), threads, first, graph_stop));
  } catch (const SetupStopped&) {
    out.stop_reason = "time limit";
    return finished(instance, std::move(out), std::move(first), std::nullopt, clock);
  }
  out.sparse_edges = sparse->edges();
  std::vector<int64_t> best_pi = subgradient_ascent(*sparse, options, ascent_end, clock, out);

  // Penalties still all 0 (no ascent step improved) give the first tree again: it is not redone.
  if (abandoned() || std::all_of(best_pi.begin(), best_pi.end(), [](int64_t p) { return p == 0; }))
    return finished(instance, std::move(out), std::move(first), std::nullopt, clock);
  // Certification: the complete graph's minimum 1-tree for the best penalties. The pi = 0 tree is
  // proven too; the higher of the two is reported.
  const double before_last = clock.seconds();
  std::optional<OneTree> last;
  try {
    last = complete.one_tree(best_pi, threads, if_it_can_stop(stops.tree));
  } catch (const TreeAbandoned&) {
    if (!options.certify_when_interrupted && interrupted()) return dropped();
    out.stop_reason = "time limit";
    return finished(instance, std::move(out), std::move(first), std::nullopt, clock);
  }
  out.certify_seconds += clock.seconds() - before_last;
  return finished(instance, std::move(out), std::move(first), std::make_pair(std::move(*last), std::move(best_pi)),
                  clock);
}
}  // namespace

}  // namespace formica::bounds
