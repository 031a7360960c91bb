// Next-city selection by one warp per ant: the four methods of Uchida et al. section 4.2 written
// for a warp, with the ant's visited set as a bitmask in shared memory and no block barriers.
//
// Every function returns a city drawn with probability f_ij / (sum of f_il over unvisited l)
// (up to float rounding of the sums). The cities are summed in a fixed order, so the result is
// reproducible; the order need not be the index order for the distribution to be exact.
#pragma once

#include <cstdint>

#include "aco/config.h"
#include "aco/cuda/warp_scan.cuh"
#include "aco/cuda/warp_search.cuh"

namespace formica::aco::cuda {

/// A choice: the city and, for compression, its slot in the unvisited index array.
struct Choice {
  int city;
  int slot;
};

/// The visited set of one ant, one bit per city, in shared memory (bit c of word c / 32).
struct VisitedBits {
  uint32_t* words;

  __device__ bool test(int city) const { return (words[city >> 5] >> (city & 31)) & 1u; }
  /// Marks `city`; only one lane may call it, followed by __syncwarp().
  __device__ void set(int city) { words[city >> 5] |= 1u << (city & 31); }
};

/// Clears the bitmask of `ld` bits (ld a multiple of 32) with the whole warp.
__device__ inline void warp_clear(VisitedBits visited, int ld, int lane) {
  for (int w = lane; w < ld / 32; w += kWarpSize) visited.words[w] = 0;
  __syncwarp();
}

/// Writes the unvisited cities of [0, n) in increasing order to `out`; returns their count.
/// Warp-wide stream compaction of the complement of the bitmask (ballot-free: popc + scan).
__device__ inline int warp_collect_unvisited(VisitedBits visited, int n, int32_t* out, int lane) {
  const int words = (n + 31) / 32;
  int count = 0;
  for (int base = 0; base < words; base += kWarpSize) {
    const int w = base + lane;
    uint32_t free_bits = 0;
    if (w < words) {
      free_bits = ~visited.words[w];
      const int valid = n - w * 32;
      if (valid < 32) free_bits &= (1u << valid) - 1u;
    }
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
    const int w = base + lane;
    uint32_t free_bits = 0;
    if (w < words) {
      free_bits = ~visited.words[w];
      const int valid = n - w * 32;
      if (valid < 32) free_bits &= (1u << valid) - 1u;
    }
    const unsigned any = __ballot_sync(kFullMask, free_bits != 0);
    if (any) {
      const int owner = first_lane(any);
      const uint32_t bits = __shfl_sync(kFullMask, free_bits, owner);
      return (base + owner) * 32 + __ffs(bits) - 1;
    }
  }
  return 0;
}

/// SelectWithoutCompression (Uchida 4.2.1) for a warp: roulette over the whole row with the
/// visited cities weighted 0. Lane l owns the float4 groups l, l + 32, ... of the row (coalesced
/// 512-byte loads); cities are ordered lane by lane for the prefix sums. `row` is 16-byte aligned
/// with `ld` (a multiple of 32) entries, zero past n. `u` is uniform in [0, 1), the same in
/// every lane.
__device__ inline int warp_roulette(const float* row, int n, int ld, VisitedBits visited, float u, int lane) {
  const float4* groups = reinterpret_cast<const float4*>(row);
  const int group_count = ld / 4;
  const auto masked_sum = [&](int g, float4 f) {
    const uint32_t bits = visited.words[g >> 3] >> (4 * (g & 7));
    return ((bits & 1u) ? 0.f : f.x) + ((bits & 2u) ? 0.f : f.y) + ((bits & 4u) ? 0.f : f.z) +
           ((bits & 8u) ? 0.f : f.w);
  };
  float lane_sum = 0.f;
  for (int g = lane; g < group_count; g += kWarpSize) lane_sum += masked_sum(g, __ldg(groups + g));
  const float inclusive = warp_inclusive_sum(lane_sum, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  const float r = threshold_below(u, total);
  const unsigned past = __ballot_sync(kFullMask, inclusive > r && lane_sum > 0.f);
  if (past == 0) return warp_first_unvisited(visited, n, lane);  // all remaining fitness is zero
  const int owner = first_lane(past);
  float running = __shfl_sync(kFullMask, inclusive - lane_sum, owner);
  // The owner's groups, one per lane: find the group, then the city inside it.
  int fallback = -1;
  for (int base = 0; owner + kWarpSize * base < group_count; base += kWarpSize) {
    const int g = owner + kWarpSize * (base + lane);
    const float4 f = g < group_count ? __ldg(groups + g) : make_float4(0.f, 0.f, 0.f, 0.f);
    const float s = g < group_count ? masked_sum(g, f) : 0.f;
    const float group_inclusive = warp_inclusive_sum(s, lane);
    const unsigned hit = __ballot_sync(kFullMask, running + group_inclusive > r && s > 0.f);
    const unsigned positive = __ballot_sync(kFullMask, s > 0.f);
    if (positive) fallback = owner + kWarpSize * (base + last_lane(positive));
    if (hit) {
      const int h = first_lane(hit);
      int city = -1;
      if (lane == h) {
        const uint32_t bits = visited.words[g >> 3] >> (4 * (g & 7));
        const float value[4] = {f.x, f.y, f.z, f.w};
        float acc = running + group_inclusive - s;
        for (int e = 0; e < 4; ++e) {
          if ((bits >> e) & 1u || value[e] <= 0.f) continue;
          city = 4 * g + e;  // the last positive one if rounding keeps acc <= r
          acc += value[e];
          if (acc > r) break;
        }
      }
      return __shfl_sync(kFullMask, city, h);
    }
    running += __shfl_sync(kFullMask, group_inclusive, 31);
  }
  // Rounding put r past the owner's last city: take the owner's last positive unvisited city.
  if (fallback >= 0) {
    int city = -1;
    if (lane == 0) {
      const uint32_t bits = visited.words[fallback >> 3] >> (4 * (fallback & 7));
      for (int e = 0; e < 4; ++e)
        if (!((bits >> e) & 1u) && row[4 * fallback + e] > 0.f) city = 4 * fallback + e;
    }
    return __shfl_sync(kFullMask, city, 0);
  }
  return warp_first_unvisited(visited, n, lane);
}

/// SelectWithCompression (Uchida 4.2.2) for a warp: roulette over the unvisited index array
/// `unvisited[0, count)` only. Lane l owns slots l, l + 32, ...; returns the city and its slot.
__device__ inline Choice warp_compression(const float* row, const int32_t* unvisited, int count, float u,
                                          int lane) {
  float lane_sum = 0.f;
  for (int k = lane; k < count; k += kWarpSize) lane_sum += __ldg(row + unvisited[k]);
  const float inclusive = warp_inclusive_sum(lane_sum, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  const float r = threshold_below(u, total);
  unsigned past = __ballot_sync(kFullMask, inclusive > r && lane_sum > 0.f);
  if (past == 0) past = __ballot_sync(kFullMask, lane < count);  // all zero: any city will do
  const int owner = first_lane(past);
  float running = __shfl_sync(kFullMask, inclusive - lane_sum, owner);
  Choice last{-1, -1};
  for (int base = 0; owner + kWarpSize * base < count; base += kWarpSize) {
    const int k = owner + kWarpSize * (base + lane);
    const int city = k < count ? unvisited[k] : -1;
    const float f = city >= 0 ? __ldg(row + city) : 0.f;
    const float value_inclusive = warp_inclusive_sum(f, lane);
    const unsigned hit = __ballot_sync(kFullMask, running + value_inclusive > r && f > 0.f);
    const unsigned present = __ballot_sync(kFullMask, city >= 0);
    if (hit) {
      const int h = first_lane(hit);
      return {__shfl_sync(kFullMask, city, h), __shfl_sync(kFullMask, k, h)};
    }
    if (present) {
      const int h = last_lane(present);
      last = {__shfl_sync(kFullMask, city, h), __shfl_sync(kFullMask, k, h)};
    }
    running += __shfl_sync(kFullMask, value_inclusive, 31);
  }
  return last;  // rounding put r past the owner's slots, or every value is zero
}

/// Removes slot `slot` from the unvisited index array in O(1) by moving the last entry into it
/// (Uchida Figure 7). Call with the whole warp; returns the new count.
__device__ inline int warp_remove_slot(int32_t* unvisited, int count, int slot, int lane) {
  if (lane == 0) unvisited[slot] = unvisited[count - 1];
  __syncwarp();
  return count - 1;
}

/// SelectWithStochasticTrial (Uchida 4.2.3) for a warp: up to `trials` draws j from the whole row
/// through its static prefix sums q'[0, n) (32-way search), accepting the first unvisited j.
/// Trial t uses the uniform of lane t (`u` differs per lane). Returns -1 when every trial lands
/// on a visited city; the caller then falls back to roulette, which keeps the distribution exact
/// (rejection sampling conditioned on "unvisited" is the target distribution itself). A draw
/// only ever lands on an entry with f_j > 0, since q'[j] > r >= q'[j-1].
__device__ inline int warp_stochastic_trial(const float* prefix, int n, int top, VisitedBits visited, float u,
                                            int trials, int lane) {
  const auto load = [prefix](int i) { return __ldg(prefix + i); };
  // The first round of the search is the same for every trial: load it once. The lane whose
  // segment holds n - 1 reads q'[n-1], the row total.
  const int first_end = min((lane + 1) * top - 1, n - 1);
  const bool live = lane * top < n;
  const float first = live ? load(first_end) : __int_as_float(0x7f800000);
  const int last_segment = (n - 1) / top;
  const float total = __shfl_sync(kFullMask, first, last_segment);
  for (int t = 0; t < trials; ++t) {
    const float r = threshold_below(__shfl_sync(kFullMask, u, t), total);
    const unsigned above = __ballot_sync(kFullMask, first > r);
    if (above == 0) continue;  // the whole row is zero
    const int segment = first_lane(above);
    const int j = top == 1 ? (segment < n ? segment : n) : warp_search_from(load, n, r, segment * top, top / 32, lane);
    if (j < n && !visited.test(j)) return j;
  }
  return -1;
}

/// Where a step reads its row: the dense fitness matrix and, for stochastic trial, the prefix
/// matrix (both ld x ld, row-major).
struct RowSource {
  const float* fitness;
  const float* prefix;
  int n, ld;
  int top;     // search_top_stride(n)
  int trials;  // w, at most 31: lane `trials` keeps the roulette's uniform
};

/// One selection step of method kMethod from city `current`, without changing the ant's state
/// (the caller commits the choice). `trial_phase` is true for stochastic trial and for hybrid
/// before its switch point; compression reads unvisited[0, remaining). `u` differs per lane.
template <Selection kMethod>
__device__ inline Choice warp_select_next(const RowSource& src, int current, bool trial_phase, VisitedBits visited,
                                          const int32_t* unvisited, int remaining, float u, int lane) {
  const float* row = src.fitness + static_cast<size_t>(current) * src.ld;
  if (kMethod == Selection::Roulette)
    return {warp_roulette(row, src.n, src.ld, visited, __shfl_sync(kFullMask, u, 0), lane), -1};
  if (kMethod == Selection::StochasticTrial || (kMethod == Selection::Hybrid && trial_phase)) {
    const float* prefix_row = src.prefix + static_cast<size_t>(current) * src.ld;
    int j = warp_stochastic_trial(prefix_row, src.n, src.top, visited, u, src.trials, lane);
    if (j < 0) j = warp_roulette(row, src.n, src.ld, visited, __shfl_sync(kFullMask, u, src.trials), lane);
    return {j, -1};
  }
  return warp_compression(row, unvisited, remaining, __shfl_sync(kFullMask, u, 0), lane);
}

}  // namespace formica::aco::cuda
