// SPDX-License-Identifier: MIT
// libFuzzer target: the TSPLIB .tsp reader (io::parse_tsplib, the code read_tsplib runs on a
// file's text) over every section and EDGE_WEIGHT_FORMAT, then the distance code on what it read.
//
// An InputError is the reader doing its job; OutOfMemoryError is the memory plan refusing an
// instance. Anything else that escapes, and every sanitizer report, is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/tour.h"
#include "io/tsplib.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const formica::Instance instance = formica::io::parse_tsplib(text, "fuzz.tsp");
    const int n = instance.n();
    // Distances between the first cities and from each of them to the last ones: every pair of
    // extreme coordinates the input can hold meets somewhere in the first or last 16.
    const int k = std::min(n, 16);
    int64_t sum = 0;
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) sum += instance.distance(i, j) + instance.distance(i, n - 1 - j);
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    formica::validate_permutation(order, n);
    const int64_t length = formica::tour_length(instance, order);
    if (length < 0 || sum < 0) __builtin_trap();  // lengths are sums of non-negative distances
  } catch (const formica::InputError&) {
  } catch (const formica::OutOfMemoryError&) {
  }
  return 0;
}
