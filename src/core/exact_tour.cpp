// SPDX-License-Identifier: MIT
// Held-Karp dynamic programming for the optimal tour of a small instance (see exact_tour.h).
#include "core/exact_tour.h"

#include <limits>
#include <numeric>

#include "core/error.h"

namespace formica {

std::vector<int32_t> exact_tour(const Instance& instance) {
  const int n = instance.n();
  std::vector<int32_t> tour(static_cast<size_t>(n));
  std::iota(tour.begin(), tour.end(), 0);
  if (n <= 3) return tour;  // every order of three cities or fewer is the same closed tour
  FORMICA_EXPECTS(n <= 20, "exact tours are for at most 20 cities, got ", n);
  // best[S][j]: the shortest path from city 0 through the cities of S (a set of cities 1..n-1 as
  // bits 0..n-2) ending at city j + 1 in S; from[S][j] is the city before j on that path.
  const int m = n - 1;
  const size_t sets = size_t{1} << m;
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max() / 4;
  std::vector<int64_t> best(sets * static_cast<size_t>(m), kNone);
  std::vector<int8_t> from(sets * static_cast<size_t>(m), -1);
  const auto at = [m](size_t set, int j) { return set * static_cast<size_t>(m) + static_cast<size_t>(j); };
  for (int j = 0; j < m; ++j) best[at(size_t{1} << j, j)] = instance.distance(0, j + 1);
  for (size_t set = 1; set < sets; ++set)
    for (int j = 0; j < m; ++j) {
      if (!(set >> j & 1)) continue;
      const int64_t here = best[at(set, j)];
      if (here >= kNone) continue;
      for (int k = 0; k < m; ++k) {
        if (set >> k & 1) continue;
        const size_t next = at(set | size_t{1} << k, k);
        const int64_t length = here + instance.distance(j + 1, k + 1);
        if (length < best[next]) {
          best[next] = length;
          from[next] = static_cast<int8_t>(j);
        }
      }
    }
  size_t set = sets - 1;
  int last = 0;
  int64_t shortest = kNone;
  for (int j = 0; j < m; ++j) {
    const int64_t length = best[at(set, j)] + instance.distance(j + 1, 0);
    if (length < shortest) {
      shortest = length;
      last = j;
    }
  }
  for (int position = n - 1; position >= 1; --position) {
    tour[static_cast<size_t>(position)] = last + 1;
    const int before = from[at(set, last)];
    set &= ~(size_t{1} << last);
    last = before;
  }
  return tour;
}

}  // namespace formica
