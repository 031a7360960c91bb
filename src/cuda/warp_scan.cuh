// SPDX-License-Identifier: MIT
// Warp-level prefix sums and reductions with register shuffles only: no shared memory and no
// block barrier (Zhou et al. Figure B1). Hand-written on purpose: this *is* the technique, and the
// construction kernels and the 2-opt move selection call it on their critical paths.
#pragma once

#include <cstdint>

namespace formica::cuda {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

/// Inclusive prefix sum across the 32 lanes (Hillis-Steele, 5 shuffles).
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T value, int lane) {
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset <<= 1) {
    const T other = __shfl_up_sync(kFullMask, value, offset);
    if (lane >= offset) value += other;
  }
  return value;
}

/// Sum across the 32 lanes, returned to every lane.
template <typename T>
__device__ __forceinline__ T warp_sum(T value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
}

/// Index of the lowest set lane in `mask`, or -1.
__device__ __forceinline__ int first_lane(unsigned mask) { return __ffs(mask) - 1; }

/// Index of the highest set lane in `mask`, or -1.
__device__ __forceinline__ int last_lane(unsigned mask) { return 31 - __clz(mask); }

}  // namespace formica::cuda
