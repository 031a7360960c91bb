// SPDX-License-Identifier: MIT
// CPU 2-opt with random restarts (see two_opt_cpu.h).
#include "localsearch/cpu/two_opt_cpu.h"

#include <atomic>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/timer.h"
#include "core/tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"

namespace formica::localsearch::cpu {
namespace {

/// Below this many cities a climb is cheap enough to give each thread its own restart.
constexpr int kParallelRestartsMaxCities = 3000;

}  // namespace

TwoOptCpu::TwoOptCpu(const Instance& instance, const TwoOptConfig& config) : TwoOptSearch(instance, config) {
  if (config_.neighbours > 0 && instance_.n() >= kNeighbourListMinCities)
    lists_ = build_candidate_lists(instance_, config_.neighbours, config_.threads);
}

bool TwoOptCpu::parallel_restarts() const {
  return config_.threads > 1 && instance_.n() < kParallelRestartsMaxCities;
}

int64_t TwoOptCpu::batch_size(int64_t) { return parallel_restarts() ? config_.threads : 1; }

std::string TwoOptCpu::describe_launch() const {
  return concat("CPU, ", config_.threads, config_.threads == 1 ? " thread" : " threads",
                parallel_restarts() ? ", one restart per thread" : ", threads share each pass",
                lists_ ? concat(", neighbour lists k=", lists_->k()) : std::string());
}

ClimbCounts TwoOptCpu::climb(std::span<int32_t> tour, int threads, const StopFlag* stop, TwoOptStats& stats) {
  if (lists_) {
    const NeighbourClimbCounts pre = climb_neighbour_lists(instance_, *lists_, tour, stop);
    stats.neighbour_passes += pre.evaluated;
    stats.moves += pre.moves;
    if (!pre.completed) return ClimbCounts{.completed = false};
  }
  const ClimbCounts counts = climb_best_improvement(instance_, tour, config_.k_swap, threads, stop);
  stats.passes += counts.passes;
  stats.evaluations += counts.evaluations;
  stats.moves += counts.moves;
  return counts;
}

bool TwoOptCpu::climb_batch(int64_t first, int64_t count, const StopFlag& stop, Batch& out) {
  const Stopwatch clock;
  const bool parallel = parallel_restarts() && count > 1;
  const int inner_threads = parallel ? 1 : config_.threads;
  std::vector<int64_t> lengths(static_cast<size_t>(count), std::numeric_limits<int64_t>::max());
  std::vector<std::vector<int32_t>> tours(static_cast<size_t>(count));
  std::vector<TwoOptStats> stats(static_cast<size_t>(count));
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(config_.threads) if (parallel)
  for (int64_t r = 0; r < count; ++r) {
    if (stopped.load(std::memory_order_relaxed)) continue;
    std::vector<int32_t> tour = start_tour(instance_, config_.start, config_.seed, first + r);
    if (!climb(tour, inner_threads, &stop, stats[r]).completed) {
      stopped = true;
      continue;
    }
    stats[r].restarts = 1;
    lengths[r] = tour_length(instance_, tour);
    tours[r] = std::move(tour);
  }
  if (stopped) return false;
  int64_t best = 0;
  for (int64_t r = 0; r < count; ++r) {
    if (lengths[r] < lengths[best]) best = r;
    out.stats += stats[r];
  }
  out.best_restart = first + best;
  out.best_length = lengths[best];
  out.best_tour = std::move(tours[best]);
  out.stats.climb_ms = clock.seconds() * 1e3;
  return true;
}

}  // namespace formica::localsearch::cpu
