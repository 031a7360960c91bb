// Device discovery for the CUDA backend.
#include "cuda/check.cuh"
#include "cuda/device.h"

namespace formica::cuda {

bool built_with_cuda() { return true; }

std::optional<DeviceInfo> find_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error
    return std::nullopt;
  }
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  DeviceInfo info;
  info.index = 0;
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.global_memory = prop.totalGlobalMem;
  size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  info.free_memory = free_bytes;
  return info;
}

}  // namespace formica::cuda
