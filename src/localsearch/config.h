// SPDX-License-Identifier: MIT
// Parameters of 2-opt hill climbing with random restarts (Robinson et al. 2018), with the paper's
// defaults, the names of the start tours, and the kinds of local search the ant colonies can give
// every ant's tour.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/named_table.h"

namespace formica::localsearch {

/// The tour a restart climbs from.
enum class StartKind {
  Random,             // a seeded random permutation per restart (sections 2.2, 3.1)
  NearestNeighbour,   // the greedy tour from a start city drawn per restart (restart 0: city 0)
  SpaceFillingCurve,  // the Hilbert-curve tour (restart 0) or a shifted, mirrored variant of it
};

std::string_view to_string(StartKind start);
std::optional<StartKind> parse_start(std::string_view text);
std::vector<NamedValue> start_names();

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
std::vector<NamedValue> lk_step_names();

std::string_view to_string(LocalSearchKind kind);
std::optional<LocalSearchKind> parse_local_search(std::string_view text);
std::vector<NamedValue> local_search_names();

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
/// random start it replaces hundreds of O(n^2) passes. Its lists hold 5 neighbours, not
/// the 10 of the one-tour climbs: measured on five instances of 1,400 to 5,915 cities (H200), 5
/// gave shorter local optima than 10 and, on four of them, than the paper's full-pass climb.
inline constexpr int kBlockNeighbourListMinCities = 1'000;

}  // namespace formica::localsearch
