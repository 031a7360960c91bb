// SPDX-License-Identifier: MIT
// Batches the batch solver's tests share: jagged sizes, every metric.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "batch/batch_solver.h"
#include "core/instance.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"

namespace formica::batch::test {

/// Uniform instances of the given sizes, seeded by their index.
inline std::vector<Instance> uniform_batch(const std::vector<int>& sizes, uint64_t seed = 7) {
  std::vector<Instance> out;
  for (size_t i = 0; i < sizes.size(); ++i)
    out.push_back(io::generate_instance(sizes[i], io::InstanceKind::Uniform, seed + i));
  return out;
}

/// A random symmetric integer matrix instance of n cities.
inline Instance matrix_instance(int n, uint64_t seed) {
  RandomStream random(seed, 0x3A7);
  std::vector<int32_t> weights(static_cast<size_t>(n) * n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      weights[static_cast<size_t>(i) * n + j] = weights[static_cast<size_t>(j) * n + i] =
          1 + static_cast<int32_t>(random.below(1000));
  return Instance::from_matrix("matrix" + std::to_string(n), n, std::move(weights));
}

/// The optimal length by trying every tour with city 0 first (n <= 11).
inline int64_t brute_force_optimum(const Instance& instance) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  int64_t best = tour_length(instance, order);
  while (std::next_permutation(order.begin() + 1, order.end())) best = std::min(best, tour_length(instance, order));
  return best;
}

}  // namespace formica::batch::test
