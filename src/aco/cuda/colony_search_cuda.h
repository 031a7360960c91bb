// SPDX-License-Identifier: MIT
// MMAS, ACS and GACO on the GPU, several colonies at once (Li and Jin 3.3): the same layout and
// pheromone semantics as the CPU's ColonySearchCpu (aco/colony_rules.h), with
//   candidate_construction.cu: a warp per ant (one lane per candidate) or a thread per ant (Li and
//     Jin's Algorithm 1) for MMAS and GACO; a block per matrix with every ant in lockstep for ACS,
//     whose local updates are applied between steps in closed form (acs_local_update.cuh);
//   colonies.cu: per-colony best tours, depositors, GACO's dynamic neighbours;
//   candidate_pheromone.cu: the global update of every rule, bounds and fitness in one pass.
// Host header: no CUDA types, so the solver and the tests include it in any build; the class is
// only defined when the CUDA backend is built.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "aco/colony_config.h"
#include "aco/colony_merge.h"
#include "aco/colony_rules.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

class ColonySearchCuda final : public Search {
 public:
  /// Throws OutOfMemoryError if the buffers do not fit in the GPU's free memory, InputError if
  /// the configuration cannot run on the GPU (warp per ant needs k + dynamic slots <= 32; ACS runs
  /// every ant of a matrix in one block, at most 32).
  /// Focused colonies start from `start_tour` when one is given (a permutation of the cities),
  /// else from focused_start_tour(), whose climbs end early when `setup_stop` asks; colonies that
  /// are not focused take none. With config.lk_threads > 0, `host_threads` starts the threads
  /// beside the colonies (aco/colony_merge.h; the solver gives hybrid::start_host_threads).
  ColonySearchCuda(const Instance& instance, const ColonyConfig& config, std::vector<int32_t> start_tour = {},
                   const StopFlag* setup_stop = nullptr, const StartHostThreads& host_threads = {});
  ~ColonySearchCuda() override;

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override;
  std::vector<int32_t> best_tour() const override;
  int64_t iteration_best_length() const override;
  StepTimes last_step_times() const override;
  Backend backend() const override { return Backend::Cuda; }
  /// --lk-threads: stops the threads and merges their best tour in.
  void finish() override;
  /// As on the CPU (ColonySearchCpu::adopt): merged on the host with the best colony's best tour,
  /// a shorter result uploaded as that colony's best, restart-best and (focused) source tour.
  bool supports_adoption() const override { return true; }
  bool adopt(std::span<const int32_t> tour, int64_t length) override;
  /// As on the CPU: the merger's ledger.
  const Credits* credits() const override;

  int matrices() const;
  int total_ants() const;
  /// Matrix `matrix`'s pheromone (n x width) and candidate ids, copied from the device.
  std::vector<float> pheromone(int matrix) const;
  std::vector<int32_t> candidate_ids(int matrix) const;
  /// GACO: how often the ACS colonies' ants of the last step crossed each entry of matrix
  /// `matrix` (n x width, both directions of an edge counted), copied from the device.
  std::vector<int> crossings(int matrix) const;
  /// The interval the last update clamped `matrix` into.
  Bounds bounds(int matrix) const;
  std::vector<int64_t> group_best_lengths() const;
  std::vector<int32_t> group_best_tour(int matrix) const;
  int restarts() const;
  /// --merge-tours: merges that shortened the best tour (aco/colony_merge.h).
  int merges() const;
  /// The last iteration's tours (ant-major) and exact lengths, copied from the device.
  std::vector<int32_t> tours() const;
  std::vector<int64_t> tour_lengths() const;
  /// Focused construction: the tour colony `colony`'s ants start from next iteration (from the device).
  std::vector<int32_t> source_tour(int colony) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace formica::aco
