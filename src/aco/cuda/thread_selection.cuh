// SPDX-License-Identifier: MIT
// Next-city selection by one thread per ant (task parallelism, Cecilia et al. 3.1.2): each GPU
// thread runs the CPU's sequential roulette or I-Roulette (sequential_selection.h) over its own
// fitness row, with its visited set as a bitmask in shared memory. Rows are read one city at a
// time and neighbouring threads read different rows: the uncoalesced, divergent pattern the
// paper measures against data parallelism.
#pragma once

#include "aco/config.h"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/tile_roulette.cuh"  // kThresholdWorker
#include "aco/cuda/visited_bits.cuh"
#include "aco/sequential_selection.h"

namespace formica::aco::cuda {

template <Selection kMethod>
__device__ inline int thread_select(const float* row, int n, VisitedBits visited, const StepRandom& rnd) {
  const auto is_visited = [visited](int j) { return visited.test(j); };
  const auto weight = [row](int j) { return __ldg(row + j); };
  if constexpr (kMethod == Selection::IRoulette) {
    float4 u = make_float4(0.f, 0.f, 0.f, 0.f);
    int round = -1;
    return sequential_i_roulette(n, is_visited, weight, [&](int j) {
      if (j >> 2 != round) {
        round = j >> 2;
        u = rnd.open_closed4(0, static_cast<uint32_t>(round));
      }
      return component(u, j & 3);
    });
  } else {
    static_assert(kMethod == Selection::Roulette, "thread-per-ant takes roulette and i-roulette");
    return sequential_roulette<float>(n, is_visited, weight, rnd.uniform(kThresholdWorker));
  }
}

}  // namespace formica::aco::cuda
