// SPDX-License-Identifier: MIT
// The random start of a restart written on the device (Robinson et al. section 3.1: each block
// permutes its own tour): position q gets city RandomPermutation(n, key)(q), the same tour the host's
// random_start gives for the same key.
#pragma once

#include <cstdint>

#include "core/random_permutation.h"

namespace formica::localsearch::cuda {

/// Threads `first`, `first + stride`, ... write their positions of the start tour. Ends with the
/// warp reconverged (the permutation walks cycles a data-dependent number of times); the block
/// climber's barriers after it are the non-aligned ones of cuda/block_barrier.cuh, which is what
/// fixed the "illegal instruction" seen on an H200.
__device__ inline void write_random_start(int32_t* tour, int n, uint64_t key, int first, int stride) {
  const RandomPermutation permutation(static_cast<uint32_t>(n), key);
  for (int q = first; q < n; q += stride) tour[q] = static_cast<int32_t>(permutation(static_cast<uint32_t>(q)));
  __syncwarp();
}

/// Writes the random start of `key` into the device array `tour` (defined in restart_climb.cu).
void launch_random_start(int32_t* tour, int n, uint64_t key);

}  // namespace formica::localsearch::cuda
