// SPDX-License-Identifier: MIT
// The pheromone-update launcher (see pheromone_designs.cuh).
#include "aco/cuda/pheromone_designs.cuh"
#include "aco/cuda/pheromone_update.cuh"

namespace formica::aco::cuda {

size_t accumulator_cells(PheromoneUpdate design, int ld) {
  const bool atomic = design == PheromoneUpdate::Atomic || design == PheromoneUpdate::AtomicTiled;
  return atomic ? static_cast<size_t>(ld) * static_cast<size_t>(ld) : 0;
}

void launch_pheromone_design(PheromoneUpdate design, const PheromoneArgs& a, cudaStream_t stream) {
  switch (design) {
    case PheromoneUpdate::Symmetrize:
      launch_pheromone_update(a.tau, a.n, a.ld, a.m, a.successors, a.deposits, a.rho, a.scale, stream);
      return launch_symmetrize(a.tau, a.ld, stream);
    case PheromoneUpdate::Atomic:
    case PheromoneUpdate::AtomicTiled:
      launch_atomic_deposits(a, design == PheromoneUpdate::AtomicTiled, stream);
      return launch_evaporate_and_apply(a, stream);
    case PheromoneUpdate::ScatterGather:
    case PheromoneUpdate::ScatterGatherTiled:
    case PheromoneUpdate::ScatterGatherReduction: return launch_scatter_gather(design, a, stream);
  }
}

}  // namespace formica::aco::cuda
