// SPDX-License-Identifier: MIT
// Ant System on the CPU (Dorigo et al. 1996, as in Uchida et al. 2012 section 2): the sequential
// baseline of every GPU speed-up, and a multi-threaded version that gives the same result for the
// same seed (ants draw from their own Philox streams; deposits are applied in ant order).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "aco/config.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

class AntSystemCpu final : public Search {
 public:
  /// Allocates the dense n x n matrices: throws OutOfMemoryError before allocating when
  /// memory_bytes() exceeds the memory available (core/memory.h), and SetupStopped when the
  /// preparation stop of `setup_stop` (core/search.h) asks before the matrices are filled in
  /// (20,000 cities: 4 * 10^8 entries of each, seconds of work).
  AntSystemCpu(const Instance& instance, const AntSystemConfig& config, const StopFlag* setup_stop = nullptr);

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override { return best_tour_; }
  int64_t iteration_best_length() const override { return iteration_best_; }
  StepTimes last_step_times() const override { return times_; }
  Backend backend() const override { return Backend::Cpu; }

  int ants() const { return m_; }
  double initial_pheromone() const { return tau0_; }
  /// The pheromone matrix, row-major n x n.
  std::span<const float> pheromone() const { return {tau_.get(), cells_}; }
  /// Tours of the last iteration, m rows of n cities.
  std::span<const int32_t> tours() const { return {tours_.get(), static_cast<size_t>(m_) * n_}; }
  std::span<const int64_t> tour_lengths() const { return lengths_; }

  /// Evaporation followed by every ant's deposit of 1 / L_k on (i, j) and (j, i) (section 2.2).
  /// Public so tests can drive it with chosen tours.
  void update_pheromone(std::span<const int32_t> tours, std::span<const int64_t> lengths);

  /// Bytes of host memory the dense matrices and the ants' tours take for n cities and this config
  /// (the memory plan's figure, solver.cpp).
  static size_t memory_bytes(int n, const AntSystemConfig& config);

 private:
  /// The fitness (and prefix sums) of every row; false when `stop` asked first.
  bool compute_fitness(const StopFlag& stop);

  const Instance& instance_;
  AntSystemConfig config_;
  int n_, m_;
  double tau0_;
  // The n x n matrices are left uninitialised when allocated (no vector's zero fill): their pages
  // are touched as the rows are filled in, each row after a look at the stop.
  size_t cells_ = 0;
  std::unique_ptr<float[]> eta_beta_;  // (1 / d_ij)^beta, computed once
  std::unique_ptr<float[]> tau_;       // pheromone
  std::unique_ptr<float[]> fitness_;   // f_ij = tau_ij^alpha * eta_ij^beta, recomputed each iteration
  std::unique_ptr<double[]> prefix_;   // q'_ij, per-row prefix sums (stochastic trial, hybrid); null otherwise
  std::unique_ptr<int32_t[]> tours_;   // m rows of n cities
  std::vector<int64_t> lengths_;
  std::vector<int32_t> best_tour_;
  int64_t best_length_ = 0, iteration_best_ = 0;
  uint64_t iteration_ = 0;
  StepTimes times_;
};

}  // namespace formica::aco
