// SPDX-License-Identifier: MIT
// The batch solver's parameters by name: one table that the command line (formica solve-batch)
// and the Python package (formica.solve_batch) share, so both spell and check them alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "batch/batch_solver.h"

namespace formica::batch {

struct BatchParameter {
  std::string_view name;  ///< as on the command line, without dashes ("time-limit")
  std::string help;
};

/// Every batch parameter in table order, with its help text.
const std::vector<BatchParameter>& batch_parameters();

/// Sets parameter `name` ("time-limit" or "time_limit") of `config` from text. Throws InputError
/// for an unknown name (listing the valid ones) or a value that does not parse. Ranges are
/// BatchConfig::validate's to check.
void set_batch_parameter(BatchConfig& config, std::string_view name, std::string_view value);

}  // namespace formica::batch
