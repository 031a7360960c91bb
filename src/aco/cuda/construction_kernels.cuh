// SPDX-License-Identifier: MIT
// What the construction strategies share inside the CUDA backend: the launchers of each
// strategy's kernels (one .cu file per strategy) and the device helpers their kernels use.
// TourConstruction (construction.cuh) is the only caller of the launchers.
#pragma once

#include <cuda_runtime.h>

#include "aco/config.h"
#include "aco/cuda/construction.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/warp_selection.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {

// Warp per ant (construction.cu).
void launch_warp_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream);

// Block per ant (block_per_ant.cu): KE-ALL, or KE-ONE as a start launch and one launch per step.
void launch_block_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream);
void prepare_block_per_ant_steps(Selection selection, const ConstructionArgs& args);
void launch_block_per_ant_start(const ConstructionArgs& args, cudaStream_t stream);
void launch_block_per_ant_step(Selection selection, const ConstructionArgs& args, int step, cudaStream_t stream);

// Thread per ant (thread_per_ant.cu).
void launch_thread_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream);

// STC and ST-DYNAMIC (tour_list.cu): `dynamic` lets the threads follow the unvisited count.
void launch_tour_list(Selection selection, bool dynamic, const ConstructionArgs& args, cudaStream_t stream);
void prepare_tour_list_steps(Selection selection, const ConstructionArgs& args);
void launch_tour_list_start(const ConstructionArgs& args, cudaStream_t stream);
void launch_tour_list_step(Selection selection, bool dynamic, const ConstructionArgs& args, int step,
                           cudaStream_t stream);

/// The arrays of a SharedLayout, carved from a block's dynamic shared memory.
struct SharedArrays {
  uint32_t* visited;
  int32_t* list;
  float* prefix;
  float* tiles;
};

__device__ inline SharedArrays carve(uint32_t* base, const SharedLayout& layout) {
  SharedArrays arrays;
  arrays.visited = base;
  arrays.list = reinterpret_cast<int32_t*>(base + layout.visited);
  arrays.prefix = reinterpret_cast<float*>(base + layout.visited + layout.list);
  arrays.tiles = arrays.prefix + layout.prefix;
  return arrays;
}

/// Where a step reads its rows.
inline RowSource row_source(const ConstructionArgs& a) {
  return {a.fitness, a.prefix, a.n, a.ld, search_top_stride(a.n), a.trials, a.alias, alias_index_bits(a.n)};
}

/// This iteration's StepRandom key: from device memory in a KE-ONE graph, else the argument.
__device__ inline uint64_t key_of(const ConstructionArgs& a) {
  return a.step_key_d != nullptr ? *a.step_key_d : a.step_key;
}

/// Ant k's start city: drawn at step 0 of its StepRandom (the same for every launch mode).
__device__ inline int start_city(const ConstructionArgs& a, uint64_t key, int ant) {
  return random_city(StepRandom{key, static_cast<uint32_t>(ant), 0}.words(0).v[0], a.n);
}

/// The step at which an ant switches to the unvisited index array: step 1 for compression, the
/// hybrid's switch point, never (n) for the others.
template <Selection kMethod>
__device__ __forceinline__ int index_array_step(const ConstructionArgs& a) {
  if (kMethod == Selection::Compression) return 1;
  if (kMethod == Selection::Hybrid) return max(a.switch_count, 1);
  return a.n;
}

/// Sets a kernel's dynamic shared-memory limit to `bytes` (needed above 48 KiB).
template <typename Kernel>
void allow_shared(Kernel kernel, size_t bytes) {
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace formica::aco::cuda
