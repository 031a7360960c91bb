// SPDX-License-Identifier: MIT
// Every solver parameter by name: one table that the bench harness, the Python package and the
// JSON report share, so a parameter added to a Config is reachable everywhere by adding one row.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/number_text.h"
#include "solver/solver.h"

namespace formica {

struct Parameter {
  std::string_view name;  ///< as on the command line, without dashes ("time-limit")
  std::string_view help;
  std::function<void(SolverConfig&, std::string_view)> set;  ///< parses and stores a value
  std::function<nlohmann::json(const SolverConfig&)> get;    ///< the value, null when unset
};

const std::vector<Parameter>& parameters();

/// The number `text` spells in full, for parameter `name`; InputError ("--name: '1.5' is not a
/// whole number", core/number_text.h) otherwise. The batch parameters (batch/batch_parameters.h)
/// parse with it too.
template <typename T>
T parse_value(std::string_view name, std::string_view text) {
  T value{};
  const std::string why = number_problem(text, value);
  FORMICA_EXPECTS(why.empty(), "--", name, ": ", why);
  return value;
}

/// A parameter's name as the tables spell it: "time_limit" -> "time-limit".
std::string parameter_name(std::string_view name);

/// Sets parameter `name` ("rho", "time-limit" or "time_limit") from text. Throws InputError
/// for an unknown name (listing the valid ones) or a value that does not parse.
void set_parameter(SolverConfig& config, std::string_view name, std::string_view value);

/// Applies one "key=value" setting (keys as set_parameter takes them), the form of the bench
/// programs' --set and --config; `option` names that flag in the error for text without '='.
void apply_setting(SolverConfig& config, std::string_view setting, std::string_view option);

/// Every parameter's current value, keyed by name with '_' for '-'.
nlohmann::json parameters_json(const SolverConfig& config);

}  // namespace formica
