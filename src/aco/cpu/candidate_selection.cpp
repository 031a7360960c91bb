// SPDX-License-Identifier: MIT
// CPU decision rules over candidate rows (see candidate_selection.h): the fallback and one step.
#include "aco/cpu/candidate_selection.h"

#include <limits>

namespace formica::aco {

int select_fallback(const Instance& instance, const CandidateSet& set, int from, const AntPath& path) {
  const int32_t* list = set.fallback.data() + static_cast<size_t>(from) * set.fallback_length;
  for (int s = 0; s < set.fallback_length; ++s)
    if (!path.visited(list[s])) return list[s];
  int best = -1;
  int64_t best_d = std::numeric_limits<int64_t>::max();
  for (int j = 0; j < set.n; ++j) {
    if (path.visited(j)) continue;
    const int64_t d = instance.distance(from, j);
    if (d < best_d) best_d = d, best = j;
    if (d == 0) break;  // nothing is nearer, and later cities lose the tie (cities on one point)
  }
  return best;
}

CandidateChoice select_candidate(const Instance& instance, const CandidateSet& set, std::span<const float> f_row,
                                 const AntPath& path, double q0, double u_greedy, double u_pick) {
  const int from = path.current();
  const std::span<const int32_t> ids = set.row(from);
  CandidateChoice choice = u_greedy < q0 ? select_greedy(ids, f_row, path) : select_proportional(ids, f_row, path, u_pick);
  if (choice.city < 0) choice = {select_fallback(instance, set, from, path), -1};
  return choice;
}

}  // namespace formica::aco
