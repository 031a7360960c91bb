// SPDX-License-Identifier: MIT
// Device discovery and context start-up for the CUDA backend.
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>

#include "cuda/check.cuh"
#include "cuda/device.h"

namespace formica::cuda {
namespace {

struct Startup {
  std::once_flag discovered, started;
  std::optional<DeviceInfo> device;
  std::shared_future<void> context;
  // Device 0's wait flags (set_wait_mode), applied by whichever comes second: the context's
  // creation (start_context) or set_wait_mode.
  std::mutex wait_mutex;
  bool context_made = false;
  std::optional<unsigned> wait_flags;
};

unsigned wait_flags(WaitMode mode) {
  return mode == WaitMode::Block ? cudaDeviceScheduleBlockingSync : cudaDeviceScheduleSpin;
}

Startup& startup() {
  static Startup s;
  return s;
}

}  // namespace

bool built_with_cuda() { return true; }

std::optional<DeviceInfo> find_device() {
  Startup& s = startup();
  std::call_once(s.discovered, [&s] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();  // clear the sticky "no device" error
      return;
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
    s.device = info;
  });
  return s.device;
}

int device_count() {
  if (!find_device()) return 0;
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

void use_device(int index) {
  const int count = device_count();
  if (index < 0 || index >= count)
    throw std::runtime_error("GPU " + std::to_string(index) + " asked for, but this process sees " +
                             std::to_string(count) + (count == 1 ? " GPU" : " GPUs"));
  CUDA_CHECK(cudaSetDevice(index));
}

std::optional<size_t> device_memory_in_use() {
  if (!find_device()) return std::nullopt;
  CUDA_CHECK(cudaSetDevice(0));
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return total_bytes - free_bytes;
}

void start_context() {
  Startup& s = startup();
  std::call_once(s.started, [&s] {
    s.context = std::async(std::launch::async, [] {
                  // Device 0's primary context: the one every host thread's runtime calls use.
                  if (find_device()) {
                    CUDA_CHECK(cudaSetDevice(0));
                    CUDA_CHECK(cudaFree(nullptr));
                    const std::lock_guard lock(startup().wait_mutex);
                    startup().context_made = true;
                    if (startup().wait_flags) CUDA_CHECK(cudaSetDeviceFlags(*startup().wait_flags));
                  }
                }).share();
  });
}

void set_wait_mode(WaitMode mode) {
  if (!find_device()) return;
  Startup& s = startup();
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (device != 0) {  // an island's own GPU, which start_context never touches
    CUDA_CHECK(cudaSetDeviceFlags(wait_flags(mode)));
    return;
  }
  const std::lock_guard lock(s.wait_mutex);
  s.wait_flags = wait_flags(mode);
  // A context under way takes the flags when it is made; else they go to the device now (and
  // create its context where none exists: the run is about to use it).
  if (s.context_made || !s.context.valid()) CUDA_CHECK(cudaSetDeviceFlags(*s.wait_flags));
}

void finish_context() noexcept {
  Startup& s = startup();
  if (!s.context.valid()) return;
  try {
    s.context.get();
  } catch (...) {
  }
}

}  // namespace formica::cuda
