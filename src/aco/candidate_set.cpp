// SPDX-License-Identifier: MIT
// Candidate rows with dynamic slots, and GACO's dynamic neighbours (see candidate_set.h).
#include "aco/candidate_set.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "aco/colony_config.h"
#include "aco/config.h"
#include "bounds/alpha_nearness.h"
#include "core/candidates.h"
#include "core/error.h"

namespace formica::aco {

CandidateSet build_candidate_set(const Instance& instance, int k, int dynamic, double beta, int threads,
                                 NeighbourShape shape, bool long_fallback, const StopFlag* stop) {
  FORMICA_EXPECTS(k >= 1, "--candidates must be at least 1, got ", k);
  const int n = instance.n();
  CandidateSet set;
  set.n = n;
  set.k = std::min(k, n - 1);
  set.dynamic = dynamic;
  set.width = set.k + dynamic;
  set.fallback_length = fallback_list_length(n, set.k, long_fallback);
  const CandidateLists lists =
      build_candidate_lists(instance, set.fallback_length, threads, NeighbourShape::Nearest, stop);
  set.fallback.assign(lists.data().begin(), lists.data().end());
  // Nearest rows are the first k of the fallback lists; other shapes get lists of their own.
  const bool nearest = effective_shape(shape, instance.type()) == NeighbourShape::Nearest;
  const CandidateLists shaped = nearest ? CandidateLists() : build_candidate_lists(instance, set.k, threads, shape, stop);
  const CandidateLists& rows = nearest ? lists : shaped;
  set.ids.assign(static_cast<size_t>(n) * set.width, -1);
  set.eta_beta.assign(static_cast<size_t>(n) * set.width, 0.0f);
  for (int i = 0; i < n; ++i)
    for (int s = 0; s < set.k; ++s) {
      const int j = rows.of(i)[static_cast<size_t>(s)];
      const size_t e = static_cast<size_t>(i) * set.width + s;
      set.ids[e] = j;
      set.eta_beta[e] = static_cast<float>(std::pow(heuristic(instance.distance(i, j)), beta));
    }
  return set;
}

CandidateLists local_search_lists(const Instance& instance, const ColonyConfig& config, const StopFlag* setup_stop,
                                  const StopFlag* lists_stop) {
  if (config.ls_candidates == LsCandidates::Neighbours)
    return build_candidate_lists(instance, config.ls_neighbours, config.threads, config.neighbour_lists, lists_stop);
  bounds::BoundOptions options;
  options.threads = config.threads;
  if (setup_stop != nullptr) {
    options.interrupt = setup_stop->interrupt;
    if (setup_stop->deadline != std::chrono::steady_clock::time_point::max())
      options.time_limit = 0.1 * std::chrono::duration<double>(setup_stop->deadline - std::chrono::steady_clock::now()).count();
  }
  return bounds::alpha_candidate_lists(instance, config.ls_neighbours, options);
}

void install_dynamic_neighbours(const Instance& instance, CandidateSet& set, std::span<const int32_t> tour,
                                std::span<float> tau, float fresh, double beta) {
  const int n = set.n, w = set.width, k = set.k;
  if (set.dynamic < 2) return;
  std::vector<int32_t> next(static_cast<size_t>(n)), previous(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    const int a = tour[p], b = tour[(p + 1) % n];
    next[a] = b;
    previous[b] = a;
  }
  for (int i = 0; i < n; ++i) {
    int32_t* ids = set.ids.data() + static_cast<size_t>(i) * w;
    float* t = tau.data() + static_cast<size_t>(i) * w;
    float* eb = set.eta_beta.data() + static_cast<size_t>(i) * w;
    const auto is_static = [&](int j) { return std::find(ids, ids + k, j) != ids + k; };
    const int32_t old_ids[2] = {ids[k], ids[k + 1]};
    const float old_tau[2] = {t[k], t[k + 1]};
    const int32_t wanted[2] = {next[i], previous[i]};
    for (int d = 0; d < 2; ++d) {
      const int32_t j = is_static(wanted[d]) || (d == 1 && wanted[1] == wanted[0]) ? -1 : wanted[d];
      ids[k + d] = j;
      if (j < 0) {
        t[k + d] = fresh;
        eb[k + d] = 0.0f;
        continue;
      }
      t[k + d] = old_ids[0] == j ? old_tau[0] : (old_ids[1] == j ? old_tau[1] : fresh);
      eb[k + d] = static_cast<float>(std::pow(heuristic(instance.distance(i, j)), beta));
    }
  }
}

}  // namespace formica::aco
