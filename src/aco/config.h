// Parameters of the ant colony algorithms, with the papers' defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace formica::aco {

/// How an ant picks its next city (Uchida et al. section 4.2).
enum class Selection {
  Roulette,         // SelectWithoutCompression: prefix sums of f_ij * u_j over all n cities
  Compression,      // SelectWithCompression: prefix sums over the unvisited index array only
  StochasticTrial,  // SelectWithStochasticTrial: up to w draws from the row's static prefix sums
  Hybrid,           // stochastic trial until a fraction of cities is visited, then compression
};

/// Who works on one ant's tour on the GPU (the CPU always uses one thread per ant).
enum class Construction {
  WarpPerAnt,   // a warp per ant, visited set as a bitmask in shared memory, no block barriers
  BlockPerAnt,  // a block per ant, shared-memory prefix sums as in Uchida et al. section 4.2
};

/// How the GPU applies evaporation and deposits.
enum class PheromoneUpdate {
  Symmetrize,  // PheromoneUpdateKernel + SymmetrizeKernel (Uchida et al. section 4.3)
};

struct NamedValue {
  std::string_view name;
  std::string_view help;
};

std::string_view to_string(Selection selection);
std::optional<Selection> parse_selection(std::string_view text);
/// Every selection name with a one-line description (for --help and error messages).
std::vector<NamedValue> selection_names();
std::string_view to_string(Construction construction);
std::optional<Construction> parse_construction(std::string_view text);
std::vector<NamedValue> construction_names();
std::string_view to_string(PheromoneUpdate update);
std::optional<PheromoneUpdate> parse_pheromone_update(std::string_view text);
std::vector<NamedValue> pheromone_update_names();

/// Ant System (Dorigo et al. 1996; Uchida et al. 2012 section 2).
struct AntSystemConfig {
  int ants = 0;          ///< m; 0 means one ant per city (m = n)
  double alpha = 1.0;    ///< pheromone exponent
  double beta = 2.0;     ///< heuristic exponent, eta_ij = 1 / d_ij
  double rho = 0.5;      ///< evaporation rate: tau <- (1 - rho) tau before deposits
  Selection selection = Selection::Roulette;
  int trials = 8;               ///< w: stochastic trials before falling back to roulette
  double hybrid_switch = 0.85;  ///< hybrid: fraction of visited cities where trial gives way
  Construction construction = Construction::WarpPerAnt;         ///< CUDA backend only
  PheromoneUpdate pheromone_update = PheromoneUpdate::Symmetrize;  ///< CUDA backend only
  int threads = 1;              ///< CPU worker threads (the result does not depend on it)
  uint64_t seed = 1;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// One line "alpha=1 beta=2 ..." for logs and benchmark rows.
  std::string describe() const;
  /// The CUDA-only choices, "construction=... pheromone-update=...".
  std::string describe_gpu() const;
};

/// True when `selection` reads per-row prefix sums computed once per iteration.
inline bool needs_prefix_sums(Selection selection) {
  return selection == Selection::StochasticTrial || selection == Selection::Hybrid;
}

/// Heuristic desirability eta_ij = 1 / d_ij. Distances are integers, so only coincident cities
/// (d = 0) need care: they get the value of a distance of 0.5, the most attractive a real edge can be.
inline double heuristic(int64_t distance) { return 1.0 / (distance > 0 ? static_cast<double>(distance) : 0.5); }

}  // namespace formica::aco
