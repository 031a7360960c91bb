// SPDX-License-Identifier: MIT
// Names, validation and printing of the colony variants' parameters (see colony_config.h).
#include "aco/colony_config.h"

#include "core/error.h"
#include "core/named_table.h"

namespace formica::aco {
namespace {

constexpr NamedEntry<MmasSchedule> kSchedules[] = {
    {MmasSchedule::Fixed,
     {"fixed", "the restart-best ant deposits every best-every-th iteration, else the iteration-best"}},
    {MmasSchedule::Increasing,
     {"increasing",
      "ACOTSP's schedule with local search: restart-best every 25, 5, 3, 2, then every iteration"}},
};

constexpr NamedEntry<AntConstruction> kConstructions[] = {
    {AntConstruction::Auto,
     {"auto",
      "a warp per ant where the candidate rows fit in shared memory (about 1,000 cities at k = 20), else "
      "half a warp per ant"}},
    {AntConstruction::WarpPerAnt,
     {"warp-per-ant", "a warp per ant, one lane per candidate (k + dynamic <= 32)"}},
    {AntConstruction::HalfWarpPerAnt,
     {"half-warp-per-ant",
      "16 lanes per ant, two candidates per lane, two ants per warp (k + dynamic <= 32)"}},
    {AntConstruction::QuarterWarpPerAnt,
     {"quarter-warp-per-ant",
      "8 lanes per ant, four candidates per lane, four ants per warp (k + dynamic <= 32)"}},
    {AntConstruction::ThreadPerAnt, {"thread-per-ant", "a thread per ant, as in Li and Jin's Algorithm 1"}},
};

constexpr NamedEntry<LkLists> kLkLists[] = {
    {LkLists::Colonies, {"colonies", "the local search's lists (--ls-candidates, --neighbour-lists)"}},
    {LkLists::Nearest, {"nearest", "their own 10 nearest neighbours"}},
    {LkLists::Quadrant,
     {"quadrant",
      "their own quadrant neighbours, 10 (8 on stretches): the nearest in each quadrant, "
      "then the nearest"}},
    {LkLists::Alpha,
     {"alpha",
      "quadrant lists until a Held-Karp ascent on a thread beside them ends, then its 5 "
      "alpha-nearest (LKH's candidates; the whole-tour threads only)"}},
};

constexpr NamedEntry<LsCandidates> kLsCandidates[] = {
    {LsCandidates::Neighbours, {"neighbours", "the --neighbour-lists lists (nearest or quadrant)"}},
    {LsCandidates::Alpha,
     {"alpha",
      "the alpha-nearest (Helsgaun's LKH): the cities whose edge, forced into the minimum 1-tree of a "
      "Held-Karp ascent, costs least (bounds/alpha_nearness.h); the ascent's time counts"}},
};

constexpr NamedEntry<HostSearch> kHostSearches[] = {
    {HostSearch::LinKernighan, {"lin-kernighan", "iterated Lin-Kernighan, kicked by double bridges"}},
    {HostSearch::Eax,
     {"eax",
      "GA-EAX (as --algorithm eax): a population of 100 tours crossed by edge assembly, the colonies' "
      "merged tour joining it at every merge"}},
};

constexpr NamedEntry<ColonyVariant> kVariants[] = {
    {ColonyVariant::Mmas, {"mmas", "MAX-MIN Ant System"}},
    {ColonyVariant::Acs, {"acs", "Ant Colony System"}},
    {ColonyVariant::Gaco, {"gaco", "MMAS and ACS colonies sharing one matrix"}},
};

}  // namespace

std::string_view to_string(HostSearch search) { return name_of(kHostSearches, search); }
std::optional<HostSearch> parse_host_search(std::string_view text) { return value_of(kHostSearches, text); }
std::vector<NamedValue> host_search_names() { return names_of(kHostSearches); }

std::string_view to_string(ColonyVariant variant) { return name_of(kVariants, variant); }

std::string_view to_string(MmasSchedule schedule) { return name_of(kSchedules, schedule); }
std::optional<MmasSchedule> parse_mmas_schedule(std::string_view text) { return value_of(kSchedules, text); }
std::vector<NamedValue> mmas_schedule_names() { return names_of(kSchedules); }

std::string_view to_string(AntConstruction construction) { return name_of(kConstructions, construction); }
std::optional<AntConstruction> parse_ant_construction(std::string_view text) { return value_of(kConstructions, text); }
std::vector<NamedValue> ant_construction_names() { return names_of(kConstructions); }

std::string_view to_string(LsCandidates source) { return name_of(kLsCandidates, source); }
std::optional<LsCandidates> parse_ls_candidates(std::string_view text) { return value_of(kLsCandidates, text); }
std::vector<NamedValue> ls_candidates_names() { return names_of(kLsCandidates); }

std::string_view to_string(LkLists lists) { return name_of(kLkLists, lists); }
std::optional<LkLists> parse_lk_lists(std::string_view text) { return value_of(kLkLists, text); }
std::vector<NamedValue> lk_lists_names() { return names_of(kLkLists); }

void ColonyConfig::validate() const {
  FORMICA_EXPECTS(ants >= 0 && ants <= kMaxAnts, "--ants must be in [1, ", kMaxAnts, "] (0: the default), got ", ants);
  FORMICA_EXPECTS(alpha >= 0.0 && alpha <= 20.0, "--alpha must be in [0, 20], got ", alpha);
  FORMICA_EXPECTS(beta >= 0.0 && beta <= 20.0, "--beta must be in [0, 20], got ", beta);
  FORMICA_EXPECTS(mmas_rho >= 0.0 && mmas_rho <= 1.0, "--mmas-rho must be in (0, 1] (0: the default), got ", mmas_rho);
  FORMICA_EXPECTS(p_best > 0.0 && p_best < 1.0, "--p-best must be in (0, 1), got ", p_best);
  FORMICA_EXPECTS(best_every >= 1, "--best-every must be at least 1, got ", best_every);
  FORMICA_EXPECTS(restart_after >= 0, "--restart-after must be at least 0, got ", restart_after);
  FORMICA_EXPECTS(acs_rho > 0.0 && acs_rho <= 1.0, "--acs-rho must be in (0, 1], got ", acs_rho);
  FORMICA_EXPECTS(q0 >= 0.0 && q0 <= 1.0, "--q0 must be in [0, 1], got ", q0);
  FORMICA_EXPECTS(xi >= 0.0 && xi <= 1.0, "--xi must be in [0, 1], got ", xi);
  FORMICA_EXPECTS(candidates >= 1, "--candidates must be at least 1, got ", candidates);
  FORMICA_EXPECTS(colonies >= 0, "--colonies must be at least 1, got ", colonies);
  FORMICA_EXPECTS(colonies_per_matrix >= 0, "--colonies-per-matrix must be at least 1, got ", colonies_per_matrix);
  FORMICA_EXPECTS(colony_count() % group_size() == 0, "--colonies (", colony_count(), ") must be a multiple of ",
                  "--colonies-per-matrix (", group_size(), ")");
  FORMICA_EXPECTS(exchange_interval >= 0, "--exchange-interval must be at least 0, got ", exchange_interval);
  FORMICA_EXPECTS(threads >= 1, "--threads must be at least 1, got ", threads);
  FORMICA_EXPECTS(ls_neighbours >= 1 && ls_neighbours <= 32, "--ls-neighbours must be in [1, 32], got ",
                  ls_neighbours);
  FORMICA_EXPECTS(focused_edges >= 0, "--focused-edges must be at least 0 (0: whole tours), got ",
                  focused_edges);
  FORMICA_EXPECTS(lk_threads >= 0 && lk_threads <= 1024, "--lk-threads must be in [0, 1024], got ",
                  lk_threads);
  FORMICA_EXPECTS(
      lk_threads == 0 || merge_tours,
      "--lk-threads: the Lin-Kernighan threads exchange tours through the merge; add --merge-tours true");
  FORMICA_EXPECTS(
      !lk_independent || lk_threads > 0,
      "--lk-independent: there are no Lin-Kernighan threads to walk independently; add --lk-threads N");
  FORMICA_EXPECTS(
      !lk_adopt_merged || lk_independent,
      "--lk-adopt-merged: only independent walks take the merged tour; add --lk-independent true");
  FORMICA_EXPECTS(lk_stretch == 0 || (lk_stretch >= 8 && lk_stretch <= kMaxStretchCities),
                  "--lk-stretch must be 0 (the whole tour) or in [8, ", kMaxStretchCities, "], got ",
                  lk_stretch);
  FORMICA_EXPECTS(lk_regions >= 1 && lk_region >= 0 && lk_region < lk_regions,
                  "the island's region must be in [0, ", lk_regions, "), got ", lk_region);
  FORMICA_EXPECTS(
      !lk_replay || (lk_threads > 0 && !lk_independent),
      "--lk-replay: only shared Lin-Kernighan walks replay their moves; add --lk-threads N and leave out "
      "--lk-independent");
  FORMICA_EXPECTS(lk_stretch == 0 || lk_lists != LkLists::Alpha,
                  "--lk-lists alpha: the whole-tour threads take alpha lists, the stretch threads do not; "
                  "leave out --lk-stretch or take --lk-lists quadrant");
  FORMICA_EXPECTS(lk_stretch == 0 || !lk_independent,
                  "--lk-stretch: the stretch threads share one walk; leave out --lk-independent");
  FORMICA_EXPECTS(
      host_search == HostSearch::LinKernighan || (lk_stretch == 0 && !lk_independent && !lk_replay),
      "--host-search eax: GA-EAX's threads share one population over the whole tour; leave out "
      "--lk-stretch, --lk-independent and --lk-replay");
  FORMICA_EXPECTS(
      focused_edges == 0 || variant != ColonyVariant::Acs,
      "--focused-edges: ACS builds its tours in lockstep; focused construction needs mmas or gaco");
}

std::string ColonyConfig::describe() const {
  std::string text = concat("variant=", to_string(variant), " ants=", ants == 0 ? std::string("default") : std::to_string(ants),
                            " alpha=", alpha, " beta=", beta, " candidates=", candidates,
                            " neighbour-lists=", to_string(neighbour_lists));
  if (ls_candidates != LsCandidates::Neighbours) text += concat(" ls-candidates=", to_string(ls_candidates));
  if (variant != ColonyVariant::Acs)
    text += concat(" mmas-rho=", evaporation(), " p-best=", p_best, " best-every=", best_every,
                   " schedule=", to_string(schedule), " restart-after=", restart_after);
  if (variant != ColonyVariant::Mmas) text += concat(" acs-rho=", acs_rho, " q0=", q0, " xi=", xi);
  text += concat(" colonies=", colony_count(), " colonies-per-matrix=", group_size(),
                 " exchange-interval=", exchange_interval,
                 " local-search=", localsearch::to_string(local_search));
  if (local_search != localsearch::LocalSearchKind::None) text += concat(" ls-neighbours=", ls_neighbours);
  return text +
         (focused() ? concat(" focused-edges=", focused_edges) : std::string(" construction=whole-tours")) +
         (merge_tours ? " merge-tours=true" : "") +
         (lk_threads > 0
              ? concat(" lk-threads=", lk_threads,
                       host_search == HostSearch::Eax
                           ? std::string(" host-search=eax")
                           : concat(" lk-step=", localsearch::to_string(lk_step),
                                    lk_lists != LkLists::Colonies ? concat(" lk-lists=", to_string(lk_lists))
                                                                  : std::string()))
              : "") +
         (lk_independent ? " lk-independent=true" : "") + (lk_adopt_merged ? " lk-adopt-merged=true" : "") +
         (lk_replay ? " lk-replay=true" : "") + (lk_stretch > 0 ? concat(" lk-stretch=", lk_stretch) : "") +
         (lk_stretch > 0 && lk_regions > 1
              ? (lk_split ? concat(" lk-split=region-", lk_region, "-of-", lk_regions)
                          : std::string(" lk-split=false"))
              : "");
}

}  // namespace formica::aco
