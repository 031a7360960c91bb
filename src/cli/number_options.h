// SPDX-License-Identifier: MIT
// CLI11 checks for the numeric options that CLI11 itself reads (formica bound, formica generate):
// the text must be a number of the option's type (core/number_text.h says why not) within the
// option's range, or the command ends with one line, "formica: error: --seed: '-1' is negative
// ...", and exit code 2. The solver's and the batch's parameters are read by their tables
// (solver/parameters.h) with the same reasons.
#pragma once

#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "core/number_text.h"

namespace formica::cli {

/// A whole number of type T in [low, high]. A whole number outside the range (-1 for a seed,
/// 1e30 cities) is told the option's range rather than the type's.
template <typename T>
CLI::Validator whole_number_in(T low, T high) {
  const std::string range = concat("[", +low, ", ", +high, "]");
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        const std::string outside = concat("must be in ", range, ", got ", text);
        double real = 0.0;
        if (read_real(text, real) == RealText::Finite && real == std::floor(real) &&
            (real < static_cast<double>(low) || real > static_cast<double>(high)))
          return outside;
        T value{};
        if (std::string why = number_problem(text, value); !why.empty()) return why;
        return value < low || value > high ? outside : "";
      },
      "in " + range);
}

/// A number of seconds in (0, high].
inline CLI::Validator seconds_up_to(double high) {
  const std::string range = concat("(0, ", number_text(high), "] seconds");
  return CLI::Validator(
      [high, range](std::string& text) -> std::string {
        double value = 0.0;
        if (std::string why = number_problem(text, value); !why.empty()) return why;
        if (!(value > 0.0 && value <= high)) return concat("must be in ", range, ", got ", text);
        return "";
      },
      "in " + range);
}

}  // namespace formica::cli
