// SPDX-License-Identifier: MIT
// Population search's settings: GA-EAX (edge_assembly_search.h) with its selection and climb
// choices, named for the command line, Python and help texts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/candidates.h"
#include "core/named_table.h"
#include "localsearch/config.h"

namespace formica::population {

/// Which child of GA-EAX replaces its parent A (edge_assembly_search.h): the shortest, or,
/// among those shorter than A, the one that loses the least of the population's edge entropy per
/// unit of length gained (Nagata and Kobayashi's entropy-preserving selection, which keeps the
/// population diverse for longer).
enum class EaxSelection { Greedy, Entropy };

std::string_view to_string(EaxSelection selection);
std::optional<EaxSelection> parse_eax_selection(std::string_view text);
std::vector<NamedValue> eax_selection_names();

/// How GA-EAX climbs its population's start tours (edge_assembly_search.h): 2-opt and Or-opt
/// over neighbour lists, or that and then Lin-Kernighan chains of 3-opt steps from every city.
enum class EaxClimb { OrOpt, LinKernighan };

std::string_view to_string(EaxClimb climb);
std::optional<EaxClimb> parse_eax_climb(std::string_view text);
std::vector<NamedValue> eax_climb_names();

/// The largest population: 10,000 tours of 10,000 cities are 800 MB with the next generation's.
inline constexpr int kMaxPopulation = 10000;

/// Warps of a pair's block that make its children at once on the GPU, at most (a block of 1,024
/// threads).
inline constexpr int kMaxGpuMakers = 32;

/// GA-EAX's settings (population/edge_assembly_search.h): --algorithm eax, and the colonies' host threads
/// with --host-search eax.
struct EdgeAssemblyConfig {
  EaxSelection selection = EaxSelection::Entropy;
  int population = 100;  ///< tours of the first population (at least 2)
  /// When the population has converged, start again with one `growth` times as large (at least
  /// as large, at most kMaxPopulation) holding the best tour so far; with 0 the search has finished.
  double growth = 2;
  int children = 30;  ///< children per pair at most (Nagata and Kobayashi's N_ch)
  /// 1: children from single AB-cycles only. 2: when that stage stalls (no shorter tour in
  /// 1,500 / children generations) or converges, children from block E-sets (population/edge_assembly.h)
  /// until that stalls or converges too, before the next population.
  int stages = 2;
  /// The tours the population's climbs start from (localsearch/start_tour.h).
  localsearch::StartKind start = localsearch::StartKind::Random;
  /// How those tours are climbed (EaxClimb). Lin-Kernighan climbs cost more but the population
  /// converges far lower and sooner from them (docs/tuning.md#eax-climb); auto takes them where it
  /// runs GA-EAX alone and with nearest-neighbour starts (solver/portfolio.cpp).
  EaxClimb climb = EaxClimb::OrOpt;
  /// The populations after the first: 0, tours climbed from `start` as the first; K > 0, the best
  /// tour so far with K double-bridge kicks (localsearch/double_bridge.h), each repaired by
  /// Lin-Kernighan chains from its ends (localsearch/cpu/kicked_tour.h), so that the new population spreads
  /// around the best tour's basin instead of starting far from it (docs/tuning.md#eax-restart-kicks).
  int restart_kicks = 30;
  /// The populations after the first climbed from `start` without the best tour, which joins a
  /// population only once that has converged on its own (restart_kicks is then unused): each
  /// restart searches a basin of its own, and the crossover then takes from the best tour what the
  /// new basin lacks.
  bool restart_apart = false;
  /// The first population: 0, tours climbed from `start`; K > 0, the first tour (the
  /// nearest-neighbour climb, or the tour handed in: the colonies' beside them) and that tour with
  /// K kicks each, as the restarts above: built in seconds where a climbed population of 85,900
  /// cities takes minutes. No gain measured beside the GPU's colonies, so off by default
  /// (docs/tuning.md#eax-first-kicks).
  int first_kicks = 0;
  int neighbours = 10;  ///< neighbours per city: the start climbs' lists and the joins'
  /// Which neighbours those lists hold: the nearest, or quadrant neighbours (core/candidates.h),
  /// whose links out of a cluster let the joins cross to the next one on clustered instances; auto
  /// takes quadrant on small instances (docs/tuning.md#eax-lists).
  NeighbourShape lists = NeighbourShape::Nearest;
  /// EaxClimb::LinKernighan's chains from random starts, where the instance has quadrants: K > 0,
  /// lists of their own, K quadrant neighbours per city (for 10: the two nearest cities of each
  /// quadrant, then the nearest up to 10); 0, the `neighbours` nearest (docs/tuning.md#eax-chain-lists).
  int chain_neighbours = 10;
  /// The start tours' first climb (2-opt, or 2-opt and Or-opt: the NeighbourClimber's queue phase)
  /// on the GPU, all tours of a population at once, a warp each (localsearch/cuda/ant_local_search.h);
  /// the host threads then take each from there (the climber's sweep, the Lin-Kernighan chains),
  /// with the same result move for move. Needs the CUDA backend and a device; auto sets it beside
  /// the GPU's colonies (solver/portfolio.cpp).
  bool gpu_climbs = false;
  /// The first stage's generations on the GPU: every pair's crossover at once, a block per pair
  /// (population/cuda/eax_children_cuda.h), the same children as on the host threads, which keep
  /// the block E-sets and build the tours of the children taken. Needs the CUDA backend and a
  /// device (docs/gpu-engine.md#children-on-the-gpu).
  bool gpu_children = false;
  /// gpu_children: warps of a pair's block that make its children at once (1 to kMaxGpuMakers; the
  /// same children, sooner with more, each maker a child workspace of 22 words a city more). A
  /// tuning knob of bench/eax_bench.cpp, not a command-line option.
  int gpu_makers = 8;
  /// Beside the colonies (--host-search eax): K > 0 of the `threads` run iterated Lin-Kernighan on
  /// the colonies' tours until the population's own shortest tour has caught up with theirs, then
  /// rejoin the generations (population/eax_companion.h): the run's tour keeps falling while the
  /// population converges from its climbed starts (docs/gpu-engine.md#bridge-threads).
  int bridge_threads = 0;
  int threads = 1;
  uint64_t seed = 1;

  /// Throws InputError naming the first value out of range.
  void validate() const;
  /// One line, e.g. "GA-EAX: population 300, 30 children per pair, entropy selection, 10 nearest
  /// neighbours" (the threads are the run's, which says them).
  std::string describe() const;
  bool operator==(const EdgeAssemblyConfig&) const = default;
};

}  // namespace formica::population
