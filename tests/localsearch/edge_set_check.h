// SPDX-License-Identifier: MIT
// Tours as multisets of edges, for tests that check a move by the edges it leaves: the edges of a
// tour, and whether a multiset of edges is one Hamiltonian cycle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace formica::localsearch::cpu::test_edges {

using EdgeSet = std::multiset<std::pair<int, int>>;

inline std::pair<int, int> edge(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

inline EdgeSet tour_edges(std::span<const int32_t> tour) {
  EdgeSet edges;
  for (size_t p = 0; p < tour.size(); ++p) edges.insert(edge(tour[p], tour[(p + 1) % tour.size()]));
  return edges;
}

/// True when `edges` on cities 0..n-1 form one Hamiltonian cycle (no loop, no edge twice).
inline bool hamiltonian(const EdgeSet& edges, int n) {
  std::vector<std::vector<int>> adjacent(static_cast<size_t>(n));
  for (const auto& [a, b] : edges) {
    if (a == b) return false;
    adjacent[a].push_back(b), adjacent[b].push_back(a);
  }
  for (const auto& a : adjacent)
    if (a.size() != 2 || a[0] == a[1]) return false;
  int previous = -1, city = 0, seen = 0;
  do {
    const int next = adjacent[city][0] != previous ? adjacent[city][0] : adjacent[city][1];
    previous = city, city = next, ++seen;
  } while (city != 0 && seen <= n);
  return seen == n;
}

}  // namespace formica::localsearch::cpu::test_edges
