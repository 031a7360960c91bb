// SPDX-License-Identifier: MIT
// Open paths, fixed endpoints and ATSP through their transformations (see route_solver.h).
#include "solver/route_solver.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.h"
#include "core/memory.h"
#include "core/tour.h"

namespace formica {

RouteProblem::RouteProblem(const Instance& instance, const PathEnds& ends, const PathEndNames& names)
    : instance_(&instance), names_(names), ends_(ends) {
  if (!instance.fixed_edges().empty()) {
    FORMICA_EXPECTS(!ends.any(), instance.name(), " has fixed edges (FIXED_EDGES_SECTION): formica keeps them in "
                    "closed tours only, not with ", names.start, ", ", names.end, " or an open path");
    fixed_.emplace(instance);
  }
  if (ends.any()) path_.emplace(instance, ends, names);
}

RouteProblem::RouteProblem(const AsymmetricMatrix& matrix, const PathEnds& ends, const PathEndNames& names)
    : matrix_(&matrix), ends_(ends) {
  if (ends.any()) with_dummy_ = with_path_ends(matrix, ends, names);
  directed_.emplace(with_dummy_ ? *with_dummy_ : matrix);
}

const Instance& RouteProblem::solved_instance() const {
  return directed_ ? directed_->instance() : path_ ? path_->instance() : fixed_ ? fixed_->instance() : *instance_;
}

const std::string& RouteProblem::name() const { return matrix_ ? matrix_->name() : instance_->name(); }

int RouteProblem::n() const { return matrix_ ? matrix_->n() : instance_->n(); }

int64_t RouteProblem::length(std::span<const int32_t> order) const {
  if (matrix_) return directed_length(*matrix_, order, !ends_.any());
  return ends_.any() ? path_length(*instance_, order) : tour_length(*instance_, order);
}

void RouteProblem::expect_closed_symmetric(std::string_view option) const {
  FORMICA_EXPECTS(!path_ && !directed_, option, " starts a closed tour of a symmetric instance; it does not apply to ",
                  matrix_ ? "an asymmetric instance" : "an open path");
}

int64_t RouteProblem::offset() const {
  return directed_ ? directed_->offset() : path_ ? path_->offset() : fixed_ ? fixed_->offset() : 0;
}

std::vector<int32_t> RouteProblem::route(std::span<const int32_t> tour) const {
  if (path_) return path_->path(tour);
  if (fixed_) return fixed_->tour(tour);
  std::vector<int32_t> order = directed_->directed_tour(tour);
  if (!ends_.any()) return order;
  // The dummy city n (with_path_ends) closes the directed path: the path is what follows it.
  const auto dummy = std::find(order.begin(), order.end(), matrix_->n());
  std::vector<int32_t> path(dummy + 1, order.end());
  path.insert(path.end(), order.begin(), dummy);
  return honour_ends(std::move(path), ends_, false);
}

bool gpu_kernels_take_the_path(const SolverConfig& config, Backend backend) {
  // GA-EAX on the host keeps the implicit city: an (n + 1)^2 matrix of 50,000 cities took 12 s of
  // a 1-s run on an H100 host.
  return backend == Backend::Cuda && (config.algorithm != Algorithm::Eax || config.eax.gpu_children);
}

DensePath dense_path_verdict(double build_seconds, std::optional<double> time_limit, bool backend_named) {
  if (!time_limit) return DensePath::Build;  // no deadline to keep: host and device memory decide
  if (backend_named) return build_seconds <= kDensePathRefusedShare * *time_limit ? DensePath::Build : DensePath::Refuse;
  return build_seconds <= kDensePathAutoShare * *time_limit ? DensePath::Build : DensePath::OnTheCpu;
}

double dense_path_seconds(int n) {
  // One entry of the matrix is one distance and one 4-byte write: 7.6 ns a thread on the 2-core VM
  // (20,001^2 entries in 1.5 s on 2 threads); the GPU then reads the matrix at the rate of a
  // pageable host-to-device copy, taken as 5 GB/s.
  constexpr double kEntrySeconds = 8e-9, kCopyBytesPerSecond = 5e9;
  const double entries = (static_cast<double>(n) + 1) * (static_cast<double>(n) + 1);
  return entries * kEntrySeconds / hardware_threads() + entries * sizeof(int32_t) / kCopyBytesPerSecond;
}

ResolvedRequest RouteProblem::resolve(const SolverConfig& request, std::vector<int32_t> initial_tour,
                                      std::string_view tour_source) const {
  if (!initial_tour.empty()) expect_closed_symmetric("--initial-tour");
  // Auto's rules differ on an asymmetric instance's form (docs/tuning.md): resolved as what runs.
  SolverConfig form = request;
  form.asymmetric_form = directed_.has_value();
  if (!path_) return resolve_request(solved_instance(), form, std::move(initial_tour), tour_source);
  // A path has no initial tour (refused above): it may be resolved twice below.
  ResolvedRequest resolved = resolve_request(solved_instance(), form);
  if (!gpu_kernels_take_the_path(resolved.config, resolved.backend)) return resolved;
  const double build = dense_path_seconds(n());
  const DensePath verdict = dense_path_verdict(build, resolved.config.time_limit, request.backend == Backend::Cuda);
  if (verdict == DensePath::Build) return resolved;
  const double limit = *resolved.config.time_limit;
  const std::string cost = concat("a path of ", n(), " cities reaches the GPU's kernels as a dense ", n() + 1,
                                  " x ", n() + 1, " matrix (", format_bytes(dense_path_bytes(n())), ", about ",
                                  std::ceil(build * 10) / 10, " s to build and copy)");
  FORMICA_EXPECTS(verdict != DensePath::Refuse, "--backend cuda: ", cost, ", more than ",
                  kDensePathRefusedShare * 100, " % of the ", limit, "-s time limit; use --backend cpu or auto");
  form.backend = Backend::Cpu;
  resolved = resolve_request(solved_instance(), form);
  resolved.backend_note = concat(cost, ", more than ", kDensePathAutoShare * 100, " % of the ", limit,
                                 "-s time limit: it runs on the CPU");
  return resolved;
}

Result RouteProblem::solve(const SolverConfig& request, const SolveOptions& options) const {
  return solve(resolve(request), options);
}

Result RouteProblem::solve(const ResolvedRequest& resolved, const SolveOptions& options) const {
  if (!path_ && !directed_ && !fixed_) return formica::solve(*instance_, resolved, options);
  // The target in the solved instance's units: the resolution is that of the route as given.
  const int64_t constant = offset();
  ResolvedRequest solved = resolved;
  if (solved.config.target) *solved.config.target += constant;
  SolveOptions inner = options;
  if (options.on_progress)
    inner.on_progress = [&options, constant](const Progress& p) {
      Progress mapped = p;
      mapped.best_length -= constant;
      mapped.iteration_best_length -= constant;
      options.on_progress(mapped);
    };
  // A tour found is handed on as the route it stands for, measured exactly.
  if (options.on_improvement)
    inner.on_improvement = [this, &options](std::span<const int32_t> tour, int64_t, double seconds) {
      const std::vector<int32_t> order = route(tour);
      return options.on_improvement(order, length(order), seconds);
    };
  // The GPU's kernels know no path city: there the dummy city goes into a dense matrix.
  std::optional<PathTransform> dense;
  if (path_ && gpu_kernels_take_the_path(resolved.config, resolved.backend))
    dense.emplace(*instance_, ends_, names_, PathForm::Dense);
  Result result = formica::solve(dense ? dense->instance() : solved_instance(), solved, inner);
  result.config.target = resolved.config.target;
  for (HistoryPoint& h : result.history) h.length -= constant;
  result.credits.shift(-constant);
  std::vector<int32_t> order = route(result.tour.order());
  const int64_t exact = length(order);
  // Equal whenever the tour honours the transformation (any local search sees to that); a
  // mended tour gets its exact length as the last word.
  if (!result.history.empty() && result.history.back().length != exact)
    result.history.push_back({result.iterations, result.seconds, exact});
  result.tour = Tour::measured(std::move(order), exact);
  result.ends = ends_;
  result.asymmetric = matrix_ != nullptr;
  return result;
}

}  // namespace formica
