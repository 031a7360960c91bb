// SPDX-License-Identifier: MIT
// formica._core.solve: runs the solver with the GIL released and turns Ctrl-C into a clean stop.
// Beside it, parameters() and backend_info(): what solve accepts and where backend="auto" runs.
//
// The solver runs through run_interruptibly (interruptible.h): when a signal handler raises
// (KeyboardInterrupt for Ctrl-C), the solver stops within a step and returns its best tour, and
// the exception is raised with that result attached as `_formica_result` (formica.solve turns it
// into `result`).
#include <atomic>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "interruptible.h"
#include "core/asymmetric.h"
#include "core/error.h"
#include "core/instance.h"
#include "io/instance_source.h"
#include "cuda/device.h"
#include "solver/parameters.h"
#include "solver/portfolio.h"
#include "solver/report.h"
#include "solver/route_solver.h"
#include "solver/solver.h"

namespace formica::python {
namespace {

nb::dict to_dict(const Result& result) {
  nb::list history;
  for (const HistoryPoint& h : result.history) history.append(nb::make_tuple(h.iteration, h.seconds, h.length));
  nb::dict out;
  out["tour"] = to_numpy(std::vector<int32_t>(result.tour.order().begin(), result.tour.order().end()));
  out["length"] = result.tour.length();
  out["iterations"] = result.iterations;
  out["seconds"] = result.seconds;
  out["history"] = history;
  out["config"] = parameters_json(result.config).dump();
  out["found_by"] = found_by_json(result).dump();
  out["backend"] = std::string(to_string(result.backend));
  out["device"] = result.device;
  out["stop_reason"] = result.stop_reason;
  nb::dict phases;
  phases["setup"] = result.phase_seconds.setup;
  phases["search"] = result.phase_seconds.search;
  phases["finish"] = result.phase_seconds.finish;
  phases["polish"] = result.phase_seconds.polish;
  out["phase_seconds"] = phases;
  return out;
}

/// The ends as Python names them: 0-based start_city= and end_city=.
PathEnds python_ends(bool open, std::optional<int64_t> start, std::optional<int64_t> end) { return {open, start, end}; }
const PathEndNames kPythonNames{"start_city=", "end_city=", 0};

nb::dict solve_instance(const Instance& instance, const std::map<std::string, std::string>& parameters,
                        const std::optional<Vector<int32_t>>& initial_tour, const nb::object& callback) {
  SolverConfig config;
  for (const auto& [name, value] : parameters) set_parameter(config, name, value);
  std::atomic<bool> interrupt{false};
  SolveOptions options;
  options.interrupt = &interrupt;
  // The callback runs on the solver's thread, which takes the GIL for it (the calling thread waits
  // without it); an exception it raises stops the run and is raised here, the result attached.
  std::optional<nb::python_error> raised;
  if (!callback.is_none())
    options.on_improvement = [&](std::span<const int32_t> tour, int64_t length, double seconds) {
      nb::gil_scoped_acquire gil;
      if (raised) return false;
      try {
        const nb::object answer = callback(to_numpy(std::vector<int32_t>(tour.begin(), tour.end())), length, seconds);
        return !answer.is(nb::handle(Py_False));
      } catch (nb::python_error& e) {
        raised.emplace(std::move(e));
        return false;
      }
    };
  std::vector<int32_t> start;
  if (initial_tour) start.assign(initial_tour->data(), initial_tour->data() + initial_tour->shape(0));
  // Fixed edges are kept through their transformation (solver/route_solver.h); other instances
  // are solved as they are.
  std::optional<RouteProblem> fixed;
  if (!instance.fixed_edges().empty()) fixed.emplace(instance, PathEnds{}, kPythonNames);
  const ResolvedRequest resolved =
      fixed ? fixed->resolve(config, std::move(start)) : resolve_request(instance, config, std::move(start));
  auto [result, signal] = run_interruptibly(
      [&] { return fixed ? fixed->solve(resolved, options) : solve(instance, resolved, options); }, interrupt);
  nb::dict out = to_dict(result);
  raise_with_result(signal, out);
  raise_with_result(raised, out);
  return out;
}

/// Runs `problem` as solve_instance does (no initial tour: routes refuse one).
nb::dict solve_problem(const RouteProblem& problem, const std::map<std::string, std::string>& parameters) {
  SolverConfig config;
  for (const auto& [name, value] : parameters) set_parameter(config, name, value);
  std::atomic<bool> interrupt{false};
  SolveOptions options;
  options.interrupt = &interrupt;
  auto [result, signal] = run_interruptibly([&] { return problem.solve(config, options); }, interrupt);
  nb::dict out = to_dict(result);
  raise_with_result(signal, out);
  return out;
}


nb::dict solve_path(const Instance& instance, const std::map<std::string, std::string>& parameters, bool open,
                    std::optional<int64_t> start, std::optional<int64_t> end) {
  return solve_problem(RouteProblem(instance, python_ends(open, start, end), kPythonNames), parameters);
}

nb::dict solve_asymmetric(const std::string& name, const Matrix<int32_t>& matrix,
                          const std::map<std::string, std::string>& parameters, bool open,
                          std::optional<int64_t> start, std::optional<int64_t> end) {
  const AsymmetricMatrix weights = io::asymmetric_from_matrix(name, as_view(matrix));
  return solve_problem(RouteProblem(weights, python_ends(open, start, end), kPythonNames), parameters);
}

/// A TSPLIB file's problem: the Instance, or for an ATSP file (name, matrix as an (n, n) int32 array).
nb::object load_problem(const nb::bytes& spec) {
  const std::string path = path_argument(spec);
  io::TsplibProblem problem = [&] {
    nb::gil_scoped_release release;  // a FIFO's writer may be a Python thread of this process
    return io::load_problem(path);
  }();
  if (auto* instance = std::get_if<Instance>(&problem)) return nb::cast(std::move(*instance));
  const auto& matrix = std::get<AsymmetricMatrix>(problem);
  const auto n = static_cast<size_t>(matrix.n());
  return nb::make_tuple(matrix.name(), to_numpy(std::vector<int32_t>(matrix.weights().begin(), matrix.weights().end()), {n, n}));
}

nb::list parameter_list() {
  nb::list out;
  for (const Parameter& p : parameters()) out.append(nb::make_tuple(python_name(p.name), std::string(p.help)));
  return out;
}

nb::dict parameter_kinds() {
  const SolverConfig defaults;
  nb::dict out;
  for (const Parameter& p : parameters()) out[python_name(p.name).c_str()] = value_kind(p.get(defaults));
  return out;
}

nb::dict backend_info() {
  const std::optional<cuda::DeviceInfo> device = cuda::find_device();
  nb::dict out;
  out["cuda_compiled"] = cuda::built_with_cuda();
  out["cuda_device"] = device ? nb::cast(device->name) : nb::none();
  out["default"] = std::string(to_string(resolve_backend(Algorithm::Auto, Backend::Auto)));
  return out;
}

nb::object device_memory_in_use() {
  const std::optional<size_t> in_use = cuda::device_memory_in_use();
  return in_use ? nb::cast(*in_use) : nb::none();
}

}  // namespace

void bind_solve(nb::module_& m) {
  m.def("solve", &solve_instance, nb::arg("instance"), nb::arg("parameters"), nb::arg("initial_tour").none(),
        nb::arg("callback").none() = nb::none(),
        "Solves `instance` with parameters given as text by name (the solver's parameter table),\n"
        "starting from `initial_tour` (0-based) when one is given; calls `callback(tour, length,\n"
        "seconds)` on the solver's thread at every improvement (False stops the run);\n"
        "returns a dict: tour, length, iterations, seconds, history, config (JSON text), found_by\n"
        "(JSON text, as formica solve --json writes it), backend, device, stop_reason.");
  m.def("solve_path", &solve_path, nb::arg("instance"), nb::arg("parameters"), nb::arg("open"),
        nb::arg("start_city").none(), nb::arg("end_city").none(),
        "Solves `instance` for a Hamiltonian path (free ends, or 0-based start_city / end_city);\n"
        "returns solve's dict with the path as tour and its length without a closing edge.");
  m.def("solve_asymmetric", &solve_asymmetric, nb::arg("name"), nb::arg("matrix"), nb::arg("parameters"),
        nb::arg("open"), nb::arg("start_city").none(), nb::arg("end_city").none(),
        "Solves the asymmetric (n, n) int32 matrix (c[i, j] from i to j) for a directed tour, or a\n"
        "directed path when open or an end is given; returns solve's dict.");
  m.def("load_problem", &load_problem, nb::arg("spec"),
        "Reads a TSPLIB file (its name as bytes): an Instance, or for TYPE ATSP a tuple (name, (n, n) int32 "
        "matrix).");
  m.def("parameters", &parameter_list, "Every solver parameter as (name, help), in table order.");
  m.def("parameter_kinds", &parameter_kinds,
        "Every solver parameter's kind by name, from its default: integer, number, boolean, text or null.");
  m.def("portfolio_description", [] { return std::string(portfolio_description()); },
        "What algorithm=\"auto\" runs: the description `formica solve --help` gives.");
  m.def("backend_info", &backend_info,
        "The backends of this build: cuda_compiled (bool), cuda_device (the first CUDA device's name,\n"
        "None without a device or driver), default (the backend backend=\"auto\" picks: \"cuda\" or \"cpu\").");
  m.def("device_memory_in_use", &device_memory_in_use,
        "Bytes of the CUDA device's memory in use by every process (total minus free), None without a\n"
        "device; creates the device's context if none exists.");
}

}  // namespace formica::python
