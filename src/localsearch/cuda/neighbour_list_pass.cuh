// SPDX-License-Identifier: MIT
// The neighbour-list pass of the one-big-tour climb: every active city, in parallel, tries the
// 2-opt moves that give it an edge to one of its k nearest neighbours, shorter than the tour edge
// the move takes from it (Bentley's neighbour lists with the gain criterion), and offers the best
// as a candidate; a city that finds nothing goes inactive (a don't-look bit) until a kept move
// touches it. A pass costs O(n k) instead of O(n^2). The candidates then go through the same k-swap
// selection as the full passes, so moves of one pass never overlap.
//
// Or-opt moves fit the same frame: a city proposes the best move of any kind whose
// touched positions form an interval, and the selection keeps disjoint intervals.
#pragma once

#include <cstdint>

#include "localsearch/cuda/device_metric.cuh"
#include "localsearch/cuda/two_opt_pass.cuh"

namespace formica::localsearch::cuda {

/// City `a`'s best improving neighbour-list move on `tour` (pos: city -> position), as edge
/// interval (i, j) with its gain; i < 0 when there is none.
template <class Metric>
__device__ void best_neighbour_move(const Metric& metric, const DeviceCities& cities, const int32_t* tour,
                                    const int32_t* pos, const int32_t* neighbours, int k, int n, int a,
                                    typename Metric::Value& gain, int2& move) {
  using Value = typename Metric::Value;
  using Point = typename Metric::Point;
  const int p = pos[a];
  const int succ = tour[p + 1 == n ? 0 : p + 1], pred = tour[p == 0 ? n - 1 : p - 1];
  const Point pa = metric.point(a, cities), ps = metric.point(succ, cities), pp = metric.point(pred, cities);
  const Value d_succ = metric.distance(pa, ps), d_pred = metric.distance(pa, pp);
  gain = improving_threshold<Value>();
  move = make_int2(-1, -1);
  int e1 = -1, e2 = -1;
  for (int t = 0; t < k; ++t) {
    const int c = neighbours[static_cast<size_t>(a) * k + t];
    const Point pc = metric.point(c, cities);
    const Value d_ac = metric.distance(pa, pc);
    if (d_ac >= d_succ && d_ac >= d_pred) break;  // nearest first: no later neighbour can do better
    const int q = pos[c];
    if (d_ac < d_succ) {  // new edges (a, c) and (succ, succ of c)
      const int sc = tour[q + 1 == n ? 0 : q + 1];
      if (c != succ && sc != a) {
        const Point psc = metric.point(sc, cities);
        const Value g = (d_succ - d_ac) + (metric.distance(pc, psc) - metric.distance(ps, psc));  // offsets cancel
        if (g > gain) gain = g, e1 = p, e2 = q;
      }
    }
    if (d_ac < d_pred) {  // new edges (a, c) and (pred, pred of c)
      const int pc_city = tour[q == 0 ? n - 1 : q - 1];
      if (c != pred && pc_city != a) {
        const Point ppc = metric.point(pc_city, cities);
        const Value g = (d_pred - d_ac) + (metric.distance(ppc, pc) - metric.distance(pp, ppc));
        if (g > gain) gain = g, e1 = p == 0 ? n - 1 : p - 1, e2 = q == 0 ? n - 1 : q - 1;
      }
    }
  }
  if (e1 >= 0) move = make_int2(min(e1, e2), max(e1, e2));
}

}  // namespace formica::localsearch::cuda
