// SPDX-License-Identifier: MIT
// The complete graph's minimum spanning trees and 1-trees: Boruvka over the k-d tree must give
// exactly dense Prim's tree (both are the unique minimum under bounds::lighter) on uniform,
// clustered and duplicate-heavy instances of every supported type, under random penalties.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "bounds/complete_graph.h"
#include "bounds/dense_prim.h"
#include "bounds/kd_boruvka.h"
#include "core/rng.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica::bounds {
namespace {

std::vector<int64_t> random_penalties(int n, int64_t spread, uint64_t seed) {
  RandomStream rng(seed, 7);
  std::vector<int64_t> pi(static_cast<size_t>(n));
  for (auto& p : pi) p = spread == 0 ? 0 : static_cast<int64_t>(rng.next_double() * 2 * spread) - spread;
  return pi;
}

std::vector<Edge> sorted(std::vector<Edge> edges) {
  std::sort(edges.begin(), edges.end(), lighter);
  return edges;
}

void expect_same_trees(const Instance& instance, int64_t spread, uint64_t seed) {
  const auto pi = random_penalties(instance.n(), spread, seed);
  const auto dense = sorted(dense_spanning_tree(instance, pi, 2));
  KdBoruvka boruvka(instance);
  const auto fast = sorted(boruvka.spanning_tree(pi, 2));
  ASSERT_EQ(dense.size(), static_cast<size_t>(instance.n() - 1));
  EXPECT_EQ(dense, fast) << to_string(instance.type()) << " n = " << instance.n() << " spread " << spread;
  // Every leaf's second edge too, and so the whole 1-tree.
  CompleteGraph by_prim(instance, instance.n()), by_boruvka(instance, 0);
  const OneTree a = by_prim.one_tree(pi, 1), b = by_boruvka.one_tree(pi, 2);
  EXPECT_EQ(a.special, b.special);
  EXPECT_EQ(a.extra, b.extra);
  EXPECT_EQ(scaled_value(a, pi), scaled_value(b, pi));
}

TEST(CompleteGraph, BoruvkaEqualsDensePrimOnRandomInstancesOfEveryType) {
  const EdgeWeightType types[] = {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                  EdgeWeightType::Man2D, EdgeWeightType::Max2D, EdgeWeightType::Euc3D};
  for (const EdgeWeightType type : types)
    for (const int n : {3, 4, 9, 17, 300, 1001})
      for (const int64_t spread : {0, 50, 5000}) expect_same_trees(test::random_instance(type, n, n + 11, 1000.0), spread, n);
}

TEST(CompleteGraph, BoruvkaEqualsDensePrimWithDuplicatePointsAndTies) {
  // 800 cities on a 12 x 12 grid: most points repeat, most distances tie.
  for (const int64_t spread : {0, 100, 1000})
    expect_same_trees(test::random_instance(EdgeWeightType::Euc2D, 800, 3, 12.0), spread, 5);
  std::vector<double> same(50, 7.0);
  expect_same_trees(Instance("one point", EdgeWeightType::Euc2D, same, same), 0, 1);
  expect_same_trees(Instance("one point", EdgeWeightType::Euc2D, same, same), 300, 2);
}

TEST(CompleteGraph, BoruvkaEqualsDensePrimOnClusteredInstances) {
  for (const uint64_t seed : {1, 2}) {
    const Instance clustered = io::generate_instance(1500, io::InstanceKind::Clustered, seed);
    for (const int64_t spread : {0, 2000}) expect_same_trees(clustered, spread, seed);
  }
}

TEST(CompleteGraph, DenseTreeDoesNotDependOnThreads) {
  const Instance instance = test::random_instance(EdgeWeightType::Geo, 2500, 9, 0.0);
  const auto pi = random_penalties(instance.n(), 300, 4);
  EXPECT_EQ(dense_spanning_tree(instance, pi, 1), dense_spanning_tree(instance, pi, 2));
}

TEST(CompleteGraph, ALeafsSearchIsNotStartedOnceTheTreeIsAbandoned) {
  // A star of cities at one point has n - 1 leaves, each a search of the whole k-d tree: the
  // 1-tree looks at its stop before every leaf, not only while it builds the spanning tree.
  std::vector<double> same(2000, 7.0);
  const Instance instance("one point", EdgeWeightType::Euc2D, same, same);
  KdBoruvka boruvka(instance);
  const std::vector<int64_t> pi(static_cast<size_t>(instance.n()), 0);
  std::vector<Edge> tree = boruvka.spanning_tree(pi, 2);
  std::atomic<bool> asked{false};
  StopFlag stop;
  stop.interrupt = &asked;
  std::atomic<int> searched{0};
  const auto second = [&](int leaf, int excluded) {
    // The first leaf's search asks to stop: no later leaf is searched.
    asked = true;
    ++searched;
    return boruvka.lightest_edge(pi, leaf, excluded);
  };
  EXPECT_THROW(one_tree_of(tree, instance.n(), second, 1, &stop), TreeAbandoned);
  EXPECT_EQ(searched.load(), 1);
  // Not asked: the same tree gives its 1-tree.
  asked = false;
  const OneTree whole = one_tree_of(std::move(tree), instance.n(),
                                    [&](int leaf, int excluded) { return boruvka.lightest_edge(pi, leaf, excluded); }, 2,
                                    &stop);
  EXPECT_EQ(whole.weight(), 0);
}

}  // namespace
}  // namespace formica::bounds
