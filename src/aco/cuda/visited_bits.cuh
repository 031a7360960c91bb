// SPDX-License-Identifier: MIT
// One ant's visited set as a bitmask in shared memory (bit c of word c / 32), and the warp-wide
// operations on it that every construction shares: clearing, listing the unvisited cities
// (stream compaction), the first unvisited city, and the nearest city a search may land on.
#pragma once

#include <cstdint>

#include "aco/cuda/warp_scan.cuh"

namespace formica::aco::cuda {

/// The visited set of one ant, one bit per city, in shared memory (bit c of word c / 32).
struct VisitedBits {
  uint32_t* words;

  __device__ bool test(int city) const { return (words[city >> 5] >> (city & 31)) & 1u; }
  /// Marks `city`; only one lane may call it, followed by __syncwarp().
  __device__ void set(int city) { words[city >> 5] |= 1u << (city & 31); }
  /// The visited flags of the four cities of float4 group g, in bits 0-3.
  __device__ uint32_t group_bits(int g) const { return (words[g >> 3] >> (4 * (g & 7))) & 0xfu; }
};

/// Clears the bitmask of `ld` bits (ld a multiple of 32) with the whole warp.
__device__ inline void warp_clear(VisitedBits visited, int ld, int lane) {
  for (int w = lane; w < ld / 32; w += kWarpSize) visited.words[w] = 0;
  __syncwarp();
}

/// The unvisited cities among 32w .. 32w + 31 that are below n, as bits (0 past the last word).
__device__ __forceinline__ uint32_t unvisited_bits(VisitedBits visited, int w, int n) {
  if (w * 32 >= n) return 0;
  const uint32_t free_bits = ~visited.words[w];
  const int valid = n - w * 32;
  return valid < 32 ? free_bits & ((1u << valid) - 1u) : free_bits;
}

/// Writes the unvisited cities of [0, n) in increasing order to `out`; returns their count.
/// Warp-wide stream compaction of the complement of the bitmask (popc + warp scan).
__device__ inline int warp_collect_unvisited(VisitedBits visited, int n, int32_t* out, int lane) {
  const int words = (n + 31) / 32;
  int count = 0;
  for (int base = 0; base < words; base += kWarpSize) {
    const int w = base + lane;
    uint32_t free_bits = unvisited_bits(visited, w, n);
    const int c = __popc(free_bits);
    const int inclusive = warp_inclusive_sum(c, lane);
    int position = count + inclusive - c;
    while (free_bits) {
      const int b = __ffs(free_bits) - 1;
      out[position++] = w * 32 + b;
      free_bits &= free_bits - 1;
    }
    count += __shfl_sync(kFullMask, inclusive, 31);
  }
  __syncwarp();
  return count;
}

/// The lowest-numbered unvisited city (the fallback when every remaining fitness is zero).
__device__ inline int warp_first_unvisited(VisitedBits visited, int n, int lane) {
  const int words = (n + 31) / 32;
  for (int base = 0; base < words; base += kWarpSize) {
    const uint32_t free_bits = unvisited_bits(visited, base + lane, n);
    const unsigned any = __ballot_sync(kFullMask, free_bits != 0);
    if (any) {
      const int owner = first_lane(any);
      const uint32_t bits = __shfl_sync(kFullMask, free_bits, owner);
      return (base + owner) * 32 + __ffs(bits) - 1;
    }
  }
  return 0;
}

/// The first index at or after `from` (else the last before it) in [0, count) for which
/// `eligible(i)` holds, or -1. Block scans form prefix sums with tree-shaped additions, so a
/// zero weight can own an interval about one ulp wide: a search that lands on one is moved to
/// the nearest weight that can really be drawn.
template <typename Eligible>
__device__ inline int warp_nearest_eligible(Eligible eligible, int from, int count, int lane) {
  for (int base = from; base < count; base += kWarpSize) {
    const unsigned ok = __ballot_sync(kFullMask, base + lane < count && eligible(base + lane));
    if (ok) return base + first_lane(ok);
  }
  for (int top = from; top > 0; top -= kWarpSize) {
    const int i = top - 1 - lane;
    const unsigned ok = __ballot_sync(kFullMask, i >= 0 && eligible(i));
    if (ok) return top - 1 - first_lane(ok);
  }
  return -1;
}

/// The four values of `f` with the cities whose bit is set in `visited_bits` zeroed.
__device__ __forceinline__ float4 mask_group(float4 f, uint32_t visited_bits) {
  return make_float4((visited_bits & 1u) ? 0.f : f.x, (visited_bits & 2u) ? 0.f : f.y,
                     (visited_bits & 4u) ? 0.f : f.z, (visited_bits & 8u) ? 0.f : f.w);
}

}  // namespace formica::aco::cuda
