// Next-city selection by one block per ant, as Uchida et al. build it (section 4.2, Figure 6): the
// threads load the fitness row with coalesced access, form the prefix sums of f_ij * u_j in shared
// memory (CUB BlockScan, tile by tile), and one warp finds the chosen city by 32-way search.
// Compression keeps the unvisited index array in shared memory (Figure 7); stochastic trial lets
// one warp draw from the static prefix row in global memory.
#pragma once

#include <cub/block/block_scan.cuh>

#include "aco/cuda/warp_selection.cuh"

namespace formica::aco::cuda {

template <int kThreads>
struct BlockSelection {
  using Scan = cub::BlockScan<float, kThreads>;

  struct Shared {
    typename Scan::TempStorage scan;
    float r;     // the random threshold, shared by the block
    int choice;  // the chosen city
    int slot;    // its slot in the unvisited index array (compression)
  };

  /// prefix[k] = sum of value(0..k) for k in [0, count), in tiles of kThreads; returns the total.
  /// Each tile continues from the previous tile's last stored sum (not from the scan's separate
  /// block aggregate, which may round differently), so the sums never decrease and a zero value
  /// never owns an interval. Ends with a barrier, so `prefix` is complete for every thread.
  template <typename Value>
  __device__ static float prefix_sums(Value value, int count, float* prefix, Shared& shared) {
    float running = 0.f;
    for (int base = 0; base < count; base += kThreads) {
      const int k = base + static_cast<int>(threadIdx.x);
      const float v = k < count ? value(k) : 0.f;
      float inclusive;
      Scan(shared.scan).InclusiveSum(v, inclusive);
      if (k < count) prefix[k] = running + inclusive;
      __syncthreads();  // the stored sums are visible, and the scan storage free for the next tile
      running = prefix[min(base + kThreads, count) - 1];
    }
    return running;
  }

  /// SelectWithoutCompression: roulette over all n cities with visited ones weighted 0.
  /// `u` (uniform in [0, 1)) must be the same in every thread.
  __device__ static int roulette(const float* row, int n, VisitedBits visited, float* prefix, float u,
                                 Shared& shared) {
    const float total = prefix_sums([&](int j) { return visited.test(j) ? 0.f : __ldg(row + j); }, n, prefix, shared);
    const int lane = threadIdx.x % kWarpSize;
    if (threadIdx.x < kWarpSize) {
      const float r = threshold_below(u, total);
      int j = warp_search_first_greater([prefix](int i) { return prefix[i]; }, n, r, search_top_stride(n), lane);
      const auto drawable = [&](int i) { return !visited.test(i) && __ldg(row + i) > 0.f; };
      if (j == n || !drawable(j)) j = warp_nearest_eligible(drawable, j < n ? j : n - 1, n, lane);
      if (j < 0) j = warp_first_unvisited(visited, n, lane);  // every remaining fitness is zero
      if (lane == 0) shared.choice = j;
    }
    __syncthreads();
    return shared.choice;
  }

  /// SelectWithCompression: roulette over the unvisited index array unvisited[0, count) only.
  /// Returns the city; its slot is left in shared.slot for the caller to remove (Figure 7).
  __device__ static int compression(const float* row, const int32_t* unvisited, int count, float* prefix, float u,
                                    Shared& shared) {
    const float total = prefix_sums([&](int k) { return __ldg(row + unvisited[k]); }, count, prefix, shared);
    if (threadIdx.x < kWarpSize) {
      const int lane = threadIdx.x;
      int slot = warp_search_first_greater([prefix](int i) { return prefix[i]; }, count,
                                           threshold_below(u, total), search_top_stride(count), lane);
      const auto drawable = [&](int k) { return __ldg(row + unvisited[k]) > 0.f; };
      if (slot == count || !drawable(slot)) slot = warp_nearest_eligible(drawable, slot < count ? slot : count - 1, count, lane);
      if (slot < 0) slot = count - 1;  // every remaining fitness is zero
      if (lane == 0) {
        shared.choice = unvisited[slot];
        shared.slot = slot;
      }
    }
    __syncthreads();
    return shared.choice;
  }

  /// SelectWithStochasticTrial: warp 0 tries up to `trials` draws from the static prefix row
  /// (lane t holds the uniform of trial t); -1 for every thread when all land on visited cities.
  __device__ static int stochastic_trial(const float* prefix_row, int n, VisitedBits visited, float u_lane,
                                         int trials, Shared& shared) {
    if (threadIdx.x < kWarpSize) {
      const int j = warp_stochastic_trial(prefix_row, n, search_top_stride(n), visited, u_lane, trials,
                                          static_cast<int>(threadIdx.x));
      if (threadIdx.x == 0) shared.choice = j;
    }
    __syncthreads();
    return shared.choice;
  }

  /// One selection step of kMethod from `row` (see warp_select_next). Every thread passes the same
  /// `u_shared` (the roulette's uniform); warp 0's lanes pass their own `u_lane` for the trials.
  template <Selection kMethod>
  __device__ static int select_next(const RowSource& src, int current, bool trial_phase, VisitedBits visited,
                                    float* prefix, const int32_t* unvisited, int remaining, float u_lane,
                                    float u_shared, Shared& shared) {
    const float* row = src.fitness + static_cast<size_t>(current) * src.ld;
    if (kMethod == Selection::Roulette) return roulette(row, src.n, visited, prefix, u_shared, shared);
    if (kMethod == Selection::StochasticTrial || (kMethod == Selection::Hybrid && trial_phase)) {
      const int j = stochastic_trial(src.prefix + static_cast<size_t>(current) * src.ld, src.n, visited, u_lane,
                                     src.trials, shared);
      return j >= 0 ? j : roulette(row, src.n, visited, prefix, u_shared, shared);
    }
    return compression(row, unvisited, remaining, prefix, u_shared, shared);
  }
};

}  // namespace formica::aco::cuda
