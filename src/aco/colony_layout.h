// SPDX-License-Identifier: MIT
// ColonyLayout: how the ants of several colonies and their pheromone matrices are laid out, the
// same on the CPU and the GPU: colony c owns ants [first_ant[c], first_ant[c + 1]) and uses matrix
// c / group; each ant has a 64-bit seed drawn once on the host (Li and Jin 3.2: seeds from the
// CPU, the rest of the random numbers on the device); its numbers in iteration t are the Philox
// stream (seed, 0, t). Also the host-side bookkeeping both backends share after an iteration:
// restarts and the exchange of best tours between matrix groups (Li and Jin 3.3).
#pragma once

#include <cstdint>
#include <vector>

#include "aco/colony_config.h"
#include "aco/colony_rules.h"
#include "core/instance.h"

namespace formica::aco {

struct ColonyLayout {
  int n = 0, colonies = 0, matrices = 0, group = 1;
  std::vector<int> first_ant;  ///< colonies + 1 offsets
  std::vector<ColonyRule> rule;
  std::vector<int32_t> ant_colony;  ///< per ant
  std::vector<uint64_t> ant_seeds;  ///< per ant
  BoundsKind bounds = BoundsKind::Mmas;
  double rho = 0.0;         ///< evaporation of the whole matrix (0 for ACS)
  double min_factor = 1.0;  ///< tau_min = min_factor / (rho L_bs) (MMAS, GACO)
  double tau0 = 0.0;        ///< ACS's tau_0 = 1 / (n L_nn): its local-update target and lower bound
  double initial = 0.0;     ///< initial pheromone: MMAS and GACO 1 / (rho L_nn), ACS tau_0
  int64_t nn_length = 0;    ///< L_nn, the nearest-neighbour tour from city 0

  int total_ants() const { return first_ant.back(); }
  int matrix_of(int colony) const { return colony / group; }
  /// The interval of `matrix` given the colonies' records.
  Bounds bounds_of(int matrix, const std::vector<ColonyRecord>& records) const;
  /// The best-so-far length over the colonies of `matrix` (L_nn before any tour).
  long long group_best(int matrix, const std::vector<ColonyRecord>& records) const;
  /// Re-initialisation value of `matrix` after stagnation (MMAS: tau_max of the current L_bs).
  float restart_value(int matrix, const std::vector<ColonyRecord>& records) const;
};

/// The layout of `config`'s colonies on `instance`; its nearest-neighbour tour (for tau_0) throws
/// SetupStopped when `stop` asks before it is done.
ColonyLayout make_colony_layout(const Instance& instance, const ColonyConfig& config, const StopFlag* stop = nullptr);

/// The colony whose best tour every other matrix group receives this iteration (exchange every K
/// iterations between groups), or -1. Updates the records of the receivers; the caller copies the
/// tours into their best-so-far and restart-best.
int exchange_source(const ColonyLayout& layout, std::vector<ColonyRecord>& records, int iteration,
                    int exchange_interval, std::vector<int>& receivers);

/// Marks every colony of `matrix` restarted at `iteration` (restart-best forgotten).
void restart_records(const ColonyLayout& layout, std::vector<ColonyRecord>& records, int matrix, int iteration);

/// True if `matrix` has MMAS-rule colonies whose restart-best is older than `restart_after`
/// iterations, the condition checked together with the branching factor every 100 iterations.
bool restart_due(const ColonyLayout& layout, const std::vector<ColonyRecord>& records, int matrix, int iteration,
                 int restart_after);

}  // namespace formica::aco
