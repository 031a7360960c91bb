// SPDX-License-Identifier: MIT
// Several colonies on one GPU (Li and Jin 3.3): per colony, the iteration-best ant, the
// best-so-far and restart-best tours and the depositor of the global update (the shared
// record_iteration of aco/colony_rules.h, run by one thread per colony), the depositor's tour as
// successor / predecessor arrays; and GACO's dynamic neighbours (Li and Jin 3.2, Eq. 5-6) from
// each matrix group's iteration-best tour. Everything stays on the device: the host reads the
// records back once per iteration.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "aco/colony_rules.h"
#include "cuda/device_distance.cuh"

namespace formica::aco::cuda {

struct ColonyBestArgs {
  int n = 0, colonies = 0;
  const int* first_ant = nullptr;
  const unsigned char* colony_acs = nullptr;
  const int32_t* tours = nullptr;
  const long long* lengths = nullptr;
  ColonyRecord* records = nullptr;
  int32_t* best_tours = nullptr;     ///< colonies x n
  int32_t* restart_tours = nullptr;  ///< colonies x n
  int32_t* next = nullptr;           ///< colonies x n: successor on the depositor's tour
  int32_t* previous = nullptr;       ///< colonies x n: predecessor
  bool increasing = false;
  int best_every = 25;
  int iteration = 0;
};

/// One block per colony: iteration-best ant (lowest index on ties), records, tour copies,
/// depositor adjacency.
void launch_colony_best(const ColonyBestArgs& args, cudaStream_t stream);

struct DynamicArgs {
  int n = 0, width = 0, k = 0, group = 1, matrices = 0;
  const int* first_ant = nullptr;
  const ColonyRecord* records = nullptr;
  const int32_t* tours = nullptr;
  int32_t* scratch_next = nullptr;      ///< matrices x n
  int32_t* scratch_previous = nullptr;  ///< matrices x n
  int32_t* ids = nullptr;               ///< matrices x n x width
  float* tau = nullptr;
  float* eta_beta = nullptr;
  int32_t* distances = nullptr;
  formica::cuda::DistanceView distance{};
  double beta = 2.0;
  BoundsKind kind = BoundsKind::Gaco;
  double rho = 0.02, min_factor = 1.0, tau0 = 0.0;
  long long nn_length = 1;
};

/// GACO: slots k and k + 1 of every row get the city's successor and predecessor on its group's
/// iteration-best tour (as install_dynamic_neighbours in aco/candidate_set.h).
void launch_dynamic_neighbours(const DynamicArgs& args, cudaStream_t stream);

}  // namespace formica::aco::cuda
