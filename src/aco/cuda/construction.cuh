// SPDX-License-Identifier: MIT
// Tour construction on the GPU, every strategy behind one launcher: a warp per ant (formica's
// fast form), a block per ant (Cecilia et al.'s queen and workers, Zhou et al.'s ST-GROUP), a
// thread per ant (task parallelism, Cecilia 3.1.2), and Zhou's STC and ST-DYNAMIC over a tour
// list, each launched as KE-ALL (one launch builds whole tours) or, where the strategy keeps its
// state between launches, KE-ONE (one launch per step, replayed from a CUDA graph). Tours come out
// as order arrays (tours[k * n + p]); the length kernel turns them into the successor arrays of
// Uchida's Figure 5 (ant_lengths.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "aco/config.h"

namespace formica::aco::cuda {

/// Dynamic shared memory of the block strategies, in 4-byte words, laid out in this order.
struct SharedLayout {
  int visited = 0;  ///< the visited bitmask: ld / 32 words (block-per-ant; thread-per-ant: one per ant)
  int list = 0;     ///< ld ints: STC's tour list, or block-per-ant's unvisited index array (KE-ALL)
  int prefix = 0;   ///< roulette prefix sums (ld), or tile roulette's tile prefix (threads)
  int tiles = 0;    ///< tile roulette's scratch
  __host__ __device__ size_t bytes() const { return 4u * static_cast<size_t>(visited + list + prefix + tiles); }
};

struct ConstructionArgs {
  int n = 0;                    ///< cities
  int ld = 0;                   ///< row stride of the dense matrices, a multiple of 32
  int m = 0;                    ///< ants
  const float* fitness = nullptr;  ///< f_ij, ld x ld, zero past column n
  const float* prefix = nullptr;   ///< q'_ij per row (stochastic trial, hybrid), or null
  const uint32_t* alias = nullptr; ///< alias tables per row (warp-per-ant trials up to kAliasRowLimit), or null
  int32_t* tours = nullptr;        ///< m x n visiting orders
  int32_t* scratch = nullptr;      ///< m x n unvisited index arrays (warp compression; KE-ONE block compression)
  uint32_t* visited = nullptr;     ///< KE-ONE block-per-ant: m x ld / 32 visited words between launches
  unsigned long long seed = 0;     ///< cuRAND Philox seed (warp-per-ant)
  unsigned long long iteration = 0;
  unsigned long long step_key = 0;               ///< StepRandom key of this iteration (KE-ALL)
  const unsigned long long* step_key_d = nullptr;  ///< the same key in device memory, read by KE-ONE graphs
  int trials = 8;                  ///< w
  int switch_count = 0;            ///< hybrid: visited cities at which compression takes over
  int shared_words_per_warp = 0;   ///< warp-per-ant: 32-bit words of shared memory per warp
  bool index_in_shared = false;    ///< warp-per-ant: unvisited index array in shared memory
  int block_size = 0;              ///< threads per block (block strategies), ants per block (thread-per-ant)
  SharedLayout layout;             ///< dynamic shared memory of the block strategies
};

/// Lays out warp-per-ant shared memory: the visited bitmask, plus the unvisited index array
/// when it fits in `shared_limit` bytes per block (else it lives in global scratch).
void plan_warp_memory(Selection selection, ConstructionArgs& args, size_t shared_limit);

/// The shared-memory layout of `plan`'s block strategy for rows of ld entries (empty for warp-per-ant).
SharedLayout shared_layout(const GpuPlan& plan, int ld);

/// Runs a plan's construction: one kernel (KE-ALL), or for KE-ONE a CUDA graph of one launch per
/// step, captured on the first launch and replayed after (it reads the iteration's key from
/// args.step_key_d, so every other argument must stay the same between launches).
class TourConstruction {
 public:
  /// Throws InputError when the plan's shared memory does not fit this GPU at n cities.
  TourConstruction(const GpuPlan& plan, int n, int ld, int m);
  ~TourConstruction();
  TourConstruction(const TourConstruction&) = delete;
  TourConstruction& operator=(const TourConstruction&) = delete;

  /// Ints of global scratch `plan` needs for m ants on n cities (rows of ld): index arrays for
  /// compression and hybrid selection, visited bits for KE-ONE.
  static size_t scratch_ints(const GpuPlan& plan, int n, int ld, int m);
  size_t scratch_ints() const { return scratch_ints(plan_, n_, ld_, m_); }
  /// Points args at `scratch` (scratch_ints() ints) and fills the plan's launch fields.
  void bind(ConstructionArgs& args, int32_t* scratch) const;
  void launch(const ConstructionArgs& args, cudaStream_t stream);

 private:
  void launch_steps(const ConstructionArgs& args, cudaStream_t stream) const;

  GpuPlan plan_;
  int n_, ld_, m_;
  SharedLayout layout_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace formica::aco::cuda
