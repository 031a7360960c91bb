// SPDX-License-Identifier: MIT
// 32-way parallel search (Uchida et al. section 4.2.1, after the parallel K-ary search of their
// reference [26] with K = 32): a warp finds the first index j with q[j] > r in a non-decreasing
// array q[0, n) by sampling the last element of 32 segments, keeping the first segment whose last
// element exceeds r, and repeating on it. One round per factor of 32 in n: two rounds for
// n <= 1024, three for n <= 32768.
#pragma once

#include "aco/cuda/warp_scan.cuh"
#include "aco/threshold.h"  // threshold_below: r = u * total strictly below the total

namespace formica::aco::cuda {

/// Smallest power of 32 that, times 32, covers n: the top segment length of the search.
__host__ __device__ inline int search_top_stride(int n) {
  int top = 1;
  while (top * 32 < n) top *= 32;
  return top;
}

/// Continues a search inside the window starting at `lo` whose segments have length `stride`.
/// `load(i)` returns q[i] for 0 <= i < n; entries at or past n count as +infinity. Returns n when
/// no q[j] > r exists (r >= q[n-1]).
template <typename Load>
__device__ __forceinline__ int warp_search_from(Load load, int n, float r, int lo, int stride, int lane) {
  for (int s = stride; s >= 1; s /= 32) {
    const int idx = lo + (lane + 1) * s - 1;
    const float value = idx < n ? load(idx) : __int_as_float(0x7f800000);
    const unsigned above = __ballot_sync(kFullMask, value > r);
    lo += (above ? first_lane(above) : 31) * s;
  }
  return lo < n && load(lo) > r ? lo : n;
}

/// First index j with q[j] > r, or n if none (see warp_search_from); `top` is search_top_stride(n).
template <typename Load>
__device__ __forceinline__ int warp_search_first_greater(Load load, int n, float r, int top, int lane) {
  return warp_search_from(load, n, r, 0, top, lane);
}

}  // namespace formica::aco::cuda
