// SPDX-License-Identifier: MIT
// CPU Ant System (see ant_system.h).
#include "aco/cpu/ant_system.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "aco/cpu/ant_path.h"
#include "aco/cpu/selection.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/search.h"
#include "core/timer.h"
#include "core/tour.h"

namespace formica::aco {
namespace {

constexpr uint64_t kConstructionTag = 0x4153;  // "AS"

/// Steps of an ant's walk between two looks at the stop: a step reads a row of n entries, so a
/// walk of 20,000 cities is 4 * 10^8 reads, half a second that a look per ant would overrun by.
constexpr int kStopCheckSteps = 64;

/// Whether `stop` asks, remembered in `seen` so that the other threads skip their rows at once.
bool stop_seen(std::atomic<bool>& seen, const StopFlag& stop) {
  if (seen.load(std::memory_order_relaxed)) return true;
  if (!stop.requested()) return false;
  seen = true;
  return true;
}

}  // namespace

size_t AntSystemCpu::memory_bytes(int n, const AntSystemConfig& config) {
  const size_t cells = static_cast<size_t>(n) * static_cast<size_t>(n);
  const size_t m = config.ants > 0 ? static_cast<size_t>(config.ants) : static_cast<size_t>(n);
  return cells * 3 * sizeof(float) + (needs_prefix_sums(config.selection) ? cells * sizeof(double) : 0) +
         m * static_cast<size_t>(n) * sizeof(int32_t) + m * sizeof(int64_t);
}

AntSystemCpu::AntSystemCpu(const Instance& instance, const AntSystemConfig& config, const StopFlag* setup_stop)
    : instance_(instance), config_(config), n_(instance.n()),
      m_(config.ants > 0 ? config.ants : instance.n()) {
  config_.validate();
  require_cpu_defaults(config_);
  // Planned before anything is allocated: a size that cannot fit is refused (exit code 3).
  expect_memory(memory_bytes(n_, config_), available_host_memory(),
                concat("the dense Ant System (n x n matrices, n = ", n_, ", ", m_, " ants)"));
  const StopFlag stop = preparation_stop(setup_stop);
  cells_ = static_cast<size_t>(n_) * static_cast<size_t>(n_);
  eta_beta_.reset(new float[cells_]);
  tau_.reset(new float[cells_]);
  fitness_.reset(new float[cells_]);
  if (needs_prefix_sums(config_.selection)) prefix_.reset(new double[cells_]);
  tours_.reset(new int32_t[static_cast<size_t>(m_) * n_]);
  lengths_.resize(static_cast<size_t>(m_));

  // tau_0 = m / L_nn: the pheromone m ants would lay on the greedy tour, spread over all edges
  // (Uchida et al. section 2.3; with the default m = n it is their n / L(T_G)).
  const int64_t nn_length = tour_length(instance, nearest_neighbour_tour(instance, 0, &stop));
  tau0_ = static_cast<double>(m_) / static_cast<double>(std::max<int64_t>(nn_length, 1));
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, 16) num_threads(config_.threads) if (config_.threads > 1)
  for (int i = 0; i < n_; ++i) {
    if (stop_seen(stopped, stop)) continue;
    float* eta = eta_beta_.get() + static_cast<size_t>(i) * n_;
    for (int j = 0; j < n_; ++j)
      eta[j] = i == j ? 0.0f : static_cast<float>(std::pow(heuristic(instance.distance(i, j)), config_.beta));
    std::fill_n(tau_.get() + static_cast<size_t>(i) * n_, n_, static_cast<float>(tau0_));
  }
  if (stopped) throw SetupStopped();
}

bool AntSystemCpu::compute_fitness(const StopFlag& stop) {
  const bool plain = config_.alpha == 1.0;
  const float alpha = static_cast<float>(config_.alpha);
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, 16) num_threads(config_.threads) if (config_.threads > 1)
  for (int i = 0; i < n_; ++i) {
    if (stop_seen(stopped, stop)) continue;
    const size_t row = static_cast<size_t>(i) * n_;
    for (size_t c = row; c < row + static_cast<size_t>(n_); ++c)
      fitness_[c] = (plain ? tau_[c] : std::pow(tau_[c], alpha)) * eta_beta_[c];
    if (!prefix_) continue;
    double q = 0.0;
    for (size_t c = row; c < row + static_cast<size_t>(n_); ++c) {
      q += fitness_[c];
      prefix_[c] = q;
    }
  }
  return !stopped;
}

bool AntSystemCpu::step(const StopFlag& stop) {
  const Stopwatch clock;
  if (!compute_fitness(stop)) return false;
  std::atomic<bool> abandoned{false};
  const uint64_t seed = derive_seed(config_.seed, kConstructionTag);
  const auto substream = static_cast<uint32_t>(iteration_);
#pragma omp parallel num_threads(config_.threads) if (config_.threads > 1)
  {
    AntPath path(n_);
#pragma omp for schedule(dynamic, 1)
    for (int k = 0; k < m_; ++k) {
      if (stop_seen(abandoned, stop)) continue;
      RandomStream rng(seed, static_cast<uint64_t>(k), substream);
      path.reset(static_cast<int>(rng.below(static_cast<uint32_t>(n_))));
      while (path.visited_count() < n_) {
        if (path.visited_count() % kStopCheckSteps == 0 && stop_seen(abandoned, stop)) break;
        const size_t row = static_cast<size_t>(path.current()) * n_;
        const std::span<const float> f(fitness_.get() + row, static_cast<size_t>(n_));
        const std::span<const double> q =
            prefix_ ? std::span<const double>(prefix_.get() + row, static_cast<size_t>(n_)) : std::span<const double>{};
        path.visit(select_next(config_, f, q, path, rng));
      }
      if (path.visited_count() < n_) continue;
      std::copy(path.order().begin(), path.order().end(), tours_.get() + static_cast<ptrdiff_t>(k) * n_);
      lengths_[k] = tour_length(instance_, path.order());
    }
  }
  if (abandoned) return false;
  const double construction_ms = clock.seconds() * 1e3;

  const Stopwatch update_clock;
  update_pheromone(tours(), lengths_);
  times_.pheromone_ms = update_clock.seconds() * 1e3;
  times_.construction_ms = construction_ms;

  const auto best = std::min_element(lengths_.begin(), lengths_.end()) - lengths_.begin();
  iteration_best_ = lengths_[best];
  if (best_tour_.empty() || iteration_best_ < best_length_) {
    best_length_ = iteration_best_;
    best_tour_.assign(tours_.get() + best * n_, tours_.get() + (best + 1) * n_);
  }
  ++iteration_;
  times_.total_ms = clock.seconds() * 1e3;
  return true;
}

void AntSystemCpu::update_pheromone(std::span<const int32_t> tours, std::span<const int64_t> lengths) {
  const float keep = static_cast<float>(1.0 - config_.rho);
#pragma omp parallel for schedule(static) num_threads(config_.threads) if (config_.threads > 1)
  for (size_t c = 0; c < cells_; ++c) tau_[c] *= keep;
  // Deposits run in ant order so that every thread count gives bit-identical pheromone.
  const size_t ants = lengths.size();
  for (size_t k = 0; k < ants; ++k) {
    const float deposit = static_cast<float>(1.0 / static_cast<double>(std::max<int64_t>(lengths[k], 1)));
    const int32_t* tour = tours.data() + k * static_cast<size_t>(n_);
    for (int p = 0; p < n_; ++p) {
      const size_t i = static_cast<size_t>(tour[p]), j = static_cast<size_t>(tour[(p + 1) % n_]);
      tau_[i * n_ + j] += deposit;
      tau_[j * n_ + i] += deposit;
    }
  }
}

}  // namespace formica::aco
