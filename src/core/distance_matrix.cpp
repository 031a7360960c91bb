// SPDX-License-Identifier: MIT
// Dense exact distance matrix (see distance_matrix.h).
#include "core/distance_matrix.h"

#include <limits>

#include "core/error.h"

namespace formica {

std::vector<int32_t> dense_distance_matrix(const Instance& instance, int ld, int threads) {
  const int n = instance.n();
  FORMICA_EXPECTS(ld >= n, "matrix stride ", ld, " is smaller than n = ", n);
  std::vector<int32_t> d(static_cast<size_t>(ld) * ld, 0);
  bool too_large = false;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1) reduction(|| : too_large)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int64_t value = instance.distance(i, j);
      too_large = too_large || value > std::numeric_limits<int32_t>::max();
      d[static_cast<size_t>(i) * ld + j] = static_cast<int32_t>(value);
    }
  FORMICA_EXPECTS(!too_large, instance.name(), ": a distance exceeds 2^31 - 1; the dense matrix cannot hold it");
  return d;
}

}  // namespace formica
