// SPDX-License-Identifier: MIT
// libFuzzer target: the parameter parsers and the range checks behind them — set_parameter over
// every parameter name, apply_setting (the bench programs' --set key=value), then what
// `formica solve` does with the result: SolverConfig::validate(), resolve_config for a few sizes
// and backends, validate() again, the CPU backend's refusal of GPU-only choices, and the printed
// descriptions.
//
// Input: one setting a line. A line with '=' goes through apply_setting as written; a line
// without one names a parameter by its first byte (an index into the table, so every name is one
// byte away) and gives the rest of the line as the value.
//
// An InputError is a parser or a check doing its job; anything else that escapes, and every
// sanitizer report, is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "aco/config.h"
#include "core/error.h"
#include "solver/parameters.h"
#include "solver/solver.h"

namespace {

void apply_line(formica::SolverConfig& config, std::string_view line) {
  if (line.find('=') != std::string_view::npos) {
    formica::apply_setting(config, line, "--set");
    return;
  }
  if (line.empty()) return;
  const auto& table = formica::parameters();
  const auto& parameter = table[static_cast<unsigned char>(line.front()) % table.size()];
  formica::set_parameter(config, parameter.name, line.substr(1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    formica::SolverConfig request;
    while (!text.empty()) {
      const size_t end = text.find('\n');
      apply_line(request, text.substr(0, end));
      text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    }
    request.validate();
    (void)formica::parameters_json(request);
    for (const int n : {3, 1000, 200000})
      for (const formica::Backend backend : {formica::Backend::Cpu, formica::Backend::Cuda}) {
        const formica::SolverConfig config = formica::resolve_config(request, n, backend);
        config.validate();
        if (backend == formica::Backend::Cpu) formica::aco::require_cpu_defaults(config.ant_system);
        (void)config.describe_algorithm();
      }
  } catch (const formica::InputError&) {
  }
  return 0;
}
