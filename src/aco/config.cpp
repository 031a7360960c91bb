// SPDX-License-Identifier: MIT
// Names, validation and printing of the ant colony parameters, and the GPU plan: the one table of
// which construction takes which selection and launch, and the "auto" choices by n.
#include "aco/config.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "core/error.h"
#include "core/named_table.h"

namespace formica::aco {
namespace {

constexpr NamedEntry<Selection> kSelections[] = {
    {Selection::Roulette,
     {"roulette", "SelectWithoutCompression: prefix sums over all n cities, 32-way search (Uchida 4.2.1)"}},
    {Selection::Compression,
     {"compression", "SelectWithCompression: prefix sums over the unvisited index array (Uchida 4.2.2)"}},
    {Selection::StochasticTrial,
     {"stochastic-trial", "up to w draws from the row's static prefix sums, then roulette (Uchida 4.2.3)"}},
    {Selection::Hybrid,
     {"hybrid", "stochastic trial until a fraction of cities is visited, then compression (Uchida 4.2.4)"}},
    {Selection::IRoulette,
     {"i-roulette",
      "I-Roulette: arg-max of a uniform per city times f_ij; approximates roulette (Cecilia 3.2.3)"}},
    {Selection::TileRoulette,
     {"tile-roulette",
      "TR: one uniform per step, tile sums, a scan of only the tile holding it (Zhou B.4.1)"}},
};

constexpr NamedEntry<Construction> kConstructions[] = {
    {Construction::Auto,
     {"auto",
      "warp-per-ant where it takes the selection and launch (the fastest at every n "
      "measured: docs/papers.md, construction table), otherwise the first that does"}},
    {Construction::WarpPerAnt,
     {"warp-per-ant",
      "a warp builds each tour: visited bitmask in shared memory, warp scans (Zhou Figure B1) "
      "and ballots, no block barriers"}},
    {Construction::BlockPerAnt,
     {"block-per-ant",
      "a block (queen) per ant, threads (workers) per city in tiles, visited bits in "
      "registers (Cecilia 3.2.2; Zhou ST-GROUP)"}},
    {Construction::ThreadPerAnt,
     {"thread-per-ant",
      "a thread per ant, sequential selection over the row: task parallelism (Cecilia 3.1.2)"}},
    {Construction::Stc,
     {"stc",
      "a block per ant over its tour list: cursor and node swap, only unvisited cities scanned "
      "(Zhou B.4.2, Figure B2)"}},
    {Construction::StDynamic,
     {"st-dynamic",
      "stc with the working threads following the unvisited count, a power of two "
      "(Zhou B.4.2, Algorithm B4)"}},
};

constexpr NamedEntry<Launch> kLaunches[] = {
    {Launch::KeAll, {"ke-all", "one launch builds whole tours (Zhou B.2, Algorithm B1)"}},
    {Launch::KeOne,
     {"ke-one",
      "one launch per construction step, the n-step loop captured as a CUDA graph "
      "(Zhou B.2, Algorithm B2)"}},
};

constexpr NamedEntry<PheromoneUpdate> kPheromoneUpdates[] = {
    {PheromoneUpdate::Atomic,
     {"atomic",
      "fixed-point atomicAdd deposits, a thread per tour edge, then evaporation (Cecilia Figure 4; "
      "Zhou Algorithm B3)"}},
    {PheromoneUpdate::AtomicTiled,
     {"atomic-tiled",
      "atomic with each block staging a tile of the tours in shared memory (Cecilia 5.2, "
      "version 1)"}},
    {PheromoneUpdate::ScatterGather,
     {"scatter-gather",
      "a thread per matrix cell scans every tour edge, no atomics, O(n^2 m n) "
      "(Cecilia Figure 5, version 5)"}},
    {PheromoneUpdate::ScatterGatherTiled,
     {"scatter-gather-tiled",
      "scatter-gather with the tour edges tiled in shared memory (Cecilia 3.3, version 4)"}},
    {PheromoneUpdate::ScatterGatherReduction,
     {"scatter-gather-reduction",
      "tiled scatter-gather over the upper triangle, each thread writing both "
      "halves (Cecilia 3.3, version 3)"}},
    {PheromoneUpdate::Symmetrize,
     {"symmetrize",
      "PheromoneUpdateKernel (row blocks, shared-memory deposits) + SymmetrizeKernel (Uchida 4.3)"}},
};

constexpr unsigned bit(Selection s) { return 1u << static_cast<unsigned>(s); }

/// Which construction takes which selections, and whether it can be launched a step at a time.
/// STC and ST-DYNAMIC scan their own tour list: their "roulette" is the scan over its unvisited
/// part; stochastic trial and compression belong to the whole-row strategies.
struct Support {
  Construction construction;
  unsigned selections;
  bool ke_one;
};
constexpr unsigned kUchida = bit(Selection::Roulette) | bit(Selection::Compression) |
                             bit(Selection::StochasticTrial) | bit(Selection::Hybrid);
constexpr unsigned kTourList = bit(Selection::Roulette) | bit(Selection::TileRoulette) | bit(Selection::IRoulette);
constexpr Support kSupport[] = {
    {Construction::WarpPerAnt, kUchida | bit(Selection::IRoulette), false},
    {Construction::BlockPerAnt, kUchida | bit(Selection::IRoulette) | bit(Selection::TileRoulette), true},
    {Construction::ThreadPerAnt, bit(Selection::Roulette) | bit(Selection::IRoulette), false},
    {Construction::Stc, kTourList, true},
    {Construction::StDynamic, kTourList, true},
};

const Support* support_of(Construction c) {
  for (const auto& s : kSupport)
    if (s.construction == c) return &s;
  return nullptr;
}

/// Threads per block by n for the block strategies, the shape of Zhou et al. Table C3 (their
/// optimum on d198 ... fnl4461: 64, 64, 128, 128, 256, 256, 512, 1024, 1024).
struct AutoBlock {
  int max_n;
  int threads;
};
constexpr AutoBlock kAutoBlock[] = {{400, 64}, {900, 128}, {2000, 256}, {2800, 512}, {INT_MAX, 1024}};

/// Ants per block for thread-per-ant: Cecilia et al. 5.1.4 found 16 best.
constexpr int kThreadPerAntBlock = 16;
constexpr int kMaxBlock = 1024;

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

int next_power_of_two(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

std::string selections_of(unsigned mask) {
  std::string text;
  for (const auto& e : kSelections)
    if (mask & bit(e.value)) text += (text.empty() ? "" : ", ") + std::string(e.name.name);
  return text;
}

}  // namespace

std::string_view to_string(Selection s) { return name_of(kSelections, s); }
std::optional<Selection> parse_selection(std::string_view text) { return value_of(kSelections, text); }
std::vector<NamedValue> selection_names() { return names_of(kSelections); }
std::string_view to_string(Construction c) { return name_of(kConstructions, c); }
std::optional<Construction> parse_construction(std::string_view text) { return value_of(kConstructions, text); }
std::vector<NamedValue> construction_names() { return names_of(kConstructions); }
std::string_view to_string(Launch l) { return name_of(kLaunches, l); }
std::optional<Launch> parse_launch(std::string_view text) { return value_of(kLaunches, text); }
std::vector<NamedValue> launch_names() { return names_of(kLaunches); }
std::string_view to_string(PheromoneUpdate u) { return name_of(kPheromoneUpdates, u); }
std::optional<PheromoneUpdate> parse_pheromone_update(std::string_view text) {
  return value_of(kPheromoneUpdates, text);
}
std::vector<NamedValue> pheromone_update_names() { return names_of(kPheromoneUpdates); }

bool supports(Construction construction, Selection selection) {
  const Support* s = support_of(construction);
  return s != nullptr && (s->selections & bit(selection)) != 0;
}

bool supports(Construction construction, Launch launch) {
  const Support* s = support_of(construction);
  return s != nullptr && (launch == Launch::KeAll || s->ke_one);
}

std::string supported_combinations() {
  std::string text;
  for (const auto& s : kSupport)
    text += concat(text.empty() ? "" : "; ", to_string(s.construction), ": ", selections_of(s.selections),
                   s.ke_one ? " (ke-all or ke-one)" : " (ke-all)");
  return text;
}

void AntSystemConfig::validate() const {
  FORMICA_EXPECTS(ants >= 0 && ants <= kMaxAnts, "--ants must be in [1, ", kMaxAnts, "] (0: the default), got ", ants);
  FORMICA_EXPECTS(alpha >= 0.0 && alpha <= 20.0, "--alpha must be in [0, 20], got ", alpha);
  FORMICA_EXPECTS(beta >= 0.0 && beta <= 20.0, "--beta must be in [0, 20], got ", beta);
  FORMICA_EXPECTS(rho > 0.0 && rho <= 1.0, "--rho must be in (0, 1], got ", rho);
  FORMICA_EXPECTS(trials >= 1 && trials <= 31, "--trials must be in [1, 31], got ", trials);
  FORMICA_EXPECTS(hybrid_switch >= 0.0 && hybrid_switch <= 1.0,
                  "--hybrid-switch must be in [0, 1], got ", hybrid_switch);
  FORMICA_EXPECTS(threads >= 1, "--threads must be at least 1, got ", threads);
  FORMICA_EXPECTS(block_size == 0 || (power_of_two(block_size) && block_size >= 16 && block_size <= kMaxBlock),
                  "--block-size must be 0 (by n) or a power of two from 16 to 1024, got ", block_size);
  if (construction != Construction::Auto) {
    FORMICA_EXPECTS(supports(construction, selection), "--construction ", to_string(construction),
                    " does not take --selection ", to_string(selection), " (supported: ", supported_combinations(),
                    ")");
    FORMICA_EXPECTS(supports(construction, launch), "--construction ", to_string(construction),
                    " cannot be launched as --launch ", to_string(launch), " (supported: ", supported_combinations(),
                    ")");
  }
}

std::string AntSystemConfig::describe() const {
  return concat("ants=", ants == 0 ? std::string("n") : std::to_string(ants), " alpha=", alpha,
                " beta=", beta, " rho=", rho, " selection=", to_string(selection),
                " trials=", trials, " hybrid-switch=", hybrid_switch);
}

std::string GpuPlan::describe() const {
  return concat("construction=", to_string(construction), " selection=", to_string(selection), " launch=",
                to_string(launch), " block-size=", block_size, " pheromone-update=", to_string(pheromone_update));
}

Construction resolve_construction(Construction requested, Selection selection, Launch launch) {
  if (requested != Construction::Auto) return requested;
  // Measured with bench/construction_table.sh (m = n, full distribution): warp-per-ant is the
  // fastest construction at every size measured so far.
  if (supports(Construction::WarpPerAnt, selection) && supports(Construction::WarpPerAnt, launch))
    return Construction::WarpPerAnt;
  for (const auto& s : kSupport)
    if (supports(s.construction, selection) && supports(s.construction, launch)) return s.construction;
  throw std::logic_error(concat("no construction takes --selection ", to_string(selection), " with --launch ",
                                to_string(launch)));
}

int auto_block_size(Construction construction, int n) {
  if (construction == Construction::WarpPerAnt) return 0;
  if (construction == Construction::ThreadPerAnt) return kThreadPerAntBlock;
  int threads = kMaxBlock;
  for (const auto& row : kAutoBlock)
    if (n <= row.max_n) {
      threads = row.threads;
      break;
    }
  // block-per-ant keeps one visited bit per tile in a 32-bit register: at most 32 tiles.
  if (construction == Construction::BlockPerAnt) threads = std::max(threads, next_power_of_two((n + 31) / 32));
  return std::min(threads, kMaxBlock);
}

double scatter_gather_checks(PheromoneUpdate update, int n, int m) {
  const double cities = n, edges = static_cast<double>(m) * n;
  switch (update) {
    case PheromoneUpdate::ScatterGather:
    case PheromoneUpdate::ScatterGatherTiled: return cities * cities * edges;
    case PheromoneUpdate::ScatterGatherReduction: return cities * (cities + 1) / 2 * edges;
    default: return 0.0;
  }
}

GpuPlan plan_gpu(const AntSystemConfig& config, int n, int m) {
  config.validate();
  GpuPlan plan;
  plan.selection = config.selection;
  plan.launch = config.launch;
  plan.pheromone_update = config.pheromone_update;
  plan.construction = resolve_construction(config.construction, config.selection, config.launch);
  const std::string name(to_string(plan.construction));
  if (config.block_size == 0) {
    plan.block_size = auto_block_size(plan.construction, n);
  } else {
    FORMICA_EXPECTS(plan.construction != Construction::WarpPerAnt, "--block-size applies to block-per-ant, "
                    "thread-per-ant, stc and st-dynamic, not to warp-per-ant",
                    config.construction == Construction::Auto ? concat(" (what auto picks for n = ", n, ")") : "");
    FORMICA_EXPECTS(plan.construction == Construction::ThreadPerAnt || config.block_size >= 32, "--construction ",
                    name, " works in whole warps: --block-size must be at least 32, got ", config.block_size);
    plan.block_size = config.block_size;
  }
  if (plan.construction == Construction::BlockPerAnt) {
    const int limit = 32 * plan.block_size;
    FORMICA_EXPECTS(n <= limit, "--construction block-per-ant keeps each worker's visited cities as bits of one "
                    "register (at most 32 tiles): ", plan.block_size, " workers hold at most ", limit,
                    " cities, but n = ", n,
                    plan.block_size < kMaxBlock ? " (raise --block-size or use 0 for auto)" : " (use stc or warp-per-ant)");
  }
  const double checks = scatter_gather_checks(plan.pheromone_update, n, m);
  FORMICA_EXPECTS(checks <= kScatterGatherMaxChecks, "--pheromone-update ", to_string(plan.pheromone_update),
                  " checks every tour edge for every pheromone cell: ", checks, " edge checks per iteration for n = ",
                  n, " and m = ", m, ", over the limit of ", kScatterGatherMaxChecks,
                  " (about ten seconds per iteration); use atomic, atomic-tiled or symmetrize");
  return plan;
}

std::string gpu_choices(const AntSystemConfig& config) {
  const AntSystemConfig defaults;
  std::string chosen;
  const auto note = [&](bool differs, std::string_view flag, std::string_view value) {
    if (differs) chosen += concat(chosen.empty() ? "" : ", ", "--", flag, " ", value);
  };
  note(config.construction != defaults.construction, "construction", to_string(config.construction));
  note(config.launch != defaults.launch, "launch", to_string(config.launch));
  note(config.block_size != defaults.block_size, "block-size", std::to_string(config.block_size));
  note(config.pheromone_update != defaults.pheromone_update, "pheromone-update", to_string(config.pheromone_update));
  return chosen;
}

void require_cpu_defaults(const AntSystemConfig& config) {
  const std::string chosen = gpu_choices(config);
  FORMICA_EXPECTS(chosen.empty(), chosen, ": GPU-only choice", chosen.find(',') != std::string::npos ? "s" : "",
                  ", but this run uses the cpu backend (one thread per ant, one pheromone update); use --backend "
                  "cuda or leave them at their defaults");
}

}  // namespace formica::aco
