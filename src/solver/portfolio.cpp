// SPDX-License-Identifier: MIT
// What `--algorithm auto` runs (see portfolio.h): the default solver's rules, each a line or two
// with its threshold. The measurements behind every threshold are in docs/tuning.md, one section a
// rule, each linked from its rule (docs/tuning.md#its-anchor).
#include "solver/portfolio.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "aco/colony_merge.h"
#include "core/error.h"
#include "hybrid/host_threads.h"
#include "localsearch/config.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"

namespace formica {
namespace {

// The colonies, by n (cities).
// Quadrant lists below kSmall, and 32 GPU colonies of 32 ants: docs/tuning.md#small-instances
constexpr int kSmall = 2000, kGpuSmallColonies = 32;
// 2-opt + Or-opt from kSmall to kOrOptBelow: docs/tuning.md#local-search
constexpr int kOrOptBelow = 4000;
// There, given kBandSecondsPerCity, kBandColonies merged GPU colonies: docs/tuning.md#merged-colonies
constexpr int kBandColonies = 8;
constexpr double kBandSecondsPerCity = 2e-3;
// LKH's five alpha-nearest hold nearly every optimal edge (tests/bounds).
constexpr int kAlphaNeighbours = 5;

// The Lin-Kernighan threads beside them.
// Stretches of the tour, one a thread: docs/tuning.md#stretches
constexpr int kStretchFrom = 150000, kMinStretchThreads = 2;
// Quadrant lists of their own: docs/tuning.md#quadrant-lists
constexpr int kQuadrantThreadsFrom = 30000;
// Alpha-nearness lists on the CPU backend: docs/tuning.md#alpha-lists-on-the-cpu
constexpr int kCpuAlphaThreadsFrom = 10000, kCpuAlphaThreadsBelow = 100000;

// GA-EAX: the seconds per n^1.5 on kEaxReferenceThreads threads after which its population has
// overtaken the colonies (eax_budget), from kEaxMinCities to kEaxMaxCities, measured on the CPU
// backend (docs/tuning.md#ga-eax-on-the-cpu); the GPU's colonies follow the same rule, so that the
// GPU default runs GA-EAX wherever the host alone would (docs/gpu-engine.md#never-behind).
constexpr double kEaxCpuSeconds = 0.9e-5;
// ... but its population, the first tours climbed as far as the time limit allows, overtakes the
// colonies long before it converges: auto runs it from kEaxCrossingSeconds per n^1.5 on the same
// threads (eax_crossing), measured on 2 threads of the 2-core VM from 1,002 to 33,810 cities:
// docs/tuning.md#ga-eax-from-short-budgets
constexpr double kEaxCrossingSeconds = 5e-7;
constexpr int kEaxReferenceThreads = 16, kEaxMinCities = 1000, kEaxMaxCities = 90'000;
// Alone on the CPU from kEaxCpuMinCities, on an asymmetric instance's symmetric form from
// kEaxAsymmetricMinCities (its cities, twice the instance's):
// docs/tuning.md#ga-eax-on-the-cpu-from-400-cities
constexpr int kEaxCpuMinCities = 400, kEaxAsymmetricMinCities = 300;
// Quadrant lists for its climbs and joins below kEaxQuadrantListsBelow cities: docs/tuning.md#eax-lists
constexpr int kEaxQuadrantListsBelow = 1000;
// A run given a target, up to kEaxTargetMaxCities: kEaxTargetPopulation tours, twice as many
// whenever they converge; on an asymmetric instance's form the next populations climbed apart:
// docs/tuning.md#ga-eax-to-a-target
constexpr int kEaxTargetPopulation = 50, kEaxTargetMaxCities = 5000;
// Nearest-neighbour starts beside the GPU's colonies, 50 tours, 60 s on 85,900 cities and 14
// threads: docs/tuning.md#ga-eax-nearest-starts
constexpr int kEaxNearestFrom = 50'000, kEaxNearestPopulation = 50;
constexpr double kEaxNearestSeconds = 2.22e-6;
// A population that converges in half the time limit, 1,000 tours at most:
// docs/tuning.md#ga-eax-population
constexpr double kEaxPopulationMargin = 2.0;
constexpr int kEaxMaxAutoPopulation = 1000;

/// Whether auto runs merged colonies: the GPU, the band, and a budget of `seconds` (infinite
/// when the run is bounded by iterations only). docs/tuning.md#merged-colonies
bool merged_colonies(int n, Backend backend, double seconds) {
  return backend == Backend::Cuda && n >= kSmall && n < kOrOptBelow && seconds >= kBandSecondsPerCity * n;
}

/// Ants per iteration (per colony): a few dozen keep the CPU's threads busy; the GPU runs every ant
/// at once, a warp each, so many cost little more (each holds 3 n ints of device memory).
/// docs/tuning.md#ants
int portfolio_ants(int n, Backend backend, bool merged) {
  if (backend != Backend::Cuda || n < kSmall) return 32;
  if (merged) return 1024 / kBandColonies;
  return n >= 10000 && n < 50000 ? 2048 : 1024;
}

/// The ants' local search: 2-opt + Or-opt + 3-opt, but 2-opt + Or-opt from kSmall to kOrOptBelow
/// cities, where one colony of 1,024 ants with 3-opt stalls early. docs/tuning.md#local-search
localsearch::LocalSearchKind portfolio_local_search(int n) {
  return n >= kSmall && n < kOrOptBelow ? localsearch::LocalSearchKind::OrOpt
                                        : localsearch::LocalSearchKind::ThreeOpt;
}

/// The local search's neighbours: 12 on the GPU below kSmall, else 10. docs/tuning.md#ls-neighbours
int portfolio_ls_neighbours(int n, Backend backend) {
  return backend == Backend::Cuda && n < kSmall ? 12 : 10;
}

/// Host threads of iterated Lin-Kernighan beside the colonies (--lk-threads), from kMinKickCities
/// cities: on the GPU every hardware thread but the one driving the GPU, which sleeps while its
/// kernels run (--gpu-wait auto; one more is left to it where it spins); on the CPU, in a run bounded
/// by time, half of the run's threads (none in a run of counted iterations, which stays repeatable
/// from its seed). With several islands in the process each takes its share.
/// docs/tuning.md#lin-kernighan-threads, docs/gpu-engine.md#never-behind
int portfolio_lk_threads(int n, Backend backend, const SolverConfig& config) {
  if (n < localsearch::cpu::kMinKickCities) return 0;
  if (backend == Backend::Cuda)
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / config.islands -
                           (config.gpu_wait == GpuWait::Spin ? 2 : 1));
  const bool timed = config.time_limit && !config.iterations;
  return timed ? threads_per_island(config) / 2 : 0;
}

/// Whether auto sets the Lin-Kernighan threads: nobody named them, and nobody turned the merge
/// (through which they exchange tours) off.
bool portfolio_sets_lk_threads(const SolverConfig& config) {
  return !config.was_named("lk-threads") && config.colony.lk_threads == SolverConfig{}.colony.lk_threads &&
         !(config.was_named("merge-tours") && !config.colony.merge_tours);
}

/// Edges a focused ant re-decides: n / 8, from 16 up to 128. docs/tuning.md#focused-edges
int portfolio_focused_edges(int n) { return std::clamp(n / 8, 16, 128); }

/// Parameters that leave the choice of algorithm to auto: those of every run (and the algorithm
/// itself, which is auto here: the Python package always names it).
bool general_parameter(std::string_view name) {
  for (std::string_view general : {"algorithm", "time-limit", "target", "seed", "threads", "backend", "polish", "gpu-wait"})
    if (name == general) return true;
  return false;
}

/// Parameters of GA-EAX itself: naming one sets up GA-EAX where auto runs it, and leaves what auto
/// runs as it is.
bool eax_parameter(std::string_view name) { return name == "population" || name.starts_with("eax-"); }

/// Whether `config`'s time limit (a run not bounded by iterations) reaches eax_crossing on `threads`,
/// on n cities from `min_cities`.
bool eax_pays(const SolverConfig& config, int n, int threads, Backend backend, int min_cities = kEaxMinCities) {
  return !config.iterations && config.time_limit && n >= min_cities && n <= kEaxMaxCities &&
         *config.time_limit >= eax_crossing(n, threads, backend);
}

/// Whether the run ends at a target length on up to kEaxTargetMaxCities cities: what counts
/// there is the time to reach it.
bool ends_at_target(const SolverConfig& config, int n) { return config.target && n <= kEaxTargetMaxCities; }

/// Whether GA-EAX alone on the CPU pays for `config` on n cities: its budget on the island's threads,
/// and nobody chose anything of the colonies, Ant System, 2-opt, iterations or islands (GA-EAX's
/// own parameters are welcome). docs/tuning.md#ga-eax-on-the-cpu
bool host_alone_runs_eax(const SolverConfig& config, int n) {
  const SolverConfig defaults;
  const auto keeps_auto = [](std::string_view name) { return general_parameter(name) || eax_parameter(name); };
  return config.islands == 1 && std::ranges::all_of(config.named, keeps_auto) &&
         config.colony == defaults.colony && config.ant_system == defaults.ant_system &&
         config.two_opt == defaults.two_opt &&
         eax_pays(config, n, threads_per_island(config), Backend::Cpu,
                  config.asymmetric_form ? kEaxAsymmetricMinCities : kEaxCpuMinCities);
}

/// Whether auto on the GPU runs GA-EAX beside the colonies as the host alone would run it (its
/// climbs, population and thread count): where host_alone_runs_eax, below the nearest-neighbour
/// starts' band, whose rule is the GPU's own. docs/gpu-engine.md#never-behind
bool gpu_runs_host_eax(const SolverConfig& config, int n, Backend backend) {
  return backend == Backend::Cuda && !eax_nearest_starts(n, backend) &&
         n >= localsearch::cpu::kMinKickCities && host_alone_runs_eax(config, n);
}

/// 90000 as "90,000" (built digit by digit: g++ 12 warns of a restrict overlap in std::string::insert).
std::string with_thousands(int value) {
  const std::string digits = std::to_string(value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

/// 1.8e-5 as "1.8e-5" (a stream writes "1.8e-05").
std::string short_scientific(double value) {
  const int exponent = static_cast<int>(std::floor(std::log10(value)));
  return concat(value / std::pow(10.0, exponent), "e", exponent);
}

}  // namespace

std::string_view portfolio_description() {
  static const std::string text = concat(
      "the default, set up by n, time limit and backend, and printed when it runs: GA-EAX (edge assembly "
      "crossover) when the time limit lets its population overtake the colonies, on ", kEaxCpuMinCities, " to ",
      with_thousands(kEaxMaxCities), " cities from ", short_scientific(kEaxCrossingSeconds), " n^1.5 s x sqrt(",
      kEaxReferenceThreads, " / threads): alone on every core on the CPU, on the host's cores beside the GPU's "
      "colonies on a GPU (from ", with_thousands(kEaxNearestFrom), " cities there from ",
      short_scientific(kEaxNearestSeconds), " n^1.5 s, from nearest-neighbour tours). Otherwise MAX-MIN Ant "
      "System with focused ants, every ant's tour improved by 2-opt, Or-opt and (by n) 3-opt, beside iterated "
      "Lin-Kernighan on host threads");
  return text;
}

AutoEax auto_eax(const SolverConfig& config, int n, Backend backend) {
  if (config.algorithm != Algorithm::Auto) return AutoEax::None;
  const SolverConfig defaults;
  // Alone, on the CPU. docs/tuning.md#ga-eax-on-the-cpu
  if (backend == Backend::Cpu && host_alone_runs_eax(config, n)) return AutoEax::Alone;
  // On the GPU, wherever the host alone would run it. docs/gpu-engine.md#never-behind
  if (gpu_runs_host_eax(config, n, backend)) return AutoEax::BesideColonies;
  // On the Lin-Kernighan threads' cores beside the colonies, where the threads walk the whole tour
  // as auto sets them up and the budget pays on their cores. docs/tuning.md#ga-eax
  const aco::ColonyConfig& c = config.colony;
  const int lk_threads = portfolio_sets_lk_threads(config) ? portfolio_lk_threads(n, backend, config) : c.lk_threads;
  if (lk_threads > 0 && c.lk_stretch == 0 && !(config.was_named("lk-independent") && c.lk_independent) &&
      !config.was_named("lk-step") && !config.was_named("lk-replay") && eax_pays(config, n, lk_threads, backend) &&
      !config.was_named("host-search") && c.host_search == defaults.colony.host_search)
    return AutoEax::BesideColonies;
  return AutoEax::None;
}

bool eax_nearest_starts(int n, Backend backend) { return backend == Backend::Cuda && n >= kEaxNearestFrom; }

double eax_crossing(int n, int threads, Backend backend) {
  if (eax_nearest_starts(n, backend)) return eax_budget(n, threads, backend);
  return kEaxCrossingSeconds * std::pow(static_cast<double>(n), 1.5) *
         std::sqrt(static_cast<double>(kEaxReferenceThreads) / std::max(1, threads));
}

double eax_budget(int n, int threads, Backend backend) {
  return (eax_nearest_starts(n, backend) ? kEaxNearestSeconds : kEaxCpuSeconds) *
         std::pow(static_cast<double>(n), 1.5) *
         std::sqrt(static_cast<double>(kEaxReferenceThreads) / std::max(1, threads));
}

int eax_population(int n, int threads, double time_limit, Backend backend) {
  const int reference = population::EdgeAssemblyConfig{}.population;
  const int first = eax_nearest_starts(n, backend) ? kEaxNearestPopulation : reference;
  const double wanted = reference * time_limit / (kEaxPopulationMargin * eax_budget(n, threads, backend));
  if (!(wanted < kEaxMaxAutoPopulation)) return kEaxMaxAutoPopulation;  // also a time limit of 1e300
  return std::max(static_cast<int>(std::floor(wanted / 10)) * 10, first);
}

double default_time_limit(int n) { return std::min(n / 100.0, std::clamp(n / 2000.0, 10.0, 60.0)); }

SolverConfig apply_portfolio(SolverConfig config, int n, Backend backend) {
  if (config.algorithm != Algorithm::Auto) return config;
  const SolverConfig defaults;
  // A field is the portfolio's to fill when nobody named it and it still holds its default.
  const auto unset = [&](std::string_view name, const auto& value, const auto& default_value) {
    return !config.was_named(name) && value == default_value;
  };
  const AutoEax eax = auto_eax(config, n, backend);
  // GA-EAX beside the GPU's colonies as the host alone runs it (judged on the request, before the
  // colonies' fields below are filled in). docs/gpu-engine.md#never-behind
  const bool host_eax = eax == AutoEax::BesideColonies && gpu_runs_host_eax(config, n, backend);
  // GA-EAX's climbs and lists as the host alone runs them, alone or beside the GPU's colonies.
  const auto climbs_as_alone = [&] {
    if (unset("eax-climb", config.eax.climb, defaults.eax.climb))
      config.eax.climb = population::EaxClimb::LinKernighan;  // docs/tuning.md#ga-eax-lin-kernighan-climbs
    if (n < kEaxQuadrantListsBelow && unset("eax-lists", config.eax.lists, defaults.eax.lists))
      config.eax.lists = NeighbourShape::Quadrant;  // docs/tuning.md#eax-lists
  };
  if (eax == AutoEax::Alone) {
    config.algorithm = Algorithm::Eax;
    const bool to_target = ends_at_target(config, n);
    if (unset("population", config.eax.population, defaults.eax.population))
      config.eax.population = to_target ? kEaxTargetPopulation
                                         : eax_population(n, threads_per_island(config), *config.time_limit, Backend::Cpu);
    if (to_target && config.asymmetric_form &&
        unset("eax-restart-apart", config.eax.restart_apart, defaults.eax.restart_apart))
      config.eax.restart_apart = true;
    climbs_as_alone();
    return config;
  }
  config.algorithm = Algorithm::Mmas;
  aco::ColonyConfig& c = config.colony;
  if (unset("local-search", c.local_search, defaults.colony.local_search))
    c.local_search = portfolio_local_search(n);
  if (unset("ls-neighbours", c.ls_neighbours, defaults.colony.ls_neighbours))
    c.ls_neighbours = c.ls_candidates == aco::LsCandidates::Alpha ? kAlphaNeighbours : portfolio_ls_neighbours(n, backend);
  if (unset("focused-edges", c.focused_edges, defaults.colony.focused_edges))
    c.focused_edges = portfolio_focused_edges(n);
  // Evaporation: focused ants re-decide few edges, so the pheromone must follow the source fast.
  if (unset("mmas-rho", c.mmas_rho, defaults.colony.mmas_rho)) c.mmas_rho = 0.5;
  const bool merged =
      merged_colonies(n, backend, config.time_limit.value_or(std::numeric_limits<double>::infinity()));
  // Quadrant lists below kSmall and with merged colonies. docs/tuning.md#small-instances
  if (unset("neighbour-lists", c.neighbour_lists, defaults.colony.neighbour_lists))
    c.neighbour_lists = n < kSmall || merged ? NeighbourShape::Quadrant : NeighbourShape::Nearest;
  if (unset("ants", config.ant_system.ants, defaults.ant_system.ants))
    config.ant_system.ants = portfolio_ants(n, backend, merged);
  if (unset("colonies", c.colonies, defaults.colony.colonies)) {
    if (merged)
      c.colonies = kBandColonies;
    else if (backend == Backend::Cuda && n < kSmall)
      c.colonies = kGpuSmallColonies;
  }
  if (portfolio_sets_lk_threads(config)) {
    c.lk_threads = portfolio_lk_threads(n, backend, config);
    // On the CPU the Lin-Kernighan threads take their share of the run's threads from the colonies.
    if (backend == Backend::Cpu && c.lk_threads > 0)
      config.threads = threads_per_island(config) - c.lk_threads;
  }
  if (eax == AutoEax::BesideColonies) c.host_search = aco::HostSearch::Eax;
  // GA-EAX as the host alone runs it: its first population and Lin-Kernighan climbs.
  if (host_eax && ends_at_target(config, n)) {
    if (unset("population", config.eax.population, defaults.eax.population))
      config.eax.population = kEaxTargetPopulation;
    if (config.asymmetric_form && unset("eax-restart-apart", config.eax.restart_apart, defaults.eax.restart_apart))
      config.eax.restart_apart = true;
  }
  if (host_eax) climbs_as_alone();
  // Beside the GPU's colonies, the start tours' first climbs on the GPU. docs/gpu-engine.md#start-climbs
  if (c.host_search == aco::HostSearch::Eax && backend == Backend::Cuda &&
      unset("eax-gpu-climbs", config.eax.gpu_climbs, defaults.eax.gpu_climbs))
    config.eax.gpu_climbs = true;
  if (c.host_search == aco::HostSearch::Eax && config.time_limit &&
      unset("population", config.eax.population, defaults.eax.population))
    config.eax.population = eax_population(n, c.lk_threads, *config.time_limit, backend);
  // Nearest-neighbour starts climbed by Lin-Kernighan on large instances. docs/tuning.md#ga-eax-nearest-starts
  if (c.host_search == aco::HostSearch::Eax && eax_nearest_starts(n, backend)) {
    if (unset("eax-start", config.eax.start, defaults.eax.start))
      config.eax.start = localsearch::StartKind::NearestNeighbour;
    if (unset("eax-climb", config.eax.climb, defaults.eax.climb))
      config.eax.climb = population::EaxClimb::LinKernighan;
  }
  // Independent walks below kOrOptBelow. docs/tuning.md#independent-walks
  if (c.lk_threads > 0 && n < kOrOptBelow && c.lk_stretch == 0 &&
      c.host_search == aco::HostSearch::LinKernighan && !c.lk_replay &&
      unset("lk-independent", c.lk_independent, defaults.colony.lk_independent))
    c.lk_independent = true;
  // Very large tours: a stretch of n / threads cities a thread (decomposition/stretch_lin_kernighan.h),
  // so that every thread's gains add up. docs/tuning.md#stretches
  if (c.lk_threads >= kMinStretchThreads && n >= kStretchFrom &&
      c.host_search == aco::HostSearch::LinKernighan && !c.lk_independent &&
      c.lk_lists != aco::LkLists::Alpha && unset("lk-stretch", c.lk_stretch, defaults.colony.lk_stretch))
    c.lk_stretch = n / c.lk_threads;
  // The threads' lists: alpha-nearness on the CPU in a band (docs/tuning.md#alpha-lists-on-the-cpu),
  // else quadrant ones of their own on large instances (docs/tuning.md#quadrant-lists).
  if (c.lk_threads > 0 && c.host_search == aco::HostSearch::LinKernighan &&
      unset("lk-lists", c.lk_lists, defaults.colony.lk_lists)) {
    if (backend == Backend::Cpu && c.lk_stretch == 0 && n >= kCpuAlphaThreadsFrom &&
        n < kCpuAlphaThreadsBelow)
      c.lk_lists = aco::LkLists::Alpha;
    else if (n >= kQuadrantThreadsFrom)
      c.lk_lists = aco::LkLists::Quadrant;
  }
  // The Lin-Kernighan threads exchange tours through the merge.
  if ((merged || c.lk_threads > 0) && unset("merge-tours", c.merge_tours, defaults.colony.merge_tours))
    c.merge_tours = true;
  return config;
}

int island_stretch(const SolverConfig& request, const SolverConfig& resolved, int regions) {
  const aco::ColonyConfig& c = resolved.colony;
  if (c.lk_stretch == 0 || !c.lk_split || regions <= 1 || request.colony.lk_stretch != 0) return c.lk_stretch;
  return std::max(c.lk_stretch / regions, localsearch::cpu::kMinKickCities);
}

std::string portfolio_summary(const SolverConfig& resolved, int n, EdgeWeightType type, Backend backend) {
  if (resolved.algorithm == Algorithm::Eax) {
    const int threads = threads_per_island(resolved);
    return concat("auto: n = ", n, " on the CPU: GA-EAX on ", threads, threads == 1 ? " thread" : " threads",
                  " (", resolved.eax.population, " tours",
                  resolved.eax.climb == population::EaxClimb::LinKernighan ? " climbed by Lin-Kernighan" : "",
                  resolved.eax.lists == NeighbourShape::Quadrant ? " over quadrant lists" : "", ", ",
                  resolved.eax.children, " children per pair), the time limit being past the ",
                  std::round(eax_crossing(n, threads, Backend::Cpu) * 100) / 100,
                  " s from which its population overtakes the colonies");
  }
  const aco::ColonyConfig& c = resolved.colony;
  const bool gpu = backend == Backend::Cuda;
  const NeighbourShape lists = effective_shape(c.neighbour_lists, type);
  return concat(
      "auto: n = ", n, " on the ", gpu ? "GPU" : "CPU", ": ", to_string(resolved.algorithm), " with ",
      colony_config(resolved, threads_per_island(resolved)).ants_of(0, n), " ants",  // --ants 0: the default that runs
      c.colony_count() > 1 ? concat(" in each of ", c.colony_count(), " independent colonies")
                           : std::string(),
      c.focused() ? concat(", focused (", c.focused_edges, " edges re-decided per ant)") : std::string(),
      c.merge_tours ? concat(", best tours merged every ", aco::kMergeInterval, " iterations")
                    : std::string(),
      c.lk_threads > 0 && c.host_search == aco::HostSearch::Eax
          ? concat(" with ", c.lk_threads, " host thread", c.lk_threads > 1 ? "s" : "",
                   " of GA-EAX (a population of ", resolved.eax.population, " tours",
                   resolved.eax.climb == population::EaxClimb::LinKernighan ? " climbed by Lin-Kernighan"
                   : resolved.eax.start != localsearch::StartKind::Random   ? " climbed"
                                                                            : "",
                   resolved.eax.start == localsearch::StartKind::Random
                       ? std::string()
                       : concat(" from ", localsearch::to_string(resolved.eax.start), " tours"),
                   " crossed by edge assembly; the time limit is past the ",
                   std::round(eax_crossing(n, c.lk_threads, backend) * 100) / 100,
                   " s from which it overtakes the colonies)")
      : c.lk_threads > 0
          ? concat(" with ", c.lk_threads, " iterated Lin-Kernighan host thread", c.lk_threads > 1 ? "s" : "",
                   " (", localsearch::to_string(c.lk_step), " steps",
                   c.lk_lists == aco::LkLists::Colonies
                       ? std::string()
                       : concat(" over ",
                                to_string(effective_shape(
                                    hybrid::threads_shape(c.lk_lists, NeighbourShape::Nearest), type)),
                                " lists",
                                c.lk_lists == aco::LkLists::Alpha
                                    ? concat(", then the ", hybrid::kThreadsAlphaNeighbours, " alpha-nearest")
                                    : std::string()),
                   c.lk_adopt_merged  ? ", independent walks that take the merged tour)"
                   : c.lk_independent ? ", independent walks)"
                                      : ")",
                   c.lk_stretch > 0
                       ? concat(" over stretches of ", c.lk_stretch, " cities, then the whole tour")
                       : "")
          : std::string(),
      ", local search ", localsearch::to_string(c.local_search), " over ", c.ls_neighbours, " ",
      c.ls_candidates == aco::LsCandidates::Alpha ? std::string_view("alpha-nearest") : to_string(lists),
      " neighbours, pheromone on ", c.candidates, " candidate edges per city (O(n k) memory), ",
      resolved.polish ? "exact 2-opt + Or-opt + 3-opt polish of the best tour" : "no final polish");
}

}  // namespace formica
