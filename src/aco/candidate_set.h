// SPDX-License-Identifier: MIT
// CandidateSet: what every colony variant chooses among. Row i holds `width` entries: the k
// nearest neighbours of i (static, nearest first), then `dynamic` slots for GACO's dynamic
// neighbours (Li and Jin 3.2, Eq. 5-6: the successor and the predecessor of i on the last
// iteration's best tour when they are not static candidates; -1 when empty). Pheromone and
// fitness are stored per entry (n x width floats), so memory and time per step do not grow with n.
// A longer sorted list per city (fallback_list_length) serves the fallback when no candidate is
// unvisited.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

struct CandidateSet {
  int n = 0, k = 0, dynamic = 0, width = 0, fallback_length = 0;
  std::vector<int32_t> ids;        ///< n x width; dynamic slots start empty (-1)
  std::vector<float> eta_beta;     ///< n x width, (1 / d)^beta (0 for empty slots)
  std::vector<int32_t> fallback;   ///< n x fallback_length nearest neighbours, nearest first

  std::span<const int32_t> row(int city) const {
    return {ids.data() + static_cast<size_t>(city) * width, static_cast<size_t>(width)};
  }
  /// The slot of `to` in row `from`, or -1.
  int slot_of(int from, int to) const {
    const int32_t* r = ids.data() + static_cast<size_t>(from) * width;
    for (int s = 0; s < width; ++s)
      if (r[s] == to) return s;
    return -1;
  }
};

/// k static candidates (clamped to n - 1) of the given shape plus `dynamic` empty slots per city;
/// eta^beta as in aco::heuristic. The fallback lists are the nearest cities whatever the shape.
/// Throws InputError for k < 1.
/// `long_fallback`: the GPU colonies' longer fallback lists (fallback_list_length). Throws
/// SetupStopped when `stop` asks before the set is built.
CandidateSet build_candidate_set(const Instance& instance, int k, int dynamic, double beta, int threads,
                                 NeighbourShape shape = NeighbourShape::Nearest, bool long_fallback = false,
                                 const StopFlag* stop = nullptr);

struct ColonyConfig;

/// The local search's neighbour lists of `config` (ls_neighbours long): the neighbour_lists shape,
/// or with LsCandidates::Alpha the alpha-nearest of a Held-Karp ascent (bounds/alpha_nearness.h)
/// that may take a tenth of the time left before `setup_stop`'s deadline (its iterations are not
/// capped otherwise: the step schedule ends it). Neighbour lists throw SetupStopped when
/// `lists_stop` asks before they are built.
CandidateLists local_search_lists(const Instance& instance, const ColonyConfig& config,
                                  const StopFlag* setup_stop = nullptr, const StopFlag* lists_stop = nullptr);

/// GACO's dynamic neighbours from `tour` (a visiting order): slot k of city i gets its successor
/// and slot k + 1 its predecessor unless they are static candidates of i. An entry whose edge was
/// already a dynamic neighbour of i (in either slot) keeps its pheromone; a new one starts at
/// `fresh` (an edge outside the static lists is tracked only while it is a dynamic neighbour).
/// `tau` is the matrix's n x width pheromone; eta_beta is updated with `beta`.
void install_dynamic_neighbours(const Instance& instance, CandidateSet& set, std::span<const int32_t> tour,
                                std::span<float> tau, float fresh, double beta);

}  // namespace formica::aco
