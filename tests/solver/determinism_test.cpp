// SPDX-License-Identifier: MIT
// Determinism through the solver's one entry point, as docs/reliability.md and docs/design.md promise it: on the
// CPU, the same seed, instance and parameters give the same tour for every algorithm, whatever the
// thread count, and a different seed gives a different one (so the comparison can fail). The GPU's
// counterpart is determinism_cuda_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "determinism_support.h"
#include "io/generator.h"

namespace formica {
namespace {

class CpuDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuDeterminism, SameSeedSameTourAnyThreadCountOtherSeedOtherTour) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 4);
  const std::vector<int32_t> reference = test::fixed_run(instance, GetParam(), "cpu", 7, 1);
  EXPECT_EQ(test::fixed_run(instance, GetParam(), "cpu", 7, 1), reference) << "run to run, 1 thread";
  EXPECT_EQ(test::fixed_run(instance, GetParam(), "cpu", 7, 2), reference) << "2 threads";
  EXPECT_EQ(test::fixed_run(instance, GetParam(), "cpu", 7, 3), reference) << "3 threads";
  EXPECT_NE(test::fixed_run(instance, GetParam(), "cpu", 8, 1), reference) << "seed 8 gave seed 7's tour";
}

// Every algorithm of --algorithm (auto is MMAS with focused ants, local search and polish; on the CPU
// it starts no Lin-Kernighan threads, whose runs depend on timing: docs/default-solver.md, "How the
// ants search").
INSTANTIATE_TEST_SUITE_P(Algorithms, CpuDeterminism, ::testing::Values("auto", "as", "mmas", "acs", "gaco", "two-opt", "eax"),
                         test::algorithm_name);

}  // namespace
}  // namespace formica
