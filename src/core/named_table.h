// SPDX-License-Identifier: MIT
// The tables that name an enum's values for the command line, Python and help texts: one row per
// value (its name and one line of help), and the lookups every parameter's to_string / parse /
// names use. Every enum that has a name on the command line is named through one of these tables.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace formica {

/// A value of a named parameter and one line of help about it.
struct NamedValue {
  std::string_view name;
  std::string_view help;
};

/// One named value of an enum's table.
template <typename Enum>
struct NamedEntry {
  Enum value;
  NamedValue name;
};

/// The name of `value` in `table` ("?" for a value the table lacks).
template <typename Enum, size_t N>
constexpr std::string_view name_of(const NamedEntry<Enum> (&table)[N], Enum value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name.name;
  return "?";
}

/// The value named `text` in `table`, if any.
template <typename Enum, size_t N>
constexpr std::optional<Enum> value_of(const NamedEntry<Enum> (&table)[N], std::string_view text) {
  for (const auto& entry : table)
    if (entry.name.name == text) return entry.value;
  return std::nullopt;
}

/// Every name of `table` with its help, in the table's order.
template <typename Enum, size_t N>
std::vector<NamedValue> names_of(const NamedEntry<Enum> (&table)[N]) {
  std::vector<NamedValue> names;
  for (const auto& entry : table) names.push_back(entry.name);
  return names;
}

}  // namespace formica
