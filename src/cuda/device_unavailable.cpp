// SPDX-License-Identifier: MIT
// CPU-only builds: the CUDA backend was not compiled, so no device is ever reported.
#include "cuda/device.h"

#include <stdexcept>
#include <string>

namespace formica::cuda {

bool built_with_cuda() { return false; }
std::optional<DeviceInfo> find_device() { return std::nullopt; }
int device_count() { return 0; }
void use_device(int index) {
  throw std::runtime_error("GPU " + std::to_string(index) + " asked for, but this build of formica has no CUDA backend");
}
std::optional<size_t> device_memory_in_use() { return std::nullopt; }
void start_context() {}
void finish_context() noexcept {}
void set_wait_mode(WaitMode) {}

}  // namespace formica::cuda
