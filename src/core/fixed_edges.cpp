// SPDX-License-Identifier: MIT
// Fixed edges: their checks, the weights that keep them and the mending of a tour that lost one
// (see fixed_edges.h).
#include "core/fixed_edges.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "core/error.h"
#include "core/memory.h"
#include "core/path_transform.h"

namespace formica {

FixedEdgeChecker::City& FixedEdgeChecker::city(int32_t c) {
  return cities_.try_emplace(c, City{c, 1, {-1, -1}, 0}).first->second;
}

int32_t FixedEdgeChecker::find(int32_t c) {
  int32_t root = c;
  while (city(root).root != root) root = city(root).root;
  while (c != root) {  // path compression
    City& at = city(c);
    c = at.root;
    at.root = root;
  }
  return root;
}

void FixedEdgeChecker::add(int64_t a, int64_t b) {
  for (const int64_t c : {a, b}) FORMICA_EXPECTS(c >= 1 && c <= n_, "city ", c, " is not in 1..", n_);
  FORMICA_EXPECTS(a != b, "an edge from city ", a, " to itself");
  const auto u = static_cast<int32_t>(a - 1), v = static_cast<int32_t>(b - 1);
  City& cu = city(u);
  FORMICA_EXPECTS(cu.neighbour[0] != v && cu.neighbour[1] != v, "the edge ", a, "-", b, " is fixed twice");
  for (const auto& [c, shown] : {std::pair{u, a}, std::pair{v, b}})
    FORMICA_EXPECTS(city(c).degree < 2, "city ", shown, " would have 3 fixed edges (a tour has 2 at each city)");
  const int32_t ru = find(u), rv = find(v);
  if (ru == rv) {
    // The edge closes a cycle: allowed only as the last edge of a tour through every city.
    FORMICA_EXPECTS(city(ru).size == n_, "the edge ", a, "-", b, " closes a cycle of ", city(ru).size,
                    " cities, not a tour of all ", n_);
  } else {
    City &big = city(ru).size >= city(rv).size ? city(ru) : city(rv), &small = &big == &city(ru) ? city(rv) : city(ru);
    small.root = big.root;
    big.size += small.size;
  }
  City& x = city(u);
  x.neighbour[x.degree++] = v;
  City& y = city(v);
  y.neighbour[y.degree++] = u;
  edges_.push_back({u, v});
}

void validate_fixed_edges(std::span<const FixedEdge> edges, int n) {
  FixedEdgeChecker checker(n);
  for (size_t k = 0; k < edges.size(); ++k) {
    try {
      checker.add(int64_t{edges[k][0]} + 1, int64_t{edges[k][1]} + 1);
    } catch (const InputError& e) {
      throw InputError(concat("fixed edge ", k + 1, " (", int64_t{edges[k][0]} + 1, "-", int64_t{edges[k][1]} + 1,
                              "): ", e.what()));
    }
  }
}

namespace {

/// The fixed neighbours of every city, -1 where it has fewer than two.
std::vector<std::array<int32_t, 2>> fixed_neighbours(size_t n, std::span<const FixedEdge> edges) {
  std::vector<std::array<int32_t, 2>> next(n, {-1, -1});
  for (const FixedEdge& e : edges)
    for (const auto& [from, to] : {std::pair{e[0], e[1]}, std::pair{e[1], e[0]}})
      next[static_cast<size_t>(from)][next[static_cast<size_t>(from)][0] < 0 ? 0 : 1] = to;
  return next;
}

}  // namespace

std::optional<FixedEdge> missing_fixed_edge(std::span<const int32_t> order, std::span<const FixedEdge> edges) {
  const size_t n = order.size();
  std::vector<int32_t> position(n);
  for (size_t k = 0; k < n; ++k) position[static_cast<size_t>(order[k])] = static_cast<int32_t>(k);
  for (const FixedEdge& e : edges) {
    const auto gap = static_cast<size_t>(std::abs(position[static_cast<size_t>(e[0])] - position[static_cast<size_t>(e[1])]));
    if (gap != 1 && gap != n - 1) return e;
  }
  return std::nullopt;
}

std::vector<int32_t> keep_fixed_edges(const Instance& instance, std::span<const int32_t> order,
                                      std::span<const FixedEdge> edges) {
  if (!missing_fixed_edge(order, edges)) return {order.begin(), order.end()};
  const size_t n = order.size();
  const auto next = fixed_neighbours(n, edges);
  std::vector<uint8_t> placed(n, 0);
  std::vector<int32_t> tour;
  tour.reserve(n);
  // Walks the path of fixed edges from its end `from` to its other end.
  const auto walk = [&](int32_t from) {
    int32_t previous = -1;
    for (int32_t c = from; c >= 0 && !placed[static_cast<size_t>(c)];) {
      placed[static_cast<size_t>(c)] = 1;
      tour.push_back(c);
      const auto& two = next[static_cast<size_t>(c)];
      const int32_t ahead = two[0] != previous ? two[0] : two[1];
      previous = c;
      c = ahead;
    }
  };
  for (const int32_t start : order) {
    if (placed[static_cast<size_t>(start)]) continue;
    // The two ends of its path (itself for a city without fixed edges; none on a whole tour).
    int32_t ends[2] = {start, start};
    for (int side = 0; side < 2; ++side) {
      int32_t previous = start, c = next[static_cast<size_t>(start)][side];
      while (c >= 0 && c != start) {
        ends[side] = c;
        const auto& two = next[static_cast<size_t>(c)];
        const int32_t ahead = two[0] != previous ? two[0] : two[1];
        previous = c;
        c = ahead;
      }
      if (c == start) ends[0] = ends[1] = start;  // the fixed edges are a whole tour
    }
    int32_t first = ends[0];
    if (!tour.empty() && instance.distance(tour.back(), ends[1]) < instance.distance(tour.back(), ends[0]))
      first = ends[1];
    walk(first);
  }
  return tour;
}

int64_t FixedEdgeTransform::bonus_for(const Instance& instance) {
  const int64_t longest = longest_edge_bound(instance);
  const int64_t free_edges = instance.n() - static_cast<int64_t>(instance.fixed_edges().size());
  // Weights up to half of 32 bits, so that any two of them sum in 32 bits as in a 2-opt gain.
  constexpr int64_t kLargest = std::numeric_limits<int32_t>::max() / 2;
  // (n - k) L + 1 where it fits: then every tour with the fixed edges beats every tour without.
  const int64_t bonus = std::min(std::max(free_edges, int64_t{2}) * longest + 1, kLargest - longest);
  FORMICA_EXPECTS(bonus >= 2 * longest + 1, instance.name(),
                  ": fixed edges are kept by adding at least 2 L + 1 to every other edge, and its longest edge L = ",
                  longest, " leaves no room for that below 2^30");
  return bonus;
}

Instance FixedEdgeTransform::build(const Instance& instance, int64_t bonus) {
  const size_t n = static_cast<size_t>(instance.n());
  expect_memory(n * n * sizeof(int32_t), available_host_memory(),
                concat(instance.name(), ": the ", n, " x ", n, " matrix that keeps its fixed edges"));
  std::vector<int32_t> weights(n * n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j)
        weights[i * n + j] = static_cast<int32_t>(instance.distance(static_cast<int>(i), static_cast<int>(j)) + bonus);
  for (const FixedEdge& e : instance.fixed_edges()) {
    const size_t a = static_cast<size_t>(e[0]), b = static_cast<size_t>(e[1]);
    weights[a * n + b] = weights[b * n + a] = static_cast<int32_t>(instance.distance(e[0], e[1]));
  }
  Instance transformed = Instance::from_matrix(instance.name(), static_cast<int>(n), std::move(weights));
  transformed.set_comment(instance.comment());
  return transformed;
}

FixedEdgeTransform::FixedEdgeTransform(const Instance& instance) : FixedEdgeTransform(instance, bonus_for(instance)) {}

FixedEdgeTransform::FixedEdgeTransform(const Instance& instance, int64_t bonus)
    : original_(&instance),
      offset_(static_cast<int64_t>(instance.n() - static_cast<int64_t>(instance.fixed_edges().size())) * bonus),
      transformed_(build(instance, bonus)) {}

std::vector<int32_t> FixedEdgeTransform::tour(std::span<const int32_t> order) const {
  return keep_fixed_edges(*original_, order, original_->fixed_edges());
}

}  // namespace formica
