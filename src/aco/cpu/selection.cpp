// SPDX-License-Identifier: MIT
// CPU next-city selection (see selection.h). Sums are accumulated in double.
#include "aco/cpu/selection.h"

#include <algorithm>
#include <vector>

#include "aco/sequential_selection.h"
#include "aco/threshold.h"

namespace formica::aco {

int select_roulette(std::span<const float> f, const AntPath& path, RandomStream& rng) {
  const auto visited = path.visited_flags();
  return sequential_roulette(
      path.n(), [&](int j) { return visited[j] != 0; }, [&](int j) { return f[j]; }, rng.next_double());
}

int select_compression(std::span<const float> f, const AntPath& path, RandomStream& rng) {
  const auto unvisited = path.unvisited();
  double total = 0.0;
  for (int32_t j : unvisited) total += f[j];
  const double r = threshold_below(rng.next_double(), total);
  double q = 0.0;
  for (int32_t j : unvisited) {
    q += f[j];
    if (r < q) return j;
  }
  return unvisited.back();  // every fitness is zero
}

int select_stochastic_trial(std::span<const float> f, std::span<const double> prefix,
                            const AntPath& path, RandomStream& rng, int trials) {
  const double total = prefix.back();
  for (int t = 0; t < trials; ++t) {
    const double r = threshold_below(rng.next_double(), total);
    // First j with q'_j > r, so that q'_{j-1} <= r < q'_j and f_j > 0.
    const auto it = std::upper_bound(prefix.begin(), prefix.end(), r);
    if (it == prefix.end()) continue;  // the whole row is zero
    const int j = static_cast<int>(it - prefix.begin());
    if (!path.visited(j)) return j;
  }
  return select_roulette(f, path, rng);
}

int select_i_roulette(std::span<const float> f, const AntPath& path, RandomStream& rng) {
  const auto visited = path.visited_flags();
  return sequential_i_roulette(
      path.n(), [&](int j) { return visited[j] != 0; }, [&](int j) { return f[j]; },
      [&](int) { return 1.0f - rng.next_float(); });
}

int select_tile_roulette(std::span<const float> f, const AntPath& path, RandomStream& rng) {
  const auto visited = path.visited_flags();
  const int n = path.n();
  const int tiles = (n + kCpuTile - 1) / kCpuTile;
  thread_local std::vector<double> tile_sum;
  tile_sum.resize(static_cast<size_t>(tiles));
  for (int tile = 0; tile < tiles; ++tile) {
    double sum = 0.0;
    const int end = std::min(n, (tile + 1) * kCpuTile);
    for (int j = tile * kCpuTile; j < end; ++j) sum += visited[j] ? 0.0 : static_cast<double>(f[j]);
    tile_sum[tile] = sum;
  }
  // The total is the sum of the tile sums in order, so the walk over tiles below repeats its
  // additions exactly and always stops at a tile with a positive sum.
  double total = 0.0;
  for (double s : tile_sum) total += s;
  if (!(total > 0.0)) {  // every remaining fitness is zero: the first unvisited city
    const auto unvisited = path.unvisited();
    return *std::min_element(unvisited.begin(), unvisited.end());
  }
  const double r = threshold_below(rng.next_double(), total);
  double acc = 0.0;
  int tile = 0;
  while (!(r < acc + tile_sum[tile])) acc += tile_sum[tile++];
  const int end = std::min(n, (tile + 1) * kCpuTile);
  int last = -1;
  for (int j = tile * kCpuTile; j < end; ++j) {
    if (visited[j] || !(f[j] > 0.0f)) continue;
    acc += f[j];
    last = j;
    if (r < acc) return j;
  }
  return last;  // rounding kept the in-tile sums at or below r
}

int select_next(const AntSystemConfig& config, std::span<const float> f,
                std::span<const double> prefix, const AntPath& path, RandomStream& rng) {
  switch (config.selection) {
    case Selection::Roulette: return select_roulette(f, path, rng);
    case Selection::Compression: return select_compression(f, path, rng);
    case Selection::StochasticTrial:
      return select_stochastic_trial(f, prefix, path, rng, config.trials);
    case Selection::Hybrid:
      if (path.visited_count() < config.hybrid_switch * path.n())
        return select_stochastic_trial(f, prefix, path, rng, config.trials);
      return select_compression(f, path, rng);
    case Selection::IRoulette: return select_i_roulette(f, path, rng);
    case Selection::TileRoulette: return select_tile_roulette(f, path, rng);
  }
  return select_roulette(f, path, rng);
}

}  // namespace formica::aco
