// SPDX-License-Identifier: MIT
// Focused construction on the GPU (Skinderowicz 2022; the CPU reference and the description are in
// aco/cpu/focused_construction.h): a warp per ant copies its colony's source tour and positions,
// then walks it, re-deciding at most `edges` edges by 2-opt moves (localsearch/cuda/warp_tour.cuh),
// and queues the cities of the changed edges for the local search. The walk draws exactly the
// numbers the CPU draws (RandomStream(seed, 0, iteration), every lane holding the same stream) and
// chooses exactly as the CPU's select_proportional / select_greedy (sums in double, in a warp
// scan's order: aco::warp_order_prefix), so one source, one fitness matrix and one seed give the
// same tour on both.
//
// Also: the sources of the next iteration (each colony's depositor tour, its positions and length),
// set on the device from the colony records.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "aco/colony_rules.h"
#include "cuda/device_distance.cuh"

namespace formica::aco::cuda {

struct FocusedWalkArgs {
  int n = 0, width = 0, group = 1, ants = 0, edges = 0;
  const int* colony_edges = nullptr;          ///< per colony: edges to re-decide (overrides `edges`), or null
  const int32_t* ids = nullptr;               ///< matrices x n x width candidate cities (-1: empty slot)
  const float* fitness = nullptr;             ///< matrices x n x width
  const int* ant_colony = nullptr;            ///< per ant
  const unsigned char* colony_acs = nullptr;  ///< per colony: 1 for the pseudo-random rule (q0)
  double q0 = 0.0;                            ///< in double, as the CPU compares it
  const unsigned long long* ant_seeds = nullptr;
  unsigned iteration = 0;                     ///< the Philox substream (as on the CPU)
  const int32_t* source_tours = nullptr;      ///< colonies x n
  const int32_t* source_pos = nullptr;        ///< colonies x n
  const long long* source_lengths = nullptr;  ///< per colony
  int32_t* tours = nullptr;                   ///< ants x n
  int32_t* pos = nullptr;                     ///< ants x n
  uint32_t* walked = nullptr;                 ///< ants x ceil(n / 32) bits
  int32_t* queue = nullptr;                   ///< ants x n ring of the local search, or null: no queueing
  uint32_t* queued = nullptr;                 ///< ants x ceil(n / 32) bits (clear on entry)
  int* queue_count = nullptr;                 ///< per ant: cities queued
  long long* lengths = nullptr;               ///< per ant: the source's length plus the walk's change
};

/// One walk per ant, a warp each.
void launch_focused_walks(const FocusedWalkArgs& args, const formica::cuda::DistanceView& distance,
                          cudaStream_t stream);

struct SourceArgs {
  int n = 0, colonies = 0;
  const int* first_ant = nullptr;
  const ColonyRecord* records = nullptr;   ///< this iteration's, depositors chosen
  const int32_t* tours = nullptr;          ///< ants x n
  const int32_t* best_tours = nullptr;     ///< colonies x n
  const int32_t* restart_tours = nullptr;  ///< colonies x n
  int32_t* source_tours = nullptr;         ///< colonies x n
  int32_t* source_pos = nullptr;           ///< colonies x n
  long long* source_lengths = nullptr;     ///< per colony
};

/// Each colony's source for the next iteration: its depositor's tour (aco::depositor_length).
void launch_set_sources(const SourceArgs& args, cudaStream_t stream);

}  // namespace formica::aco::cuda
