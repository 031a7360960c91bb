// SPDX-License-Identifier: MIT
// Lookup of the proven optimal lengths of TSPLIB's symmetric instances, so that every run on a
// TSPLIB file can print its gap. The table is compiled in; no data folder is needed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace formica {

/// The optimum of the TSPLIB instance `name` (".tsp" suffix ignored) if it has n cities.
std::optional<int64_t> known_optimum(std::string_view name, int n);

}  // namespace formica
