// SPDX-License-Identifier: MIT
// Names of the TSPLIB edge-weight types, as they appear in EDGE_WEIGHT_TYPE.
#include "core/distance.h"

#include <array>
#include <utility>

namespace formica {
namespace {

constexpr std::array<std::pair<EdgeWeightType, std::string_view>, 8> kNames = {{
    {EdgeWeightType::Euc2D, "EUC_2D"},
    {EdgeWeightType::Ceil2D, "CEIL_2D"},
    {EdgeWeightType::Att, "ATT"},
    {EdgeWeightType::Geo, "GEO"},
    {EdgeWeightType::Man2D, "MAN_2D"},
    {EdgeWeightType::Max2D, "MAX_2D"},
    {EdgeWeightType::Euc3D, "EUC_3D"},
    {EdgeWeightType::Explicit, "EXPLICIT"},
}};

}  // namespace

std::string_view to_string(EdgeWeightType type) {
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return "?";
}

std::optional<EdgeWeightType> parse_edge_weight_type(std::string_view text) {
  for (const auto& [t, name] : kNames)
    if (name == text) return t;
  return std::nullopt;
}

}  // namespace formica
