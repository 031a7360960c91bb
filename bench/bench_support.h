// SPDX-License-Identifier: MIT
// Helpers shared by the benchmark programs: configuration rows, instance specs, the machine.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/generator.h"
#include "io/instance_source.h"
#include "solver/parameters.h"
#include "solver/solver.h"

namespace formica::bench {

struct BenchConfig {
  std::string label;
  SolverConfig config;
};

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

/// "label:key=value,key=value" (the label may be omitted).
inline BenchConfig parse_config(const std::string& spec) {
  BenchConfig bench;
  const size_t colon = spec.find(':');
  bench.label = colon == std::string::npos ? spec : spec.substr(0, colon);
  const std::string settings = colon == std::string::npos ? spec : spec.substr(colon + 1);
  for (const std::string& setting : split(settings, ',')) apply_setting(bench.config, setting, "--config");
  return bench;
}

/// A TSPLIB name or path, or "uniform:N[:seed]" / "clustered:N[:seed]".
inline Instance load(const std::string& spec) {
  const auto parts = split(spec, ':');
  if (parts.size() >= 2) {
    if (const auto kind = io::parse_instance_kind(parts[0]))
      return io::generate_instance(std::stoi(parts[1]), *kind, parts.size() > 2 ? std::stoull(parts[2]) : 1);
  }
  return io::load_instance(spec);
}

/// The median of `values` (0 for none).
inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

/// A file name in the temporary folder that no other running process uses.
inline std::filesystem::path private_temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
}

inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

/// The programs' main: runs `run`, and turns an exception into one error line and exit code 2.
inline int bench_main(const char* program, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return 2;
  }
}

}  // namespace formica::bench
