// SPDX-License-Identifier: MIT
// Event: a CUDA event that destroys itself, and the milliseconds between two of them (phase
// timings of the GPU searches).
#pragma once

#include <cuda_runtime.h>

#include "cuda/check.cuh"

namespace formica::cuda {

struct Event {
  cudaEvent_t event{};
  Event() { CUDA_CHECK(cudaEventCreate(&event)); }
  ~Event() { cudaEventDestroy(event); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

inline float elapsed_ms(const Event& from, const Event& to) {
  float ms = 0.f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from.event, to.event));
  return ms;
}

}  // namespace formica::cuda
