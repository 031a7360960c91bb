// SPDX-License-Identifier: MIT
// The fitness matrix f_ij = tau_ij^alpha * eta_ij^beta (Uchida et al. Eq. 1; Cecilia et al.'s
// choice_info), recomputed on the GPU every iteration, row-major so that a row is read with
// coalesced access; optionally the per-row prefix sums q'_ij that stochastic trial searches
// (Uchida Eq. 9), formed in the same pass with CUB BlockScan.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace formica::aco::cuda {

/// eta_beta[i][j] = (1 / d_ij)^beta for i != j inside [0, n), 0 on the diagonal and in the
/// padding (d = 0 counts as 0.5, as on the CPU: aco::heuristic).
void launch_heuristic(const int32_t* distances, float* eta_beta, int n, int ld, double beta, cudaStream_t stream);

/// fitness = tau^alpha * eta_beta for rows [0, n); prefix (if not null) = row-wise inclusive sums,
/// with the padding columns holding the row total.
void launch_fitness(const float* tau, const float* eta_beta, float* fitness, float* prefix, int n, int ld,
                    double alpha, cudaStream_t stream);

/// Sets every entry of an ld x ld matrix to `value`.
void launch_fill(float* matrix, int ld, float value, cudaStream_t stream);

}  // namespace formica::aco::cuda
