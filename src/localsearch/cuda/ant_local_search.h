// SPDX-License-Identifier: MIT
// Host entry to the GPU's neighbour-list climbs (ant_local_search.cuh) for whole tours: no
// CUDA types, so CPU-only builds compile the files that include it (the function itself exists
// only when the CUDA backend is built).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "localsearch/config.h"

namespace formica::localsearch::cuda {

/// What climb_tours_on_gpu did: each tour's exact gain, and whether every climb ended in its local
/// optimum (false: `stop` cut them off between two moves).
struct ClimbedOnGpu {
  std::vector<int64_t> gains;
  bool completed = true;
};

/// Climbs every tour of `tours` (whole tours of n cities one after another, replaced by the
/// result) on the GPU, a warp each, with the moves of `kind` (TwoOpt, OrOpt or ThreeOpt), as
/// NeighbourClimber with climb_options(kind, sweep = false) climbs them on the CPU: from `active[t]`
/// (queued in that order, repeats skipped) or, when `active` is empty, from every city in tour
/// order. `stop` (when given) is watched while the climbs run and cuts them off between two moves,
/// each tour still a permutation that its gain shortened. Checks that the kernel left consistent
/// positions and, when not stopped, an empty queue. Runs on a stream of its own. GA-EAX's start
/// tours (population/edge_assembly_search.cpp) and the tests call it.
ClimbedOnGpu climb_tours_on_gpu(const Instance& instance, const CandidateLists& lists, LocalSearchKind kind,
                                std::vector<int32_t>& tours, std::span<const std::vector<int32_t>> active,
                                const StopFlag* stop = nullptr);

}  // namespace formica::localsearch::cuda
