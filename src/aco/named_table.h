// The tables that name an enum's values for the command line, Python and help texts: one row per
// value (its name and help), and the lookups every parameter's to_string / parse / names use.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "aco/config.h"

namespace formica::aco::detail {

/// One named value of an enum's table.
template <typename Enum>
struct Entry {
  Enum value;
  NamedValue name;
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

}  // namespace formica::aco::detail
