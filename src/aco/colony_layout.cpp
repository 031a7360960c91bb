// SPDX-License-Identifier: MIT
// Colony layout and shared bookkeeping (see colony_layout.h).
#include "aco/colony_layout.h"

#include <algorithm>

#include "core/error.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/tour.h"

namespace formica::aco {
namespace {

constexpr uint64_t kSeedTag = 0x434f4c;  // "COL"

}  // namespace

ColonyLayout make_colony_layout(const Instance& instance, const ColonyConfig& config, const StopFlag* stop) {
  ColonyLayout layout;
  const int n = instance.n();
  layout.n = n;
  layout.colonies = config.colony_count();
  layout.group = config.group_size();
  layout.matrices = config.matrices();
  layout.first_ant.push_back(0);
  for (int c = 0; c < layout.colonies; ++c) {
    layout.rule.push_back(config.rule_of(c));
    const int m = config.ants_of(c, n);
    layout.first_ant.push_back(layout.first_ant.back() + m);
    layout.ant_colony.insert(layout.ant_colony.end(), static_cast<size_t>(m), c);
  }
  RandomStream seeds(derive_seed(config.seed, kSeedTag), 0);
  for (int a = 0; a < layout.total_ants(); ++a)
    layout.ant_seeds.push_back(static_cast<uint64_t>(seeds.next_u32()) << 32 | seeds.next_u32());
  layout.nn_length = std::max<int64_t>(tour_length(instance, nearest_neighbour_tour(instance, 0, stop)), 1);
  const double l_nn = static_cast<double>(layout.nn_length);
  layout.tau0 = 1.0 / (n * l_nn);
  layout.min_factor = config.focused()
                          ? mmas_min_factor_over(config.candidates, config.candidates, config.p_best)
                          : mmas_min_factor(n, config.p_best);
  switch (config.variant) {
    case ColonyVariant::Mmas:
      layout.bounds = BoundsKind::Mmas;
      layout.rho = config.evaporation();
      layout.initial = 1.0 / (config.evaporation() * l_nn);
      break;
    case ColonyVariant::Acs:
      layout.bounds = BoundsKind::Acs;
      layout.rho = 0.0;
      layout.initial = layout.tau0;
      break;
    case ColonyVariant::Gaco:
      // Li and Jin 3.1: tau_0 = tau_max = 1 / (rho L_bs) with L_bs = L_nn at the start; the first
      // update clamps it into [tau_min, 1 / L_bs] (a uniform matrix does not bias the first tours).
      layout.bounds = BoundsKind::Gaco;
      layout.rho = config.evaporation();
      layout.initial = 1.0 / (config.evaporation() * l_nn);
      break;
  }
  return layout;
}

long long ColonyLayout::group_best(int matrix, const std::vector<ColonyRecord>& records) const {
  return group_best_length(records.data(), matrix, group, nn_length);
}

Bounds ColonyLayout::bounds_of(int matrix, const std::vector<ColonyRecord>& records) const {
  return matrix_bounds(bounds, group_best(matrix, records), rho, min_factor, tau0);
}

float ColonyLayout::restart_value(int matrix, const std::vector<ColonyRecord>& records) const {
  return static_cast<float>(1.0 / (rho * static_cast<double>(group_best(matrix, records))));
}

int exchange_source(const ColonyLayout& layout, std::vector<ColonyRecord>& records, int iteration,
                    int exchange_interval, std::vector<int>& receivers) {
  receivers.clear();
  if (exchange_interval <= 0 || layout.matrices < 2 || iteration % exchange_interval != 0) return -1;
  int source = 0;
  for (int c = 1; c < layout.colonies; ++c)
    if (records[c].best_length < records[source].best_length) source = c;
  for (int c = 0; c < layout.colonies; ++c) {
    if (layout.matrix_of(c) == layout.matrix_of(source) || records[c].best_length <= records[source].best_length)
      continue;
    records[c].best_length = records[c].restart_length = records[source].best_length;
    records[c].restart_found = iteration;
    receivers.push_back(c);
  }
  return source;
}

void restart_records(const ColonyLayout& layout, std::vector<ColonyRecord>& records, int matrix, int iteration) {
  for (int c = matrix * layout.group; c < (matrix + 1) * layout.group; ++c) {
    records[c].restart_length = kNoLength;
    records[c].restart_iteration = iteration;
    records[c].restart_found = iteration;
  }
}

bool restart_due(const ColonyLayout& layout, const std::vector<ColonyRecord>& records, int matrix, int iteration,
                 int restart_after) {
  bool any_mmas = false;
  for (int c = matrix * layout.group; c < (matrix + 1) * layout.group; ++c) {
    if (layout.rule[c] != ColonyRule::Mmas) continue;
    any_mmas = true;
    if (iteration - records[c].restart_found <= restart_after) return false;
  }
  return any_mmas;
}

}  // namespace formica::aco
