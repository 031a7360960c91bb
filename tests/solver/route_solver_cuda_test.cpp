// SPDX-License-Identifier: MIT
// Open paths and ATSP on the GPU: the transformed instances are EXPLICIT ones, which every CUDA
// search reads; the optimum against brute force and Held-Karp as on the CPU.
#include <gtest/gtest.h>

#include "cuda_support.h"
#include "io/generator.h"
#include "solver/route_solver.h"
#include "solver/route_support.h"

namespace formica {
namespace {

SolverConfig cuda_config(Algorithm algorithm) {
  SolverConfig config;
  config.backend = Backend::Cuda;
  config.algorithm = algorithm;
  config.iterations = 30;
  return config;
}

TEST(RouteSolverCuda, PathsAreOptimal) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(9, io::InstanceKind::Uniform, 21);
  for (const Algorithm algorithm : {Algorithm::Auto, Algorithm::AntSystem, Algorithm::TwoOpt})
    for (const PathEnds& ends : {PathEnds{true, {}, {}}, PathEnds{false, 3, {}}, PathEnds{false, 0, 7}}) {
      SCOPED_TRACE(to_string(algorithm));
      const Result result = RouteProblem(instance, ends).solve(cuda_config(algorithm));
      EXPECT_EQ(result.backend, Backend::Cuda);
      EXPECT_EQ(result.tour.length(), test::brute_force_path(instance, ends));
      EXPECT_TRUE(test::honours(result.tour.order(), ends));
    }
}

TEST(RouteSolverCuda, AsymmetricToursAreOptimal) {
  FORMICA_REQUIRE_CUDA();
  for (const int n : {7, 10, 13}) {
    const AsymmetricMatrix m = test::random_asymmetric(n, 500 + static_cast<uint64_t>(n));
    const Result result = RouteProblem(m, PathEnds{}).solve(cuda_config(Algorithm::Auto));
    EXPECT_EQ(result.tour.length(), test::held_karp(m, true)) << "n=" << n;
    const PathEnds ends{false, 1, 4};
    EXPECT_EQ(RouteProblem(m, ends).solve(cuda_config(Algorithm::Auto)).tour.length(), test::held_karp(m, false, ends))
        << "n=" << n;
  }
}

}  // namespace
}  // namespace formica
