// SPDX-License-Identifier: MIT
// The local search of the hybrid colonies on the GPU: a warp per ant's tour, the neighbour-list
// 2-opt, Or-opt and 3-opt of localsearch/neighbour_moves.h with don't-look bits, exactly as the CPU's
// NeighbourClimber without the final sweep (cpu/neighbour_list_climb.h), so that the same tour and
// the same active cities give the same result on both, move for move.
//
// Per ant, in global memory: the tour and its positions, a FIFO ring of active cities (capacity n:
// a city is queued at most once, its bit in `queued` says so) and the bits. Each step lane 0 takes
// a city off the queue; lane t evaluates the moves with the city's t-th listed neighbour (the same
// stopping rules as the CPU's loops, by ballot); the warp keeps the best move (largest gain, then
// the CPU's search order), applies it with WarpTour and lane 0 queues the cities of the changed
// edges. Distances are exact TSPLIB integers (cuda::DistanceView, double arithmetic without FMA
// contraction: the .cu files are compiled with --fmad=false), so every gain is exact and no move is
// ever taken that does not shorten the tour; each ant's length goes down by exactly its gains.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/device_distance.cuh"
#include "localsearch/config.h"

namespace formica::localsearch::cuda {

struct AntLocalSearchArgs {
  int n = 0, ants = 0, k = 0;
  LocalSearchKind moves = LocalSearchKind::OrOpt;  ///< TwoOpt, OrOpt or ThreeOpt
  /// true: every city is active at first, in tour order (the kernel builds pos and the queue);
  /// false: pos is current and queue_count[ant] cities already wait in the queue (focused ants).
  bool all_active = false;
  const int32_t* lists = nullptr;    ///< n x k neighbour lists, nearest first
  int32_t* tours = nullptr;          ///< ants x n
  int32_t* pos = nullptr;            ///< ants x n
  int32_t* queue = nullptr;          ///< ants x n ring
  uint32_t* queued = nullptr;        ///< ants x ceil(n / 32) bits, all clear when the kernel ends
  const int* queue_count = nullptr;  ///< per ant (all_active false)
  long long* lengths = nullptr;      ///< per ant, reduced by the ant's gains
  long long* gains = nullptr;        ///< per ant, the total gain (optional)
  /// Polled now and then (host memory mapped into the device, or null for never): non-zero stops
  /// every climb between two moves, its queue left as it is.
  const volatile int* stop = nullptr;
};

/// Climbs every ant's tour (a warp each) until its queue is empty.
void launch_ant_local_search(const AntLocalSearchArgs& args, const formica::cuda::DistanceView& distance,
                             cudaStream_t stream);

/// Queues `city` in an ant's ring if its bit is clear (one lane calls it). `count` is the number of
/// cities queued so far after `head`.
__device__ inline void queue_city(int32_t* ring, uint32_t* bits, int n, int head, int& count, int city) {
  const uint32_t mask = 1u << (city & 31);
  if (bits[city >> 5] & mask) return;
  bits[city >> 5] |= mask;
  int slot = head + count;
  if (slot >= n) slot -= n;
  ring[slot] = city;
  ++count;
}

}  // namespace formica::localsearch::cuda
