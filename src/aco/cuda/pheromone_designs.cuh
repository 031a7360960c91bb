// SPDX-License-Identifier: MIT
// The pheromone-update designs of Cecilia et al. (section 3.3, Table 4) and Zhou et al. (B.3)
// beside Uchida's two-kernel update (pheromone_update.cuh), behind one launcher:
//   atomic                    a thread per tour edge adds the ant's deposit with atomicAdd
//                             (Cecilia Figure 4, Zhou Algorithm B3), then an evaporation kernel;
//   atomic-tiled              the same, each block staging a tile of a tour in shared memory so a
//                             thread reads its edge's second city from there (Cecilia version 1);
//   scatter-gather            a thread per pheromone cell scans every edge of every tour, no
//                             atomics (Cecilia Figure 5, version 5): O(n^2 m n) work;
//   scatter-gather-tiled      the same with the edges staged tile by tile in shared memory (v. 4);
//   scatter-gather-reduction  tiled, over the upper triangle only, each thread writing tau_ij and
//                             tau_ji (Cecilia's symmetric "reduction", version 3).
// Every design sums the deposits as 64-bit fixed-point integers (the deposits of ant_lengths.cuh)
// and applies tau = (1 - rho) tau + sum / scale with the same float operations, so the designs
// keep each paper's memory-access structure yet give bit-identical, exactly symmetric matrices
// from run to run (integer addition is associative; float atomics would not be).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "aco/config.h"

namespace formica::aco::cuda {

struct PheromoneArgs {
  float* tau = nullptr;                    ///< ld x ld pheromone matrix
  int n = 0, ld = 0, m = 0;
  const int32_t* tours = nullptr;          ///< m x n visiting orders
  const int32_t* successors = nullptr;     ///< successors[i * m + k] (symmetrize)
  const unsigned long long* deposits = nullptr;  ///< scale / L_k per ant, fixed point
  unsigned long long* accumulator = nullptr;     ///< ld x ld, zero between updates (atomic designs)
  double rho = 0.5;
  double scale = 1.0;                      ///< fixed-point scale of the deposits
};

/// Cells of the 64-bit accumulator a design needs (ld * ld for the atomic designs, else 0).
size_t accumulator_cells(PheromoneUpdate design, int ld);

/// Evaporation and every ant's deposit on both directions of its edges, with `design`.
void launch_pheromone_design(PheromoneUpdate design, const PheromoneArgs& args, cudaStream_t stream);

// The designs' kernels, one file per family (atomic_deposit.cu, scatter_gather.cu).
/// accumulator[i][j] and [j][i] += deposit of every tour edge (i, j), by atomicAdd.
void launch_atomic_deposits(const PheromoneArgs& args, bool tiled, cudaStream_t stream);
/// tau = (1 - rho) tau + accumulator / scale over the whole matrix; the accumulator back to 0.
void launch_evaporate_and_apply(const PheromoneArgs& args, cudaStream_t stream);
/// Evaporation and deposits in one gather pass; `version` is one of the three scatter-gather designs.
void launch_scatter_gather(PheromoneUpdate version, const PheromoneArgs& args, cudaStream_t stream);

}  // namespace formica::aco::cuda
