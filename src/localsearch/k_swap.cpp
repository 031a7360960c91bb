// SPDX-License-Identifier: MIT
// k-swap selection and application on the host (see k_swap.h).
#include "localsearch/k_swap.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace formica::localsearch {

int64_t two_opt_gain(const Instance& instance, std::span<const int32_t> tour, Move move) {
  const int n = static_cast<int>(tour.size());
  const int a = tour[move.i], b = tour[move.i + 1], c = tour[move.j], d = tour[(move.j + 1) % n];
  return instance.distance(a, b) + instance.distance(c, d) - instance.distance(a, c) - instance.distance(b, d);
}

void sort_candidates(std::vector<Candidate>& candidates) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    if (x.gain != y.gain) return x.gain > y.gain;
    if (x.move.i != y.move.i) return x.move.i < y.move.i;
    return x.move.j < y.move.j;
  });
}

std::vector<Candidate> select_disjoint(std::span<const Candidate> sorted, int k) {
  std::vector<Candidate> kept;
  std::map<int32_t, int32_t> intervals;  // kept moves' [i, j], keyed by i; pairwise disjoint
  for (const Candidate& c : sorted) {
    if (k != 0 && static_cast<int>(kept.size()) >= k) break;
    // Kept intervals are disjoint, so only the one starting last at or before j can meet [i, j]:
    // any other starting before it also ends before it, hence before j, and if it reached i so
    // would this one.
    auto after = intervals.upper_bound(c.move.j);
    if (after != intervals.begin() && std::prev(after)->second >= c.move.i) continue;
    intervals.emplace(c.move.i, c.move.j);
    kept.push_back(c);
  }
  return kept;
}

void apply_moves(std::span<int32_t> tour, std::span<const Candidate> moves) {
  for (const Candidate& c : moves)
    std::reverse(tour.begin() + c.move.i + 1, tour.begin() + c.move.j + 1);
}

}  // namespace formica::localsearch
