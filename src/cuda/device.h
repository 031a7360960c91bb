// The CUDA device formica runs on, as seen from host code that includes no CUDA headers.
// In a build without CUDA, no device is ever reported.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace formica::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;      // compute capability
  int multiprocessors = 0;
  size_t global_memory = 0;      // bytes
  size_t free_memory = 0;        // bytes free when queried
};

/// True if this build contains the CUDA backend.
bool built_with_cuda();

/// The first usable CUDA device, or nullopt (no driver, no device, or a CPU-only build).
std::optional<DeviceInfo> find_device();

}  // namespace formica::cuda
