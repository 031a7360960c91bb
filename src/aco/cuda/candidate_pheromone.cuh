// SPDX-License-Identifier: MIT
// The global pheromone update of MMAS, ACS and GACO over candidate entries, in one pass with
// the bounds and the fitness (aco/colony_rules.h gives the exact order): one thread per entry
// reads its edge's membership in each depositor tour from the successor / predecessor arrays, so
// no atomics and no search are needed and the matrix is the same from run to run. MMAS's
// evaporation of n x k entries costs one pass; it is folded into this same pass rather than
// into a global scale factor.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "aco/colony_rules.h"

namespace formica::aco::cuda {

struct CandidateUpdateArgs {
  int n = 0, width = 0, group = 1, matrices = 0;
  const int32_t* ids = nullptr;
  float* tau = nullptr;
  float* fitness = nullptr;
  const float* eta_beta = nullptr;
  const int* crossings = nullptr;  ///< GACO's deferred local update, or null
  const ColonyRecord* records = nullptr;
  const unsigned char* colony_acs = nullptr;
  const int32_t* next = nullptr;      ///< colonies x n
  const int32_t* previous = nullptr;  ///< colonies x n
  BoundsKind kind = BoundsKind::Mmas;
  double rho = 0.0, min_factor = 1.0, tau0 = 0.0, acs_rho = 0.1;
  long long nn_length = 1;
  float local_keep = 1.f, alpha = 1.f;
  Bounds* bounds_out = nullptr;  ///< per matrix, the interval applied
};

void launch_candidate_update(const CandidateUpdateArgs& args, cudaStream_t stream);

/// tau = value (the caller clamps it into the matrix's interval), fitness = tau^alpha eta^beta,
/// for `cells` entries.
void launch_fill_pheromone(float* tau, float* fitness, const float* eta_beta, size_t cells, float value, float alpha,
                           cudaStream_t stream);

}  // namespace formica::aco::cuda
