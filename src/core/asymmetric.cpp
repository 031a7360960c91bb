// SPDX-License-Identifier: MIT
// Asymmetric matrices and the Jonker-Volgenant transformation (see asymmetric.h).
#include "core/asymmetric.h"

#include <algorithm>
#include <limits>

#include "core/error.h"
#include "core/memory.h"

namespace formica {
namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

/// The largest weight off the diagonal.
int64_t largest_weight(const AsymmetricMatrix& matrix) {
  int64_t largest = 0;
  for (int i = 0; i < matrix.n(); ++i)
    for (int j = 0; j < matrix.n(); ++j)
      if (i != j) largest = std::max(largest, matrix.distance(i, j));
  return largest;
}

}  // namespace

AsymmetricMatrix::AsymmetricMatrix(std::string name, int n, std::vector<int32_t> weights)
    : name_(std::move(name)), n_(n), weights_(std::move(weights)) {
  FORMICA_EXPECTS(n >= 3, "an instance needs at least 3 cities, got ", n);
  FORMICA_EXPECTS(weights_.size() == static_cast<size_t>(n) * static_cast<size_t>(n), "a ", n, "-city matrix needs ",
                  static_cast<size_t>(n) * n, " weights, got ", weights_.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      FORMICA_EXPECTS(i == j || distance(i, j) >= 0, "negative weight ", distance(i, j), " from city ", i + 1,
                      " to city ", j + 1);
  for (int i = 0; i < n; ++i) weights_[static_cast<size_t>(i) * n + i] = 0;
}

bool AsymmetricMatrix::symmetric() const {
  for (int i = 0; i < n_; ++i)
    for (int j = i + 1; j < n_; ++j)
      if (distance(i, j) != distance(j, i)) return false;
  return true;
}

int64_t directed_length(const AsymmetricMatrix& matrix, std::span<const int32_t> order, bool closed) {
  int64_t length = 0;
  for (size_t i = 1; i < order.size(); ++i) length += matrix.distance(order[i - 1], order[i]);
  if (closed && !order.empty()) length += matrix.distance(order.back(), order.front());
  return length;
}

AsymmetricMatrix with_path_ends(const AsymmetricMatrix& matrix, const PathEnds& ends, const PathEndNames& names) {
  validate_path_ends(ends, matrix.n(), names);
  const int n = matrix.n();
  // Free ends need no penalty; fixed ones need it to fit.
  const int64_t penalty = static_cast<int64_t>(n) * largest_weight(matrix) + 1;
  FORMICA_EXPECTS((!ends.start && !ends.end) || penalty <= kInt32Max, "the weights of ", matrix.name(), " (up to ", largest_weight(matrix),
                  ") are too large for an asymmetric open path: its dummy city's penalty, ", n,
                  " times the largest weight, must fit in 32 bits");
  const size_t m = static_cast<size_t>(n) + 1;
  std::vector<int32_t> weights(m * m, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) weights[i * m + j] = static_cast<int32_t>(matrix.distance(i, j));
  for (int i = 0; i < n; ++i) {
    weights[n * m + i] = !ends.start || *ends.start == i ? 0 : static_cast<int32_t>(penalty);
    weights[i * m + n] = !ends.end || *ends.end == i ? 0 : static_cast<int32_t>(penalty);
  }
  return AsymmetricMatrix(matrix.name(), n + 1, std::move(weights));
}

Instance AsymmetricTransform::build(const AsymmetricMatrix& matrix) {
  const int n = matrix.n();
  const int64_t bonus = largest_weight(matrix) + 1, infinity = 2 * bonus;
  FORMICA_EXPECTS(infinity <= kInt32Max, "the weights of ", matrix.name(), " (up to ", largest_weight(matrix),
                  ") are too large for the symmetric form of an asymmetric instance: twice the largest "
                  "weight must fit in 32 bits");
  const size_t m = 2 * static_cast<size_t>(n);
  expect_memory(m * m * sizeof(int32_t), available_host_memory(),
                concat("the ", m, " x ", m, " symmetric matrix of the asymmetric ", matrix.name()));
  std::vector<int32_t> weights(m * m, static_cast<int32_t>(infinity));
  for (int i = 0; i < n; ++i) {
    const size_t in = static_cast<size_t>(i), out = static_cast<size_t>(n + i);
    weights[in * m + out] = weights[out * m + in] = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      // Out of j, into i: the directed edge j -> i.
      const size_t from = static_cast<size_t>(n + j);
      weights[from * m + in] = weights[in * m + from] = static_cast<int32_t>(matrix.distance(j, i) + bonus);
    }
  }
  return Instance::from_matrix(matrix.name(), 2 * n, std::move(weights));
}

AsymmetricTransform::AsymmetricTransform(const AsymmetricMatrix& matrix)
    : n_(matrix.n()), offset_(matrix.n() * (largest_weight(matrix) + 1)), transformed_(build(matrix)) {}

std::vector<int32_t> AsymmetricTransform::directed_tour(std::span<const int32_t> tour) const {
  // The direction in which "in" nodes are followed by their own "out" node: all of them in a
  // directed tour, most of them otherwise.
  const size_t m = tour.size();
  int64_t forward = 0, backward = 0;
  for (size_t p = 0; p < m; ++p) {
    const int32_t a = tour[p], b = tour[(p + 1) % m];
    forward += a < n_ && b == a + n_ ? 1 : 0;
    backward += b < n_ && a == b + n_ ? 1 : 0;
  }
  std::vector<int32_t> order;
  order.reserve(static_cast<size_t>(n_));
  for (size_t p = 0; p < m; ++p) {
    const int32_t city = tour[forward >= backward ? p : m - 1 - p];
    if (city < n_) order.push_back(city);
  }
  return order;
}

}  // namespace formica
