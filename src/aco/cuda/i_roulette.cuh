// SPDX-License-Identifier: MIT
// I-Roulette (Cecilia et al. 3.2.3, Algorithm 3) on the GPU: every candidate city gets a uniform
// in (0, 1] times its fitness (times 0 once visited), and an arg-max reduction picks the largest
// product. No prefix sums and no threshold: parallel work of one round, at the price of a random
// number per city. It is NOT the roulette wheel: it samples i_roulette_distribution() (see
// src/aco/i_roulette_distribution.h), which favours the heavy cities; the tests measure that
// distribution and its distance from the exact one.
//
// Numbers come from StepRandom (worker = lane or thread, round = its group of four candidates),
// so a step's choice does not depend on how its steps are launched. Ties go to the lowest index.
#pragma once

#include <climits>
#include <cstdint>

#include "aco/cuda/group_scan.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/visited_bits.cuh"

namespace formica::aco::cuda {

/// The city with the largest positive key over the warp (lowest city on ties), or -1 when every
/// key is 0. Each lane passes its own best (key, city).
__device__ __forceinline__ int warp_arg_max(float key, int city) {
  const unsigned bits = __float_as_uint(key);  // non-negative floats order as their bits
  const unsigned best = __reduce_max_sync(kFullMask, bits);
  if (best == 0) return -1;
  return static_cast<int>(__reduce_min_sync(kFullMask, bits == best ? static_cast<unsigned>(city) : UINT_MAX));
}

/// I-Roulette for one warp over the whole row (warp-per-ant): lane l holds float4 groups
/// l, l + 32, ... (kG of them, or a loop when kG = 0), masked by the visited bitmask; `row` is
/// 16-byte aligned, ld entries, zero past n. Every remaining fitness zero: the first unvisited city.
template <int kG>
__device__ inline int warp_i_roulette(const float* row, int n, int ld, VisitedBits visited, const StepRandom& rnd,
                                      int lane) {
  const float4* groups = reinterpret_cast<const float4*>(row);
  const int group_count = ld / 4;
  float best = 0.f;
  int city = INT_MAX;
  const auto take = [&](float4 f, uint32_t visited_bits, float4 u, int g) {
    const float4 m = mask_group(f, visited_bits);
    const float v[4] = {u.x * m.x, u.y * m.y, u.z * m.z, u.w * m.w};
#pragma unroll
    for (int c = 0; c < 4; ++c)
      if (v[c] > best) best = v[c], city = 4 * g + c;
  };
  if constexpr (kG > 0) {
    float4 f[kG];
#pragma unroll
    for (int t = 0; t < kG; ++t) {
      const int g = lane + kWarpSize * t;
      f[t] = g < group_count ? __ldg(groups + g) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int t = 0; t < kG; ++t) {
      const int g = lane + kWarpSize * t;
      if (g < group_count) take(f[t], visited.group_bits(g), rnd.open_closed4(lane, t), g);
    }
  } else {
    for (int g = lane, t = 0; g < group_count; g += kWarpSize, ++t)
      take(__ldg(groups + g), visited.group_bits(g), rnd.open_closed4(lane, t), g);
  }
  const int chosen = warp_arg_max(best, city);
  return chosen >= 0 ? chosen : warp_first_unvisited(visited, n, lane);
}

/// I-Roulette for a group over the candidates of `view` (see block_selection.cuh): thread t
/// weighs candidates t, t + threads, ... with its own numbers, then a group arg-max. Returns the
/// candidate's slot, the same in every thread (its city in shared.city); every weight zero:
/// view.fallback().
template <typename View>
__device__ inline int group_i_roulette(const View& view, const StepRandom& rnd, const ThreadGroup& g,
                                       GroupShared& shared) {
  const int tid = static_cast<int>(threadIdx.x);
  float best = 0.f;
  int slot = INT_MAX;
  float4 u = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int tile = 0, k = tid; k < view.count; ++tile, k += g.threads) {
    if ((tile & 3) == 0) u = rnd.open_closed4(static_cast<uint32_t>(tid), static_cast<uint32_t>(tile >> 2));
    const float v = component(u, tile & 3) * view.value(k, tile);
    if (v > best) best = v, slot = k;
  }
  const int chosen = group_arg_max(best, slot, [&](int k) { return view.city(k); }, g, shared);
  if (chosen != INT_MAX) return chosen;
  // Every remaining weight is zero (the same branch in every thread).
  g.sync();  // everyone has read shared.choice
  if (tid < kWarpSize) {
    const int fallback = view.fallback(tid);
    if (tid == 0) {
      shared.choice = fallback;
      shared.city = view.city(fallback);
    }
  }
  g.sync();
  return shared.choice;
}

}  // namespace formica::aco::cuda
