// SPDX-License-Identifier: MIT
// Machine-readable reports of a run: the JSON document `formica solve --json` writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/instance.h"
#include "solver/solver.h"

namespace formica {

/// Gap of `length` above `optimum` in percent.
inline double gap_percent(int64_t length, int64_t optimum) {
  return 100.0 * static_cast<double>(length - optimum) / static_cast<double>(optimum);
}

/// The run as JSON: instance, n, algorithm, backend, device, ranks, gpus, transport (null with one
/// rank) and exchanges (solver/islands.h), every parameter as it ran (Result::config),
/// iterations, seconds, best length, gap (if the optimum is known), the 0-based tour and the
/// best-so-far history; and the route: open (a path), start and end (0-based, null when free),
/// asymmetric (a directed tour of an ATSP matrix).
std::string result_json(const Instance& instance, const Result& result, std::optional<int64_t> optimum);

/// Who found the improvements (Result::credits), as the report's "found_by": {"first_length",
/// "search" (the run's own search, e.g. "mmas on the CPU"), "gains" and "shares" (each finder's
/// key: search, host_lin_kernighan, host_eax, merges, other_ranks, polish)}; null before the
/// search had a tour. The Python package's Result.found_by is the same.
nlohmann::json found_by_json(const Result& result);
/// Who found the improvements (Result::credits), on one line: "improvements from 1234 to 1200:
/// mmas on the GPU 62.0 %, host GA-EAX 30.1 %, merges 7.9 %" (the run's own search always, the
/// others where they found something); empty before the search had a tour.
std::string found_by_line(const Result& result);
/// The same for a problem named `name` of `n` cities with `edge_weight_type` ("EXPLICIT" for an
/// ATSP matrix), which need not be an Instance.
std::string result_json(std::string_view name, int n, std::string_view edge_weight_type, const Result& result,
                        std::optional<int64_t> optimum);

}  // namespace formica
