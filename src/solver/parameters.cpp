// SPDX-License-Identifier: MIT
// The parameter table (see parameters.h).
#include "solver/parameters.h"

#include <deque>
#include <optional>

#include "aco/colony_merge.h"
#include "core/error.h"

namespace formica {
namespace {

template <typename T>
nlohmann::json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

/// The value of a true / false parameter.
bool parse_bool(std::string_view name, std::string_view text) {
  FORMICA_EXPECTS(text == "true" || text == "false", "--", name, ": '", text, "' is not true or false");
  return text == "true";
}

/// "a, b, c" for a list of named values.
template <typename Names>
std::string valid_names(const Names& names) {
  std::string valid;
  for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + std::string(n.name);
  return valid;
}

/// `title` followed by one line "name: help" per named value.
template <typename Names>
std::string list_help(std::string_view title, const Names& names) {
  std::string text(title);
  for (const auto& n : names) text += "\n  " + std::string(n.name) + ": " + std::string(n.help);
  return text;
}

/// A parameter whose value is one of a list of names: `field` selects the Config member.
/// `trailer`, when given, follows the list of names in the help text.
template <typename Enum, typename Field, typename Names>
Parameter named_parameter(std::string_view name, std::string_view intro, Names (*names)(),
                          std::optional<Enum> (*parse)(std::string_view), std::string_view (*print)(Enum),
                          Field field, const std::string& trailer = "") {
  static std::deque<std::string> helps;  // keeps each help text alive (and in place) for the string_view
  helps.push_back(list_help(intro, names()) + (trailer.empty() ? "" : "\n" + trailer));
  return {name, helps.back(),
          [=](SolverConfig& c, std::string_view v) {
            const auto value = parse(v);
            FORMICA_EXPECTS(value, "unknown --", name, " '", v, "' (valid: ", valid_names(names()), ")");
            field(c) = *value;
          },
          [=](const SolverConfig& c) { return nlohmann::json(std::string(print(field(c)))); }};
}

/// The construction x selection x launch table, one construction a line.
std::string combinations_help() {
  std::string text = "  combinations: " + aco::supported_combinations();
  for (size_t at = text.find("; "); at != std::string::npos; at = text.find("; ", at)) text.replace(at, 2, "\n    ");
  return text;
}

/// The algorithms, one a line, the first (auto) on the option's own line.
std::string_view algorithm_help() {
  static const std::string help = [] {
    const std::vector<NamedValue> names = algorithm_names();
    std::string text = concat(names.front().name, ": ", names.front().help);
    for (size_t i = 1; i < names.size(); ++i) text += concat("\n  ", names[i].name, ": ", names[i].help);
    return text;
  }();
  return help;
}

std::string_view time_limit_help() {
  return "stop after S seconds, counted from program start (default when --iterations is not given: 10 s up "
         "to 20,000 cities, then n / 2000 s, at most 60 s)";
}

/// A numeric field of the colony variants' config.
template <typename T, typename Field>
Parameter colony_number(std::string_view name, std::string_view help, Field field) {
  return {name, help, [=](SolverConfig& c, std::string_view v) { field(c.colony) = parse_value<T>(name, v); },
          [=](const SolverConfig& c) { return nlohmann::json(field(c.colony)); }};
}

/// The rows of MMAS, ACS and GACO (aco/colony_config.h documents each field).
void add_colony_parameters(std::vector<Parameter>& p) {
  p.push_back(colony_number<double>("mmas-rho", "MMAS / GACO evaporation rate, 0 for the default (MMAS 0.02, GACO 0.5)", [](auto& c) -> auto& { return c.mmas_rho; }));
  p.push_back(colony_number<double>("p-best", "MMAS: probability of building the best tour at convergence (sets tau_min)",
                                    [](auto& c) -> auto& { return c.p_best; }));
  p.push_back(colony_number<int>("best-every", "MMAS: the restart-best ant deposits every N-th iteration (u_gb)",
                                 [](auto& c) -> auto& { return c.best_every; }));
  p.push_back(named_parameter<aco::MmasSchedule>("schedule", "MMAS depositor schedule:", aco::mmas_schedule_names,
                                                 aco::parse_mmas_schedule, aco::to_string,
                                                 [](auto& c) -> auto& { return c.colony.schedule; }));
  p.push_back(colony_number<int>("restart-after",
                                 "MMAS: re-initialise the pheromone once converged and the restart-best is N iterations old",
                                 [](auto& c) -> auto& { return c.restart_after; }));
  p.push_back(colony_number<double>("acs-rho", "ACS global evaporation rate", [](auto& c) -> auto& { return c.acs_rho; }));
  p.push_back(colony_number<double>("q0", "ACS: probability of the greedy choice", [](auto& c) -> auto& { return c.q0; }));
  p.push_back(colony_number<double>("xi", "ACS: local evaporation rate", [](auto& c) -> auto& { return c.xi; }));
  p.push_back(colony_number<int>("candidates", "MMAS / ACS / GACO: candidate neighbours per city",
                                 [](auto& c) -> auto& { return c.candidates; }));
  p.push_back(named_parameter<NeighbourShape>(
      "neighbour-lists", "MMAS / ACS / GACO: which neighbours the candidate rows and the local search's lists hold:",
      neighbour_shape_names, parse_neighbour_shape, to_string,
      [](auto& c) -> auto& { return c.colony.neighbour_lists; }));
  p.push_back(colony_number<int>("colonies", "colonies at once, 0 for one matrix group (GACO 2, otherwise 1)", [](auto& c) -> auto& { return c.colonies; }));
  p.push_back(colony_number<int>("colonies-per-matrix", "colonies sharing one pheromone matrix, 0 for the default (GACO 2, else 1)",
                                 [](auto& c) -> auto& { return c.colonies_per_matrix; }));
  p.push_back(colony_number<int>("exchange-interval", "matrix groups exchange their best tour every K iterations, 0 never",
                                 [](auto& c) -> auto& { return c.exchange_interval; }));
  p.push_back(named_parameter<aco::AntConstruction>(
      "ant-construction", "who builds a tour of MMAS / ACS / GACO on the GPU (cuda backend):",
      aco::ant_construction_names, aco::parse_ant_construction, aco::to_string,
      [](auto& c) -> auto& { return c.colony.ant_construction; }));
  p.push_back(named_parameter<localsearch::LocalSearchKind>(
      "local-search", "MMAS / ACS / GACO: local search on every ant's tour before the pheromone update:",
      localsearch::local_search_names, localsearch::parse_local_search, localsearch::to_string,
      [](auto& c) -> auto& { return c.colony.local_search; }));
  p.push_back(colony_number<int>(
      "ls-neighbours", "MMAS / ACS / GACO: neighbours per city the local search tries",
      [](auto& c) -> auto& { return c.ls_neighbours; }));
  p.push_back(named_parameter<aco::LsCandidates>(
      "ls-candidates",
      "MMAS / ACS / GACO: where the local search's and the Lin-Kernighan threads' neighbour lists come from:",
      aco::ls_candidates_names, aco::parse_ls_candidates, aco::to_string,
      [](auto& c) -> auto& { return c.colony.ls_candidates; },
      "  (with alpha, auto takes the 5 alpha-nearest unless --ls-neighbours is given)"));
  p.push_back(colony_number<int>(
      "focused-edges",
      "MMAS / GACO: 0 builds whole tours; N > 0 starts each ant from its colony's last "
      "depositing tour and re-decides at most N edges (focused construction)",
      [](auto& c) -> auto& { return c.focused_edges; }));
  static const std::string merge_help =
      concat("MMAS / ACS / GACO: true merges the colonies' best and restart-best tours into the best one every ",
             aco::kMergeInterval,
             " iterations (partition crossover: each shorter stretch that fits is swapped in); false: no merge");
  p.push_back({"merge-tours", merge_help,
               [](SolverConfig& c, std::string_view v) { c.colony.merge_tours = parse_bool("merge-tours", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.colony.merge_tours); }});
  p.push_back(colony_number<int>(
      "lk-threads",
      "MMAS / ACS / GACO with --merge-tours: host threads running iterated Lin-Kernighan beside "
      "the colonies, their shortest tour merged with the colonies' at every merge; 0: none (with "
      "threads the result depends on timing, not on the seed alone)",
      [](auto& c) -> auto& { return c.lk_threads; }));
  p.push_back(colony_number<int>(
      "lk-stretch",
      "MMAS / ACS / GACO with --lk-threads: the threads walk stretches of this many consecutive cities "
      "of the tour (paths with fixed ends, a new cut every round) until a round shortens the tour by "
      "less than 0.01 %, then the whole tour: the decomposition of very large tours (auto: n / "
      "lk-threads from 150,000 cities with two or more threads, one stretch a thread; 0: the whole tour)",
      [](auto& c) -> auto& { return c.lk_stretch; }));
  p.push_back(
      {"lk-split",
       "MMAS / ACS / GACO with --lk-stretch and several islands (--islands, --gpus, mpirun): true "
       "gives each island a region of the plane, whose stretches only its threads walk (the "
       "decomposition split between islands); false: every island walks every stretch",
       [](SolverConfig& c, std::string_view v) { c.colony.lk_split = parse_bool("lk-split", v); },
       [](const SolverConfig& c) { return nlohmann::json(c.colony.lk_split); }});
  p.push_back(named_parameter<aco::HostSearch>(
      "host-search", "MMAS / ACS / GACO with --lk-threads: what the host threads beside the colonies run:",
      aco::host_search_names, aco::parse_host_search, aco::to_string,
      [](auto& c) -> auto& { return c.colony.host_search; }));
  p.push_back(named_parameter<localsearch::LinKernighanStep>(
      "lk-step", "MMAS / ACS / GACO with --lk-threads: one step of the Lin-Kernighan threads' chains:",
      localsearch::lk_step_names, localsearch::parse_lk_step, localsearch::to_string,
      [](auto& c) -> auto& { return c.colony.lk_step; }));
  p.push_back(named_parameter<aco::LkLists>(
      "lk-lists",
      "MMAS / ACS / GACO with --lk-threads: the neighbour lists the Lin-Kernighan threads search:",
      aco::lk_lists_names, aco::parse_lk_lists, aco::to_string,
      [](auto& c) -> auto& { return c.colony.lk_lists; }));
  p.push_back(
      {"lk-independent",
       "MMAS / ACS / GACO with --lk-threads: true lets every Lin-Kernighan thread walk on alone from "
       "the first tour, each one's best tour joining the merge; false: they all adopt the shortest found",
       [](SolverConfig& c, std::string_view v) { c.colony.lk_independent = parse_bool("lk-independent", v); },
       [](const SolverConfig& c) { return nlohmann::json(c.colony.lk_independent); }});
  p.push_back({"lk-adopt-merged",
               "MMAS / ACS / GACO with --lk-independent true: true lets every walk take the merged tour (all "
               "the walks' gains merged with the colonies') whenever it is shorter than the walk's own best",
               [](SolverConfig& c, std::string_view v) {
                 c.colony.lk_adopt_merged = parse_bool("lk-adopt-merged", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.colony.lk_adopt_merged); }});
  p.push_back(
      {"lk-replay",
       "MMAS / ACS / GACO with --lk-threads, 10,000 cities or more: true lets the shared Lin-Kernighan "
       "walks hand their gains to the shared tour, which replays their moves, instead of adopting the "
       "shortest tour (false)",
       [](SolverConfig& c, std::string_view v) { c.colony.lk_replay = parse_bool("lk-replay", v); },
       [](const SolverConfig& c) { return nlohmann::json(c.colony.lk_replay); }});
}

std::string_view start_help() {
  static const std::string help = list_help("two-opt: the tour each restart climbs from:", localsearch::start_names());
  return help;
}

void add_two_opt_parameters(std::vector<Parameter>& p) {
  p.push_back({"restarts", "two-opt: climbs in total, each from its own start tour; the search then finishes",
               [](SolverConfig& c, std::string_view v) { c.two_opt.restarts = parse_value<int64_t>("restarts", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.restarts); }});
  p.push_back({"k-swap", "two-opt: improving moves applied per pass, best first, none overlapping another; "
                         "1 is the original one-move climb, inf applies all",
               [](SolverConfig& c, std::string_view v) {
                 const auto k = localsearch::parse_k_swap(v);
                 FORMICA_EXPECTS(k, "--k-swap: '", v, "' is not a positive integer or inf");
                 c.two_opt.k_swap = *k;
               },
               [](const SolverConfig& c) { return nlohmann::json(localsearch::k_swap_text(c.two_opt.k_swap)); }});
  p.push_back({"queue", "two-opt on the GPU: restarts a block takes from the work queue at a time; 0 divides them evenly",
               [](SolverConfig& c, std::string_view v) { c.two_opt.queue = parse_value<int>("queue", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.queue); }});
  p.push_back({"start", start_help(),
               [](SolverConfig& c, std::string_view v) {
                 const auto s = localsearch::parse_start(v);
                 FORMICA_EXPECTS(s, "unknown --start '", v, "' (valid: ", valid_names(localsearch::start_names()), ")");
                 c.two_opt.start = *s;
               },
               [](const SolverConfig& c) { return nlohmann::json(std::string(localsearch::to_string(c.two_opt.start))); }});
  p.push_back({"layout", "two-opt on the GPU: auto, block (a fixed grid, one tour per block) or grid (all blocks on one tour)",
               [](SolverConfig& c, std::string_view v) {
                 const auto l = localsearch::parse_layout(v);
                 FORMICA_EXPECTS(l, "unknown --layout '", v, "' (valid: auto, block, grid)");
                 c.two_opt.layout = *l;
               },
               [](const SolverConfig& c) { return nlohmann::json(std::string(localsearch::to_string(c.two_opt.layout))); }});
  p.push_back({"threads-per-block", "two-opt on the GPU: threads per block, a power of two in [32, 1024]; 0 chooses per n",
               [](SolverConfig& c, std::string_view v) {
                 c.two_opt.threads_per_block = parse_value<int>("threads-per-block", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.threads_per_block); }});
  p.push_back({"tile", "two-opt on the GPU: shared-memory elements (x, y, cost) per block; 0 chooses per n",
               [](SolverConfig& c, std::string_view v) { c.two_opt.tile = parse_value<int>("tile", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.tile); }});
  p.push_back({"neighbours",
               "two-opt: nearest neighbours per city in the pre-climb of one large tour (from 10,000 cities: the "
               "GPU's grid per tour, the CPU); 0 turns it off",
               [](SolverConfig& c, std::string_view v) { c.two_opt.neighbours = parse_value<int>("neighbours", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.neighbours); }});
  p.push_back({"block-neighbours",
               "two-opt: nearest neighbours per city in the pre-climb of the GPU's block per tour (many restarts, "
               "from 1,000 cities); 0 is the paper's full-pass climb",
               [](SolverConfig& c, std::string_view v) {
                 c.two_opt.block_neighbours = parse_value<int>("block-neighbours", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.two_opt.block_neighbours); }});
}

void add_eax_parameters(std::vector<Parameter>& p) {
  p.push_back({"population", "eax: tours in the first population",
               [](SolverConfig& c, std::string_view v) { c.eax.population = parse_value<int>("population", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.population); }});
  p.push_back({"eax-growth",
               "eax: when the population converges, start again with one this many times as large (1: as large) "
               "that holds the best tour, or finish (0)",
               [](SolverConfig& c, std::string_view v) { c.eax.growth = parse_value<double>("eax-growth", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.growth); }});
  p.push_back(named_parameter<localsearch::StartKind>(
      "eax-start",
      "eax: the tours its population's 2-opt + Or-opt climbs start from:", localsearch::start_names,
      localsearch::parse_start, localsearch::to_string, [](auto& c) -> auto& { return c.eax.start; },
      "random keeps the population most diverse (pcb3038: 0.0015 % where nearest-neighbour starts converge "
      "at 0.065 %); the other two climb far faster on large instances (usa13509, 2 threads: the population "
      "of 100 in 6.6 s instead of 32.5 s); auto takes nearest-neighbour beside the GPU's colonies from "
      "50,000 cities (pla85900: 100 tours in 3.4 s on 14 threads, where random ones still climb at 400 s)"));
  p.push_back(named_parameter<population::EaxClimb>(
      "eax-climb", "eax: how its population's start tours are climbed:", population::eax_climb_names,
      population::parse_eax_climb, population::to_string, [](auto& c) -> auto& { return c.eax.climb; },
      "auto takes lin-kernighan with the nearest-neighbour starts beside the GPU's colonies from 50,000 "
      "cities (pla85900, 120 s, H200 host, 5 seeds: median 0.087 % above the optimum, where or-opt climbs "
      "stood at 0.21 %)"));
  p.push_back(named_parameter<NeighbourShape>(
      "eax-lists", "eax: which neighbours the start climbs' lists and the subtours' joins search:",
      neighbour_shape_names, parse_neighbour_shape, to_string, [](auto& c) -> auto& { return c.eax.lists; },
      "auto takes quadrant below 1,000 cities, where the joins of a clustered instance need the links out of "
      "its clusters (docs/tuning.md#eax-lists)"));
  p.push_back({"eax-gpu-climbs",
               "eax: true, the start tours' 2-opt (and Or-opt) climbs run on the GPU, all of a population at once, "
               "before the host threads' Lin-Kernighan chains (the same tours, sooner; needs a CUDA device; auto: "
               "true beside the GPU's colonies); false: on the host threads",
               [](SolverConfig& c, std::string_view v) { c.eax.gpu_climbs = parse_bool("eax-gpu-climbs", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.gpu_climbs); }});
  p.push_back({"eax-gpu-children",
               "eax: true, the first stage's crossovers run on the GPU, every pair of a generation at once (the "
               "same children as on the host threads; needs a CUDA device); false: on the host threads",
               [](SolverConfig& c, std::string_view v) { c.eax.gpu_children = parse_bool("eax-gpu-children", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.gpu_children); }});
  p.push_back({"eax-bridge-threads",
               "eax: beside the colonies (--host-search eax), K of GA-EAX's threads run iterated Lin-Kernighan on the "
               "colonies' tours until the population's own shortest tour catches up with theirs, then rejoin it "
               "(default 0: none)",
               [](SolverConfig& c, std::string_view v) {
                 c.eax.bridge_threads = parse_value<int>("eax-bridge-threads", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.bridge_threads); }});
  p.push_back({"eax-chain-neighbours",
               "eax: the Lin-Kernighan climbs of random starts search K quadrant neighbours per city (10, "
               "default: the two nearest of each quadrant, then the nearest), or 0: the search's 10 nearest. "
               "d1291 to its optimum, 2 threads, 5 seeds: median 0.33 s with 10, 2.63 s with 0; fl1577: the "
               "optimum on 2 of 3 seeds with 10, none in 10 s with 0",
               [](SolverConfig& c, std::string_view v) {
                 c.eax.chain_neighbours = parse_value<int>("eax-chain-neighbours", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.chain_neighbours); }});
  p.push_back({"eax-restart-kicks",
               "eax: the populations after the first: K (default 30), the best tour with K double-bridge kicks, each "
               "repaired by Lin-Kernighan (a population around the best tour's basin); 0, climbed from --eax-start as "
               "the first. fnl4461, one thread, 180-240 s: the optimum in 8 of 8 runs with 10-50 kicks, 2 of 6 with 0",
               [](SolverConfig& c, std::string_view v) {
                 c.eax.restart_kicks = parse_value<int>("eax-restart-kicks", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.restart_kicks); }});
  p.push_back(
      {"eax-restart-apart",
       "eax: true, the populations after the first are climbed from --eax-start without the best tour, which "
       "joins each once it has converged on its own (--eax-restart-kicks unused): rl5915, one thread, 100 "
       "tours, the optimum at 65 s on seeds 1 and 2, where the kicked restarts stood at 0.0097 % from 25-43 "
       "s",
       [](SolverConfig& c, std::string_view v) { c.eax.restart_apart = parse_bool("eax-restart-apart", v); },
       [](const SolverConfig& c) { return nlohmann::json(c.eax.restart_apart); }});
  p.push_back({"eax-first-kicks",
               "eax: the first population: 0 (default), tours climbed from --eax-start; K, the first tour (the "
               "colonies' beside them) and that tour with K double-bridge kicks each, repaired by Lin-Kernighan, as the "
               "restarts: a population built in seconds where climbed ones take minutes (large instances)",
               [](SolverConfig& c, std::string_view v) {
                 c.eax.first_kicks = parse_value<int>("eax-first-kicks", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.first_kicks); }});
  p.push_back({"children", "eax: children per pair of parents at most, each from another AB-cycle",
               [](SolverConfig& c, std::string_view v) { c.eax.children = parse_value<int>("children", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.children); }});
  p.push_back({"eax-stages",
               "eax: 2 (default) follows the single AB-cycles' children, once they stall, with block E-sets' (several "
               "AB-cycles that together leave few subtours) before the next population; 1 keeps single AB-cycles",
               [](SolverConfig& c, std::string_view v) { c.eax.stages = parse_value<int>("eax-stages", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.eax.stages); }});
  p.push_back(named_parameter<population::EaxSelection>(
      "eax-selection", "eax: which child replaces its parent A:", population::eax_selection_names,
      population::parse_eax_selection, population::to_string,
      [](auto& c) -> auto& { return c.eax.selection; }));
}

std::vector<Parameter> make_parameters() {
  std::vector<Parameter> p;
  p.push_back(
      {"algorithm", algorithm_help(),
       [](SolverConfig& c, std::string_view v) {
         const auto a = parse_algorithm(v);
         FORMICA_EXPECTS(a, "unknown --algorithm '", v, "' (valid: ", valid_names(algorithm_names()), ")");
         c.algorithm = *a;
       },
       [](const SolverConfig& c) { return nlohmann::json(std::string(to_string(c.algorithm))); }});
  p.push_back({"backend", "auto (the GPU when a CUDA device is present), cpu or cuda",
               [](SolverConfig& c, std::string_view v) {
                 const auto b = parse_backend(v);
                 FORMICA_EXPECTS(b, "unknown --backend '", v, "' (valid: auto, cpu, cuda)");
                 c.backend = *b;
               },
               [](const SolverConfig& c) { return nlohmann::json(std::string(to_string(c.backend))); }});
  p.push_back({"iterations", "stop after N iterations",
               [](SolverConfig& c, std::string_view v) { c.iterations = parse_value<int64_t>("iterations", v); },
               [](const SolverConfig& c) { return optional_json(c.iterations); }});
  p.push_back({"time-limit", time_limit_help(),
               [](SolverConfig& c, std::string_view v) { c.time_limit = parse_value<double>("time-limit", v); },
               [](const SolverConfig& c) { return optional_json(c.time_limit); }});
  p.push_back({"target", "stop once the best length is at most L",
               [](SolverConfig& c, std::string_view v) { c.target = parse_value<int64_t>("target", v); },
               [](const SolverConfig& c) { return optional_json(c.target); }});
  p.push_back({"seed",
               "random seed; the same seed gives the same result for the same iterations (not with "
               "--lk-threads, the GPU default, whose threads depend on timing)",
               [](SolverConfig& c, std::string_view v) { c.seed = parse_value<uint64_t>("seed", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.seed); }});
  p.push_back({"polish",
               "true: polish the best tour with exact 2-opt + Or-opt + 3-opt before returning it; false: don't",
               [](SolverConfig& c, std::string_view v) { c.polish = parse_bool("polish", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.polish); }});
  p.push_back({"gpu-wait",
               "how the thread driving a GPU search waits for its kernels: auto (block where host threads run "
               "beside it, else spin), block (it sleeps: its core goes to the host threads) or spin (the "
               "shortest latency)",
               [](SolverConfig& c, std::string_view v) {
                 const auto w = parse_gpu_wait(v);
                 FORMICA_EXPECTS(w, "unknown --gpu-wait '", v, "' (valid: auto, block, spin)");
                 c.gpu_wait = *w;
               },
               [](const SolverConfig& c) { return nlohmann::json(std::string(to_string(c.gpu_wait))); }});
  p.push_back({"island-interval",
               "seconds between the islands' exchanges of best tours (--islands, --gpus, or MPI ranks under mpirun); 0: 1 s "
               "up to 2,000 cities, then n / 2000 s, at most 10 s and a fifth of the time limit",
               [](SolverConfig& c, std::string_view v) { c.island_interval = parse_value<double>("island-interval", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.island_interval); }});
  p.push_back({"islands",
               "searches in this process (threads), each with its own seed (seed + island), CPU threads and, with "
               "--gpus, GPU; they exchange best tours every --island-interval and merge them at the end; with "
               "--gpus N, N unless given",
               [](SolverConfig& c, std::string_view v) { c.islands = parse_value<int>("islands", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.islands); }});
  p.push_back({"gpus",
               "GPUs of this host to use, one island or more on each (--islands), or 'all' (CUDA backend; 0 on the CPU)",
               [](SolverConfig& c, std::string_view v) {
                 if (v == "all") {
                   c.gpus = SolverConfig::kAllGpus;
                   return;
                 }
                 // A negative count is no count, and -1 is how "all" is kept (kAllGpus).
                 c.gpus = parse_value<int>("gpus", v);
                 FORMICA_EXPECTS(c.gpus >= 0, "--gpus must be 'all' or in [0, 1024], got ", c.gpus);
               },
               [](const SolverConfig& c) { return c.gpus == SolverConfig::kAllGpus ? nlohmann::json("all") : nlohmann::json(c.gpus); }});
  p.push_back({"threads", "CPU threads (of each island), 0 for all (with --islands N: an N-th of them each)",
               [](SolverConfig& c, std::string_view v) { c.threads = parse_value<int>("threads", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.threads); }});
  p.push_back({"ants", "number of ants (per colony), 0 for the default: one per city (ACS: 10)",
               [](SolverConfig& c, std::string_view v) { c.ant_system.ants = parse_value<int>("ants", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.ants); }});
  p.push_back({"alpha", "pheromone exponent",
               [](SolverConfig& c, std::string_view v) { c.ant_system.alpha = parse_value<double>("alpha", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.alpha); }});
  p.push_back({"beta", "heuristic exponent",
               [](SolverConfig& c, std::string_view v) { c.ant_system.beta = parse_value<double>("beta", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.beta); }});
  p.push_back({"rho", "evaporation rate of Ant System (MMAS and GACO: mmas-rho, ACS: acs-rho)",
               [](SolverConfig& c, std::string_view v) { c.ant_system.rho = parse_value<double>("rho", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.rho); }});
  p.push_back(named_parameter<aco::Selection>(
      "selection", "next-city selection:", aco::selection_names, aco::parse_selection, aco::to_string,
      [](auto& c) -> auto& { return c.ant_system.selection; }));
  p.push_back({"trials", "stochastic trials before roulette",
               [](SolverConfig& c, std::string_view v) { c.ant_system.trials = parse_value<int>("trials", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.trials); }});
  p.push_back({"hybrid-switch", "visited fraction where hybrid switches to compression",
               [](SolverConfig& c, std::string_view v) {
                 c.ant_system.hybrid_switch = parse_value<double>("hybrid-switch", v);
               },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.hybrid_switch); }});
  p.push_back(named_parameter<aco::Construction>(
      "construction", "who builds a tour on the GPU (cuda backend):", aco::construction_names,
      aco::parse_construction, aco::to_string, [](auto& c) -> auto& { return c.ant_system.construction; },
      combinations_help()));
  p.push_back(named_parameter<aco::Launch>("launch", "how tour construction is launched (cuda backend):",
                                           aco::launch_names, aco::parse_launch, aco::to_string,
                                           [](auto& c) -> auto& { return c.ant_system.launch; }));
  p.push_back({"block-size",
               "threads per block of block-per-ant, stc and st-dynamic (st-dynamic's largest), ants per block of "
               "thread-per-ant; a power of two from 16 to 1024, 0 = by n (Zhou Table C3 shape) (cuda backend)",
               [](SolverConfig& c, std::string_view v) { c.ant_system.block_size = parse_value<int>("block-size", v); },
               [](const SolverConfig& c) { return nlohmann::json(c.ant_system.block_size); }});
  p.push_back(named_parameter<aco::PheromoneUpdate>(
      "pheromone-update", "pheromone update design on the GPU (cuda backend):", aco::pheromone_update_names,
      aco::parse_pheromone_update, aco::to_string,
      [](auto& c) -> auto& { return c.ant_system.pheromone_update; }));
  add_colony_parameters(p);
  add_two_opt_parameters(p);
  add_eax_parameters(p);
  return p;
}

}  // namespace

std::string parameter_name(std::string_view name) {
  std::string s(name);
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> table = make_parameters();
  return table;
}

void set_parameter(SolverConfig& config, std::string_view name, std::string_view value) {
  const std::string key = parameter_name(name);
  for (const Parameter& p : parameters())
    if (p.name == key) {
      p.set(config, value);
      if (!config.was_named(key)) config.named.push_back(key);
      return;
    }
  throw InputError(concat("unknown parameter '", name, "' (valid: ", valid_names(parameters()), ")"));
}

void apply_setting(SolverConfig& config, std::string_view setting, std::string_view option) {
  const size_t eq = setting.find('=');
  FORMICA_EXPECTS(eq != std::string_view::npos, option, ": '", setting, "' is not key=value");
  set_parameter(config, setting.substr(0, eq), setting.substr(eq + 1));
}

nlohmann::json parameters_json(const SolverConfig& config) {
  nlohmann::json out = nlohmann::json::object();
  for (const Parameter& p : parameters()) {
    std::string key(p.name);
    for (char& c : key)
      if (c == '-') c = '_';
    out[key] = p.get(config);
  }
  return out;
}

}  // namespace formica
