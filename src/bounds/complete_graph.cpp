// SPDX-License-Identifier: MIT
// Minimum 1-trees of the complete graph (see complete_graph.h).
#include "bounds/complete_graph.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "bounds/dense_prim.h"
#include "bounds/union_find.h"

namespace formica::bounds {

CompleteGraph::CompleteGraph(const Instance& instance, int dense_up_to) : instance_(instance) {
  if (kd_boruvka_supported(instance.type()) && instance.n() > dense_up_to) boruvka_.emplace(instance);
}

namespace {

/// The minimum spanning tree of every city, the path city too, from `tree`, that of the others:
/// an edge left out of `tree` is the heaviest on a cycle of lighter ones, and stays out when the
/// path city's edges join them; so Kruskal over `tree` and the path city's n - 1 edges gives it.
std::vector<Edge> with_path_city(const Instance& instance, std::span<const int64_t> pi, std::vector<Edge> tree) {
  const int path_city = instance.n() - 1;
  for (int c = 0; c < path_city; ++c) tree.push_back(penalised_edge(instance, pi, c, path_city));
  std::sort(tree.begin(), tree.end(), lighter);
  UnionFind sets(instance.n());
  std::vector<Edge> out;
  out.reserve(static_cast<size_t>(path_city));
  for (const Edge& e : tree) {
    const int a = sets.find(e.a), b = sets.find(e.b);
    if (a == b) continue;
    sets.parent[a] = b;
    out.push_back(e);
  }
  return out;
}

}  // namespace

OneTree CompleteGraph::one_tree(std::span<const int64_t> pi, int threads, const StopFlag* abandon) {
  if (static_cast<int>(pi.size()) != instance_.n() ||
      std::any_of(pi.begin(), pi.end(), [](int64_t p) { return p < -kMaxPenalty || p > kMaxPenalty; }))
    throw std::invalid_argument("CompleteGraph: needs a penalty per city, each within +-kMaxPenalty");
  if (boruvka_) {
    std::vector<Edge> tree = boruvka_->spanning_tree(pi, threads, abandon);
    if (!instance_.has_path_city())
      return one_tree_of(std::move(tree), instance_.n(),
                         [&](int leaf, int excluded) { return boruvka_->lightest_edge(pi, leaf, excluded); }, threads,
                         abandon);
    // The k-d tree holds the cities with coordinates; the path city's edges are looked at one by one.
    const int path_city = instance_.n() - 1;
    const auto second = [&](int leaf, int excluded) {
      Edge best = kNoEdge;
      if (leaf == path_city) {
        for (int c = 0; c < path_city; ++c)
          if (const Edge e = penalised_edge(instance_, pi, c, leaf); c != excluded && lighter(e, best)) best = e;
        return best;
      }
      best = boruvka_->lightest_edge(pi, leaf, excluded);
      const Edge to_path_city = penalised_edge(instance_, pi, leaf, path_city);
      return excluded != path_city && lighter(to_path_city, best) ? to_path_city : best;
    };
    return one_tree_of(with_path_city(instance_, pi, std::move(tree)), instance_.n(), second, threads, abandon);
  }
  std::vector<Edge> tree = dense_spanning_tree(instance_, pi, threads, abandon);
  return one_tree_of(std::move(tree), instance_.n(),
                     [&](int leaf, int excluded) { return dense_lightest_edge(instance_, pi, leaf, excluded); },
                     threads, abandon);
}

}  // namespace formica::bounds
