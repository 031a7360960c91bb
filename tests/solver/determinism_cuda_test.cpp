// SPDX-License-Identifier: MIT
// Determinism on the GPU, as docs/reliability.md promises it: Ant System (every selection and construction
// is bit-identical for the same seed), the default colonies without Lin-Kernighan threads (DESIGN.md:
// the same seed, instance, config and device give the same result) and 2-opt with restarts; a
// different seed gives a different tour. With the threads (the GPU default) a run depends on timing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda_support.h"
#include "determinism_support.h"
#include "io/generator.h"

namespace formica {
namespace {

class GpuDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuDeterminism, SameSeedSameTourOtherSeedOtherTour) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 4);
  const std::vector<int32_t> reference = test::fixed_run(instance, GetParam(), "cuda", 7, 0);
  EXPECT_EQ(test::fixed_run(instance, GetParam(), "cuda", 7, 0), reference) << "run to run";
  EXPECT_EQ(test::fixed_run(instance, GetParam(), "cuda", 7, 1), reference) << "1 host thread";
  EXPECT_NE(test::fixed_run(instance, GetParam(), "cuda", 8, 0), reference) << "seed 8 gave seed 7's tour";
}

INSTANTIATE_TEST_SUITE_P(Algorithms, GpuDeterminism, ::testing::Values("auto", "as", "mmas", "two-opt"),
                         test::algorithm_name);

}  // namespace
}  // namespace formica
