// SPDX-License-Identifier: MIT
// The host memory one thread's Held-Karp ascent and the alpha-nearest lists built from it hold at
// their peak, against kAscentBytesPerCity, which memory plans count for an ascent that runs beside
// a search. In memory_plan_tests (label `uninstrumented`): a sanitizer's shadow memory is no part
// of the plan, so the sanitizer runs leave it out.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "bounds/alpha_nearness.h"
#include "bounds/held_karp.h"
#include "io/generator.h"

namespace formica::bounds {
namespace {

/// A field of /proc/self/status in KiB ("VmHWM", "VmRSS"), -1 where it cannot be read.
int64_t status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  return -1;
}

TEST(AscentMemory, AnAscentAndItsListsHoldAtMostThePlannedBytesPerCity) {
  const Instance instance = io::generate_instance(20000, io::InstanceKind::Uniform, 1);
  // Writing 5 to clear_refs resets the peak resident set (VmHWM) to the resident set now; where it
  // cannot, the peak since the process started counts too, which only makes the check stricter
  // (ctest runs this test in a process of its own, and the binary's other test solves in children).
  std::ofstream("/proc/self/clear_refs") << "5";
  const int64_t before = status_kib("VmRSS");
  ASSERT_GE(before, 0) << "/proc/self/status has no VmRSS";
  BoundOptions options;
  options.threads = 1;
  options.iterations = 50;  // the ascent allocates everything before its first iteration
  const LowerBound bound = lower_bound(instance, options);
  const CandidateLists lists = alpha_candidate_lists(instance, bound, 5, 1);
  ASSERT_EQ(lists.k(), 5);
  const double bytes = 1024.0 * static_cast<double>(status_kib("VmHWM") - before);
  EXPECT_LE(bytes, static_cast<double>(kAscentBytesPerCity) * instance.n())
      << bytes / instance.n() << " bytes a city";
}

}  // namespace
}  // namespace formica::bounds
