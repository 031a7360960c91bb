// SPDX-License-Identifier: MIT
// The 1-tree of a minimum spanning tree (see one_tree.h).
#include "bounds/one_tree.h"

#include <atomic>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "bounds/union_find.h"
#include "core/error.h"

namespace formica::bounds {

WeightSum OneTree::weight() const {
  WeightSum sum = extra.weight;
  for (const Edge& e : tree) sum += e.weight;
  return sum;
}

std::vector<int32_t> OneTree::degrees(int n) const {
  std::vector<int32_t> degree(static_cast<size_t>(n), 0);
  for (const Edge& e : tree) ++degree[e.a], ++degree[e.b];
  ++degree[extra.a], ++degree[extra.b];
  return degree;
}

OneTree one_tree_of(std::vector<Edge> tree, int n, const std::function<Edge(int, int)>& second, int threads,
                    const StopFlag* abandon) {
  if (static_cast<int>(tree.size()) != n - 1) throw std::logic_error("one_tree_of: not a spanning tree");
  std::vector<int32_t> degree(static_cast<size_t>(n), 0), neighbour(static_cast<size_t>(n), -1);
  for (const Edge& e : tree) {
    ++degree[e.a], ++degree[e.b];
    neighbour[e.a] = e.b, neighbour[e.b] = e.a;
  }
  std::vector<int32_t> leaves;
  for (int i = 0; i < n; ++i)
    if (degree[i] == 1) leaves.push_back(i);
  std::vector<Edge> seconds(leaves.size(), kNoEdge);
  std::atomic<bool> abandoned{false};
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
  for (size_t l = 0; l < leaves.size(); ++l) {
    if (abandoned.load(std::memory_order_relaxed)) continue;
    if (abandon != nullptr && abandon->requested()) {
      abandoned = true;
      continue;
    }
    seconds[l] = second(leaves[l], neighbour[leaves[l]]);
  }
  if (abandoned) throw TreeAbandoned();
  // A leaf with no second edge (one neighbour in a sparse graph) cannot be special.
  size_t pick = leaves.size();
  for (size_t l = 0; l < leaves.size(); ++l)
    if (seconds[l].a != kNoEdge.a && (pick == leaves.size() || lighter(seconds[pick], seconds[l]))) pick = l;
  if (pick == leaves.size()) throw std::logic_error("one_tree_of: no leaf has a second edge");
  OneTree out;
  out.tree = std::move(tree);
  out.special = leaves[pick];
  out.extra = seconds[pick];
  return out;
}

WeightSum scaled_value(const OneTree& one_tree, std::span<const int64_t> pi) {
  return one_tree.weight() - 2 * std::accumulate(pi.begin(), pi.end(), WeightSum{0});
}

WeightSum exact_value(const Instance& instance, const OneTree& one_tree, std::span<const int64_t> pi) {
  const int n = instance.n();
  const auto fail = [](const char* why) { throw std::logic_error(std::string("exact_value: ") + why); };
  if (static_cast<int>(one_tree.tree.size()) != n - 1 || static_cast<int>(pi.size()) != n) fail("wrong sizes");
  UnionFind sets(n);
  std::vector<int32_t> degree(static_cast<size_t>(n), 0);
  WeightSum value = 0;
  const auto add = [&](const Edge& e) {
    if (e.a < 0 || e.a >= e.b || e.b >= n) fail("an edge out of range");
    const int64_t d = instance.distance(e.a, e.b);
    if (d < 0 || d >= kDistanceLimit) fail("a distance out of range");
    if (e.weight != penalised(instance, pi, e.a, e.b)) fail("an edge weight is not its penalised distance");
    value += WeightSum{kPenaltyScale} * d;
    ++degree[e.a], ++degree[e.b];
  };
  for (const Edge& e : one_tree.tree) {
    add(e);
    const int a = sets.find(e.a), b = sets.find(e.b);
    if (a == b) fail("the tree has a cycle");
    sets.parent[a] = b;
  }
  if (one_tree.special < 0 || one_tree.special >= n || degree[one_tree.special] != 1) fail("special is not a leaf");
  if (one_tree.extra.a != one_tree.special && one_tree.extra.b != one_tree.special) fail("extra misses special");
  const Edge& extra = one_tree.extra;
  const int other = extra.a == one_tree.special ? extra.b : extra.a;
  for (const Edge& e : one_tree.tree)
    if ((e.a == one_tree.special && e.b == other) || (e.b == one_tree.special && e.a == other)) fail("extra is a tree edge");
  add(extra);
  for (int i = 0; i < n; ++i) {
    if (pi[i] < -kMaxPenalty || pi[i] > kMaxPenalty) fail("a penalty out of range");
    value += WeightSum{degree[i] - 2} * pi[i];
  }
  return value;
}

int64_t ceil_bound(WeightSum scaled) {
  if (scaled <= 0) return 0;
  const WeightSum q = scaled / kPenaltyScale + (scaled % kPenaltyScale != 0 ? 1 : 0);
  if (q > std::numeric_limits<int64_t>::max()) throw std::logic_error("ceil_bound: a bound beyond 64 bits");
  return static_cast<int64_t>(q);
}

}  // namespace formica::bounds
