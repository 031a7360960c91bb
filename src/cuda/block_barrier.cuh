// SPDX-License-Identifier: MIT
// Block barriers that stay correct when a warp arrives diverged. __syncthreads() is the aligned
// barrier (bar.sync): the first threads of a warp to reach it count for the whole warp, so it needs
// the warp converged. After a branch such as `if (tid == 0) { poll the stop flag }` ptxas does not
// always reconverge the warp before the barrier (and drops a __syncwarp() placed there): in the
// block-per-tour 2-opt kernel on an H200 this gave synccheck "divergent thread(s) in warp", then
// warps one barrier apart and "illegal instruction" at __syncthreads_count. The non-aligned forms
// (PTX barrier.sync / barrier.red, sm_70+) count threads, not warps, and are defined for diverged
// warps. Every thread of the block must call them, as with __syncthreads().
#pragma once

namespace formica::cuda {

__device__ __forceinline__ void block_barrier() { asm volatile("barrier.sync 0;" ::: "memory"); }

/// The number of threads of the block whose `predicate` is true (as __syncthreads_count).
__device__ __forceinline__ int block_barrier_count(bool predicate) {
  int count;
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tbarrier.red.popc.u32 %0, 0, p;\n\t}"
      : "=r"(count)
      : "r"(static_cast<unsigned>(predicate))
      : "memory");
  return count;
}

}  // namespace formica::cuda
