// SPDX-License-Identifier: MIT
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
};

/// True if this build contains the CUDA backend.
bool built_with_cuda();

/// The first usable CUDA device, or nullopt (no driver, no device, or a CPU-only build). Asks the
/// driver once per process; it creates no CUDA context.
std::optional<DeviceInfo> find_device();

/// CUDA devices this process may use (0 without a driver or in a CPU-only build): the host's GPUs,
/// or those CUDA_VISIBLE_DEVICES names.
int device_count();

/// Makes device `index` (0 <= index < device_count()) the calling thread's: every later runtime
/// call of the thread, and every search it builds, runs there (an island of --gpus). Throws
/// std::runtime_error for an index out of range.
void use_device(int index);

/// Bytes of the device's memory in use (total minus free, every process's and every context's), or
/// nullopt without a device. Creates device 0's context if none exists yet. For leak checks: a
/// soak reads it before and after many solves on a device it has to itself.
std::optional<size_t> device_memory_in_use();

/// Starts creating the device's CUDA context on a thread of its own and returns at once (later
/// calls do nothing). A fresh process on the H200 machine spends about 0.1 s there; the CLI reads
/// the instance and the search prepares its lists and start tour meanwhile.
void start_context();

/// Waits for a context start under way, if any, and drops its error: a process must not exit
/// while the driver is still creating the context (main's last step), and a run on a budget
/// nobody named waits for it before its budget starts (solver.cpp).
void finish_context() noexcept;

/// How host threads wait for the device's work (cudaStreamSynchronize, cudaMemcpy ...): Spin keeps
/// the waiting thread on its core (the runtime's default with fewer contexts than cores: the
/// shortest latency), Block puts it to sleep until the GPU is done (cudaDeviceScheduleBlockingSync:
/// a few microseconds more per wait, and the core goes to the host threads beside the GPU search).
enum class WaitMode { Spin, Block };

/// Sets how every host thread waits for the calling thread's device, from the next wait on: the
/// flags of the device's primary context. A context that start_context is still creating gets them
/// once it exists, without waiting for it here. Nothing in a build without CUDA or without a device.
void set_wait_mode(WaitMode mode);

/// Seconds between a process's exit and its end when it holds a CUDA context: the driver releases
/// the context (its memory mappings) as the process ends, before a parent waiting on it resumes.
/// Measured on the H100 machine (driver 580): 0.09 to 0.16 s with the driver API alone (a primary
/// context, 1 MiB allocated, then _exit), and GPU runs of 10 to 200,000 cities ended 0.10 to 0.15 s
/// after the solver's own time; a command line's --time-limit, which counts until the process has
/// ended, leaves it free (SolveOptions::gpu_exit_seconds).
inline constexpr double kContextReleaseSeconds = 0.15;

}  // namespace formica::cuda
