// SPDX-License-Identifier: MIT
// Open paths and fixed endpoints as a closed tour: one dummy city joined to the cities the path
// may end at, so that every algorithm and backend solves a path through the plain Instance.
// The dummy is the instance's path city (Instance::with_path_city): O(n) memory, the coordinates
// kept. The dense form, an (n + 1)^2 EXPLICIT matrix, is built for the GPU's kernels, which read
// coordinates or a matrix only.
//
// The dummy city n is at distance 0 from every city a path may start or end at (every city for
// --open, the fixed ones otherwise) and at distance M from the rest. A tour of the n + 1 cities
// cut at the dummy is a path; its length is the path's plus M for each end the tour got wrong.
// M = (an upper bound on the longest edge) + 1 is enough: a tour that joins the dummy to a wrong
// city always has an improving 2-opt move (drop the M edge and the edge after the fixed city, join
// the dummy to the fixed city: gain at least M - longest edge > 0), so the optimum and every 2-opt
// local optimum honour the ends. A path that still misses an end (only possible with the local search off) is
// mended by path() and measured exactly. The bound is the longest weight of an EXPLICIT instance,
// the distance across the bounding box of a planar or 3D one (every TSPLIB distance grows with
// |dx|, |dy| and |dz|), and half the earth's circumference for GEO: O(n) for coordinates.
// Called by solver/route_solver.cpp and batch/stretch_batch.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/instance.h"

namespace formica {

/// What kind of route to find: a closed tour (the default), or a Hamiltonian path with free or
/// fixed ends. A fixed start or end implies an open path.
struct PathEnds {
  bool open = false;
  std::optional<int64_t> start;  ///< 0-based (64 bits, so that any number a user gives is checked)
  std::optional<int64_t> end;    ///< 0-based

  bool any() const { return open || start.has_value() || end.has_value(); }
};

/// How a front end spells the ends in messages: option names and the number of its first city.
struct PathEndNames {
  std::string_view start = "--start-city";
  std::string_view end = "--end-city";
  int first_city = 1;  ///< 1 on the command line (TSPLIB numbering), 0 in Python
};

/// Throws InputError unless `ends` fit n cities: a fixed start or end within the cities, and
/// not both the same city (a path from a city back to itself is a closed tour: leave out the end).
void validate_path_ends(const PathEnds& ends, int n, const PathEndNames& names = {});

/// `path` turned to run from the fixed start to the fixed end: reversed when `may_reverse` (a
/// symmetric instance) and that puts the ends right, otherwise rotated to start at the start, and
/// the end moved last. A path that already honours the ends is returned as it is.
std::vector<int32_t> honour_ends(std::vector<int32_t> path, const PathEnds& ends, bool may_reverse);

/// Exact length of the open path `order`: its n - 1 edges, no closing edge.
int64_t path_length(const Instance& instance, std::span<const int32_t> order);

/// An upper bound on every distance between two cities of `instance` (see above): exact for
/// EXPLICIT instances, O(n) for coordinates.
int64_t longest_edge_bound(const Instance& instance);

/// How the dummy city is held: as the instance's path city (O(n) memory), or in a dense (n + 1)^2
/// EXPLICIT matrix with the same distances (for the GPU).
enum class PathForm { Implicit, Dense };

/// Host bytes of a path's dense form: the (n + 1)^2 matrix of n cities and the dummy city.
inline size_t dense_path_bytes(int n) {
  return (static_cast<size_t>(n) + 1) * (static_cast<size_t>(n) + 1) * sizeof(int32_t);
}

class PathTransform {
 public:
  /// Builds the (n + 1)-city instance. Throws InputError for ends that do not fit (see
  /// validate_path_ends) or an instance whose longest edge leaves no room for M in 32 bits, and
  /// for the dense form OutOfMemoryError when the (n + 1)^2 matrix does not fit in host memory.
  PathTransform(const Instance& instance, const PathEnds& ends, const PathEndNames& names = {},
                PathForm form = PathForm::Implicit);

  /// The instance the solver runs on: the cities, then the dummy city n.
  const Instance& instance() const { return transformed_; }
  /// What a tour that honours the ends measures beyond its path: M when exactly one end is fixed.
  int64_t offset() const { return offset_; }
  /// The weight of a dummy edge to a city a path may not end at.
  int32_t penalty() const { return penalty_; }

  /// Moves instance() out (for a caller that keeps many transforms' instances side by side); path()
  /// and offset() still work, instance() is empty afterwards.
  Instance release_instance() { return std::move(transformed_); }

  /// The path of a tour of instance(): cut at the dummy, oriented from start to end (see
  /// honour_ends). The cities are those of the original instance.
  std::vector<int32_t> path(std::span<const int32_t> tour) const;

 private:
  struct Built {
    Instance instance;
    int32_t penalty;
  };
  static Built build(const Instance& instance, const PathEnds& ends, const PathEndNames& names, PathForm form);
  PathTransform(Built built, const PathEnds& ends, int n);

  PathEnds ends_;
  int n_ = 0;
  int32_t penalty_ = 0;
  int64_t offset_ = 0;
  Instance transformed_;
};

}  // namespace formica
