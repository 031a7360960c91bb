// SPDX-License-Identifier: MIT
// formica._core.solve_batch: many instances at once (batch/batch_solver.h) with the GIL released,
// a progress callback and Ctrl-C, as formica._core.solve runs one (run_interruptibly).
//
// The batch solver reports finished instances on its own thread; the binding keeps the latest
// count in atomics and the waiting thread, holding the GIL, calls `progress(done, total,
// seconds)` whenever it changed. On Ctrl-C (or an exception from `progress`) every instance stops
// within a kick and keeps its best tour; the exception is raised with the results attached as
// `_formica_result` (formica.solve_batch turns them into Results).
#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "batch/batch_parameters.h"
#include "batch/batch_solver.h"
#include "bindings.h"
#include "core/error.h"
#include "interruptible.h"

namespace formica::python {
namespace {

constexpr const char* kLimitKeys = "seed, time_limit, kicks, target, start";

/// Limit `name` of instance i as a T; formica.solve_batch checks the values first, and one that
/// still does not convert is named here rather than as a failed cast.
template <typename T>
T limit_value(const nb::handle& value, size_t i, const std::string& name) {
  T out{};
  if (!nb::try_cast(value, out))
    throw InputError(concat("instance ", i, ": ", name, " ", nb::str(nb::repr(value)).c_str(), " is not a ",
                            std::is_floating_point_v<T> ? "number" : "whole number", " formica can take"));
  return out;
}

/// Instance i's limits from a dict with any of the keys kLimitKeys (None: the batch's).
batch::InstanceLimits limits_of(const nb::handle& entry, size_t i) {
  batch::InstanceLimits limits;
  if (entry.is_none()) return limits;
  FORMICA_EXPECTS(nb::isinstance<nb::dict>(entry), "instance ", i, ": limits must be a dict (", kLimitKeys, ")");
  for (const auto& [key, value] : nb::borrow<nb::dict>(entry)) {
    const std::string name = limit_value<std::string>(key, i, "a limit's name");
    if (value.is_none()) continue;
    if (name == "seed")
      limits.seed = limit_value<uint64_t>(value, i, name);
    else if (name == "time_limit")
      limits.time_limit = limit_value<double>(value, i, name);
    else if (name == "kicks")
      limits.kicks = limit_value<int64_t>(value, i, name);
    else if (name == "target")
      limits.target = limit_value<int64_t>(value, i, name);
    else if (name == "start")
      limits.start = limit_value<std::vector<int32_t>>(value, i, "the start tour");
    else
      throw InputError(concat("instance ", i, ": unknown limit '", name, "' (valid: ", kLimitKeys, ")"));
  }
  return limits;
}

/// What ran for one instance: the batch's parameters, backend and walks resolved, and the
/// instance's own seed and limits.
std::string instance_config(batch::BatchConfig config, const batch::Batch& batch, const batch::BatchResult& result,
                            const batch::InstanceLimits& limits) {
  config.backend = batch.backend;
  config.walks = batch.walks;
  config.seed = result.seed;
  if (limits.time_limit) config.time_limit = limits.time_limit;
  if (limits.kicks) config.kicks = limits.kicks;
  nlohmann::json json = config.to_json();
  json["target"] = limits.target ? nlohmann::json(*limits.target) : nlohmann::json();
  return json.dump();
}

nb::list to_list(const batch::Batch& batch, const batch::BatchConfig& config,
                 const std::vector<batch::InstanceLimits>& limits) {
  nb::list out;
  for (size_t i = 0; i < batch.results.size(); ++i) {
    const batch::BatchResult& r = batch.results[i];
    nb::list history;
    for (const HistoryPoint& h : r.history) history.append(nb::make_tuple(h.iteration, h.seconds, h.length));
    nb::dict d;
    d["tour"] = to_numpy(std::vector<int32_t>(r.tour.order().begin(), r.tour.order().end()));
    d["length"] = r.tour.length();
    d["iterations"] = r.kicks;
    d["seconds"] = r.seconds;
    d["history"] = history;
    d["config"] = instance_config(config, batch, r, limits.empty() ? batch::InstanceLimits{} : limits[i]);
    d["backend"] = std::string(to_string(batch.backend));
    d["device"] = batch.device;
    d["stop_reason"] = r.stop_reason;
    d["seed"] = r.seed;
    d["walks"] = r.walks;
    out.append(d);
  }
  return out;
}

nb::list solve_batch(const nb::sequence& instance_list, const std::map<std::string, std::string>& parameters,
                     const nb::object& limit_list, const nb::object& progress) {
  std::vector<Instance> instances;
  for (const nb::handle item : instance_list) instances.push_back(nb::cast<const Instance&>(item));
  batch::BatchConfig config;
  for (const auto& [name, value] : parameters) batch::set_batch_parameter(config, name, value);
  std::vector<batch::InstanceLimits> limits;
  if (!limit_list.is_none()) {
    size_t i = 0;
    for (const nb::handle entry : nb::borrow<nb::sequence>(limit_list)) limits.push_back(limits_of(entry, i++));
  }
  batch::validate_batch(instances, config, limits);  // before the GIL is released: errors are plain ValueErrors

  std::atomic<bool> interrupt{false};
  std::atomic<int> done{0}, total{static_cast<int>(instances.size())};
  std::atomic<double> seconds{0.0};
  batch::BatchOptions options;
  options.interrupt = &interrupt;
  std::function<void()> poll;
  if (!progress.is_none()) {
    options.on_progress = [&](const batch::BatchProgress& p) {
      seconds = p.seconds;
      done = p.done;
    };
    poll = [&, reported = -1]() mutable {
      const int now = done.load();
      if (now == reported) return;
      reported = now;
      progress(now, total.load(), seconds.load());
    };
  }
  auto [batch, error] = run_interruptibly([&] { return batch::solve_batch(instances, config, limits, options); },
                                          interrupt, poll);
  nb::list out = to_list(batch, config, limits);
  raise_with_result(error, out);
  return out;
}

nb::list batch_parameter_list() {
  nb::list out;
  for (const batch::BatchParameter& p : batch::batch_parameters()) out.append(nb::make_tuple(python_name(p.name), p.help));
  return out;
}

nb::dict batch_parameter_kinds() {
  const nlohmann::json defaults = batch::BatchConfig{}.to_json();
  nb::dict out;
  for (const batch::BatchParameter& p : batch::batch_parameters()) {
    const std::string name = python_name(p.name);
    out[name.c_str()] = value_kind(defaults.contains(name) ? defaults[name] : nlohmann::json());
  }
  return out;
}

}  // namespace

void bind_batch(nb::module_& m) {
  m.def("solve_batch", &solve_batch, nb::arg("instances"), nb::arg("parameters"), nb::arg("limits").none(),
        nb::arg("progress").none(),
        "Solves every Instance of `instances` at once with the batch parameters given as text by name;\n"
        "`limits`, when not None, holds one dict (seed, time_limit, kicks, target, start) or None per instance;\n"
        "`progress`, when not None, is called as progress(done, total, seconds) as instances finish.\n"
        "Returns one dict per instance: tour, length, iterations (kicks), seconds, history, config (JSON\n"
        "text), backend, device, stop_reason, seed, walks.");
  m.def("batch_parameters", &batch_parameter_list, "Every batch parameter as (name, help), in table order.");
  m.def("batch_parameter_kinds", &batch_parameter_kinds,
        "Every batch parameter's kind by name, from its default: integer, number, boolean, text or null.");
}

}  // namespace formica::python
