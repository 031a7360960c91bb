// CPU next-city selection (Uchida et al. section 4.2). Sums are accumulated in double.
#include "aco/cpu/selection.h"

#include <algorithm>
#include <cmath>

namespace formica::aco {
namespace {

/// r = u * total strictly below total (u in [0, 1) can round up to it), so that the first
/// cumulative sum exceeding r always ends on a positive weight.
double threshold_below(double u, double total) {
  const double r = u * total;
  return r < total ? r : std::nextafter(total, 0.0);
}

}  // namespace

int select_roulette(std::span<const float> f, const AntPath& path, RandomStream& rng) {
  const auto visited = path.visited_flags();
  const int n = path.n();
  double total = 0.0;
  for (int j = 0; j < n; ++j) total += visited[j] ? 0.0 : static_cast<double>(f[j]);
  const double r = threshold_below(rng.next_double(), total);
  double q = 0.0;
  int last = -1;
  for (int j = 0; j < n; ++j) {
    if (visited[j]) continue;
    q += f[j];
    if (last < 0 || f[j] > 0.0f) last = j;
    if (r < q) return j;
  }
  return last;  // every fitness is zero
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
  }
  return select_roulette(f, path, rng);
}

}  // namespace formica::aco
