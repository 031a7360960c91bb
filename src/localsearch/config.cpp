// SPDX-License-Identifier: MIT
// Names, validation and printing of the 2-opt parameters.
#include "localsearch/config.h"

#include <charconv>

#include "core/error.h"
#include "core/named_table.h"

namespace formica::localsearch {
namespace {

constexpr NamedEntry<StartKind> kStarts[] = {
    {StartKind::Random, {"random", "a seeded random permutation per restart (Robinson et al. 2.2)"}},
    {StartKind::NearestNeighbour,
     {"nearest-neighbour", "the greedy tour from city 0, then from a random city per restart"}},
    {StartKind::SpaceFillingCurve,
     {"space-filling-curve", "the Hilbert-curve tour, then shifted and mirrored curves per restart"}},
};

constexpr NamedEntry<LinKernighanStep> kLkSteps[] = {
    {LinKernighanStep::TwoOpt, {"2opt", "a 2-opt move, applied as it is tried (Johnson and McGeoch's LK)"}},
    {LinKernighanStep::ThreeOpt,
     {"3opt",
      "a sequential 3-opt move, the best of all evaluated before one is applied (LKH's MOVE_TYPE = 3)"}},
    {LinKernighanStep::FiveOpt,
     {"5opt",
      "a sequential 5-opt move over the 5 first neighbours, the best of all evaluated before one is "
      "applied (LKH's default move)"}},
};

constexpr NamedEntry<LocalSearchKind> kLocalSearches[] = {
    {LocalSearchKind::None, {"none", "the tours as the ants built them"}},
    {LocalSearchKind::TwoOpt, {"two-opt", "2-opt over neighbour lists with don't-look bits"}},
    {LocalSearchKind::OrOpt,
     {"or-opt", "2-opt and Or-opt (segments of 1-3 cities moved, either way round) over neighbour lists"}},
    {LocalSearchKind::ThreeOpt,
     {"three-opt",
      "2-opt, Or-opt and sequential 3-opt (Lin-Kernighan steps of depth 3) over neighbour lists"}},
};

constexpr NamedEntry<Layout> kLayouts[] = {
    {Layout::Auto, {"auto", "one tour per block, unless there are fewer tours than SMs and n is large"}},
    {Layout::BlockPerTour, {"block", "a fixed grid of blocks, each climbing whole tours"}},
    {Layout::GridPerTour, {"grid", "every block of the GPU on one tour at a time"}}};

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::string_view to_string(StartKind start) { return name_of(kStarts, start); }
std::optional<StartKind> parse_start(std::string_view text) { return value_of(kStarts, text); }
std::vector<NamedValue> start_names() { return names_of(kStarts); }

std::string_view to_string(LocalSearchKind kind) { return name_of(kLocalSearches, kind); }
std::optional<LocalSearchKind> parse_local_search(std::string_view text) {
  return value_of(kLocalSearches, text);
}
std::vector<NamedValue> local_search_names() { return names_of(kLocalSearches); }

std::string_view to_string(LinKernighanStep step) { return name_of(kLkSteps, step); }
std::optional<LinKernighanStep> parse_lk_step(std::string_view text) { return value_of(kLkSteps, text); }
std::vector<NamedValue> lk_step_names() { return names_of(kLkSteps); }

std::string_view to_string(Layout layout) { return name_of(kLayouts, layout); }
std::optional<Layout> parse_layout(std::string_view text) { return value_of(kLayouts, text); }

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
