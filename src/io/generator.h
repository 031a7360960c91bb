// SPDX-License-Identifier: MIT
// Seeded instance generators in the style of the DIMACS TSP challenge (portgen and portcgen):
// uniform cities in a 1,000,000 x 1,000,000 square, or cities clustered around n / 100 centres
// with normally distributed offsets. The same (n, kind, seed) always gives the same instance.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/instance.h"

namespace formica::io {

enum class InstanceKind { Uniform, Clustered };

std::optional<InstanceKind> parse_instance_kind(std::string_view text);
/// parse_instance_kind, or InputError naming the valid kinds.
InstanceKind instance_kind(std::string_view text);
std::string_view to_string(InstanceKind kind);

/// The most cities generate_instance makes.
inline constexpr int kMaxGeneratedCities = 50'000'000;

/// A generated EUC_2D instance named like "uniform1000-s1", of 3 to kMaxGeneratedCities cities.
/// Coordinates are integers.
Instance generate_instance(int n, InstanceKind kind, uint64_t seed);

}  // namespace formica::io
