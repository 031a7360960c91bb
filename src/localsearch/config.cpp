// Names, validation and printing of the 2-opt parameters.
#include "localsearch/config.h"

#include <charconv>

#include "core/error.h"

namespace formica::localsearch {
namespace {

/// One named value of an enum's table.
template <typename Value>
struct Entry {
  Value value;
  NamedChoice name;
};

constexpr Entry<StartKind> kStarts[] = {
    {StartKind::Random, {"random", "a seeded random permutation per restart (Robinson et al. 2.2)"}},
    {StartKind::NearestNeighbour,
     {"nearest-neighbour", "the greedy tour from city 0, then from a random city per restart"}},
    {StartKind::SpaceFillingCurve,
     {"space-filling-curve", "the Hilbert-curve tour, then shifted and mirrored curves per restart"}},
};

constexpr Entry<LinKernighanStep> kLkSteps[] = {
    {LinKernighanStep::TwoOpt, {"2opt", "a 2-opt move, applied as it is tried (Johnson and McGeoch's LK)"}},
    {LinKernighanStep::ThreeOpt,
     {"3opt", "a sequential 3-opt move, the best of all evaluated before one is applied (LKH's MOVE_TYPE = 3)"}},
    {LinKernighanStep::FiveOpt,
     {"5opt", "a sequential 5-opt move over the 5 first neighbours, the best of all evaluated before one is "
              "applied (LKH's default move)"}},
};

template <typename Table, typename Value>
std::string_view name_in(const Table& table, Value value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name.name;
  return "?";
}

template <typename Value, typename Table>
std::optional<Value> value_in(const Table& table, std::string_view text) {
  for (const auto& entry : table)
    if (entry.name.name == text) return entry.value;
  return std::nullopt;
}

template <typename Table>
std::vector<NamedChoice> names_in(const Table& table) {
  std::vector<NamedChoice> names;
  for (const auto& entry : table) names.push_back(entry.name);
  return names;
}

constexpr Entry<LocalSearchKind> kLocalSearches[] = {
    {LocalSearchKind::None, {"none", "the tours as the ants built them"}},
    {LocalSearchKind::TwoOpt, {"two-opt", "2-opt over neighbour lists with don't-look bits"}},
    {LocalSearchKind::OrOpt,
     {"or-opt", "2-opt and Or-opt (segments of 1-3 cities moved, either way round) over neighbour lists"}},
    {LocalSearchKind::ThreeOpt,
     {"three-opt", "2-opt, Or-opt and sequential 3-opt (Lin-Kernighan steps of depth 3) over neighbour lists"}},
};

constexpr Entry<EaxSelection> kEaxSelections[] = {
    {EaxSelection::Greedy, {"greedy", "the shortest child"}},
    {EaxSelection::Entropy,
     {"entropy", "among the children shorter than A, the one that loses the least of the population's edge "
                 "entropy per unit of length gained (Nagata and Kobayashi)"}},
};

constexpr Entry<EaxClimb> kEaxClimbs[] = {
    {EaxClimb::OrOpt, {"or-opt", "2-opt and Or-opt over neighbour lists"}},
    {EaxClimb::LinKernighan,
     {"lin-kernighan", "2-opt and Or-opt, then Lin-Kernighan chains of 3-opt steps from every city"}},
};

constexpr std::pair<Layout, std::string_view> kLayouts[] = {
    {Layout::Auto, "auto"}, {Layout::BlockPerTour, "block"}, {Layout::GridPerTour, "grid"}};

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::string_view to_string(StartKind start) { return name_in(kStarts, start); }
std::optional<StartKind> parse_start(std::string_view text) { return value_in<StartKind>(kStarts, text); }
std::vector<NamedChoice> start_names() { return names_in(kStarts); }

std::string_view to_string(LocalSearchKind kind) { return name_in(kLocalSearches, kind); }
std::optional<LocalSearchKind> parse_local_search(std::string_view text) {
  return value_in<LocalSearchKind>(kLocalSearches, text);
}
std::vector<NamedChoice> local_search_names() { return names_in(kLocalSearches); }

std::string_view to_string(LinKernighanStep step) { return name_in(kLkSteps, step); }
std::optional<LinKernighanStep> parse_lk_step(std::string_view text) {
  return value_in<LinKernighanStep>(kLkSteps, text);
}
std::vector<NamedChoice> lk_step_names() { return names_in(kLkSteps); }

std::string_view to_string(EaxSelection selection) { return name_in(kEaxSelections, selection); }
std::optional<EaxSelection> parse_eax_selection(std::string_view text) {
  return value_in<EaxSelection>(kEaxSelections, text);
}
std::vector<NamedChoice> eax_selection_names() { return names_in(kEaxSelections); }

std::string_view to_string(EaxClimb climb) { return name_in(kEaxClimbs, climb); }
std::optional<EaxClimb> parse_eax_climb(std::string_view text) {
  return value_in<EaxClimb>(kEaxClimbs, text);
}
std::vector<NamedChoice> eax_climb_names() { return names_in(kEaxClimbs); }

std::string_view to_string(Layout layout) {
  for (const auto& [value, name] : kLayouts)
    if (value == layout) return name;
  return "?";
}

std::optional<Layout> parse_layout(std::string_view text) {
  for (const auto& [value, name] : kLayouts)
    if (name == text) return value;
  return std::nullopt;
}

std::string k_swap_text(int k_swap) { return k_swap == kUnlimitedSwaps ? "inf" : std::to_string(k_swap); }

std::optional<int> parse_k_swap(std::string_view text) {
  if (text == "inf" || text == "infinity") return kUnlimitedSwaps;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

void TwoOptConfig::validate() const {
  FORMICA_EXPECTS(restarts >= 1, "--restarts must be at least 1, got ", restarts);
  FORMICA_EXPECTS(k_swap >= 0, "--k-swap must be a positive integer or inf, got ", k_swap);
  FORMICA_EXPECTS(queue >= 0, "--queue must be 0 (no queue) or a positive number of restarts, got ", queue);
  FORMICA_EXPECTS(threads_per_block == 0 || (power_of_two(threads_per_block) && threads_per_block >= 32 &&
                                             threads_per_block <= 1024),
                  "--threads-per-block must be 0 (automatic) or a power of two in [32, 1024], got ",
                  threads_per_block);
  FORMICA_EXPECTS(tile == 0 || (tile >= 32 && tile <= 65536),
                  "--tile must be 0 (automatic) or in [32, 65536] shared-memory elements, got ", tile);
  FORMICA_EXPECTS(neighbours >= 0 && neighbours <= 64, "--neighbours must be in [0, 64], got ", neighbours);
  FORMICA_EXPECTS(block_neighbours >= 0 && block_neighbours <= 64, "--block-neighbours must be in [0, 64], got ",
                  block_neighbours);
  FORMICA_EXPECTS(threads >= 1, "--threads must be at least 1, got ", threads);
}

std::string TwoOptConfig::describe() const {
  return concat("restarts=", restarts, " k-swap=", k_swap_text(k_swap), " queue=", queue,
                " start=", to_string(start), " layout=", to_string(layout), " threads-per-block=",
                threads_per_block == 0 ? std::string("auto") : std::to_string(threads_per_block),
                " tile=", tile == 0 ? std::string("auto") : std::to_string(tile), " neighbours=", neighbours,
                " block-neighbours=", block_neighbours);
}

}  // namespace formica::localsearch
