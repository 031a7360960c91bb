// SPDX-License-Identifier: MIT
// Block-wide scans and arg-max over a group of threads: the first `threads` threads of a block,
// a runtime number (a multiple of 32). Built from the shuffle-only warp scans of warp_scan.cuh
// (Zhou et al. Figure B1: the lanes of a warp need no barrier; only the 32 warp totals cross
// warps), with a named barrier that waits for the group alone. One compiled kernel therefore runs
// at any block size, and ST-DYNAMIC's group can shrink while the warps it no longer needs leave.
// Hand-written on purpose: CUB's block primitives fix the block size at compile time.
#pragma once

#include <climits>
#include <cstdint>

#include "aco/cuda/warp_scan.cuh"

namespace formica::aco::cuda {

/// The first `threads` threads of the block (a multiple of 32, at most blockDim.x). Warp 0 is
/// always a member; control flow must be uniform across each member warp.
struct ThreadGroup {
  int threads;

  __device__ int warps() const { return threads >> 5; }
  /// Barrier 1 for exactly `threads` threads, with the memory ordering of __syncthreads.
  __device__ void sync() const { asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory"); }
};

/// Shared scratch of the group primitives and of the selections built on them.
struct GroupShared {
  float warp_sums[32];
  unsigned warp_keys[32];
  int warp_slots[32];
  float r;     // a threshold shared by the group
  float base;  // tile roulette: the sum before the chosen tile
  int choice;  // the chosen slot (candidate index)
  int city;    // the chosen city, written with `choice`: callers read it instead of their arrays,
               // so one thread may change those arrays as soon as the choice is made
  int tile;    // tile roulette: the chosen tile
  int count;   // the length of a freshly collected unvisited index array
};

/// Inclusive prefix sum of `value` over the group, in thread order (warp scans, then the warp
/// totals scanned by warp 0). Two barriers inside; the caller must pass a barrier before the next
/// call reuses `shared.warp_sums`.
__device__ inline float group_inclusive_sum(float value, const ThreadGroup& g, GroupShared& shared) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  const float inclusive = warp_inclusive_sum(value, lane);
  if (lane == 31) shared.warp_sums[warp] = inclusive;
  g.sync();
  if (warp == 0) {
    const float total = lane < g.warps() ? shared.warp_sums[lane] : 0.f;
    shared.warp_sums[lane] = warp_inclusive_sum(total, lane);
  }
  g.sync();
  return inclusive + (warp > 0 ? shared.warp_sums[warp - 1] : 0.f);
}

/// prefix[k] = sum of value(k', tile) over k' <= k, for k in [0, count), in tiles of g.threads
/// (thread t evaluates k = tile * g.threads + t); returns the total. Each tile continues from the
/// previous tile's last stored sum, so the stored sums never decrease from tile to tile. Ends
/// with a barrier: `prefix` is complete for the whole group.
template <typename Value>
__device__ float group_prefix_sums(Value value, int count, float* prefix, const ThreadGroup& g, GroupShared& shared) {
  float running = 0.f;
  for (int base = 0, tile = 0; base < count; base += g.threads, ++tile) {
    const int k = base + static_cast<int>(threadIdx.x);
    const float v = k < count ? value(k, tile) : 0.f;
    const float inclusive = group_inclusive_sum(v, g, shared);
    if (k < count) prefix[k] = running + inclusive;
    g.sync();  // the stored sums are visible, and warp_sums free for the next tile
    running = prefix[min(base + g.threads, count) - 1];
  }
  return running;
}

/// Arg-max over the group of non-negative float keys: the slot with the largest key, the lowest
/// slot on ties; INT_MAX when every key is 0. Each thread passes its own best (key, slot);
/// shared.city becomes city_of(slot). Two barriers inside; the result is the same in every thread.
template <typename CityOf>
__device__ inline int group_arg_max(float key, int slot, CityOf city_of, const ThreadGroup& g, GroupShared& shared) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  // Non-negative floats order as their bit patterns.
  const unsigned bits = __float_as_uint(key);
  const unsigned best = __reduce_max_sync(kFullMask, bits);
  constexpr unsigned kNone = INT_MAX;
  const unsigned lowest = __reduce_min_sync(kFullMask, bits == best && best != 0 ? static_cast<unsigned>(slot) : kNone);
  if (lane == 0) {
    shared.warp_keys[warp] = best;
    shared.warp_slots[warp] = static_cast<int>(lowest);
  }
  g.sync();
  if (warp == 0) {
    const unsigned k = lane < g.warps() ? shared.warp_keys[lane] : 0u;
    const unsigned s = lane < g.warps() ? static_cast<unsigned>(shared.warp_slots[lane]) : kNone;
    const unsigned top = __reduce_max_sync(kFullMask, k);
    const unsigned winner = __reduce_min_sync(kFullMask, k == top && top != 0 ? s : kNone);
    if (lane == 0) {
      shared.choice = static_cast<int>(winner);
      shared.city = winner != kNone ? city_of(static_cast<int>(winner)) : -1;
    }
  }
  g.sync();
  return shared.choice;
}

/// Threads ST-DYNAMIC gives a step with `count` candidates: the power of two that covers them,
/// at least a warp and at most `limit` (Zhou et al. Algorithm B4, line 3).
__host__ __device__ inline int dynamic_threads(int count, int limit) {
  int threads = 32;
  while (threads < count && threads < limit) threads <<= 1;
  return threads;
}

}  // namespace formica::aco::cuda
