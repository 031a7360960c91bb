// SPDX-License-Identifier: MIT
// MappedStop: a run's stop request as a flag in mapped host memory, which long kernels read while
// they run (between two moves, two rounds of children) and the host raises while it waits for
// their stream. Used where a kernel can outlast a run's deadline: GA-EAX's start climbs
// (localsearch/cuda/ant_local_search.cu) and its children (population/cuda/eax_children.cu).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <thread>

#include "core/search.h"
#include "cuda/check.cuh"

namespace formica::cuda {

class MappedStop {
 public:
  MappedStop() {
    CUDA_CHECK(cudaHostAlloc(&host_, sizeof(int), cudaHostAllocMapped));
    *host_ = 0;
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
  }
  ~MappedStop() { cudaFreeHost(host_); }
  MappedStop(const MappedStop&) = delete;
  MappedStop& operator=(const MappedStop&) = delete;

  /// What the kernels read: non-zero once the host raised the flag.
  const volatile int* device() const { return device_; }
  /// Lowers the flag before a launch.
  void reset() { *reinterpret_cast<volatile int*>(host_) = 0; }
  bool raised() const { return *reinterpret_cast<volatile int*>(host_) != 0; }

  /// Waits for `stream`, looking every `poll` and raising the flag once `stop` (when given) asks;
  /// false when it was raised (the kernels were cut off). Errors of the stream are thrown.
  bool wait(cudaStream_t stream, const StopFlag* stop, std::chrono::microseconds poll) {
    for (;;) {
      const cudaError_t state = cudaStreamQuery(stream);
      if (state == cudaSuccess) break;
      if (state != cudaErrorNotReady) CUDA_CHECK(state);
      if (stop != nullptr && !raised() && stop->requested()) *reinterpret_cast<volatile int*>(host_) = 1;
      std::this_thread::sleep_for(poll);
    }
    return !raised();
  }

 private:
  int* host_ = nullptr;
  int* device_ = nullptr;
};

}  // namespace formica::cuda
