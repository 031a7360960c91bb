// SPDX-License-Identifier: MIT
// Exact references for routes: brute force over every path of a small symmetric instance, and
// Held-Karp dynamic programming over subsets for directed tours and paths (n <= 13 or so).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include "core/asymmetric.h"
#include "core/instance.h"
#include "core/path_transform.h"
#include "core/rng.h"

namespace formica::test {

/// True if `path` starts and ends where `ends` fix it.
inline bool honours(std::span<const int32_t> path, const PathEnds& ends) {
  return (!ends.start || path.front() == *ends.start) && (!ends.end || path.back() == *ends.end);
}

/// The shortest path over every permutation of the cities honouring `ends` (n <= 9).
inline int64_t brute_force_path(const Instance& instance, const PathEnds& ends) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do {
    if (honours(order, ends)) best = std::min(best, path_length(instance, order));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

/// The shortest closed directed tour (closed) or directed path honouring `ends` (not closed) over
/// n cities with weights cost(from, to), by Held-Karp: best[S][j] is the shortest path that visits
/// the set S and ends at j.
inline int64_t held_karp(int n, const std::function<int64_t(int, int)>& cost, bool closed, const PathEnds& ends = {}) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max() / 4;
  const size_t sets = size_t{1} << n;
  std::vector<int64_t> best(sets * static_cast<size_t>(n), kNone);
  const auto at = [&](size_t set, int j) -> int64_t& { return best[set * static_cast<size_t>(n) + static_cast<size_t>(j)]; };
  for (int j = 0; j < n; ++j)
    if (closed ? j == 0 : (!ends.start || *ends.start == j)) at(size_t{1} << j, j) = 0;
  for (size_t set = 1; set < sets; ++set)
    for (int j = 0; j < n; ++j) {
      if (!(set >> j & 1) || at(set, j) >= kNone) continue;
      for (int k = 0; k < n; ++k)
        if (!(set >> k & 1)) {
          int64_t& next = at(set | size_t{1} << k, k);
          next = std::min(next, at(set, j) + cost(j, k));
        }
    }
  int64_t result = kNone;
  for (int j = 0; j < n; ++j) {
    if (!closed && ends.end && *ends.end != j) continue;
    if (closed && j == 0) continue;
    result = std::min(result, at(sets - 1, j) + (closed ? cost(j, 0) : 0));
  }
  return result;
}

inline int64_t held_karp(const AsymmetricMatrix& m, bool closed, const PathEnds& ends = {}) {
  return held_karp(m.n(), [&](int i, int j) { return m.distance(i, j); }, closed, ends);
}

/// A random asymmetric matrix of n cities, weights in 1..1000 (the diagonal 9999, as in TSPLIB).
inline AsymmetricMatrix random_asymmetric(int n, uint64_t seed) {
  RandomStream random(seed, 0xA75);
  std::vector<int32_t> weights(static_cast<size_t>(n) * static_cast<size_t>(n), 9999);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j) weights[static_cast<size_t>(i) * n + j] = 1 + static_cast<int32_t>(random.below(1000));
  return AsymmetricMatrix("atsp" + std::to_string(n), n, std::move(weights));
}

}  // namespace formica::test
