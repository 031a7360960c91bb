// Parameters of 2-opt hill climbing with random restarts (Robinson et al. 2018), with the paper's
// defaults, the names of the start tours, and the kinds of local search the ant colonies can give
// every ant's tour.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace formica::localsearch {

/// The tour a restart climbs from.
enum class StartKind {
  Random,             // a seeded random permutation per restart (sections 2.2, 3.1)
  NearestNeighbour,   // the greedy tour from a start city drawn per restart (restart 0: city 0)
  SpaceFillingCurve,  // the Hilbert-curve tour (restart 0) or a shifted, mirrored variant of it
};

/// A value of a named parameter and one line of help about it.
struct NamedChoice {
  std::string_view name;
  std::string_view help;
};

std::string_view to_string(StartKind start);
std::optional<StartKind> parse_start(std::string_view text);
std::vector<NamedChoice> start_names();

/// The local search every ant's tour gets before the pheromone update (cpu/neighbour_list_climb.h
/// on the CPU, cuda/ant_local_search.cuh on the GPU): neighbour lists and don't-look bits.
enum class LocalSearchKind {
  None,      // the tours as the ants built them
  TwoOpt,    // 2-opt
  OrOpt,     // 2-opt and Or-opt (segments of 1-3 cities moved, either way round)
  ThreeOpt,  // 2-opt, Or-opt and sequential 3-opt (Lin-Kernighan steps of depth 3)
};

/// Whether `kind` tries Or-opt moves, and 3-opt moves, besides 2-opt (ThreeOpt tries all three).
constexpr bool searches_or_opt(LocalSearchKind kind) {
  return kind == LocalSearchKind::OrOpt || kind == LocalSearchKind::ThreeOpt;
}
constexpr bool searches_three_opt(LocalSearchKind kind) { return kind == LocalSearchKind::ThreeOpt; }

/// What one step of a Lin-Kernighan chain is (cpu/lin_kernighan.h).
enum class LinKernighanStep {
  TwoOpt,    // a 2-opt move, applied as it is tried (Johnson and McGeoch's LK)
  ThreeOpt,  // a sequential 3-opt move, all of them evaluated first (LKH's MOVE_TYPE = 3)
  FiveOpt,   // a sequential 5-opt move over 5 candidates, all of them evaluated first (LKH's default)
};

std::string_view to_string(LinKernighanStep step);
std::optional<LinKernighanStep> parse_lk_step(std::string_view text);
std::vector<NamedChoice> lk_step_names();

/// Which child of GA-EAX replaces its parent A (cpu/edge_assembly_search.h): the shortest, or,
/// among those shorter than A, the one that loses the least of the population's edge entropy per
/// unit of length gained (Nagata and Kobayashi's entropy-preserving selection, which keeps the
/// population diverse for longer).
enum class EaxSelection { Greedy, Entropy };

std::string_view to_string(EaxSelection selection);
std::optional<EaxSelection> parse_eax_selection(std::string_view text);
std::vector<NamedChoice> eax_selection_names();

/// How GA-EAX climbs its population's start tours (cpu/edge_assembly_search.h): 2-opt and Or-opt
/// over neighbour lists, or that and then Lin-Kernighan chains of 3-opt steps from every city.
enum class EaxClimb { OrOpt, LinKernighan };

std::string_view to_string(EaxClimb climb);
std::optional<EaxClimb> parse_eax_climb(std::string_view text);
std::vector<NamedChoice> eax_climb_names();

std::string_view to_string(LocalSearchKind kind);
std::optional<LocalSearchKind> parse_local_search(std::string_view text);
std::vector<NamedChoice> local_search_names();

/// Which GPU layout climbs the tours (the CPU ignores it).
enum class Layout {
  Auto,          // one tour per block, unless there are fewer tours than SMs and n is large
  BlockPerTour,  // a fixed grid of blocks, each climbing whole tours (sections 3.3.1, 3.3.2)
  GridPerTour,   // every block of the GPU on one tour at a time (the paper's future work, section 7)
};

std::string_view to_string(Layout layout);
std::optional<Layout> parse_layout(std::string_view text);

/// k-swap value meaning "no limit" (infinity-swap, section 3.4).
inline constexpr int kUnlimitedSwaps = 0;

/// 2-opt hill climbing with random restarts (Robinson et al. 2018). Defaults are the paper's final
/// algorithm: random restarts, infinity-swap, a work queue handing out one tour at a time.
struct TwoOptConfig {
  int64_t restarts = 1000;      ///< climbs in total; the paper's experiments use 1000 (section 4.4)
  int k_swap = kUnlimitedSwaps; ///< moves applied per pass, best first, no two overlapping; 0 = infinity
  int queue = 1;                ///< Q restarts handed out per atomic fetch (section 3.3.2); 0 = no queue
  StartKind start = StartKind::Random;
  Layout layout = Layout::Auto;
  int threads_per_block = 0;    ///< T (sections 5.2.1-5.2.6): 32..1024, a power of two; 0 = chosen per n
  int tile = 0;                 ///< S: shared-memory elements (x, y, cost) per block; 0 = chosen per n
  int neighbours = 10;          ///< list size of the one-tour pre-climb (grid per tour, CPU); 0 = off
  int block_neighbours = 5;     ///< list size of the block-per-tour climber's pre-climb; 0 = off (the paper's climb)
  int threads = 1;              ///< CPU threads (the result does not depend on it)
  uint64_t seed = 1;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// One line "restarts=1000 k-swap=inf ..." for logs and benchmark rows.
  std::string describe() const;
  bool operator==(const TwoOptConfig&) const = default;
};

/// "inf" or the number.
std::string k_swap_text(int k_swap);
/// Parses "inf", "infinity" or a positive integer; nullopt otherwise.
std::optional<int> parse_k_swap(std::string_view text);

/// With TwoOptConfig::neighbours > 0, tours of at least this many cities are first climbed with
/// neighbour lists (O(n k) per pass) before the full O(n^2) passes that certify the 2-opt local
/// optimum: always on the CPU, and on the GPU when the whole grid climbs one tour.
inline constexpr int kNeighbourListMinCities = 10'000;

/// With TwoOptConfig::block_neighbours > 0, the GPU's block-per-tour climber (many restarts, one
/// tour per block) runs the neighbour-list pre-climb on tours of at least this many cities: from a
/// random start it replaces hundreds of O(n^2) passes (issue 23). Its lists hold 5 neighbours, not
/// the 10 of the one-tour climbs: measured on five instances of 1,400 to 5,915 cities (H200), 5
/// gave shorter local optima than 10 and, on four of them, than the paper's full-pass climb.
inline constexpr int kBlockNeighbourListMinCities = 1'000;

namespace cpu {

/// The largest population: 10,000 tours of 10,000 cities are 800 MB with the next generation's.
inline constexpr int kMaxPopulation = 10000;

/// GA-EAX's settings (cpu/edge_assembly_search.h): --algorithm eax, and the colonies' host threads
/// with --host-search eax.
struct EdgeAssemblyConfig {
  EaxSelection selection = EaxSelection::Entropy;
  int population = 100;  ///< tours of the first population (at least 2)
  /// When the population has converged, start again with one `growth` times as large (at least
  /// as large, at most kMaxPopulation) holding the best tour so far; with 0 the search has finished.
  double growth = 2;
  int children = 30;  ///< children per pair at most (Nagata and Kobayashi's N_ch)
  /// 1: children from single AB-cycles only. 2: when that stage stalls (no shorter tour in
  /// 1,500 / children generations) or converges, children from block E-sets (localsearch/edge_assembly.h)
  /// until that stalls or converges too, before the next population.
  int stages = 2;
  /// The tours the population's climbs start from (localsearch/start_tour.h).
  StartKind start = StartKind::Random;
  /// How those tours are climbed (EaxClimb). Lin-Kernighan climbs cost more (pla85900: about 1.6 s
  /// a tour on the VM, against 0.15 s) but the population converges far lower and sooner from
  /// them: usa13509, 50 nearest-neighbour starts, this project's VM, 2 threads, alone: 0.091 % at
  /// 23 s against 0.447 % at 24 s; pla85900: 0.201 % against 0.873 %, both at 278 s. Auto takes them
  /// with nearest-neighbour starts beside the GPU's colonies (solver/portfolio.cpp).
  EaxClimb climb = EaxClimb::OrOpt;
  /// The populations after the first: 0, tours climbed from `start` as the first; K > 0, the best
  /// tour so far with K double-bridge kicks (localsearch/double_bridge.h), each repaired by
  /// Lin-Kernighan chains from its ends (cpu/kicked_tour.h), so that the new population spreads
  /// around the best tour's basin instead of starting far from it. Measured on an H200 host, one
  /// thread, 180-240 s (bench/results/2026-11-29-eax-restart-kicks): fnl4461 reached its optimum in 8 of 8
  /// runs with 10, 30 or 50 kicks and in 2 of 6 with climbed restarts.
  int restart_kicks = 30;
  /// The populations after the first climbed from `start` without the best tour, which joins a
  /// population only once that has converged on its own (restart_kicks is then unused): each
  /// restart searches a basin of its own, and the crossover then takes from the best tour what the
  /// new basin lacks.
  bool restart_apart = false;
  /// The first population: 0, tours climbed from `start`; K > 0, the first tour (the
  /// nearest-neighbour climb, or the tour handed in: the colonies' beside them) and that tour with
  /// K kicks each, as the restarts above: built in seconds where a climbed population of 85,900
  /// cities takes minutes. Measured on pla85900 beside the GPU colonies (H200 host, 14 threads,
  /// seed 1, 120 s; bench/results/2026-11-29-eax-first-kicks): 0.318 % with 30 kicks, 0.271 % with
  /// 30 kicks and a population of 30, against 0.224-0.334 % (median 0.244 %, seeds 1-5) for the
  /// default's Lin-Kernighan threads: no gain, so off by default.
  int first_kicks = 0;
  int neighbours = 10;  ///< nearest neighbours per city: the start climbs' lists and the joins'
  int threads = 1;
  uint64_t seed = 1;

  /// Throws InputError naming the first value out of range.
  void validate() const;
  /// One line, e.g. "GA-EAX: population 300, 30 children per pair, entropy selection, 10 nearest
  /// neighbours" (the threads are the run's, which says them).
  std::string describe() const;
  bool operator==(const EdgeAssemblyConfig&) const = default;
};

}  // namespace cpu
}  // namespace formica::localsearch
