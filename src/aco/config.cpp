// Names, validation and printing of the ant colony parameters.
#include "aco/config.h"

#include "core/error.h"

namespace formica::aco {
namespace {

struct SelectionEntry {
  Selection value;
  NamedValue name;
};

constexpr SelectionEntry kSelections[] = {
    {Selection::Roulette,
     {"roulette", "SelectWithoutCompression: prefix sums over all n cities, 32-way search (Uchida 4.2.1)"}},
    {Selection::Compression,
     {"compression", "SelectWithCompression: prefix sums over the unvisited index array (Uchida 4.2.2)"}},
    {Selection::StochasticTrial,
     {"stochastic-trial", "up to w draws from the row's static prefix sums, then roulette (Uchida 4.2.3)"}},
    {Selection::Hybrid,
     {"hybrid", "stochastic trial until a fraction of cities is visited, then compression (Uchida 4.2.4)"}},
};

}  // namespace

std::string_view to_string(Selection selection) {
  for (const auto& entry : kSelections)
    if (entry.value == selection) return entry.name.name;
  return "?";
}

std::optional<Selection> parse_selection(std::string_view text) {
  for (const auto& entry : kSelections)
    if (entry.name.name == text) return entry.value;
  return std::nullopt;
}

std::vector<NamedValue> selection_names() {
  std::vector<NamedValue> names;
  for (const auto& entry : kSelections) names.push_back(entry.name);
  return names;
}

void AntSystemConfig::validate() const {
  FORMICA_EXPECTS(ants >= 0, "--ants must be at least 1, got ", ants);
  FORMICA_EXPECTS(alpha >= 0.0 && alpha <= 20.0, "--alpha must be in [0, 20], got ", alpha);
  FORMICA_EXPECTS(beta >= 0.0 && beta <= 20.0, "--beta must be in [0, 20], got ", beta);
  FORMICA_EXPECTS(rho > 0.0 && rho <= 1.0, "--rho must be in (0, 1], got ", rho);
  FORMICA_EXPECTS(trials >= 1 && trials <= 1024, "--trials must be in [1, 1024], got ", trials);
  FORMICA_EXPECTS(hybrid_switch >= 0.0 && hybrid_switch <= 1.0,
                  "--hybrid-switch must be in [0, 1], got ", hybrid_switch);
  FORMICA_EXPECTS(threads >= 1, "--threads must be at least 1, got ", threads);
}

std::string AntSystemConfig::describe() const {
  return concat("ants=", ants == 0 ? std::string("n") : std::to_string(ants), " alpha=", alpha,
                " beta=", beta, " rho=", rho, " selection=", to_string(selection),
                " trials=", trials, " hybrid-switch=", hybrid_switch);
}

}  // namespace formica::aco
