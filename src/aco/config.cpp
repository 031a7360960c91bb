// Names, validation and printing of the ant colony parameters.
#include "aco/config.h"

#include "core/error.h"

namespace formica::aco {
namespace {

template <typename Enum>
struct Entry {
  Enum value;
  NamedValue name;
};

constexpr Entry<Selection> kSelections[] = {
    {Selection::Roulette,
     {"roulette", "SelectWithoutCompression: prefix sums over all n cities, 32-way search (Uchida 4.2.1)"}},
    {Selection::Compression,
     {"compression", "SelectWithCompression: prefix sums over the unvisited index array (Uchida 4.2.2)"}},
    {Selection::StochasticTrial,
     {"stochastic-trial", "up to w draws from the row's static prefix sums, then roulette (Uchida 4.2.3)"}},
    {Selection::Hybrid,
     {"hybrid", "stochastic trial until a fraction of cities is visited, then compression (Uchida 4.2.4)"}},
};

constexpr Entry<Construction> kConstructions[] = {
    {Construction::WarpPerAnt,
     {"warp-per-ant", "a warp builds each tour; visited bitmask in shared memory, warp scans and ballots"}},
    {Construction::BlockPerAnt,
     {"block-per-ant", "a block builds each tour with shared-memory prefix sums (Uchida 4.2; Cecilia 3.2.2)"}},
};

constexpr Entry<PheromoneUpdate> kPheromoneUpdates[] = {
    {PheromoneUpdate::Symmetrize,
     {"symmetrize", "PheromoneUpdateKernel (row blocks, shared-memory deposits) + SymmetrizeKernel (Uchida 4.3)"}},
};

template <typename Enum, size_t N>
std::string_view name_of(const Entry<Enum> (&table)[N], Enum value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name.name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> value_of(const Entry<Enum> (&table)[N], std::string_view text) {
  for (const auto& entry : table)
    if (entry.name.name == text) return entry.value;
  return std::nullopt;
}

template <typename Enum, size_t N>
std::vector<NamedValue> names_of(const Entry<Enum> (&table)[N]) {
  std::vector<NamedValue> names;
  for (const auto& entry : table) names.push_back(entry.name);
  return names;
}

}  // namespace

std::string_view to_string(Selection s) { return name_of(kSelections, s); }
std::optional<Selection> parse_selection(std::string_view text) { return value_of(kSelections, text); }
std::vector<NamedValue> selection_names() { return names_of(kSelections); }
std::string_view to_string(Construction c) { return name_of(kConstructions, c); }
std::optional<Construction> parse_construction(std::string_view text) { return value_of(kConstructions, text); }
std::vector<NamedValue> construction_names() { return names_of(kConstructions); }
std::string_view to_string(PheromoneUpdate u) { return name_of(kPheromoneUpdates, u); }
std::optional<PheromoneUpdate> parse_pheromone_update(std::string_view text) {
  return value_of(kPheromoneUpdates, text);
}
std::vector<NamedValue> pheromone_update_names() { return names_of(kPheromoneUpdates); }

void AntSystemConfig::validate() const {
  FORMICA_EXPECTS(ants >= 0, "--ants must be at least 1, got ", ants);
  FORMICA_EXPECTS(alpha >= 0.0 && alpha <= 20.0, "--alpha must be in [0, 20], got ", alpha);
  FORMICA_EXPECTS(beta >= 0.0 && beta <= 20.0, "--beta must be in [0, 20], got ", beta);
  FORMICA_EXPECTS(rho > 0.0 && rho <= 1.0, "--rho must be in (0, 1], got ", rho);
  FORMICA_EXPECTS(trials >= 1 && trials <= 31, "--trials must be in [1, 31], got ", trials);
  FORMICA_EXPECTS(hybrid_switch >= 0.0 && hybrid_switch <= 1.0,
                  "--hybrid-switch must be in [0, 1], got ", hybrid_switch);
  FORMICA_EXPECTS(threads >= 1, "--threads must be at least 1, got ", threads);
}

std::string AntSystemConfig::describe() const {
  return concat("ants=", ants == 0 ? std::string("n") : std::to_string(ants), " alpha=", alpha,
                " beta=", beta, " rho=", rho, " selection=", to_string(selection),
                " trials=", trials, " hybrid-switch=", hybrid_switch);
}

std::string AntSystemConfig::describe_gpu() const {
  return concat("construction=", to_string(construction), " pheromone-update=", to_string(pheromone_update));
}

}  // namespace formica::aco
