// SPDX-License-Identifier: MIT
// Open paths and ATSP on the GPU: the transformed instances are EXPLICIT ones, which every CUDA
// search reads; the optimum against brute force and Held-Karp as on the CPU.
#include <gtest/gtest.h>

#include <chrono>

#include "core/error.h"
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

TEST(RouteSolverCuda, APathWhoseDenseFormWouldEatTheLimitRunsOnTheCpuOrIsRefused) {
  // 30,000 cities: a 3.6 GB dense matrix, seconds to build and copy, against a 1-s limit.
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(30'000, io::InstanceKind::Uniform, 8);
  const RouteProblem problem(instance, PathEnds{false, 0, 1});
  SolverConfig config;
  config.time_limit = 1.0;
  const ResolvedRequest resolved = problem.resolve(config);
  EXPECT_EQ(resolved.backend, Backend::Cpu);
  EXPECT_NE(resolved.backend_note.find("runs on the CPU"), std::string::npos) << resolved.backend_note;
  const auto start = std::chrono::steady_clock::now();
  SolveOptions options;
  options.start = start;
  const Result result = problem.solve(resolved, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 1.7);
  EXPECT_TRUE(test::honours(result.tour.order(), PathEnds{false, 0, 1}));
  config.backend = Backend::Cuda;
  config.algorithm = Algorithm::Mmas;
  EXPECT_THROW(problem.resolve(config), InputError);
  // A small path still goes to the GPU's kernels.
  const Instance small = io::generate_instance(500, io::InstanceKind::Uniform, 8);
  config.algorithm = Algorithm::Auto;
  config.backend = Backend::Auto;
  EXPECT_EQ(RouteProblem(small, PathEnds{true, {}, {}}).resolve(config).backend, Backend::Cuda);
}

}  // namespace
}  // namespace formica
