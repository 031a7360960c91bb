// SPDX-License-Identifier: MIT
// Parameters of the ant colony variants beyond Ant System: MAX-MIN Ant System (Stutzle and Hoos
// 2000), Ant Colony System (Dorigo and Gambardella 1997) and GACO (Li and Jin, section 3), with
// candidate lists and several colonies at once. Defaults are the literature's (ACOTSP's where the
// papers leave a choice open). One struct for every variant, so that a benchmark row can say
// exactly what ran.
//
// Colonies and matrices: `colonies` colonies run at once, each with its own ants; consecutive
// groups of `colonies_per_matrix` colonies share one pheromone matrix (GACO: an MMAS colony and
// an ACS colony per matrix, Li and Jin 3.1). Groups exchange their best tour every
// `exchange_interval` iterations (0: never, i.e. independent runs). The result is the best of all.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aco/config.h"
#include "core/candidates.h"
#include "localsearch/config.h"
#include "population/config.h"

namespace formica::aco {

enum class ColonyVariant { Mmas, Acs, Gaco };

/// The rule one colony follows: its decision rule and its share of the pheromone update.
enum class ColonyRule {
  Mmas,  // random proportional rule; iteration-/restart-best deposits, tau in [tau_min, tau_max]
  Acs,   // pseudo-random proportional rule (q0), local update, global update by the best-so-far ant
};

/// Which best tour deposits in MMAS iterations (ACOTSP's u_gb schedule).
enum class MmasSchedule {
  Fixed,       // every best_every-th iteration the restart-best ant, otherwise the iteration-best
  Increasing,  // ACOTSP's schedule with local search: u_gb = 25, 5, 3, 2, 1 as the restart ages
};

/// Who builds one tour on the GPU (the CPU always uses one thread per ant).
enum class AntConstruction {
  Auto,               // a warp per ant where the rows fit in shared memory, else half a warp
  WarpPerAnt,         // a warp per ant, one lane per candidate (k + dynamic <= 32)
  HalfWarpPerAnt,     // 16 lanes per ant (two candidates each), two ants per warp
  QuarterWarpPerAnt,  // 8 lanes per ant (four candidates each), four ants per warp
  ThreadPerAnt,       // a thread per ant, as in Li and Jin's Algorithm 1
};

/// Where the local search's (and the Lin-Kernighan threads') neighbour lists come from.
enum class LsCandidates {
  Neighbours,  // the neighbour_lists shape (nearest or quadrant)
  Alpha,       // the alpha-nearest from a Held-Karp ascent (bounds/alpha_nearness.h)
};

/// Which neighbour lists the Lin-Kernighan threads' chains search (not the colonies').
enum class LkLists {
  Colonies,  // the local search's (ls_candidates, neighbour_lists, ls_neighbours)
  Nearest,   // their own: the 10 nearest
  Quadrant,  // their own: the 2 nearest in each quadrant, filled up to 10 with the nearest
  Alpha,     // quadrant until a Held-Karp ascent beside them ends, then its 5 alpha-nearest
};

/// What the host threads beside the colonies (lk_threads) run.
enum class HostSearch {
  LinKernighan,  // iterated Lin-Kernighan (localsearch/cpu/iterated_lin_kernighan.h)
  Eax,           // GA-EAX, a population crossed by edge assembly (population/eax_companion.h)
};

std::string_view to_string(HostSearch search);
std::optional<HostSearch> parse_host_search(std::string_view text);
std::vector<NamedValue> host_search_names();
std::string_view to_string(ColonyVariant variant);
std::string_view to_string(MmasSchedule schedule);
std::optional<MmasSchedule> parse_mmas_schedule(std::string_view text);
std::vector<NamedValue> mmas_schedule_names();
std::string_view to_string(AntConstruction construction);
std::optional<AntConstruction> parse_ant_construction(std::string_view text);
std::string_view to_string(LsCandidates source);
std::optional<LsCandidates> parse_ls_candidates(std::string_view text);
std::vector<NamedValue> ls_candidates_names();
std::string_view to_string(LkLists lists);
std::optional<LkLists> parse_lk_lists(std::string_view text);
std::vector<NamedValue> lk_lists_names();
std::vector<NamedValue> ant_construction_names();

/// Length of the sorted neighbour list searched before the whole instance when no candidate is
/// unvisited (the fallback; see select_fallback in aco/cpu/candidate_selection.h): 64 entries, and
/// 256 (`long_list`) for the GPU's colonies that build whole tours from candidate lists, up to
/// kLongFallbackMaxCities cities: there the whole-instance scan of the few ants whose 64 nearest
/// cities are all visited was a third of the construction's time at fnl4461. The CPU keeps 64,
/// since the longer lists cost set-up time its scan does not win back. The first unvisited city of
/// the list is a nearest unvisited one at any length (the list orders equal TSPLIB distances by
/// the exact Euclidean distance, the scan beyond it by index, so a longer list can settle such a
/// tie differently).
constexpr int kFallbackListLength = 64;
constexpr int kLongFallbackListLength = 256;
constexpr int kLongFallbackMaxCities = 50'000;
constexpr int fallback_list_length(int n, int candidates, bool long_list = false) {
  const int length = long_list && n <= kLongFallbackMaxCities ? kLongFallbackListLength : kFallbackListLength;
  return std::min(std::max(length, candidates), n - 1);
}

/// The error of a start tour given to anything but focused colonies.
inline constexpr std::string_view kStartTourNeedsFocusedColonies =
    "--initial-tour: only focused colonies start from a tour (--algorithm auto, or mmas/acs with --focused-edges "
    "above 0), and --algorithm eax";

struct ColonyConfig {
  ColonyVariant variant = ColonyVariant::Mmas;
  int ants = 0;         ///< ants per colony; 0: the rule's default (MMAS n, ACS 10)
  double alpha = 1.0;   ///< pheromone exponent
  double beta = 2.0;    ///< heuristic exponent, eta = 1 / d
  // MMAS (Stutzle and Hoos 2000, section 3 and 4)
  double mmas_rho = 0.0;   ///< evaporation of MMAS and GACO; 0: MMAS 0.02 (Stutzle and Hoos), GACO 0.5 (Li and Jin 4)
  double p_best = 0.05;    ///< probability of building the best tour at convergence: sets tau_min
  int best_every = 25;     ///< u_gb: the restart-best ant deposits every u_gb-th iteration
  MmasSchedule schedule = MmasSchedule::Fixed;
  int restart_after = 250;  ///< re-initialise when the restart-best is this old and branching ~ 1
  // ACS (Dorigo and Gambardella 1997, section III)
  double acs_rho = 0.1;  ///< global evaporation of ACS (and GACO's ACS colonies)
  double q0 = 0.9;       ///< probability of the greedy choice in the pseudo-random rule
  double xi = 0.1;       ///< local evaporation: tau <- (1 - xi) tau + xi tau_0
  // Candidate lists and colonies
  int candidates = 20;            ///< k neighbours each city chooses among first
  /// Shape of the candidate rows and the local search's neighbour lists (core/candidates.h).
  NeighbourShape neighbour_lists = NeighbourShape::Nearest;
  int colonies = 0;               ///< colonies at once; 0: one matrix group (GACO 2, otherwise 1)
  int colonies_per_matrix = 0;    ///< colonies sharing one matrix; 0: GACO 2, otherwise 1
  int exchange_interval = 0;      ///< K: groups exchange their best tour every K iterations; 0 never
  AntConstruction ant_construction = AntConstruction::Auto;  ///< CUDA backend only
  // Ants with local search (the hybrid solver; off by default, as in the papers)
  localsearch::LocalSearchKind local_search =
      localsearch::LocalSearchKind::None;  ///< every ant's tour, before the update
  int ls_neighbours = 10;                  ///< neighbour-list length of the local search
  /// Where those lists come from; with Alpha they hold the ls_neighbours alpha-nearest.
  LsCandidates ls_candidates = LsCandidates::Neighbours;
  /// 0: every ant builds its whole tour. > 0: focused construction (aco/cpu/focused_construction.h):
  /// each ant starts from its colony's source tour (the last depositor's) and re-decides at most
  /// this many edges. MMAS-rule colonies and GACO only (ACS builds its tours in lockstep).
  int focused_edges = 0;
  /// Merge the colonies' best and restart-best tours into the best one every few iterations
  /// (aco/colony_merge.h): partition crossover between the basins that colonies and restarts find.
  bool merge_tours = false;
  /// Host threads running iterated Lin-Kernighan beside the colonies (localsearch/cpu/
  /// iterated_lin_kernighan.h); at every merge their shortest tour joins the merge and the merged
  /// tour goes back to them. 0: none. Needs merge_tours. Their work depends on timing, so a run
  /// with them is not repeatable from its seed alone.
  int lk_threads = 0;
  /// The Lin-Kernighan threads walk independently from the first tour, and every walk's shortest
  /// tour joins the merge, instead of all adopting the shortest tour any of them found. Needs
  /// lk_threads.
  bool lk_independent = false;
  /// With lk_independent: a walk takes the merged tour whenever it is shorter than the walk's own
  /// shortest, so every walk goes on from all the walks' gains merged (where shared walks keep only
  /// the one walk that gained most, and independent walks keep only their own).
  bool lk_adopt_merged = false;
  /// Shared walks on two-level lists (10,000 cities and more, 2-opt or 3-opt steps) hand their
  /// gains to the shared tour, which replays their moves, instead of adopting the shortest tour
  /// (localsearch/cpu/iterated_lin_kernighan.h). Needs lk_threads and shared walks.
  bool lk_replay = false;
  /// The Lin-Kernighan threads walk stretches of this many consecutive cities of the tour, each
  /// a path with fixed ends, instead of the whole tour (decomposition/stretch_lin_kernighan.h:
  /// the decomposition for very large tours; auto: n / lk_threads from 150,000 cities); 0: the
  /// whole tour. Tours of fewer than two stretches are walked whole. Needs lk_threads, and shared
  /// walks.
  int lk_stretch = 0;
  static constexpr int kMaxStretchCities = 10000000;
  /// With several islands: each island's stretch threads walk only the stretches that start in
  /// its region of the plane, `lk_region` of `lk_regions` (decomposition/stretch_lin_kernighan.h);
  /// false: every island walks every stretch. The region is the island's rank, set by the solver.
  bool lk_split = true;
  int lk_region = 0, lk_regions = 1;
  /// What one step of the Lin-Kernighan threads' chains is (localsearch/cpu/lin_kernighan.h), over
  /// the whole tour or its stretches. 3-opt steps, one thread,
  /// 10 s, 6 seeds, mean gap against 2-opt steps: pcb3038 0.090 / 0.164 %, fnl4461 0.085 / 0.121 %,
  /// pr2392 0.102 / 0.272 % (bench/results/2026-11-25-lk-step-cpu/NOTES.md).
  localsearch::LinKernighanStep lk_step = localsearch::LinKernighanStep::ThreeOpt;
  /// The lists the Lin-Kernighan threads search; stretch walks make their own, of 8 quadrant
  /// neighbours with Quadrant and of the 8 nearest otherwise.
  LkLists lk_lists = LkLists::Colonies;
  /// What the lk_threads run: iterated Lin-Kernighan, or GA-EAX (whole tours only, shared: not
  /// with lk_stretch or lk_independent).
  HostSearch host_search = HostSearch::LinKernighan;
  /// GA-EAX's settings with host_search Eax (the solver copies its --population, --children,
  /// --eax-* here); its threads are lk_threads and its seed the colonies'.
  population::EdgeAssemblyConfig eax;
  int threads = 1;                ///< CPU worker threads (the result does not depend on it)
  uint64_t seed = 1;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// One line "variant=mmas ants=n alpha=1 ..." for logs and benchmark rows.
  std::string describe() const;
  bool operator==(const ColonyConfig&) const = default;

  double evaporation() const { return mmas_rho > 0.0 ? mmas_rho : (variant == ColonyVariant::Gaco ? 0.5 : 0.02); }
  int group_size() const { return colonies_per_matrix > 0 ? colonies_per_matrix : (variant == ColonyVariant::Gaco ? 2 : 1); }
  int colony_count() const { return colonies > 0 ? colonies : group_size(); }
  int matrices() const { return colony_count() / group_size(); }
  /// GACO alternates MMAS and ACS colonies inside each matrix group (even positions MMAS).
  ColonyRule rule_of(int colony) const {
    switch (variant) {
      case ColonyVariant::Mmas: return ColonyRule::Mmas;
      case ColonyVariant::Acs: return ColonyRule::Acs;
      case ColonyVariant::Gaco: return (colony % group_size()) % 2 == 0 ? ColonyRule::Mmas : ColonyRule::Acs;
    }
    return ColonyRule::Mmas;
  }
  /// Ants of a colony: `ants`, or the rule's default (ACS 10; MMAS n, or ACOTSP's 25 with local search).
  int ants_of(int colony, int n) const {
    if (ants > 0) return ants;
    if (rule_of(colony) == ColonyRule::Acs) return 10;
    return local_search == localsearch::LocalSearchKind::None ? n : 25;
  }
  bool focused() const { return focused_edges > 0; }
  /// Whether the candidate set gets the long fallback lists (fallback_list_length): the GPU's
  /// colonies that build whole tours from candidate lists do; focused colonies and the CPU do not.
  bool long_fallback_lists(bool gpu) const { return gpu && !focused(); }
  /// ACS colonies apply the local update while tours are built (all ants of a matrix in
  /// lockstep); GACO applies its ACS colonies' local updates once per iteration (deferred).
  bool immediate_local_update() const { return variant == ColonyVariant::Acs; }
  /// Dynamic neighbours per city (GACO, Li and Jin 3.2: successor and predecessor on the last
  /// iteration's best tour when they are not among the static candidates).
  int dynamic_slots() const { return variant == ColonyVariant::Gaco ? 2 : 0; }
};

}  // namespace formica::aco
