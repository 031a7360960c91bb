// Neighbour-list 2-opt with don't-look bits (Bentley 1992), the CPU's fast first phase on large
// tours: each active city tries the 2-opt moves that give it an edge to one of its k nearest
// neighbours, best of them first, so a pass costs O(n k) instead of O(n^2). The result is a local
// optimum for those moves only; the full passes of best_improvement_pass.h then certify (and if
// needed finish) the 2-opt local optimum.
#pragma once

#include <cstdint>
#include <span>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::localsearch::cpu {

struct NeighbourClimbCounts {
  int64_t evaluated = 0;  ///< cities taken off the queue and tried
  int64_t moves = 0;      ///< moves applied
  bool completed = true;  ///< false when a stop request ended the climb early
};

/// Improves `tour` in place until no city has an improving neighbour-list move: every city starts on
/// the work queue, the four cities of an applied move go back on it, and when it runs dry a sweep
/// over all cities confirms (or resumes). Each move reverses the shorter of its two segments.
/// Exact gains. `stop`, when given, is polled now and then.
NeighbourClimbCounts climb_neighbour_lists(const Instance& instance, const CandidateLists& lists,
                                           std::span<int32_t> tour, const StopFlag* stop = nullptr);

}  // namespace formica::localsearch::cpu
