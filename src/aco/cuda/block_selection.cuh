// SPDX-License-Identifier: MIT
// Next-city selection by a group of threads working on one ant (Cecilia et al.'s queen ant and
// her workers, 3.2.2; Zhou et al.'s work-group per ant, ST-GROUP): the selection methods written
// once against a "view" of the candidates, for any group size.
//
// Views: CityView is all n cities with the visited ones weighing 0 (block-per-ant); thread t owns
// cities t, t + threads, ..., so its visited flags fit one register, bit i for tile i (Cecilia's
// tabu list as bits in registers); a shared-memory copy of the bitmask serves random access.
// ListView is an index array of candidates: Uchida's unvisited array (compression) or the part of
// Zhou's tour list past the cursor (STC). The roulette over a ListView is SelectWithCompression.
#pragma once

#include "aco/config.h"
#include "aco/cuda/group_scan.cuh"
#include "aco/cuda/i_roulette.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/tile_roulette.cuh"
#include "aco/cuda/visited_bits.cuh"
#include "aco/cuda/warp_selection.cuh"

namespace formica::aco::cuda {

/// All `count` (= n) cities of a fitness row; see the file comment.
struct CityView {
  const float* row;
  int count;
  VisitedBits visited;
  uint32_t mine;  // bit i: city threadIdx.x + i * threads is visited

  /// Weight of candidate k = tile * threads + threadIdx.x, called by that thread only.
  __device__ float value(int k, int tile) const { return (mine >> tile) & 1u ? 0.f : __ldg(row + k); }
  /// Whether candidate k can be drawn at all (any thread).
  __device__ bool drawable(int k) const { return !visited.test(k) && __ldg(row + k) > 0.f; }
  __device__ int city(int k) const { return k; }
  /// Every weight zero: the first unvisited city (called by all lanes of warp 0).
  __device__ int fallback(int lane) const { return warp_first_unvisited(visited, count, lane); }
};

/// The candidates list[0, count) of a fitness row.
struct ListView {
  const float* row;
  const int32_t* list;
  int count;

  __device__ float value(int k, int) const { return __ldg(row + list[k]); }
  __device__ bool drawable(int k) const { return __ldg(row + list[k]) > 0.f; }
  __device__ int city(int k) const { return list[k]; }
  __device__ int fallback(int) const { return count - 1; }
};

/// Thread t's visited bits over the cities t + i * threads, from the shared bitmask.
__device__ inline uint32_t own_visited_bits(VisitedBits visited, int n, int threads) {
  uint32_t mine = 0;
  for (int i = 0, city = static_cast<int>(threadIdx.x); city < n; ++i, city += threads)
    if (visited.test(city)) mine |= 1u << i;
  return mine;
}

/// Warp 0 lists the unvisited cities into `unvisited` (Uchida's index array, Figure 7); returns
/// their count in every thread of the group.
__device__ inline int collect_unvisited(VisitedBits visited, int n, int32_t* unvisited, const ThreadGroup& g,
                                        GroupShared& shared) {
  if (threadIdx.x < kWarpSize) {
    const int count = warp_collect_unvisited(visited, n, unvisited, static_cast<int>(threadIdx.x));
    if (threadIdx.x == 0) shared.count = count;
  }
  g.sync();
  return shared.count;
}

/// Roulette over a view: group prefix sums of the weights in `prefix` (view.count floats), then
/// warp 0's 32-way search for the threshold (Uchida 4.2.1-4.2.2). Returns the slot in every thread
/// (its city in shared.city).
template <typename View>
__device__ inline int group_roulette(const View& view, float* prefix, const StepRandom& rnd, const ThreadGroup& g,
                                     GroupShared& shared) {
  const float total =
      group_prefix_sums([&](int k, int tile) { return view.value(k, tile); }, view.count, prefix, g, shared);
  if (threadIdx.x < kWarpSize) {
    const int lane = static_cast<int>(threadIdx.x), count = view.count;
    const float r = threshold_below(rnd.uniform(kThresholdWorker), total);
    int k = warp_search_first_greater([prefix](int i) { return prefix[i]; }, count, r, search_top_stride(count), lane);
    // Tree-shaped scans can give a zero weight an interval one ulp wide: land only on drawable ones.
    const auto drawable = [&](int i) { return view.drawable(i); };
    if (k == count || !drawable(k)) k = warp_nearest_eligible(drawable, k < count ? k : count - 1, count, lane);
    if (k < 0) k = view.fallback(lane);  // every remaining weight is zero
    if (lane == 0) {
      shared.choice = k;
      shared.city = view.city(k);
    }
  }
  g.sync();
  return shared.choice;
}

/// SelectWithStochasticTrial for a group: warp 0 tries up to `trials` draws from the static prefix
/// row, lane t with the uniform of worker t. -1 in every thread when all land on visited cities.
__device__ inline int group_stochastic_trial(const float* prefix_row, int n, VisitedBits visited, int trials,
                                             const StepRandom& rnd, const ThreadGroup& g, GroupShared& shared) {
  if (threadIdx.x < kWarpSize) {
    const int lane = static_cast<int>(threadIdx.x);
    const int j = warp_stochastic_trial(prefix_row, n, search_top_stride(n), visited,
                                        rnd.uniform(static_cast<uint32_t>(lane)), trials, lane);
    if (lane == 0) shared.choice = shared.city = j;
  }
  g.sync();
  return shared.choice;
}

/// Where a selection method keeps its working arrays in shared (or global) memory.
struct GroupBuffers {
  float* prefix;     // roulette prefix sums (ld floats) or tile roulette's tile prefix (threads floats)
  float* tiles;      // tile roulette scratch (tile_scratch_floats(ld))
};

/// One step of block-per-ant with method kMethod from city `current`, without committing it.
/// `trial_phase`: stochastic trial, or hybrid before its switch; compression (and hybrid after
/// the switch) reads unvisited[0, remaining) and returns the slot to remove with the city. Every
/// thread returns the same choice, read from shared memory, so thread 0 may commit it at once.
template <Selection kMethod>
__device__ inline Choice block_select(const RowSource& src, int current, bool trial_phase, VisitedBits visited,
                                      uint32_t mine, const int32_t* unvisited, int remaining, GroupBuffers buffers,
                                      const StepRandom& rnd, const ThreadGroup& g, GroupShared& shared) {
  const float* row = src.fitness + static_cast<size_t>(current) * src.ld;
  const CityView cities{row, src.n, visited, mine};
  if constexpr (kMethod == Selection::IRoulette) {
    group_i_roulette(cities, rnd, g, shared);
    return {shared.city, -1};
  } else if constexpr (kMethod == Selection::TileRoulette) {
    group_tile_roulette(cities, buffers.prefix, buffers.tiles, rnd, g, shared);
    return {shared.city, -1};
  } else {
    if (kMethod == Selection::StochasticTrial || (kMethod == Selection::Hybrid && trial_phase)) {
      const int j = group_stochastic_trial(src.prefix + static_cast<size_t>(current) * src.ld, src.n, visited,
                                           src.trials, rnd, g, shared);
      if (j >= 0) return {j, -1};
    }
    if (kMethod == Selection::Compression || (kMethod == Selection::Hybrid && !trial_phase)) {
      const int slot = group_roulette(ListView{row, unvisited, remaining}, buffers.prefix, rnd, g, shared);
      return {shared.city, slot};
    }
    group_roulette(cities, buffers.prefix, rnd, g, shared);
    return {shared.city, -1};
  }
}

/// One step of STC / ST-DYNAMIC: method kMethod over the unvisited part of the tour list.
/// Returns the slot in `candidates`, its city in shared.city (the node swap is the caller's).
template <Selection kMethod>
__device__ inline int list_select(const ListView& candidates, GroupBuffers buffers, const StepRandom& rnd,
                                  const ThreadGroup& g, GroupShared& shared) {
  if constexpr (kMethod == Selection::IRoulette) {
    return group_i_roulette(candidates, rnd, g, shared);
  } else if constexpr (kMethod == Selection::TileRoulette) {
    return group_tile_roulette(candidates, buffers.prefix, buffers.tiles, rnd, g, shared);
  } else {
    return group_roulette(candidates, buffers.prefix, rnd, g, shared);
  }
}

}  // namespace formica::aco::cuda
