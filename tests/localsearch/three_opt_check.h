// SPDX-License-Identifier: MIT
// An independent brute-force check of the 3-opt neighbourhood of the neighbour-list climb (see
// localsearch/cpu/neighbour_list_climb.h), written apart from the library: moves are edge sets,
// each one's validity is decided by walking the cycle the new edge set makes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"

namespace formica::test {

/// True when the tour's edges with `removed` taken away and `added` put in form one cycle through
/// every city. Every removed edge must be a distinct edge of the tour; an added edge that is also
/// removed makes the exchange degenerate (fewer edges change): false.
template <size_t kEdges>
bool exchange_is_a_tour(const std::vector<int32_t>& tour,
                        const std::array<std::pair<int, int>, kEdges>& removed,
                        const std::array<std::pair<int, int>, kEdges>& added) {
  const int n = static_cast<int>(tour.size());
  const auto same = [](std::pair<int, int> a, std::pair<int, int> b) {
    return (a.first == b.first && a.second == b.second) || (a.first == b.second && a.second == b.first);
  };
  for (size_t i = 0; i < kEdges; ++i)
    for (size_t j = 0; j < kEdges; ++j) {
      if (i < j && same(removed[i], removed[j])) return false;
      if (same(removed[i], added[j])) return false;
    }
  std::vector<std::vector<int>> adjacent(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    const std::pair<int, int> edge{tour[p], tour[(p + 1) % n]};
    const auto gone = std::find_if(removed.begin(), removed.end(), [&](auto r) { return same(r, edge); });
    if (gone != removed.end()) continue;
    adjacent[edge.first].push_back(edge.second);
    adjacent[edge.second].push_back(edge.first);
  }
  for (const auto& [u, v] : added) adjacent[u].push_back(v), adjacent[v].push_back(u);
  for (const auto& list : adjacent)
    if (list.size() != 2) return false;  // a removed edge that was not a tour edge
  int previous = -1, city = tour[0], steps = 0;
  do {
    const int next = adjacent[city][0] != previous ? adjacent[city][0] : adjacent[city][1];
    previous = city, city = next, ++steps;
  } while (city != tour[0] && steps <= n);
  return steps == n;
}

/// The largest gain of a sequential 3-opt move the climb searches (0 when none improves): t1 a
/// tour neighbour of t2, t3 listed for t2 with g1 = d(t1, t2) - d(t2, t3) > 0, t4 a tour neighbour
/// of t3 such that (t1, t2), (t3, t4) -> (t2, t3), (t4, t1) is a tour, t5 listed for t4 with
/// g2 = g1 + d(t3, t4) - d(t4, t5) > 0, t6 a tour neighbour of t5, and (t1, t2), (t3, t4), (t5, t6)
/// -> (t2, t3), (t4, t5), (t6, t1) a tour changing three edges. O(n) per candidate: small tours.
inline int64_t best_listed_three_opt_gain(const Instance& instance, const CandidateLists& lists,
                                          const std::vector<int32_t>& tour) {
  const int n = static_cast<int>(tour.size());
  const auto d = [&](int a, int b) { return instance.distance(a, b); };
  std::vector<int> pos(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) pos[tour[p]] = p;
  const auto tour_neighbours = [&](int city) {
    return std::array<int, 2>{tour[(pos[city] + 1) % n], tour[(pos[city] + n - 1) % n]};
  };
  int64_t best = 0;
  for (const int t2 : tour)
    for (const int t1 : tour_neighbours(t2))
      for (const int t3 : lists.of(t2)) {
        const int64_t g1 = d(t1, t2) - d(t2, t3);
        if (g1 <= 0) continue;
        for (const int t4 : tour_neighbours(t3)) {
          if (!exchange_is_a_tour<2>(tour, {{{t1, t2}, {t3, t4}}}, {{{t2, t3}, {t4, t1}}})) continue;
          for (const int t5 : lists.of(t4)) {
            const int64_t g2 = g1 + d(t3, t4) - d(t4, t5);
            if (g2 <= 0) continue;
            for (const int t6 : tour_neighbours(t5)) {
              const int64_t gain = g2 + d(t5, t6) - d(t6, t1);
              if (gain <= best) continue;
              if (exchange_is_a_tour<3>(tour, {{{t1, t2}, {t3, t4}, {t5, t6}}},
                                        {{{t2, t3}, {t4, t5}, {t6, t1}}}))
                best = gain;
            }
          }
        }
      }
  return best;
}

}  // namespace formica::test
