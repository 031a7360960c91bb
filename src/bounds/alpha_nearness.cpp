// SPDX-License-Identifier: MIT
// Alpha values by binary lifting over the minimum 1-tree, and alpha candidate lists (see
// alpha_nearness.h).
#include "bounds/alpha_nearness.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace formica::bounds {
namespace {

constexpr int64_t kNoWeight = std::numeric_limits<int64_t>::min();

}  // namespace

AlphaNearness::AlphaNearness(const Instance& instance, const OneTree& tree, std::span<const int64_t> pi)
    : instance_(instance), pi_(pi.begin(), pi.end()), special_(tree.special), special_second_(tree.extra.weight) {
  const int n = instance.n();
  // The tree of the cities other than the special one, as adjacency lists.
  std::vector<int32_t> offset(static_cast<size_t>(n) + 1, 0), target(2 * tree.tree.size());
  std::vector<int64_t> weight(target.size());
  special_first_ = -1;
  for (const Edge& e : tree.tree) ++offset[e.a + 1], ++offset[e.b + 1];
  for (int i = 0; i < n; ++i) offset[i + 1] += offset[i];
  std::vector<int32_t> fill(offset.begin(), offset.end() - 1);
  for (const Edge& e : tree.tree) {
    target[fill[e.a]] = e.b, weight[fill[e.a]++] = e.weight;
    target[fill[e.b]] = e.a, weight[fill[e.b]++] = e.weight;
    if (e.a == special_) special_first_ = e.b;
    if (e.b == special_) special_first_ = e.a;
  }
  levels_ = 1;
  while ((1 << levels_) < n) ++levels_;
  depth_.assign(static_cast<size_t>(n), -1);
  up_.assign(static_cast<size_t>(levels_) * n, 0);
  heaviest_.assign(up_.size(), kNoWeight);
  // Breadth first from the special city's neighbour, never entering the special city.
  std::vector<int32_t> queue{special_first_};
  depth_[special_first_] = 0;
  up_[special_first_] = special_first_;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int c = queue[head];
    for (int32_t s = offset[c]; s < offset[c + 1]; ++s) {
      const int v = target[s];
      if (v == special_ || depth_[v] >= 0) continue;
      depth_[v] = depth_[c] + 1;
      up_[v] = c;
      heaviest_[v] = weight[s];
      queue.push_back(v);
    }
  }
  for (int l = 1; l < levels_; ++l)
    for (int v = 0; v < n; ++v) {
      const size_t at = static_cast<size_t>(l) * n + v, half = static_cast<size_t>(l - 1) * n;
      const int mid = up_[half + v];
      up_[at] = up_[half + mid];
      heaviest_[at] = std::max(heaviest_[half + v], heaviest_[half + mid]);
    }
}

int64_t AlphaNearness::heaviest_on_path(int i, int j) const {
  const int n = instance_.n();
  int64_t heaviest = kNoWeight;
  if (depth_[i] < depth_[j]) std::swap(i, j);
  for (int l = levels_ - 1; l >= 0; --l)
    if (depth_[i] - (1 << l) >= depth_[j]) {
      heaviest = std::max(heaviest, heaviest_[static_cast<size_t>(l) * n + i]);
      i = up_[static_cast<size_t>(l) * n + i];
    }
  if (i == j) return heaviest;
  for (int l = levels_ - 1; l >= 0; --l) {
    const size_t a = static_cast<size_t>(l) * n + i, b = static_cast<size_t>(l) * n + j;
    if (up_[a] != up_[b]) {
      heaviest = std::max({heaviest, heaviest_[a], heaviest_[b]});
      i = up_[a], j = up_[b];
    }
  }
  return std::max({heaviest, heaviest_[i], heaviest_[j]});
}

int64_t AlphaNearness::alpha(int i, int j) const {
  if (i == j) return 0;
  const int64_t w = penalised(instance_, pi_, i, j);
  if (i == special_ || j == special_) {
    const int other = i == special_ ? j : i;
    // The special city's two edges are its lightest: its tree edge and the second one.
    return other == special_first_ || w <= special_second_ ? 0 : w - special_second_;
  }
  return w - heaviest_on_path(i, j);
}

CandidateLists alpha_candidate_lists(const Instance& instance, const LowerBound& bound, const CandidateLists& pool,
                                     int k, int threads) {
  const int n = instance.n();
  k = std::min(k, pool.k());
  const AlphaNearness alpha(instance, bound.one_tree, bound.penalties);
  std::vector<std::vector<int32_t>> tree_neighbours(static_cast<size_t>(n));
  for (const Edge& e : bound.one_tree.tree) tree_neighbours[e.a].push_back(e.b), tree_neighbours[e.b].push_back(e.a);
  tree_neighbours[bound.one_tree.extra.a].push_back(bound.one_tree.extra.b);
  tree_neighbours[bound.one_tree.extra.b].push_back(bound.one_tree.extra.a);
  std::vector<int32_t> ids(static_cast<size_t>(n) * k);
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<std::tuple<int64_t, int64_t, int32_t>> row;  // alpha, distance, city
#pragma omp for schedule(dynamic, 64)
    for (int i = 0; i < n; ++i) {
      row.clear();
      const auto add = [&](int j) { row.emplace_back(alpha.alpha(i, j), instance.distance(i, j), j); };
      for (const int32_t j : pool.of(i)) add(j);
      for (const int32_t j : tree_neighbours[i]) add(j);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      for (int s = 0; s < k; ++s) ids[static_cast<size_t>(i) * k + s] = std::get<2>(row[s]);
    }
  }
  return CandidateLists(n, k, std::move(ids));
}

CandidateLists alpha_candidate_lists(const Instance& instance, const LowerBound& bound, int k, int threads) {
  const CandidateLists pool =
      build_candidate_lists(instance, std::max(4 * k, 20), threads, NeighbourShape::Quadrant);
  return alpha_candidate_lists(instance, bound, pool, k, threads);
}

CandidateLists alpha_candidate_lists(const Instance& instance, int k, const BoundOptions& options) {
  return alpha_candidate_lists(instance, lower_bound(instance, options), k, thread_count(options.threads));
}

}  // namespace formica::bounds
