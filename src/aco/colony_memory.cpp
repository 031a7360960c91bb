// SPDX-License-Identifier: MIT
// The colonies' memory plan (see colony_memory.h). The counts mirror the allocations in
// cpu/colony_search.cpp and cuda/colony_search_cuda.cu.
#include "aco/colony_memory.h"

#include <algorithm>

#include "aco/colony_merge.h"
#include "bounds/held_karp.h"
#include "localsearch/config.h"

namespace formica::aco {

ColonyMemory colony_memory(int n, const ColonyConfig& config, bool gpu) {
  const size_t cities = static_cast<size_t>(n);
  const size_t k = static_cast<size_t>(std::min(config.candidates, n - 1));
  const size_t width = k + static_cast<size_t>(config.dynamic_slots());
  const size_t fallback =
      static_cast<size_t>(fallback_list_length(n, config.candidates, config.long_fallback_lists(gpu)));
  const size_t colonies = static_cast<size_t>(config.colony_count()),
               matrices = static_cast<size_t>(config.matrices());
  size_t ants = 0;
  for (int c = 0; c < config.colony_count(); ++c) ants += static_cast<size_t>(config.ants_of(c, n));
  const bool local_search = config.local_search != localsearch::LocalSearchKind::None;
  const size_t ls_lists =
      local_search ? cities * static_cast<size_t>(std::min(config.ls_neighbours, n - 1)) * 4 : 0;
  const size_t gaco = config.variant == ColonyVariant::Gaco ? 4 : 0;

  // Shared by both backends on the host: the candidate set (ids, eta^beta, fallback list).
  const size_t candidate_set = cities * width * 8 + cities * fallback * 4;
  ColonyMemory memory;
  // --lk-threads: their copy of the neighbour lists (aco/colony_merge.h) and, per thread, a tour,
  // its saved copy and positions (plus the Lin-Kernighan queue and bits); the published tour and
  // the merge's copy of it; with independent walks, per thread its walk's best tour and the
  // merge's copy of that.
  const size_t lk_threads = static_cast<size_t>(config.lk_threads);
  const size_t per_lk_thread = config.lk_independent ? 25 : 17;
  const size_t lk_lists =
      static_cast<size_t>(std::min(local_search ? config.ls_neighbours : kMergerNeighbours, n - 1)) * 4;
  memory.host = lk_threads > 0 ? cities * (lk_lists + lk_threads * per_lk_thread + 8) : 0;
  // --lk-lists alpha: the Held-Karp ascent that runs beside the threads until it hands them its lists.
  if (lk_threads > 0 && config.lk_lists == LkLists::Alpha) memory.host += cities * bounds::kAscentBytesPerCity;
  // --lk-stretch: the threads' tour, its published and offered copies, the merge's copy and the
  // settled marks; per thread a stretch's coordinates, lists and their distances, its walk and its
  // chains' arrays (about 160 bytes a city; a matrix instance's stretch adds its m^2 weights,
  // less than the instance's own matrix unless several threads hold stretches of over n / 2).
  if (lk_threads > 0 && config.lk_stretch > 0 && n >= 2 * config.lk_stretch) {
    const size_t m = static_cast<size_t>(config.lk_stretch);
    memory.host = cities * 17 + lk_threads * m * 160;
  }
  // --host-search eax (population/eax_companion.h): the population and the next generation's
  // tours, the edge counts (about 16 neighbours a city held by some tour, 8 bytes each), its
  // neighbour lists, the best, published and offered tours, and per thread the crossover's
  // arrays and a parent's piece structure (about 80 bytes a city).
  if (lk_threads > 0 && config.host_search == HostSearch::Eax) {
    const size_t population = static_cast<size_t>(config.eax.population);
    memory.host = cities * (population * 8 + 16 * 8 + kMergerNeighbours * 4 + 12 + lk_threads * 80);
  }
  if (!gpu) {
    const size_t threads = static_cast<size_t>(config.threads);
    // ACS builds its ants' tours in lockstep: every ant's path (aco/cpu/ant_path.h: visited flags,
    // the unvisited cities, their slots, the order, 13 bytes a city) at once.
    const size_t lockstep = config.immediate_local_update() ? ants * cities * 13 : 0;
    memory.host += candidate_set + matrices * cities * width * (8 + gaco) + ants * cities * 4 + ants * 8 + lockstep +
                   colonies * cities * 8 + ls_lists + (config.focused() ? colonies * cities * 8 : 0) +
                   threads * cities * (local_search ? 13 : 12);
    return memory;
  }
  memory.host += candidate_set * matrices + ls_lists + (config.focused() ? cities * 8 : 0);
  // Device: per matrix ids, distances, tau, fitness, eta^beta (+ GACO crossings); the fallback
  // list; tours, lengths; best, restart-best, next and previous per colony; GACO scratch.
  size_t device = matrices * cities * width * (20 + gaco) + cities * fallback * 4 + ants * cities * 4 +
                  ants * 8 + colonies * cities * 16 + matrices * cities * 8;
  if (config.ant_construction == AntConstruction::ThreadPerAnt) device += ants * ((cities + 31) / 32) * 4;
  if (local_search || config.focused()) {
    // Per ant: positions, the ring queue of the local search (at most n cities), the queued and
    // walked bits, the queue's counters; per colony the source tour and its positions.
    device += ants * cities * 8 + ants * ((cities + 31) / 32) * 8 + ants * 16 + colonies * cities * 8 +
              colonies * 8;
    device += ls_lists;
  }
  memory.device = device;
  return memory;
}

}  // namespace formica::aco
