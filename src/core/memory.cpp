// SPDX-License-Identifier: MIT
// Available memory and the memory check (see memory.h).
#include "core/memory.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "core/error.h"

namespace formica {
namespace {

std::optional<size_t> limit_override() {
  const char* text = std::getenv("FORMICA_MEMORY_LIMIT_MB");
  if (text == nullptr || *text == '\0') return std::nullopt;
  size_t megabytes = 0;
  const std::string_view view(text);
  const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), megabytes);
  FORMICA_EXPECTS(ec == std::errc() && end == view.data() + view.size(), "FORMICA_MEMORY_LIMIT_MB: '", view,
                  "' is not a whole number of MiB");
  return megabytes << 20;
}

}  // namespace

std::optional<size_t> available_host_memory() {
  std::optional<size_t> available;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  size_t kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") {
      available = kilobytes << 10;
      break;
    }
  const std::optional<size_t> limit = limit_override();
  if (limit && (!available || *limit < *available)) available = limit;
  return available;
}

size_t capped_memory(size_t free_bytes) {
  const std::optional<size_t> limit = limit_override();
  return limit && *limit < free_bytes ? *limit : free_bytes;
}

std::string format_bytes(size_t bytes) {
  char text[32];
  if (bytes < (size_t{1} << 20))
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  else if (bytes < (size_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  else
    std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
  return text;
}

void expect_memory(size_t need, std::optional<size_t> available, const std::string& what) {
  if (available && need > *available)
    throw OutOfMemoryError(concat(what, " needs ", format_bytes(need), " but only ", format_bytes(*available),
                                  " are available"));
}

}  // namespace formica
