// SPDX-License-Identifier: MIT
// Asymmetric instances (ATSP): the n x n matrix of directed weights, and the Jonker-Volgenant
// transformation that hands them to the symmetric solver as 2n cities.
//
// City i becomes an "in" node i and an "out" node n + i. The symmetric weights are
//   w(i, n + i) = 0,   w(n + j, i) = c(j, i) + B for j != i (leave j, arrive at i),   INF otherwise,
// so a tour that keeps every edge (i, n + i) and no INF edge alternates in, out, in, out... and
// is a directed tour of length sum(c) + n B. B = (largest weight) + 1 and INF = 2 B suffice:
// a tour without some edge (i, n + i) has an improving 2-opt move that adds it (gain at least
// B - largest weight), and a tour with an INF edge between two "in" nodes also has one between
// two "out" nodes, which one 2-opt move replaces by two finite edges (gain at least
// 2 INF - 2 (B + largest weight) > 0). So the optimum and every 2-opt local optimum are directed
// tours. A tour that is not (only possible with the local search off) is read as the order in
// which it first meets each city, and measured exactly. Called by solver/route_solver.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/instance.h"
#include "core/path_transform.h"

namespace formica {

class AsymmetricMatrix {
 public:
  /// A full row-major n x n matrix of non-negative weights; c(i, j) is the way from i to j. The
  /// diagonal is ignored (TSPLIB files put 9999 or 100000000 there). Throws InputError for
  /// n < 3, a wrong number of weights or a negative one.
  AsymmetricMatrix(std::string name, int n, std::vector<int32_t> weights);

  const std::string& name() const { return name_; }
  int n() const { return n_; }
  int64_t distance(int from, int to) const {
    return weights_[static_cast<size_t>(from) * static_cast<size_t>(n_) + static_cast<size_t>(to)];
  }
  std::span<const int32_t> weights() const { return weights_; }
  /// True when c(i, j) == c(j, i) for every pair.
  bool symmetric() const;

  const std::string& comment() const { return comment_; }
  void set_comment(std::string comment) { comment_ = std::move(comment); }

 private:
  std::string name_;
  std::string comment_;
  int n_ = 0;
  std::vector<int32_t> weights_;
};

/// Exact directed length of `order`: with the closing edge back to the first city when `closed`.
int64_t directed_length(const AsymmetricMatrix& matrix, std::span<const int32_t> order, bool closed);

/// `matrix` with one more city n for a path (see path_transform.h): c(n, j) = 0 where the path may
/// start at j, c(i, n) = 0 where it may end at i, and M = n * (largest weight) + 1 elsewhere, more
/// than any path costs, so that a directed tour through a wrong dummy edge is never optimal.
/// Throws InputError for ends that do not fit or an M beyond 32 bits.
AsymmetricMatrix with_path_ends(const AsymmetricMatrix& matrix, const PathEnds& ends, const PathEndNames& names = {});

class AsymmetricTransform {
 public:
  /// Builds the 2n-city EXPLICIT instance. Throws InputError when B and INF do not fit in 32 bits
  /// and OutOfMemoryError when the (2n)^2 matrix does not fit in host memory.
  explicit AsymmetricTransform(const AsymmetricMatrix& matrix);

  const Instance& instance() const { return transformed_; }
  /// n B: what a directed tour measures beyond its length on instance().
  int64_t offset() const { return offset_; }

  /// The directed tour (cities 0..n-1 of the matrix) that a tour of instance() stands for.
  std::vector<int32_t> directed_tour(std::span<const int32_t> tour) const;

 private:
  static Instance build(const AsymmetricMatrix& matrix);

  int n_ = 0;
  int64_t offset_ = 0;
  Instance transformed_;
};

}  // namespace formica
