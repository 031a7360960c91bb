// SPDX-License-Identifier: MIT
// Best-improvement 2-opt passes with exact gains on the CPU (see best_improvement_pass.h).
#include "localsearch/cpu/best_improvement_pass.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace formica::localsearch::cpu {
namespace {

/// Distances between tour positions 0..n, position n standing for position 0 again, with the
/// metric chosen at compile time so the inner loop has no switch.
template <EdgeWeightType kType>
struct PositionDistance {
  const double *x, *y, *z;
  int64_t operator()(int p, int q) const {
    const double dx = x[p] - x[q], dy = y[p] - y[q];
    if constexpr (kType == EdgeWeightType::Euc2D) return tsplib::euc_2d(dx, dy);
    else if constexpr (kType == EdgeWeightType::Ceil2D) return tsplib::ceil_2d(dx, dy);
    else if constexpr (kType == EdgeWeightType::Att) return tsplib::att(dx, dy);
    else if constexpr (kType == EdgeWeightType::Man2D) return tsplib::man_2d(dx, dy);
    else if constexpr (kType == EdgeWeightType::Max2D) return tsplib::max_2d(dx, dy);
    else return tsplib::euc_3d(dx, dy, z[p] - z[q]);
  }
};

/// GEO and EXPLICIT: through Instance::distance on the cities at the two positions.
struct CityDistance {
  const Instance* instance;
  const int32_t* city;
  int64_t operator()(int p, int q) const { return instance->distance(city[p], city[q]); }
};

/// Rows between two looks at the stop.
constexpr int kStopCheckRows = 16;

/// Rows lo..hi (descending) of the pass; appends each improving row's best move to `out`. Ends
/// early once `stop` (null: never) asks, or `seen` says another part's look saw it.
template <class Distance>
void scan_rows(const Distance& dist, int n, int lo, int hi, std::vector<Candidate>& out, const StopFlag* stop,
               std::atomic<bool>& seen) {
  // prev[q] = d(pos i + 1, pos q) and cur[q] = d(pos i, pos q) for q in [i + 2, n].
  std::vector<int64_t> prev(static_cast<size_t>(n) + 1), cur(static_cast<size_t>(n) + 1);
  std::vector<int64_t> cost(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) cost[p] = dist(p, p + 1);
  for (int q = hi + 2; q <= n; ++q) prev[q] = dist(hi + 1, q);
  for (int i = hi; i >= lo; --i) {
    if (stop != nullptr && (hi - i) % kStopCheckRows == 0) {
      if (seen.load(std::memory_order_relaxed)) return;
      if (stop->requested()) {
        seen = true;
        return;
      }
    }
    for (int q = i + 2; q <= n; ++q) cur[q] = dist(i, q);
    const int j_end = i == 0 ? n - 2 : n - 1;
    int64_t best = 0;
    int best_j = -1;
    for (int j = i + 2; j <= j_end; ++j) {
      const int64_t gain = cost[i] + cost[j] - cur[j] - prev[j + 1];
      if (gain > best) best = gain, best_j = j;
    }
    if (best_j >= 0) out.push_back({best, {i, best_j}});
    std::swap(prev, cur);
  }
}

template <class Distance>
std::vector<Candidate> collect(const Distance& dist, int n, int threads, const StopFlag* stop, bool* stopped) {
  const int rows = n - 2;  // rows 0..n-3
  std::vector<Candidate> all;
  if (rows <= 0) return all;
  const int parts = std::max(1, std::min(threads, rows / 64 + 1));
  std::vector<std::vector<Candidate>> found(static_cast<size_t>(parts));
  std::atomic<bool> seen{false};
  // Rows are cut into parts of about equal work: row i holds n - i - 2 moves, so part p ends
  // where the remaining triangle is (p + 1) / parts of the whole.
  std::vector<int> bound(static_cast<size_t>(parts) + 1, 0);
  for (int p = 1; p < parts; ++p) {
    const double done = static_cast<double>(p) / parts;  // fraction of the work before the cut
    bound[p] = std::clamp(static_cast<int>(rows * (1.0 - std::sqrt(1.0 - done))), bound[p - 1], rows);
  }
  bound[parts] = rows;
#pragma omp parallel for schedule(static, 1) num_threads(parts) if (parts > 1)
  for (int p = 0; p < parts; ++p)
    if (bound[p] < bound[p + 1]) scan_rows(dist, n, bound[p], bound[p + 1] - 1, found[p], stop, seen);
  if (stopped != nullptr) *stopped = seen.load();
  for (auto& part : found) all.insert(all.end(), part.begin(), part.end());
  sort_candidates(all);
  return all;
}

}  // namespace

std::vector<Candidate> improving_moves(const Instance& instance, std::span<const int32_t> tour, int threads,
                                       const StopFlag* stop, bool* stopped) {
  const int n = static_cast<int>(tour.size());
  std::vector<int32_t> city(tour.begin(), tour.end());
  city.push_back(tour[0]);
  if (!instance.has_coordinates() || instance.type() == EdgeWeightType::Geo || instance.has_path_city())
    return collect(CityDistance{&instance, city.data()}, n, threads, stop, stopped);
  std::vector<double> x(static_cast<size_t>(n) + 1), y(x.size()), z(x.size(), 0.0);
  const bool three_d = !instance.z().empty();
  for (int p = 0; p <= n; ++p) {
    x[p] = instance.x()[city[p]];
    y[p] = instance.y()[city[p]];
    if (three_d) z[p] = instance.z()[city[p]];
  }
  const auto run = [&]<EdgeWeightType kType>() {
    return collect(PositionDistance<kType>{x.data(), y.data(), z.data()}, n, threads, stop, stopped);
  };
  switch (instance.type()) {
    case EdgeWeightType::Euc2D: return run.template operator()<EdgeWeightType::Euc2D>();
    case EdgeWeightType::Ceil2D: return run.template operator()<EdgeWeightType::Ceil2D>();
    case EdgeWeightType::Att: return run.template operator()<EdgeWeightType::Att>();
    case EdgeWeightType::Man2D: return run.template operator()<EdgeWeightType::Man2D>();
    case EdgeWeightType::Max2D: return run.template operator()<EdgeWeightType::Max2D>();
    default: return run.template operator()<EdgeWeightType::Euc3D>();
  }
}

ClimbCounts climb_best_improvement(const Instance& instance, std::span<int32_t> tour, int k_swap, int threads,
                                   const StopFlag* stop) {
  ClimbCounts counts;
  for (;;) {
    if (stop != nullptr && stop->requested()) {
      counts.completed = false;
      return counts;
    }
    bool stopped = false;
    const std::vector<Candidate> found = improving_moves(instance, tour, threads, stop, &stopped);
    if (stopped) {  // a part of a pass: the tour is left as it was before it
      counts.completed = false;
      return counts;
    }
    ++counts.passes;
    counts.evaluations += moves_per_pass(static_cast<int64_t>(tour.size()));
    if (found.empty()) return counts;
    const std::vector<Candidate> chosen = select_disjoint(found, k_swap);
    apply_moves(tour, chosen);
    counts.moves += static_cast<int64_t>(chosen.size());
  }
}

}  // namespace formica::localsearch::cpu
