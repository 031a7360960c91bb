// SPDX-License-Identifier: MIT
// A solve with a fixed number of iterations, for the determinism tests (CPU and GPU).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/instance.h"
#include "solver/parameters.h"
#include "solver/solver.h"

namespace formica::test {

/// The tour of `algorithm` on `backend` after 3 iterations from `seed`, with `threads` CPU threads
/// (0: every hardware thread) and no Lin-Kernighan threads.
inline std::vector<int32_t> fixed_run(const Instance& instance, const std::string& algorithm, const std::string& backend,
                                      uint64_t seed, int threads) {
  SolverConfig config;
  set_parameter(config, "algorithm", algorithm);
  set_parameter(config, "backend", backend);
  set_parameter(config, "iterations", "3");
  set_parameter(config, "seed", std::to_string(seed));
  set_parameter(config, "threads", std::to_string(threads));
  if (algorithm == "auto" || algorithm == "mmas") set_parameter(config, "lk-threads", "0");
  const Result result = solve(instance, config);
  return {result.tour.order().begin(), result.tour.order().end()};
}

/// "twoopt" for "two-opt": a test's name from the --algorithm value it runs.
inline std::string algorithm_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::erase(name, '-');
  return name;
}

}  // namespace formica::test
