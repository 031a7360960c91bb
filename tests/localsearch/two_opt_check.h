// SPDX-License-Identifier: MIT
// An independent check of 2-opt local optimality, written apart from the library's passes: every
// pair of non-adjacent tour edges, exact distances straight from Instance::distance.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/tour.h"
#include "localsearch/k_swap.h"
#include "test_support.h"

namespace formica::test {

/// The largest gain of any 2-opt move on `order` (0 when none shortens the tour). O(n^2), threaded.
inline int64_t best_two_opt_gain(const Instance& instance, std::span<const int32_t> order) {
  const int n = static_cast<int>(order.size());
  int64_t best = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(max : best)
  for (int a = 0; a < n; ++a) {
    const int u = order[a], v = order[(a + 1) % n];
    const int64_t removed_uv = instance.distance(u, v);
    for (int b = a + 2; b < n; ++b) {
      if (a == 0 && b == n - 1) continue;  // edges n-1 and 0 share city order[0]
      const int w = order[b], x = order[(b + 1) % n];
      const int64_t gain = removed_uv + instance.distance(w, x) - instance.distance(u, w) - instance.distance(v, x);
      best = std::max(best, gain);
    }
  }
  return best;
}

/// For every city a, the best gain of the moves the neighbour-list climbs search from it: a 2-opt
/// move giving a the new edge (a, c) to a listed neighbour c in place of its tour edge (a, x),
/// where d(a, c) < d(a, x). 0 when none improves.
inline std::vector<int64_t> listed_move_gains(const Instance& instance, const CandidateLists& lists,
                                              const std::vector<int32_t>& tour) {
  const int n = instance.n();
  std::vector<int> pos(n);
  for (int p = 0; p < n; ++p) pos[tour[p]] = p;
  std::vector<int64_t> best(n, 0);
  for (int a = 0; a < n; ++a)
    for (int32_t c : lists.of(a)) {
      const int p = pos[a], q = pos[c];
      // a's outgoing edge with c's outgoing edge, then the two incoming edges
      for (auto [e1, e2] : {std::pair{p, q}, std::pair{(p + n - 1) % n, (q + n - 1) % n}}) {
        const int x = e1 == p ? tour[(p + 1) % n] : tour[e1];
        const int i = std::min(e1, e2), j = std::max(e1, e2);
        if (localsearch::is_move(n, i, j) && instance.distance(a, c) < instance.distance(a, x))
          best[a] = std::max(best[a], localsearch::two_opt_gain(instance, tour, {i, j}));
      }
    }
  return best;
}

/// Random instances of every TSPLIB metric, EXPLICIT included (a matrix of EUC_2D distances), with
/// integer coordinates in [0, side).
inline Instance metric_instance(EdgeWeightType type, int n, uint64_t seed, double side = 1000) {
  if (type != EdgeWeightType::Explicit) return random_instance(type, n, seed, side);
  const Instance plane = random_instance(EdgeWeightType::Euc2D, n, seed, side);
  std::vector<int32_t> weights(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) weights[static_cast<size_t>(i) * n + j] = static_cast<int32_t>(plane.distance(i, j));
  return Instance::from_matrix("random-matrix", n, std::move(weights));
}

inline const std::vector<EdgeWeightType>& all_metrics() {
  static const std::vector<EdgeWeightType> types = {
      EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,  EdgeWeightType::Geo,
      EdgeWeightType::Man2D, EdgeWeightType::Max2D,  EdgeWeightType::Euc3D, EdgeWeightType::Explicit};
  return types;
}

}  // namespace formica::test

/// Asserts that `order` is a valid tour of `instance` with no improving 2-opt move.
#define FORMICA_EXPECT_TWO_OPT_OPTIMUM(inst_, order_)                                                   \
  do {                                                                                                \
    const auto& formica_order_ = (order_);                                                          \
    const ::formica::Tour formica_checked_((inst_), std::vector<int32_t>(formica_order_.begin(), formica_order_.end())); \
    EXPECT_EQ(::formica::test::best_two_opt_gain((inst_), formica_checked_.order()), 0)                 \
        << "an improving 2-opt move remains";                                                         \
  } while (false)
