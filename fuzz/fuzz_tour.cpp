// SPDX-License-Identifier: MIT
// libFuzzer target: the TSPLIB .tour reader (io::parse_tour, the code read_tour runs on a file's
// text), then the checks `formica verify` applies against a small instance: is it a permutation,
// and its exact length.
//
// An InputError is the reader or the check doing its job; anything else that escapes, and every
// sanitizer report, is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/instance.h"
#include "core/tour.h"
#include "io/tsplib.h"

namespace {

/// Five cities on a small grid: tours of it can be valid, and most inputs are not.
const formica::Instance& small_instance() {
  static const formica::Instance instance("five", formica::EdgeWeightType::Euc2D, {0, 10, 10, 0, 5},
                                          {0, 0, 10, 10, 5});
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<int32_t> order = formica::io::parse_tour(text, "fuzz.tour");
    const formica::Instance& instance = small_instance();
    formica::validate_permutation(order, instance.n());
    const formica::Tour tour(instance, std::move(order));
    if (tour.length() <= 0) __builtin_trap();  // five distinct cities: every tour has a length
  } catch (const formica::InputError&) {
  }
  return 0;
}
