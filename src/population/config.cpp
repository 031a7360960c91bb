// SPDX-License-Identifier: MIT
// Names, validation and printing of population search's settings (config.h).
#include "population/config.h"

#include "core/error.h"

namespace formica::population {
namespace {

constexpr NamedEntry<EaxSelection> kEaxSelections[] = {
    {EaxSelection::Greedy, {"greedy", "the shortest child"}},
    {EaxSelection::Entropy,
     {"entropy",
      "among the children shorter than A, the one that loses the least of the population's edge "
      "entropy per unit of length gained (Nagata and Kobayashi)"}},
};

constexpr NamedEntry<EaxClimb> kEaxClimbs[] = {
    {EaxClimb::OrOpt, {"or-opt", "2-opt and Or-opt over neighbour lists"}},
    {EaxClimb::LinKernighan,
     {"lin-kernighan", "2-opt and Or-opt, then Lin-Kernighan chains of 3-opt steps from every city"}},
};

}  // namespace

std::string_view to_string(EaxSelection selection) { return name_of(kEaxSelections, selection); }
std::optional<EaxSelection> parse_eax_selection(std::string_view text) {
  return value_of(kEaxSelections, text);
}
std::vector<NamedValue> eax_selection_names() { return names_of(kEaxSelections); }

std::string_view to_string(EaxClimb climb) { return name_of(kEaxClimbs, climb); }
std::optional<EaxClimb> parse_eax_climb(std::string_view text) { return value_of(kEaxClimbs, text); }
std::vector<NamedValue> eax_climb_names() { return names_of(kEaxClimbs); }

void EdgeAssemblyConfig::validate() const {
  FORMICA_EXPECTS(population >= 2 && population <= kMaxPopulation, "--population must be in [2, ",
                  kMaxPopulation, "], got ", population);
  FORMICA_EXPECTS(children >= 1 && children <= 1000, "--children must be in [1, 1000], got ", children);
  FORMICA_EXPECTS(neighbours >= 1 && neighbours <= 50, "eax: neighbours per city must be in [1, 50], got ",
                  neighbours);
  FORMICA_EXPECTS(chain_neighbours >= 0 && chain_neighbours <= 50,
                  "--eax-chain-neighbours must be in [0, 50], got ", chain_neighbours);
  FORMICA_EXPECTS(threads >= 1, "eax: at least 1 thread, got ", threads);
  FORMICA_EXPECTS(bridge_threads >= 0 && bridge_threads <= 1024, "--eax-bridge-threads must be in [0, 1024], got ",
                  bridge_threads);
  FORMICA_EXPECTS(gpu_makers >= 1 && gpu_makers <= kMaxGpuMakers, "eax: the GPU's children made at once must be in [1, ",
                  kMaxGpuMakers, "], got ", gpu_makers);
  FORMICA_EXPECTS(stages == 1 || stages == 2, "--eax-stages must be 1 or 2, got ", stages);
  FORMICA_EXPECTS(growth == 0 || (growth >= 1 && growth <= 16), "--eax-growth must be 0 or in [1, 16], got ",
                  growth);
  FORMICA_EXPECTS(restart_kicks >= 0 && restart_kicks <= 100'000,
                  "--eax-restart-kicks must be in [0, 100000], got ", restart_kicks);
  FORMICA_EXPECTS(first_kicks >= 0 && first_kicks <= 100'000,
                  "--eax-first-kicks must be in [0, 100000], got ", first_kicks);
}

std::string EdgeAssemblyConfig::describe() const {
  return concat("GA-EAX: population ", population,
                climb == EaxClimb::LinKernighan ? std::string(" climbed by Lin-Kernighan") : std::string(),
                first_kicks > 0 ? concat(" (the first tour kicked ", first_kicks, " times)") : std::string(),
                growth == 0   ? std::string()
                : growth == 1 ? std::string(" (a new one whenever it converges)")
                              : concat(" (", growth, " times as large whenever it converges)"),
                restart_apart && growth > 0
                    ? std::string(", the next climbed apart, the best tour joining it once it has converged")
                : restart_kicks > 0 && growth > 0
                    ? concat(", the next from the best tour kicked ", restart_kicks, " times")
                    : std::string(),
                gpu_climbs ? ", start climbs on the GPU" : "", gpu_children ? ", children on the GPU" : "",
                bridge_threads > 0 ? concat(", ", bridge_threads, " threads of Lin-Kernighan until it catches up")
                                   : std::string(),
                ", ", children, " children per pair", stages == 2 ? " (then block E-sets)" : "", ", ",
                to_string(selection), " selection, ", neighbours, " ", to_string(lists), " neighbours");
}

}  // namespace formica::population
