// SPDX-License-Identifier: MIT
// The ascent's sparse graph and its minimum 1-trees (see sparse_graph.h).
#include "bounds/sparse_graph.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>

#include "core/space_filling_curve.h"

namespace formica::bounds {

SparseGraph::SparseGraph(const Instance& instance, std::span<const std::pair<int32_t, int32_t>> pairs, int threads,
                         const StopFlag* stop) {
  const int n = instance.n();
  const auto check_stop = [&] {
    if (stop != nullptr && stop->requested()) throw SetupStopped();
  };
  city_.resize(static_cast<size_t>(n));
  if (instance.has_display_coordinates())
    city_ = space_filling_curve_tour(instance);
  else
    std::iota(city_.begin(), city_.end(), 0);
  local_.resize(static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) local_[city_[l]] = l;
  check_stop();
  // Both directions of every pair bucketed by their first city (a counting sort, O(E): a
  // comparison sort of the millions of pairs of 200,000 cities took most of a second), then each
  // city's short row sorted and its repeats dropped.
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
  for (const auto& [a, b] : pairs) ++start[local_[a] + 1], ++start[local_[b] + 1];
  for (int i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<int32_t> row(static_cast<size_t>(start[n]));
  {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (const auto& [a, b] : pairs) {
      const int32_t la = local_[a], lb = local_[b];
      row[fill[la]++] = lb;
      row[fill[lb]++] = la;
    }
  }
  check_stop();
  std::vector<int64_t> kept(static_cast<size_t>(n), 0);
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, kStopCheckRows) num_threads(threads) if (threads > 1)
  for (int i = 0; i < n; ++i) {
    if (i % kStopCheckRows == 0 && stop != nullptr && stop->requested()) stopped.store(true, std::memory_order_relaxed);
    if (stopped.load(std::memory_order_relaxed)) continue;
    const auto first = row.begin() + start[i], last = row.begin() + start[i + 1];
    std::sort(first, last);
    kept[i] = std::unique(first, last) - first;
  }
  if (stopped.load()) throw SetupStopped();
  offset_.assign(static_cast<size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i) offset_[i + 1] = offset_[i] + kept[i];
  target_.resize(static_cast<size_t>(offset_[n]));
  distance_.resize(target_.size());
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int i = 0; i < n; ++i)
    for (int64_t e = 0; e < kept[i]; ++e) {
      const int32_t v = row[start[i] + e];
      target_[offset_[i] + e] = v;
      distance_[offset_[i] + e] = kPenaltyScale * instance.distance(city_[i], city_[v]);
    }
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
