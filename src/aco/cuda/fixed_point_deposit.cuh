// SPDX-License-Identifier: MIT
// The one formula every fixed-point pheromone design applies: tau' = (1 - rho) tau + sum / scale,
// with rounding fixed by intrinsics (no contraction into an FMA that one kernel might get and
// another not), so that every design gives the same bits.
#pragma once

namespace formica::aco::cuda {

__device__ __forceinline__ float apply_deposits(float tau, unsigned long long sum, float keep, double inverse_scale) {
  return __fadd_rn(__fmul_rn(tau, keep), static_cast<float>(static_cast<double>(sum) * inverse_scale));
}

}  // namespace formica::aco::cuda
