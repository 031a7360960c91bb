// SPDX-License-Identifier: MIT
// formica._core.lower_bound: the Held-Karp bound (bounds/held_karp.h) with the GIL released; Ctrl-C
// ends the ascent, and the bound of the penalties reached (still proven) comes back attached to
// the KeyboardInterrupt as `_formica_result`.
#include <atomic>
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "bounds/held_karp.h"
#include "bounds/penalised_edge.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/number_text.h"
#include "interruptible.h"
#include "solver/solver.h"  // kMaxThreads, kMaxTimeLimit

namespace formica::python {
namespace {

nb::dict lower_bound(const Instance& instance, std::optional<int64_t> iterations, std::optional<double> time_limit,
                     int threads) {
  FORMICA_EXPECTS(!iterations || *iterations > 0, "iterations must be a positive number, got ", *iterations);
  FORMICA_EXPECTS(!time_limit || (*time_limit > 0 && *time_limit <= kMaxTimeLimit), "time_limit must be in (0, ",
                  number_text(kMaxTimeLimit), "] seconds, got ", number_text(time_limit.value_or(0.0)));
  FORMICA_EXPECTS(threads >= 0, "threads must not be negative, got ", threads);
  FORMICA_EXPECTS(threads <= kMaxThreads, "threads must be at most ", kMaxThreads, " (0: all of this machine's), got ",
                  threads);
  bounds::BoundOptions options = bounds::requested_bound(instance.n(), iterations, time_limit, threads);
  std::atomic<bool> interrupt{false};
  options.interrupt = &interrupt;
  auto [bound, signal] = run_interruptibly([&] { return bounds::lower_bound(instance, options); }, interrupt);
  std::vector<double> penalties(bound.penalties.size());
  for (size_t i = 0; i < penalties.size(); ++i)
    penalties[i] = static_cast<double>(bound.penalties[i]) / static_cast<double>(bounds::kPenaltyScale);
  nb::dict out;
  out["bound"] = bound.bound;
  out["value"] = bound.value;
  out["is_optimum"] = bound.tour;
  out["iterations"] = bound.iterations;
  out["seconds"] = bound.seconds;
  out["method"] = bound.method;
  out["stop_reason"] = bound.stop_reason;
  out["penalties"] = to_numpy(std::move(penalties));
  out["fixed_edges"] = bound.fixed_edges == bounds::FixedEdgesInBound::Kept      ? "kept"
                       : bound.fixed_edges == bounds::FixedEdgesInBound::Ignored ? "ignored"
                                                                                 : "none";
  raise_with_result(signal, out);
  return out;
}

}  // namespace

void bind_bound(nb::module_& m) {
  m.def("lower_bound", &lower_bound, nb::arg("instance"), nb::arg("iterations").none(), nb::arg("time_limit").none(),
        nb::arg("threads"),
        "The Held-Karp lower bound of `instance`, proven over the complete graph; returns a dict: bound,\n"
        "value, is_optimum, iterations, seconds, method, stop_reason, penalties (float64, distance units).");
}

}  // namespace formica::python
