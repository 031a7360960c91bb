// SPDX-License-Identifier: MIT
// How much memory there is, and the one check every large allocation goes through: an instance
// that does not fit gets an OutOfMemoryError (exit code 3) naming what needed how much, before
// anything is allocated, never a crash.
//
// FORMICA_MEMORY_LIMIT_MB, when set, caps the memory formica believes it has, host and device
// alike: a test hook, and a way to keep a run inside a budget.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace formica {

/// Host memory available now (Linux MemAvailable), capped by FORMICA_MEMORY_LIMIT_MB; nullopt
/// when neither is known.
std::optional<size_t> available_host_memory();

/// `free_bytes` capped by FORMICA_MEMORY_LIMIT_MB (for device memory).
size_t capped_memory(size_t free_bytes);

/// "12.3 MiB" and the like.
std::string format_bytes(size_t bytes);

/// Throws OutOfMemoryError "<what> needs X but only Y are available" when need > available.
void expect_memory(size_t need, std::optional<size_t> available, const std::string& what);

}  // namespace formica
