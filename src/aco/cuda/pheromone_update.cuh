// SPDX-License-Identifier: MIT
// Uchida et al.'s pheromone update (section 4.3) in two kernels:
// PheromoneUpdateKernel: a block per row i reads tau_i* with coalesced access into shared memory,
// halved in advance and evaporated, then adds every ant's deposit on (i, t_k(i)) read from row i
// of the transposed successor arrays; SymmetrizeKernel: tau_ij = tau'_ij + tau'_ji through 32 x 32
// shared-memory tiles with one padding column, coalesced both ways.
//
// Deposits are summed as 64-bit fixed-point integers (shared-memory atomicAdd on integers is
// associative), so the matrix is bit-identical from run to run, unlike float atomics.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace formica::aco::cuda {

/// Shared memory the update kernel needs per row block; 0 if the device cannot hold it.
size_t pheromone_update_shared_bytes(int ld);

/// tau'_ij = (1 - rho) tau_ij / 2 + (1 / scale) * sum of deposits[k] over ants k with t_k(i) = j.
void launch_pheromone_update(float* tau, int n, int ld, int m, const int32_t* successors,
                             const unsigned long long* deposits, double rho, double scale, cudaStream_t stream);

/// tau_ij = tau'_ij + tau'_ji for the whole ld x ld matrix.
void launch_symmetrize(float* tau, int ld, cudaStream_t stream);

}  // namespace formica::aco::cuda
