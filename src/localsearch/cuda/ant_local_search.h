// Host entry to the GPU's ant local search (ant_local_search.cuh) for tests and benchmarks: no
// CUDA types, so CPU-only builds compile the files that include it (the function itself exists
// only when the CUDA backend is built).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "localsearch/config.h"

namespace formica::localsearch::cuda {

/// Climbs every tour of `tours` (whole tours of n cities one after another, replaced by the
/// result) on the GPU, a warp each, with the moves of `kind` (TwoOpt, OrOpt or ThreeOpt), as
/// NeighbourClimber with climb_options(kind, sweep = false) climbs them on the CPU: from `active[t]` (queued in that order, repeats skipped) or, when
/// `active` is empty, from every city in tour order. Returns each tour's exact gain. Checks that
/// the kernel left consistent positions and an empty queue.
std::vector<int64_t> climb_tours_on_gpu(const Instance& instance, const CandidateLists& lists, LocalSearchKind kind,
                                        std::vector<int32_t>& tours,
                                        std::span<const std::vector<int32_t>> active);

}  // namespace formica::localsearch::cuda
