// SPDX-License-Identifier: MIT
// I-Roulette's exact distribution (see i_roulette_distribution.h).
#include "aco/i_roulette_distribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace formica::aco {

std::vector<double> i_roulette_distribution(std::span<const double> w) {
  std::vector<int> order;
  for (int j = 0; j < static_cast<int>(w.size()); ++j)
    if (w[j] > 0.0) order.push_back(j);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return w[a] < w[b]; });
  const int count = static_cast<int>(order.size());
  // suffix_log[k] = sum of log w over sorted positions k..count-1.
  std::vector<double> suffix_log(static_cast<size_t>(count) + 1, 0.0);
  for (int k = count - 1; k >= 0; --k) suffix_log[k] = suffix_log[k + 1] + std::log(w[order[k]]);
  // On (a_{k-1}, a_k] (a_{-1} = 0) the factors of the cities at sorted positions >= k are y / w,
  // the others 1: G(y) / y = y^(c-1) / prod, c = count - k, which integrates to
  // (a_k^c - a_{k-1}^c) / (c prod); both powers over prod are at most 1, so logs keep them finite.
  std::vector<double> result(w.size(), 0.0);
  double cumulative = 0.0;
  for (int k = 0; k < count; ++k) {
    const int c = count - k;
    const double hi = std::exp(c * std::log(w[order[k]]) - suffix_log[k]);
    const double lo = k == 0 ? 0.0 : std::exp(c * std::log(w[order[k - 1]]) - suffix_log[k]);
    cumulative += (hi - lo) / c;
    result[order[k]] = cumulative;
  }
  return result;
}

std::vector<double> roulette_distribution(std::span<const double> w) {
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<double> p(w.size(), 0.0);
  if (total > 0.0)
    for (size_t j = 0; j < w.size(); ++j) p[j] = w[j] / total;
  return p;
}

double total_variation_distance(std::span<const double> p, std::span<const double> q) {
  double sum = 0.0;
  for (size_t j = 0; j < p.size() && j < q.size(); ++j) sum += std::fabs(p[j] - q[j]);
  return 0.5 * sum;
}

}  // namespace formica::aco
