// SPDX-License-Identifier: MIT
// Helpers of the GPU selection tests (CUDA builds only): an uneven fitness row with a visited
// set, and the two-stage chi-square test through the selection sampler.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "aco/cuda/selection_sampler.h"
#include "aco/i_roulette_distribution.h"
#include "core/rng.h"
#include "test_support.h"

namespace formica::aco::sampling {

struct Row {
  std::vector<float> fitness;
  std::vector<uint8_t> visited;
};

/// n cities, uneven fitness (a few heavy cities, one zero), about a third visited including heavy
/// ones, so that trials often land on visited cities and every fallback path runs.
inline Row make_row(int n, uint64_t seed) {
  Row row;
  RandomStream rng(seed, 0);
  for (int j = 0; j < n; ++j) {
    const float heavy = j % 7 == 0 ? 6.0f : 1.0f;
    row.fitness.push_back(heavy * (0.25f + static_cast<float>(rng.next_double())));
    row.visited.push_back(rng.next_double() < 0.33 || j % 14 == 0 ? 1 : 0);
  }
  row.fitness[n - 1] = 0.0f;  // unreachable: never drawn
  row.visited[1] = 0;
  return row;
}

/// The row's weights with visited cities at 0.
inline std::vector<double> candidate_weights(const Row& row) {
  std::vector<double> w(row.fitness.size(), 0.0);
  for (size_t j = 0; j < w.size(); ++j)
    if (!row.visited[j]) w[j] = row.fitness[j];
  return w;
}

/// The draws per city of a sampler test whose request leaves the count at 0: 2048, or
/// FORMICA_TEST_DRAWS_PER_CITY (at least 8) for runs under compute-sanitizer, which make every draw
/// 10 to 100 times slower: the kernels and sizes stay, and the chi-square test pools the cells of
/// make_row's light cities that expect fewer than 5 draws (about 2 at 8 draws per city), so it can
/// still fail.
inline long draws_per_city() {
  const long draws = std::stol(formica::test::env_or("FORMICA_TEST_DRAWS_PER_CITY", "2048"));
  if (draws < 8) throw std::invalid_argument("FORMICA_TEST_DRAWS_PER_CITY must be at least 8");
  return draws;
}

/// A tolerance set for the default 2048 draws per city, widened as the sampling noise grows
/// (1 / sqrt(draws)) where FORMICA_TEST_DRAWS_PER_CITY lowers the count.
inline double noise_scaled(double tolerance) {
  return tolerance * std::sqrt(std::max(1.0, 2048.0 / static_cast<double>(draws_per_city())));
}

/// Draws `request.draws` samples (250 per city for n <= 64, else 1 per city, times
/// draws_per_city(): 512,000 and 2048 n by default, when 0) and returns the chi-square p-value
/// against `expected` (a draw of a zero-probability city fails the test by itself). Two stages:
/// with dozens of cases at p > 1e-3 a chance alarm is expected now and then, so a case below 1e-3
/// is drawn again with a fresh seed and must pass then; a real bias fails both (its p-value is far
/// below 1e-3 at these sample sizes). `counts_out` gets the last counts.
inline double two_stage_p_value(cuda::SamplerRequest request, const Row& row, const std::vector<double>& expected,
                                std::vector<long>* counts_out = nullptr) {
  const long n = static_cast<long>(row.fitness.size());
  if (request.draws == 0) request.draws = (n <= 64 ? 250 : n) * draws_per_city();
  const uint64_t seed = std::stoull(formica::test::env_or("FORMICA_TEST_SEED", "99"));
  double p = 0;
  for (int stage = 0; stage < 2; ++stage) {
    request.seed = seed + 1000 * stage;
    const std::vector<long> counts = cuda::sample_selection(request, row.fitness, row.visited);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), 0L), request.draws);  // every draw made
    p = formica::test::chi_square_test(counts, expected);
    ::testing::Test::RecordProperty("p_value_stage" + std::to_string(stage), std::to_string(p));
    if (counts_out != nullptr) *counts_out = counts;
    if (p > 1e-3) break;
  }
  return p;
}

}  // namespace formica::aco::sampling
