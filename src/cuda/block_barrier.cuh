// Block barriers that reconverge the warp first. __syncthreads() is an aligned barrier: every
// thread of a warp must reach it together. After a branch such as `if (tid == 0) { ... }` ptxas
// does not always emit the reconvergence itself (seen in the block-per-tour 2-opt kernel on an
// H200: synccheck "divergent thread(s) in warp" at the barrier after thread 0's stop poll, then
// warps on different barriers and "illegal instruction"), so these barriers say it explicitly.
// Every thread of the block must call them, as with __syncthreads().
#pragma once

namespace formica::cuda {

__device__ __forceinline__ void block_barrier() {
  __syncwarp();
  __syncthreads();
}

/// __syncthreads_count(predicate) after reconverging the warp.
__device__ __forceinline__ int block_barrier_count(bool predicate) {
  __syncwarp();
  return __syncthreads_count(predicate);
}

}  // namespace formica::cuda
