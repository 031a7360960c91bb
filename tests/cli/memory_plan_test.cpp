// SPDX-License-Identifier: MIT
// The memory plan that `formica solve` prints against the peak resident set of the process it ran
// in (wait4's ru_maxrss), on every path a run takes: coordinates, an open path, fixed ends, an
// asymmetric instance, islands, GA-EAX (also on more threads than cores), Ant System's dense
// matrices, 2-opt. The peak must stay within the plan plus 20 %. Labelled `uninstrumented`: the
// sanitizer runs leave it out (a sanitizer's shadow memory is no part of the plan).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/solve_peak.h"
#include "io/generator.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

using test::Peak, test::planned_bytes, test::run_solve;

TEST(MemoryPlan, PeakResidentSetStaysWithinThePlanOnEveryPath) {
  const test::ScratchDir dir("memory_plan");
  const std::string cities = (dir / "u3000.tsp").string(), small = (dir / "u1000.tsp").string();
  io::write_tsplib(cities, io::generate_instance(3000, io::InstanceKind::Uniform, 1));
  io::write_tsplib(small, io::generate_instance(1000, io::InstanceKind::Uniform, 2));
  const std::string atsp = test::data_file("br17.atsp").string();
  const std::vector<std::vector<std::string>> runs = {
      {cities},
      {cities, "--open"},
      {cities, "--start-city", "1", "--end-city", "2"},
      {atsp},
      {atsp, "--start-city", "3"},
      {small, "--islands", "2"},
      {small, "--algorithm", "eax"},
      {small, "--algorithm", "eax", "--threads", "32"},  // threads beyond the cores: each its stack and arena
      {small, "--algorithm", "as", "--ants", "50"},
      {small, "--algorithm", "two-opt"},
  };
  for (const auto& args : runs) {
    std::vector<std::string> full = args;
    for (const char* a : {"--backend", "cpu", "--time-limit", "0.3"}) full.emplace_back(a);
    const Peak peak = run_solve(full, dir / "stderr.txt");
    std::string named;
    for (const auto& a : args) named += " " + a;
    ASSERT_EQ(peak.code, 0) << named << "\n" << peak.err;
    const double plan = planned_bytes(peak.err);
    ASSERT_GT(plan, 0.0) << "no plan:" << named << "\n" << peak.err;
    EXPECT_LE(peak.bytes, 1.2 * plan) << named << ": peak " << peak.bytes / 1048576 << " MiB, plan "
                                      << plan / 1048576 << " MiB\n" << peak.err;
  }
}

}  // namespace
}  // namespace formica
