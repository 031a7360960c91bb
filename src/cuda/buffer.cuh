// SPDX-License-Identifier: MIT
// DeviceBuffer<T>: an owning, move-only cudaMalloc'd array.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "cuda/check.cuh"

namespace formica::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count > 0) CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return count_; }

  void upload(std::span<const T> host, cudaStream_t stream = nullptr) {
    CUDA_CHECK(cudaMemcpyAsync(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::vector<T> download(cudaStream_t stream = nullptr) const {
    std::vector<T> host(count_);
    CUDA_CHECK(cudaMemcpyAsync(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
  }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace formica::cuda
