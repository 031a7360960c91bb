// SPDX-License-Identifier: MIT
// CUDA_CHECK: every CUDA runtime call goes through it; a failure becomes an exception naming the
// call's file and line (OutOfMemoryError for allocation failures, so the CLI exits with 3).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

#include "core/error.h"

namespace formica::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* what, const char* file,
                                          int line) {
  const std::string message =
      concat("CUDA error at ", file, ":", line, ": ", what, ": ", cudaGetErrorString(status));
  if (status == cudaErrorMemoryAllocation) throw OutOfMemoryError(message);
  throw std::runtime_error(message);
}

}  // namespace formica::cuda

#define CUDA_CHECK(call)                                                            \
  do {                                                                              \
    const cudaError_t formica_status_ = (call);                                     \
    if (formica_status_ != cudaSuccess)                                             \
      ::formica::cuda::throw_cuda_error(formica_status_, #call, __FILE__, __LINE__); \
  } while (false)

/// Checks the last kernel launch (configuration errors surface here, faults at the next sync).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
