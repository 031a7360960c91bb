// Ant System on the CPU (Dorigo et al. 1996, as in Uchida et al. 2012 section 2): the sequential
// baseline of every GPU speed-up, and a multi-threaded version that gives the same result for the
// same seed (ants draw from their own Philox streams; deposits are applied in ant order).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/config.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

class AntSystemCpu final : public Search {
 public:
  /// Allocates the dense n x n matrices; throws OutOfMemoryError if they cannot fit in memory.
  AntSystemCpu(const Instance& instance, const AntSystemConfig& config);

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override { return best_tour_; }
  int64_t iteration_best_length() const override { return iteration_best_; }
  StepTimes last_step_times() const override { return times_; }
  Backend backend() const override { return Backend::Cpu; }

  int ants() const { return m_; }
  double initial_pheromone() const { return tau0_; }
  /// The pheromone matrix, row-major n x n.
  std::span<const float> pheromone() const { return tau_; }
  /// Tours of the last iteration, m rows of n cities.
  std::span<const int32_t> tours() const { return tours_; }
  std::span<const int64_t> tour_lengths() const { return lengths_; }

  /// Evaporation followed by every ant's deposit of 1 / L_k on (i, j) and (j, i) (section 2.2).
  /// Public so tests can drive it with chosen tours.
  void update_pheromone(std::span<const int32_t> tours, std::span<const int64_t> lengths);

  /// Bytes of host memory the dense matrices take for n cities and this config.
  static size_t memory_bytes(int n, const AntSystemConfig& config);

 private:
  void compute_fitness();

  const Instance& instance_;
  AntSystemConfig config_;
  int n_, m_;
  double tau0_;
  std::vector<float> eta_beta_;  // (1 / d_ij)^beta, computed once
  std::vector<float> tau_;       // pheromone
  std::vector<float> fitness_;   // f_ij = tau_ij^alpha * eta_ij^beta, recomputed each iteration
  std::vector<double> prefix_;   // q'_ij, per-row prefix sums (stochastic trial, hybrid)
  std::vector<int32_t> tours_;
  std::vector<int64_t> lengths_;
  std::vector<int32_t> best_tour_;
  int64_t best_length_ = 0, iteration_best_ = 0;
  uint64_t iteration_ = 0;
  StepTimes times_;
};

}  // namespace formica::aco
