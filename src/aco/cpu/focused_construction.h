// SPDX-License-Identifier: MIT
// Focused construction (Skinderowicz 2022, "Improving Ant Colony Optimization efficiency for
// solving large TSP instances", section 3): an ant does not build its tour from nothing; it starts
// from a copy of its colony's source tour (the tour that deposited last) and re-decides a limited
// number of edges, so that the local search after it only needs to look at the ends of the edges
// that changed. This is what lets ant colonies with local search reach 100,000 cities and more.
//
// The walk: from a random city, the ant follows its tour; at each step it draws the next city by
// its colony's rule over the candidate row of the current city, among the cities the walk has not
// passed. Drawing the tour neighbour ahead keeps the tour. Drawing another city c re-decides an
// edge: the 2-opt move that makes c follow the current city (removing the edge ahead and c's edge
// on the far side) is applied, so the tour stays a tour and the walk goes on from c. The walk ends
// after `edges` re-decided edges, or once it has passed every city, so the tour differs from the
// source in at most 2 * edges edges. (FACO itself builds the tour city by city and copies stretches
// of the source once enough edges are new; re-deciding edges by 2-opt moves on the copied tour gives
// the same kind of tour in time proportional to the walk, and maps onto a warp per ant on the GPU,
// aco/cuda/focused_construction.cu, which follows this file step for step.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "aco/candidate_set.h"
#include "aco/colony_config.h"
#include "core/candidates.h"
#include "core/instance.h"
#include "core/rng.h"
#include "core/search.h"
#include "localsearch/cpu/array_tour.h"

namespace formica::aco {

constexpr int kRestartWalkFactor = 8;

/// Cities from which the focused start tour is a space-filling-curve tour walked a stretch at a
/// time (decomposition/stretch_lin_kernighan.h) before its climb. H100 host (14 threads): a
/// million cities, nearest neighbour and climb 97 s, the stretches and climb 23 s to the first
/// iteration's end; 200,000 cities 2.5 s the one way, 6.8 s the other.
constexpr int kStretchStartCities = 500000;

/// The tour every colony's focused ants start from before the first iteration, on both backends:
/// the nearest-neighbour tour from city 0, climbed with the colony's local search (with the final
/// sweep) when `lists` is given; from kStretchStartCities cities with coordinates, the
/// space-filling-curve tour, its stretches climbed by Lin-Kernighan on config.threads threads (two
/// rounds, the second cut half a stretch on), then the climb. The same on every thread count. The
/// climbs end early, the tour valid, when `stop` asks (the time limit reached while the search is
/// set up: 100,000 cities and more on a few cores).
std::vector<int32_t> focused_start_tour(const Instance& instance, const ColonyConfig& config,
                                        const CandidateLists* lists, const StopFlag* stop = nullptr);

/// Edges a focused ant re-decides in the first iteration after its colony's pheromone was reset
/// (an MMAS restart): enough to leave the basin of the source tour, which the reset alone does not
/// (the walks would re-decide `focused_edges` edges of the same source).
inline int restart_walk_edges(int n, int focused_edges) {
  return static_cast<int>(std::min<int64_t>(n, int64_t{kRestartWalkFactor} * focused_edges));
}

/// The cities a walk has passed, cleared in O(1) per walk by an epoch counter.
class WalkMarks {
 public:
  explicit WalkMarks(int n) : stamp_(static_cast<size_t>(n), 0) {}
  void next_walk();
  void mark(int city) { stamp_[city] = epoch_; }
  bool visited(int city) const { return stamp_[city] == epoch_; }

 private:
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
};

struct FocusedWalk {
  int64_t delta = 0;  ///< exact length after minus length before
  int changed = 0;    ///< edges re-decided (2-opt moves applied)
  int steps = 0;      ///< cities the walk moved to
};

/// Walks `tour` (a copy of the source, edited in place) as described in the file comment and
/// appends the four cities of every changed pair of edges to `touched`. `fitness` is the matrix's
/// n x width f = tau^alpha eta^beta; `q0` > 0 gives the pseudo-random proportional rule of ACS
/// (the greedy choice with probability q0). Random numbers: the start city, then per step one
/// (proportional) or two (q0 > 0: greedy test, then proportional) doubles.
FocusedWalk focused_walk(const Instance& instance, const CandidateSet& set, std::span<const float> fitness,
                         localsearch::cpu::ArrayTour& tour, int edges, double q0, RandomStream& rng,
                         WalkMarks& walked, std::vector<int32_t>& touched);

}  // namespace formica::aco
