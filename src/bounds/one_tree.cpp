// The 1-tree of a minimum spanning tree (see one_tree.h).
#include "bounds/one_tree.h"

#include <numeric>
#include <stdexcept>

#include "core/error.h"

namespace formica::bounds {

int64_t OneTree::weight() const {
  int64_t sum = extra.weight;
  for (const Edge& e : tree) sum += e.weight;
  return sum;
}

std::vector<int32_t> OneTree::degrees(int n) const {
  std::vector<int32_t> degree(static_cast<size_t>(n), 0);
  for (const Edge& e : tree) ++degree[e.a], ++degree[e.b];
  ++degree[extra.a], ++degree[extra.b];
  return degree;
}

OneTree one_tree_of(std::vector<Edge> tree, int n, const std::function<Edge(int, int)>& second, int threads) {
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
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
  for (size_t l = 0; l < leaves.size(); ++l) seconds[l] = second(leaves[l], neighbour[leaves[l]]);
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

int64_t scaled_value(const OneTree& one_tree, std::span<const int64_t> pi) {
  return one_tree.weight() - 2 * std::accumulate(pi.begin(), pi.end(), int64_t{0});
}

int64_t ceil_bound(int64_t scaled) {
  const int64_t q = scaled / kPenaltyScale;
  return q * kPenaltyScale < scaled ? q + 1 : q;
}

}  // namespace formica::bounds
