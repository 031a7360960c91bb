// SPDX-License-Identifier: MIT
// Tour construction over candidate rows on the GPU (the CPU reference is
// aco/cpu/candidate_selection.h), three forms:
//   group of lanes per ant (MMAS, GACO): 32, 16 or 8 lanes per ant (one, two or four ants per
//     warp), each lane holding 1, 2 or 4 candidate slots of the current row; a step is one round of
//     loads and one max over the group: the proportional rule as an exponential race (slot s draws
//     E_s ~ Exp(1) and the largest f_s / E_s wins, which is slot s with probability f_s / sum f,
//     the roulette's distribution without its prefix sum), the greedy choice as the largest f_s.
//     When the matrix's rows fit in shared memory a block stages them there first, so a step
//     never waits on L2; the tours' lengths are summed afterwards, a warp per tour;
//   thread per ant (MMAS, GACO): Li and Jin's Algorithm 1 over the candidate rows, one thread
//     walks the row sequentially, visited set as a bitmask in global memory;
//   lockstep (ACS): one block per matrix, a warp per ant, a barrier after every step; the step's
//     local updates tau <- (1 - xi) tau + xi tau_0 are then applied once per distinct entry with
//     the number c of ants that crossed it, in the closed form tau_0 + (1 - xi)^c (tau - tau_0):
//     concurrent ants on one edge are counted, not raced, and the result is deterministic.
// Random numbers: a 64-bit seed per ant generated once on the host, then on the device SplitMix64
// at (iteration, step, lane) for the groups, Philox for lockstep (128 numbers per refill, one
// Philox block per lane) and thread per ant.
// Fallback when no candidate can be chosen: the first unvisited city of the sorted fallback list,
// else the nearest unvisited city by exact distance (lowest index on ties), as on the CPU.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "aco/colony_config.h"
#include "aco/colony_rules.h"
#include "aco/cuda/construction_lanes.h"
#include "cuda/device_distance.cuh"

namespace formica::aco::cuda {

struct CandidateConstructionArgs {
  int n = 0, width = 0, fallback_length = 0, group = 1;
  const int32_t* ids = nullptr;        ///< matrices x n x width candidate cities (-1: empty slot)
  const float* fitness = nullptr;      ///< matrices x n x width, f = tau^alpha eta^beta (group, thread)
  float* tau = nullptr;                ///< matrices x n x width (lockstep reads and updates it)
  const float* eta_beta = nullptr;     ///< matrices x n x width (lockstep)
  const int32_t* distances = nullptr;  ///< matrices x n x width exact distances of the entries
  const int32_t* fallback = nullptr;   ///< n x fallback_length, nearest first
  formica::cuda::DistanceView distance{};
  const int* first_ant = nullptr;      ///< colonies + 1 offsets
  const int* ant_colony = nullptr;     ///< per ant
  const unsigned char* colony_acs = nullptr;  ///< per colony: 1 for the pseudo-random rule
  const unsigned long long* ant_seeds = nullptr;
  float q0 = 0.f, alpha = 1.f;
  int* crossings = nullptr;            ///< GACO: counts of ACS-colony crossings per entry, or null
  float tau0 = 0.f, local_keep = 1.f;  ///< lockstep: ACS's tau_0 and 1 - xi
  const Bounds* bounds = nullptr;      ///< lockstep: per matrix
  unsigned iteration = 0;
  int32_t* tours = nullptr;            ///< ants x n
  long long* lengths = nullptr;        ///< exact tour lengths
  uint32_t* visited = nullptr;         ///< thread per ant: ants x visited_words bitmasks
  int visited_words = 0;               ///< (n + 31) / 32
  int max_ants_per_matrix = 0;        ///< ants of each matrix (the same for every matrix)
  int ants = 0;                       ///< all ants
  /// Mapped host memory (cuda/mapped_stop.cuh), or null for never: non-zero stops every ant within
  /// 64 steps, its tour left unfinished (the iteration is then abandoned). Past its candidate and
  /// fallback lists a step scans every unvisited city, so a walk can be O(n^2).
  const volatile int* stop = nullptr;
};

/// Launches one iteration's construction for every ant of every matrix: lockstep, else `lanes` (32,
/// 16 or 8: a group per ant; 1: a thread per ant) as construction_lanes chose once at set-up.
void launch_candidate_construction(int lanes, bool lockstep, int matrices, const CandidateConstructionArgs& args,
                                   cudaStream_t stream);

}  // namespace formica::aco::cuda
