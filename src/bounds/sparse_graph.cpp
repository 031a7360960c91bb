// SPDX-License-Identifier: MIT
// The ascent's sparse graph and its minimum 1-trees (see sparse_graph.h).
#include "bounds/sparse_graph.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/space_filling_curve.h"

namespace formica::bounds {

SparseGraph::SparseGraph(const Instance& instance, std::vector<std::pair<int32_t, int32_t>> pairs) {
  const int n = instance.n();
  city_.resize(static_cast<size_t>(n));
  if (instance.has_display_coordinates())
    city_ = space_filling_curve_tour(instance);
  else
    std::iota(city_.begin(), city_.end(), 0);
  local_.resize(static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) local_[city_[l]] = l;
  const size_t given = pairs.size();
  pairs.reserve(2 * given);  // no reallocation below: the loop reads the pairs it copies
  for (size_t p = 0; p < given; ++p) {
    pairs[p] = {local_[pairs[p].first], local_[pairs[p].second]};
    pairs.emplace_back(pairs[p].second, pairs[p].first);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  offset_.assign(static_cast<size_t>(n) + 1, 0);
  target_.resize(pairs.size());
  distance_.resize(pairs.size());
  for (size_t p = 0; p < pairs.size(); ++p) {
    ++offset_[pairs[p].first + 1];
    target_[p] = pairs[p].second;
    distance_[p] = kPenaltyScale * instance.distance(city_[pairs[p].first], city_[pairs[p].second]);
  }
  for (int i = 0; i < n; ++i) offset_[i + 1] += offset_[i];
}

OneTree SparseGraph::one_tree(std::span<const int64_t> instance_pi) const {
  const int n = this->n();
  std::vector<int64_t> pi(static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) pi[l] = instance_pi[city_[l]];
  // Prim with an indexed binary heap of the cities outside the tree, keyed by their lightest edge
  // into it (decrease-key in place: a relaxation touches one key, not a new heap entry).
  std::vector<Edge> key(static_cast<size_t>(n), kNoEdge);
  std::vector<int32_t> heap, slot(static_cast<size_t>(n), -1);  // slot: position in heap, -1 outside it
  std::vector<char> inside(static_cast<size_t>(n), 0);
  heap.reserve(static_cast<size_t>(n));
  const auto sift_up = [&](int at) {
    const int city = heap[at];
    while (at > 0) {
      const int parent = (at - 1) / 2;
      if (!lighter(key[city], key[heap[parent]])) break;
      heap[at] = heap[parent], slot[heap[at]] = at;
      at = parent;
    }
    heap[at] = city, slot[city] = at;
  };
  const auto sift_down = [&](int at) {
    const int size = static_cast<int>(heap.size()), city = heap[at];
    for (;;) {
      int child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && lighter(key[heap[child + 1]], key[heap[child]])) ++child;
      if (!lighter(key[heap[child]], key[city])) break;
      heap[at] = heap[child], slot[heap[at]] = at;
      at = child;
    }
    heap[at] = city, slot[city] = at;
  };
  std::vector<Edge> tree;
  tree.reserve(static_cast<size_t>(n - 1));
  for (int city = 0;;) {
    inside[city] = 1;
    for (int64_t s = offset_[city]; s < offset_[city + 1]; ++s) {
      const int v = target_[s];
      if (inside[v]) continue;
      const Edge e = make_edge(distance_[s] + pi[city] + pi[v], city_[city], city_[v]);
      if (!lighter(e, key[v])) continue;
      key[v] = e;
      if (slot[v] < 0) heap.push_back(v), slot[v] = static_cast<int32_t>(heap.size()) - 1;
      sift_up(slot[v]);
    }
    if (heap.empty()) break;
    city = heap[0];
    slot[city] = -1;
    tree.push_back(key[city]);
    heap[0] = heap.back();
    heap.pop_back();
    if (!heap.empty()) sift_down(0);
  }
  if (static_cast<int>(tree.size()) != n - 1) throw std::logic_error("SparseGraph: not connected");
  const auto second = [&](int leaf, int excluded) {
    Edge best = kNoEdge;
    const int l = local_[leaf];
    for (int64_t s = offset_[l]; s < offset_[l + 1]; ++s) {
      const int v = city_[target_[s]];
      if (v == excluded) continue;
      const Edge e = make_edge(distance_[s] + pi[l] + pi[target_[s]], leaf, v);
      if (lighter(e, best)) best = e;
    }
    return best;
  };
  return one_tree_of(std::move(tree), n, second, 1);
}

}  // namespace formica::bounds
