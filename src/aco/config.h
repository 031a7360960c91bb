// SPDX-License-Identifier: MIT
// Parameters of the ant colony algorithms, with the papers' defaults, and the GPU plan: which
// construction strategy, selection, launch mode and pheromone-update design run together.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/named_table.h"

namespace formica::aco {

/// How an ant picks its next city (Uchida et al. section 4.2; Cecilia et al. 3.2.3; Zhou et al. B.4.1).
enum class Selection {
  Roulette,         // SelectWithoutCompression: prefix sums of f_ij * u_j over all n cities
  Compression,      // SelectWithCompression: prefix sums over the unvisited index array only
  StochasticTrial,  // SelectWithStochasticTrial: up to w draws from the row's static prefix sums
  Hybrid,           // stochastic trial until a fraction of cities is visited, then compression
  IRoulette,        // I-Roulette: arg-max of u_j * f_ij, one uniform per city; an approximation
  TileRoulette,     // one uniform per step, tile sums, a scan of only the tile that holds it
};

/// Who works on one ant's tour on the GPU (the CPU always uses one thread per ant).
enum class Construction {
  Auto,          // picked by selection and launch from measurements (resolve_construction)
  WarpPerAnt,    // a warp per ant, visited set as a bitmask in shared memory, no block barriers
  BlockPerAnt,   // a block (queen) per ant, a thread (worker) per city in tiles (Cecilia 3.2.2)
  ThreadPerAnt,  // a thread per ant, sequential selection (task parallelism, Cecilia 3.1.2)
  Stc,           // a block per ant over a tour list with a cursor and node swaps (Zhou B.4.2)
  StDynamic,     // Stc with the working threads following the unvisited count (Zhou Algorithm B4)
};

/// How tour construction is launched (Zhou et al. B.2).
enum class Launch {
  KeAll,  // one launch builds whole tours (Algorithm B1)
  KeOne,  // one launch per construction step, captured once as a CUDA graph (Algorithm B2)
};

/// How the GPU applies evaporation and deposits.
enum class PheromoneUpdate {
  Atomic,                  // fixed-point atomicAdd deposits, a thread per tour edge (Cecilia Fig. 4)
  AtomicTiled,             // the same with tour tiles in shared memory (Cecilia version 1)
  ScatterGather,           // a thread per matrix cell scanning all tours (Cecilia Fig. 5, version 5)
  ScatterGatherTiled,      // scatter-gather with tours tiled in shared memory (version 4)
  ScatterGatherReduction,  // tiled, upper triangle only, both halves written (version 3)
  Symmetrize,              // PheromoneUpdateKernel + SymmetrizeKernel (Uchida et al. section 4.3)
};

std::string_view to_string(Selection selection);
std::optional<Selection> parse_selection(std::string_view text);
/// Every selection name with a one-line description (for --help and error messages).
std::vector<NamedValue> selection_names();
std::string_view to_string(Construction construction);
std::optional<Construction> parse_construction(std::string_view text);
std::vector<NamedValue> construction_names();
std::string_view to_string(Launch launch);
std::optional<Launch> parse_launch(std::string_view text);
std::vector<NamedValue> launch_names();
std::string_view to_string(PheromoneUpdate update);
std::optional<PheromoneUpdate> parse_pheromone_update(std::string_view text);
std::vector<NamedValue> pheromone_update_names();

/// The most ants a colony takes (--ants): as many as the largest instance has cities. Memory is
/// checked as well, before anything is allocated.
inline constexpr int kMaxAnts = 100'000'000;

/// Ant System (Dorigo et al. 1996; Uchida et al. 2012 section 2).
struct AntSystemConfig {
  int ants = 0;          ///< m; 0 means one ant per city (m = n)
  double alpha = 1.0;    ///< pheromone exponent
  double beta = 2.0;     ///< heuristic exponent, eta_ij = 1 / d_ij
  double rho = 0.5;      ///< evaporation rate: tau <- (1 - rho) tau before deposits
  Selection selection = Selection::Roulette;
  int trials = 8;               ///< w: stochastic trials before falling back to roulette
  double hybrid_switch = 0.85;  ///< hybrid: fraction of visited cities where trial gives way
  // The CUDA-only choices. Their defaults mean "not chosen": the CPU backend refuses any other value.
  Construction construction = Construction::Auto;
  Launch launch = Launch::KeAll;
  int block_size = 0;  ///< threads per block (ants per block for thread-per-ant); 0 = by n
  PheromoneUpdate pheromone_update = PheromoneUpdate::Symmetrize;
  int threads = 1;              ///< CPU worker threads (the result does not depend on it)
  uint64_t seed = 1;

  /// Throws InputError naming the first parameter out of range or the first combination of
  /// construction, selection and launch that does not exist (listing those that do).
  void validate() const;
  /// One line "alpha=1 beta=2 ..." for logs and benchmark rows.
  std::string describe() const;
  bool operator==(const AntSystemConfig&) const = default;
};

/// True when `selection` reads per-row prefix sums computed once per iteration.
inline bool needs_prefix_sums(Selection selection) {
  return selection == Selection::StochasticTrial || selection == Selection::Hybrid;
}

/// True when `construction` can use `selection` / be launched as `launch` (one table in config.cpp).
bool supports(Construction construction, Selection selection);
bool supports(Construction construction, Launch launch);
/// "warp-per-ant: roulette, compression, ...; ke-all" per construction, for error messages.
std::string supported_combinations();

/// What the GPU runs for one instance: every "auto" resolved, every combination checked.
struct GpuPlan {
  Construction construction = Construction::WarpPerAnt;  ///< never Auto
  Selection selection = Selection::Roulette;
  Launch launch = Launch::KeAll;
  int block_size = 0;  ///< threads per block (ants per block for thread-per-ant; 0 for warp-per-ant)
  PheromoneUpdate pheromone_update = PheromoneUpdate::Symmetrize;

  /// "construction=... selection=... launch=... block-size=... pheromone-update=...".
  std::string describe() const;
};

/// Resolves the GPU choices of `config` for n cities and m ants. Throws InputError for a choice
/// that cannot run at this size (naming the limit), e.g. a scatter-gather update whose O(n^2 m n)
/// work exceeds kScatterGatherMaxChecks.
GpuPlan plan_gpu(const AntSystemConfig& config, int n, int m);

/// The construction "auto" picks for this selection and launch (`requested` itself unless auto):
/// warp-per-ant where it takes them, otherwise the first construction that does.
Construction resolve_construction(Construction requested, Selection selection, Launch launch);

/// Threads per block "block-size 0" picks for `construction` at n cities (Zhou Table C3 shape).
int auto_block_size(Construction construction, int n);

/// Scatter-gather designs check every tour edge for every matrix cell: the number of such checks
/// per iteration is capped, so that one iteration stays near ten seconds or less on a current GPU.
constexpr double kScatterGatherMaxChecks = 1.1e12;
/// Edge checks one scatter-gather update makes for n cities and m ants (0 for other designs).
double scatter_gather_checks(PheromoneUpdate update, int n, int m);

/// The CUDA-only choices `config` sets away from their defaults, "--construction stc, --launch
/// ke-one" (empty when none).
std::string gpu_choices(const AntSystemConfig& config);

/// Throws InputError when `config` sets a CUDA-only choice (construction, launch, block size,
/// pheromone update) away from its default: the CPU backend would silently ignore it.
void require_cpu_defaults(const AntSystemConfig& config);

/// Heuristic desirability eta_ij = 1 / d_ij. Distances are integers, so only coincident cities
/// (d = 0) need care: they get the value of a distance of 0.5, the most attractive a real edge can be.
inline double heuristic(int64_t distance) { return 1.0 / (distance > 0 ? static_cast<double>(distance) : 0.5); }

}  // namespace formica::aco
