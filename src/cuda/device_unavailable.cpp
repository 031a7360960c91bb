// CPU-only builds: the CUDA backend was not compiled, so no device is ever reported.
#include "cuda/device.h"

namespace formica::cuda {

bool built_with_cuda() { return false; }
std::optional<DeviceInfo> find_device() { return std::nullopt; }
std::optional<size_t> device_memory_in_use() { return std::nullopt; }
void start_context() {}
void finish_context() noexcept {}

}  // namespace formica::cuda
