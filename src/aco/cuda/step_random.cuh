// SPDX-License-Identifier: MIT
// The random numbers of one construction step as a pure function of (seed, iteration, ant, step,
// worker, round): Philox4x32-10 evaluated at a counter, nothing carried from step to step. A
// KE-ONE launch per step, a KE-ALL loop and the selection sampler therefore draw the same numbers
// for the same step, and a tour does not depend on how its steps were launched.
#pragma once

#include <cstdint>

#include "core/rng.h"

namespace formica::aco::cuda {

/// The key of one iteration's construction (the same mixing as the CPU's streams, another tag).
inline uint64_t step_key(uint64_t seed, uint64_t iteration) {
  constexpr uint64_t kConstructionTag = 0x5354;  // "ST"
  return derive_seed(derive_seed(seed, kConstructionTag), iteration);
}

struct StepRandom {
  uint64_t key;
  uint32_t ant;
  uint32_t step;  // 0 draws the start city, p the choice of position p

  /// Four random words for `worker` (a lane or thread) and its `round`-th group of four numbers.
  __device__ PhiloxBlock words(uint32_t worker, uint32_t round = 0) const {
    return philox4x32_10(PhiloxBlock{{worker, round, ant, step}}, key);
  }
  /// Uniform in [0, 1) with 24 bits (a roulette threshold).
  __device__ float uniform(uint32_t worker) const {
    return static_cast<float>(words(worker).v[0] >> 8) * (1.0f / 16777216.0f);
  }
  /// Four uniforms in (0, 1]: I-Roulette's numbers, whose product with a weight is 0 only when
  /// the weight is.
  __device__ float4 open_closed4(uint32_t worker, uint32_t round) const {
    const PhiloxBlock b = words(worker, round);
    constexpr float kUnit = 1.0f / 16777216.0f;
    return make_float4(static_cast<float>((b.v[0] >> 8) + 1) * kUnit, static_cast<float>((b.v[1] >> 8) + 1) * kUnit,
                       static_cast<float>((b.v[2] >> 8) + 1) * kUnit, static_cast<float>((b.v[3] >> 8) + 1) * kUnit);
  }
};

/// Component c (0-3) of a float4.
__device__ __forceinline__ float component(float4 v, int c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

/// Uniform in [0, 1) from 32 random bits: bit for bit 1 - curand_uniform of the same bits
/// (cuRAND's curand_uniform, bits * 2^-32 + 2^-33, is in (0, 1]).
__device__ __forceinline__ float uniform01(uint32_t bits) {
  constexpr float k2Pow32Inv = 2.3283064e-10f;  // cuRAND's CURAND_2POW32_INV
  return 1.0f - (bits * k2Pow32Inv + (k2Pow32Inv / 2.0f));
}

/// A random start city in [0, n) from one 32-bit draw (bias at most n / 2^32).
__device__ __forceinline__ int random_city(uint32_t draw, int n) {
  return static_cast<int>((static_cast<unsigned long long>(draw) * static_cast<unsigned>(n)) >> 32);
}

}  // namespace formica::aco::cuda
