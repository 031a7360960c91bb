// Tour construction on the GPU: every ant builds a whole tour in one launch (KE-ALL in Zhou et
// al.'s terms), either one warp or one block per ant, with any of the four selection methods of
// Uchida et al. Tours come out as order arrays (tours[k * n + p]); the length kernel turns them
// into the successor arrays of Uchida's Figure 5 (ant_lengths.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "aco/config.h"

namespace formica::aco::cuda {

struct ConstructionArgs {
  int n = 0;                    ///< cities
  int ld = 0;                   ///< row stride of the dense matrices, a multiple of 32
  int m = 0;                    ///< ants
  const float* fitness = nullptr;  ///< f_ij, ld x ld, zero past column n
  const float* prefix = nullptr;   ///< q'_ij per row (stochastic trial, hybrid), or null
  const float* summary = nullptr;  ///< every 32nd q'_ij per row (summary_stride(ld) per row), or null
  int32_t* tours = nullptr;        ///< m x n visiting orders
  int32_t* scratch = nullptr;      ///< m x n unvisited index arrays (warp compression, hybrid)
  unsigned long long seed = 0;     ///< cuRAND Philox seed
  unsigned long long iteration = 0;
  int trials = 8;                  ///< w
  int switch_count = 0;            ///< hybrid: visited cities at which compression takes over
  int shared_words_per_warp = 0;   ///< warp-per-ant: 32-bit words of shared memory per warp
  bool index_in_shared = false;    ///< warp-per-ant: unvisited index array in shared memory
};

/// Lays out warp-per-ant shared memory: the visited bitmask, plus the unvisited index array
/// when it fits in `shared_limit` bytes per block (else it lives in global scratch).
void plan_warp_memory(Selection selection, ConstructionArgs& args, size_t shared_limit);

/// Ints of global scratch the construction needs (0 when none).
size_t construction_scratch_ints(Construction construction, Selection selection, int n, int m);

/// Bytes of dynamic shared memory a block-per-ant construction needs for n cities.
size_t block_per_ant_shared_bytes(Selection selection, int n, int ld);

/// Launches the construction of all m tours on `stream`.
void launch_construction(Construction construction, Selection selection, const ConstructionArgs& args,
                         cudaStream_t stream);

}  // namespace formica::aco::cuda
