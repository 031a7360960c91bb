// SPDX-License-Identifier: MIT
// Ant System on the GPU (Uchida et al. 2012, section 4): greedy start and tau_0 = m / L_nn, the
// fitness matrix recomputed each iteration, tour construction by any strategy of Uchida, Cecilia
// et al. and Zhou et al. (warp, block or thread per ant, STC, ST-DYNAMIC; KE-ALL or KE-ONE) with
// any selection it takes, and any pheromone-update design (Uchida's symmetrize pair, Cecilia's
// atomics and scatter-gather), chosen by a GpuPlan (aco/config.h).
// Host header: no CUDA types, so the solver and the tests include it in any build; the class is
// only defined when the CUDA backend is built.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "aco/config.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

class AntSystemCuda final : public Search {
 public:
  /// Sizes every device buffer first; throws OutOfMemoryError if the dense matrices do not fit
  /// in the GPU's free memory, InputError if a chosen kernel cannot run at this n.
  AntSystemCuda(const Instance& instance, const AntSystemConfig& config);
  ~AntSystemCuda() override;

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override;
  std::vector<int32_t> best_tour() const override;
  int64_t iteration_best_length() const override;
  StepTimes last_step_times() const override;
  Backend backend() const override { return Backend::Cuda; }

  int ants() const;
  double initial_pheromone() const;
  /// The pheromone matrix (n x n, row-major), copied from the device.
  std::vector<float> pheromone() const;
  /// The last iteration's tours (m x n visiting orders) and exact lengths, copied from the device.
  std::vector<int32_t> tours() const;
  std::vector<int64_t> tour_lengths() const;

  /// What runs: the configuration's GPU choices resolved for this instance.
  const GpuPlan& plan() const;

  /// Bytes of device memory the dense GPU Ant System takes for n cities.
  static size_t memory_bytes(int n, const AntSystemConfig& config);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace formica::aco
