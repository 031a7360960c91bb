// SPDX-License-Identifier: MIT
// Next-city selection by one sequential worker, written once for the host and the device: the
// CPU backend's roulette and I-Roulette, and the GPU's task-parallel construction, where one
// thread builds one ant's tour by the CPU's algorithm (Cecilia et al. 3.1.2, their Algorithm 2;
// the GPU sums in float and draws from its own random stream, so the tours are not the CPU's).
// Cities come through callables, so the CPU reads its AntPath and a GPU thread its fitness row
// and visited bitmask.
#pragma once

#include "aco/threshold.h"

namespace formica::aco {

#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
/// Roulette wheel over the unvisited cities of [0, n): the total of weight(j) over unvisited j,
/// then the first city whose running sum exceeds u * total, u in [0, 1). If rounding keeps every
/// running sum at or below the threshold, the last unvisited city with a positive weight; if every
/// remaining weight is zero, the first unvisited city. Sums accumulate in Real, in index order.
template <typename Real, typename Visited, typename Weight>
FORMICA_HD int sequential_roulette(int n, Visited visited, Weight weight, Real u) {
  Real total = 0;
  for (int j = 0; j < n; ++j)
    if (!visited(j)) total += weight(j);
  const Real r = threshold_below(u, total);
  Real q = 0;
  int last = -1;
  for (int j = 0; j < n; ++j) {
    if (visited(j)) continue;
    const auto w = weight(j);
    q += w;
    if (last < 0 || w > 0) last = j;
    if (r < q) return j;
  }
  return last;
}

#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
/// I-Roulette (Cecilia et al. 3.2.3, their Algorithm 3) by one worker: each unvisited city j
/// gets uniform(j) in (0, 1] times weight(j); the largest product wins, the lowest index on ties.
/// uniform(j) is called once per unvisited city, in index order. If no product is positive (every
/// remaining weight zero), the first unvisited city.
template <typename Visited, typename Weight, typename Uniform>
FORMICA_HD int sequential_i_roulette(int n, Visited visited, Weight weight, Uniform uniform) {
  float best = 0.f;
  int city = -1, first = -1;
  for (int j = 0; j < n; ++j) {
    if (visited(j)) continue;
    if (first < 0) first = j;
    const float value = uniform(j) * weight(j);
    if (value > best) best = value, city = j;
  }
  return city >= 0 ? city : first;
}

}  // namespace formica::aco
