// SPDX-License-Identifier: MIT
// Alpha-nearness against its definition, by brute force on small instances: the minimum 1-tree
// (same special city) that must contain (i, j), less the minimum 1-tree. And the alpha lists on
// TSPLIB: they hold more of the optimal tour's edges than the nearest neighbours do (Helsgaun's
// observation that made them LKH's candidate sets).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "bounds/alpha_nearness.h"
#include "bounds/complete_graph.h"
#include "core/rng.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica::bounds {
namespace {

/// The minimum weight of a spanning tree of every city but `skip` that contains `forced` (when
/// its a >= 0), by Kruskal over all pairs.
int64_t forced_tree_weight(const Instance& instance, std::span<const int64_t> pi, int skip, Edge forced) {
  const int n = instance.n();
  std::vector<Edge> edges;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (i != skip && j != skip) edges.push_back(penalised_edge(instance, pi, i, j));
  std::sort(edges.begin(), edges.end(), lighter);
  std::vector<int> root(static_cast<size_t>(n));
  std::iota(root.begin(), root.end(), 0);
  const auto find = [&](int x) {
    while (root[x] != x) x = root[x];
    return x;
  };
  int64_t weight = 0;
  if (forced.a >= 0) {
    root[find(forced.a)] = find(forced.b);
    weight += forced.weight;
  }
  for (const Edge& e : edges)
    if (find(e.a) != find(e.b)) root[find(e.a)] = find(e.b), weight += e.weight;
  return weight;
}

/// The two lightest edges at v, the first one being (v, must) when must >= 0.
int64_t special_edges_weight(const Instance& instance, std::span<const int64_t> pi, int v, int must) {
  std::vector<Edge> edges;
  for (int j = 0; j < instance.n(); ++j)
    if (j != v && j != must) edges.push_back(penalised_edge(instance, pi, v, j));
  std::sort(edges.begin(), edges.end(), lighter);
  return must >= 0 ? penalised(instance, pi, v, must) + edges[0].weight : edges[0].weight + edges[1].weight;
}

TEST(AlphaNearness, MatchesTheDefinitionByBruteForce) {
  for (const uint64_t seed : {1, 2, 3, 4, 5, 6})
    for (const int n : {3, 4, 5, 8, 11}) {
      const Instance instance = test::random_instance(EdgeWeightType::Euc2D, n, seed * 31 + n, seed % 2 ? 10.0 : 500.0);
      RandomStream rng(seed, 1);
      std::vector<int64_t> pi(static_cast<size_t>(n));
      for (auto& p : pi) p = static_cast<int64_t>(rng.next_double() * 4000) - 2000;
      CompleteGraph complete(instance, n);
      const OneTree tree = complete.one_tree(pi, 1);
      const AlphaNearness alpha(instance, tree, pi);
      const int v = tree.special;
      const int64_t minimum = forced_tree_weight(instance, pi, v, Edge{0, -1, -1}) + special_edges_weight(instance, pi, v, -1);
      ASSERT_EQ(minimum, tree.weight());
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          if (i == j) continue;
          int64_t forced;
          if (i == v || j == v)
            forced = forced_tree_weight(instance, pi, v, Edge{0, -1, -1}) + special_edges_weight(instance, pi, v, i == v ? j : i);
          else
            forced = forced_tree_weight(instance, pi, v, penalised_edge(instance, pi, i, j)) +
                     special_edges_weight(instance, pi, v, -1);
          EXPECT_EQ(alpha.alpha(i, j), forced - minimum) << "n = " << n << " seed " << seed << " (" << i << ", " << j << ")";
        }
    }
}

/// Edges of the optimal tour of `name` found in each city's first `k` list entries, of 2n.
int optimal_edges_in(const std::string& name, const CandidateLists& lists, int k) {
  const auto order = io::read_tour(*test::tsplib_dir() / "opt_tour" / (name + ".opt.tour"));
  int found = 0;
  const int n = static_cast<int>(order.size());
  for (int p = 0; p < n; ++p) {
    const int a = order[p], b = order[(p + 1) % n];
    const auto la = lists.of(a), lb = lists.of(b);
    found += std::find(la.begin(), la.begin() + k, b) != la.begin() + k;
    found += std::find(lb.begin(), lb.begin() + k, a) != lb.begin() + k;
  }
  return found;
}

TEST(AlphaNearness, FiveAlphaNearestHoldMoreOptimalEdgesThanFiveNearest) {
  FORMICA_REQUIRE_TSPLIB();
  for (const std::string name : {"kroA100", "a280", "pcb442", "pr1002"}) {
    const Instance instance = test::tsplib_instance(name);
    const CandidateLists alpha = alpha_candidate_lists(instance, 5, BoundOptions{});
    const CandidateLists nearest = build_candidate_lists(instance, 5);
    ASSERT_EQ(alpha.k(), 5);
    const int by_alpha = optimal_edges_in(name, alpha, 5), by_distance = optimal_edges_in(name, nearest, 5);
    EXPECT_GT(by_alpha, by_distance) << name;
    EXPECT_GE(by_alpha, 2 * instance.n() * 97 / 100) << name << ": " << by_alpha << " of " << 2 * instance.n();
  }
}

}  // namespace
}  // namespace formica::bounds
