// SPDX-License-Identifier: MIT
// Routes beyond the closed symmetric tour: open paths, fixed endpoints, fixed edges and asymmetric
// (ATSP) instances. Each is turned into an instance that solve() runs unchanged, on any algorithm
// and backend (core/path_transform.h: one dummy city; core/fixed_edges.h: weights that keep the
// fixed edges; core/asymmetric.h: 2n cities), and the result is mapped back here, once, for the
// command line and Python alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/asymmetric.h"
#include "core/fixed_edges.h"
#include "core/instance.h"
#include "core/path_transform.h"
#include "solver/solver.h"

namespace formica {

class RouteProblem {
 public:
  /// A symmetric instance: a closed tour when `ends` is empty, else a path, its dummy city the
  /// instance's implicit path city (solve() builds the dense form where the GPU's kernels take the
  /// path: they read coordinates or a matrix). An instance with fixed edges is solved as FixedEdgeTransform's
  /// matrix, as a closed tour only (InputError with `ends`). `instance` must outlive this object.
  /// Throws as PathTransform and FixedEdgeTransform do.
  RouteProblem(const Instance& instance, const PathEnds& ends, const PathEndNames& names = {});
  /// An asymmetric matrix: a directed tour, or a directed path from start to end. `matrix` must
  /// outlive this object. Throws as with_path_ends and AsymmetricTransform do.
  RouteProblem(const AsymmetricMatrix& matrix, const PathEnds& ends, const PathEndNames& names = {});

  /// The instance solve() runs on: the instance itself for a closed symmetric tour.
  const Instance& solved_instance() const;
  const std::string& name() const;
  int n() const;  ///< cities of the problem as given
  const PathEnds& ends() const { return ends_; }
  bool asymmetric() const { return matrix_ != nullptr; }

  /// Throws InputError unless this is a closed tour of a symmetric instance: `option` (e.g.
  /// "--initial-tour") applies to those only.
  void expect_closed_symmetric(std::string_view option) const;

  /// Exact length of `order` (cities of the problem as given): a path without its closing edge,
  /// a directed tour with its direction.
  int64_t length(std::span<const int32_t> order) const;

  /// `request` resolved for solved_instance() (resolve_request), in the problem's units: its target
  /// is a length of the route as given, which solve() converts. An initial tour is refused
  /// (InputError) for a path or an asymmetric instance. A path the GPU's kernels would take whose
  /// dense form (dense_path_seconds) costs more than kDensePathAutoShare of the time limit runs on
  /// the CPU under auto (backend_note says why); past kDensePathRefusedShare a named --backend
  /// cuda is refused (InputError).
  ResolvedRequest resolve(const SolverConfig& request, std::vector<int32_t> initial_tour = {},
                          std::string_view tour_source = "--initial-tour") const;

  /// formica::solve() of `resolved` (resolve()) on solved_instance(), mapped back: the tour is the
  /// path (from start to end) or the directed tour over the problem's cities with its exact length;
  /// the history, the progress, the credits and the target are in the same units (the
  /// transformations' constants taken off).
  Result solve(const ResolvedRequest& resolved, const SolveOptions& options = {}) const;
  /// solve(resolve(request), options).
  Result solve(const SolverConfig& request, const SolveOptions& options = {}) const;

 private:
  std::vector<int32_t> route(std::span<const int32_t> tour) const;
  int64_t offset() const;

  const Instance* instance_ = nullptr;
  PathEndNames names_;
  const AsymmetricMatrix* matrix_ = nullptr;
  PathEnds ends_;
  std::optional<PathTransform> path_;
  std::optional<FixedEdgeTransform> fixed_;
  std::optional<AsymmetricMatrix> with_dummy_;
  std::optional<AsymmetricTransform> directed_;
};

/// Whether a run of `config` on `backend` hands a path's dummy city to GPU kernels, which know no
/// implicit path city, so that the path goes to the GPU as a dense (n + 1)^2 matrix: every
/// algorithm on the CUDA backend but GA-EAX, whose search runs on the host threads (its GPU
/// climbs skip a tour with a path city), unless its children run on the GPU.
bool gpu_kernels_take_the_path(const SolverConfig& config, Backend backend);

/// Seconds to build a path's dense form on this machine's cores and copy it to the GPU (an estimate).
double dense_path_seconds(int n);
/// The share of the time limit past which auto runs a path on the CPU rather than build its dense
/// form, and past which a named --backend cuda is refused.
inline constexpr double kDensePathAutoShare = 0.1, kDensePathRefusedShare = 0.5;
/// What becomes of a path that the GPU's kernels would take as a dense form costing
/// `build_seconds`: built (no time limit, or a small share of it), run on the CPU (auto), or
/// refused (--backend cuda named).
enum class DensePath { Build, OnTheCpu, Refuse };
DensePath dense_path_verdict(double build_seconds, std::optional<double> time_limit, bool backend_named);

}  // namespace formica
