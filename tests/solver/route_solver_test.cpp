// SPDX-License-Identifier: MIT
// Open paths, fixed endpoints and asymmetric instances through RouteProblem, on the CPU: exact
// optima against brute force (symmetric paths) and Held-Karp (ATSP, directed paths), the
// transformations' constants, the mending of paths and the errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/tour.h"
#include "io/generator.h"
#include "solver/report.h"
#include "solver/route_solver.h"
#include "solver/route_support.h"

namespace formica {
namespace {

/// The four kinds of path over n cities, with ends chosen by `seed`.
std::vector<PathEnds> path_kinds(int n, uint64_t seed) {
  const auto s = static_cast<int64_t>(seed % static_cast<uint64_t>(n));
  const int64_t e = (s + 2) % n;
  return {PathEnds{true, {}, {}}, PathEnds{false, s, {}}, PathEnds{false, {}, e}, PathEnds{false, s, e}};
}

SolverConfig cpu_config(uint64_t seed, int64_t iterations = 30) {
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.iterations = iterations;
  config.seed = seed;
  config.threads = 1;
  return config;
}

std::string describe(const PathEnds& ends) {
  return concat("open=", ends.open, " start=", ends.start ? *ends.start : -1, " end=", ends.end ? *ends.end : -1);
}

TEST(RouteSolver, PathsAreOptimalOnSmallInstances) {
  for (int n = 5; n <= 9; ++n) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 100 + static_cast<uint64_t>(n));
    for (uint64_t seed = 1; seed <= 3; ++seed)
      for (const PathEnds& ends : path_kinds(n, seed)) {
        SCOPED_TRACE(concat("n=", n, " seed=", seed, " ", describe(ends)));
        const RouteProblem problem(instance, ends);
        EXPECT_EQ(problem.solved_instance().n(), n + 1);
        const Result result = problem.solve(cpu_config(seed));
        EXPECT_EQ(result.tour.length(), test::brute_force_path(instance, ends));
        EXPECT_EQ(result.tour.length(), path_length(instance, result.tour.order()));
        EXPECT_TRUE(test::honours(result.tour.order(), ends));
        ASSERT_FALSE(result.history.empty());
        EXPECT_EQ(result.history.back().length, result.tour.length());
        EXPECT_TRUE(result.ends.any());
        EXPECT_FALSE(result.asymmetric);
      }
  }
}

TEST(RouteSolver, EveryAlgorithmSolvesAPath) {
  const Instance instance = io::generate_instance(8, io::InstanceKind::Uniform, 31);
  const PathEnds ends{false, 2, 5};
  const int64_t optimum = test::brute_force_path(instance, ends);
  for (const Algorithm algorithm :
       {Algorithm::AntSystem, Algorithm::Mmas, Algorithm::Acs, Algorithm::Gaco, Algorithm::TwoOpt}) {
    SCOPED_TRACE(to_string(algorithm));
    SolverConfig config = cpu_config(1, 20);
    config.algorithm = algorithm;
    const Result result = RouteProblem(instance, ends).solve(config);
    EXPECT_EQ(result.tour.length(), optimum);
    EXPECT_TRUE(test::honours(result.tour.order(), ends));
  }
}

TEST(RouteSolver, OnlyGpuKernelsTakeAPathAsADenseMatrix) {
  // GA-EAX searches on the host threads: a path keeps its implicit city there (a dense matrix of
  // 50,000 cities took 12 s of a 1-s run), unless its children run on the GPU.
  SolverConfig config;
  config.algorithm = Algorithm::Eax;
  EXPECT_FALSE(gpu_kernels_take_the_path(config, Backend::Cuda));
  EXPECT_FALSE(gpu_kernels_take_the_path(config, Backend::Cpu));
  config.eax.gpu_children = true;
  EXPECT_TRUE(gpu_kernels_take_the_path(config, Backend::Cuda));
  for (const Algorithm algorithm : {Algorithm::Mmas, Algorithm::Acs, Algorithm::TwoOpt}) {
    config.algorithm = algorithm;
    EXPECT_TRUE(gpu_kernels_take_the_path(config, Backend::Cuda));
    EXPECT_FALSE(gpu_kernels_take_the_path(config, Backend::Cpu));
  }
}

TEST(RouteSolver, ADensePathThatWouldEatTheLimitRunsOnTheCpuUnderAutoAndIsRefusedWhenCudaIsNamed) {
  // No time limit: no deadline to keep, the dense form is built (memory decides).
  EXPECT_EQ(dense_path_verdict(100.0, std::nullopt, false), DensePath::Build);
  EXPECT_EQ(dense_path_verdict(100.0, std::nullopt, true), DensePath::Build);
  // Auto gives it a tenth of the limit, a named --backend cuda half.
  EXPECT_EQ(dense_path_verdict(0.09, 1.0, false), DensePath::Build);
  EXPECT_EQ(dense_path_verdict(0.2, 1.0, false), DensePath::OnTheCpu);
  EXPECT_EQ(dense_path_verdict(0.2, 1.0, true), DensePath::Build);
  EXPECT_EQ(dense_path_verdict(0.6, 1.0, true), DensePath::Refuse);
  // The estimate grows with the matrix: 50,000 cities (10 GB) is seconds on any machine, a
  // thousand cities milliseconds.
  EXPECT_EQ(dense_path_bytes(49'999), size_t{50'000} * 50'000 * 4);
  EXPECT_GT(dense_path_seconds(50'000), 2.0);
  EXPECT_LT(dense_path_seconds(1'000), 0.01);
  EXPECT_LT(dense_path_seconds(1'000), dense_path_seconds(2'000));
  // Off the GPU nothing changes: the path keeps its implicit city and no note is given.
  const Instance instance = io::generate_instance(2'000, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.time_limit = 0.01;
  const ResolvedRequest resolved = RouteProblem(instance, PathEnds{true, {}, {}}).resolve(config);
  EXPECT_EQ(resolved.backend, Backend::Cpu);
  EXPECT_TRUE(resolved.backend_note.empty());
}

TEST(RouteSolver, ClosedSymmetricToursAreSolvedAsGiven) {
  const Instance instance = io::generate_instance(9, io::InstanceKind::Uniform, 5);
  const RouteProblem problem(instance, PathEnds{});
  EXPECT_EQ(&problem.solved_instance(), &instance);
  const Result result = problem.solve(cpu_config(1));
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
  EXPECT_FALSE(result.ends.any());
}

TEST(RouteSolver, HeldKarpAgreesWithBruteForce) {
  for (int n = 4; n <= 7; ++n) {
    const AsymmetricMatrix m = test::random_asymmetric(n, 40 + static_cast<uint64_t>(n));
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    int64_t tour = std::numeric_limits<int64_t>::max(), path = tour, from_one_to_two = tour;
    do {
      tour = std::min(tour, directed_length(m, order, true));
      path = std::min(path, directed_length(m, order, false));
      if (order.front() == 1 && order.back() == 2) from_one_to_two = std::min(from_one_to_two, directed_length(m, order, false));
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_EQ(test::held_karp(m, true), tour);
    EXPECT_EQ(test::held_karp(m, false, PathEnds{true, {}, {}}), path);
    EXPECT_EQ(test::held_karp(m, false, PathEnds{false, 1, 2}), from_one_to_two);
  }
}

TEST(RouteSolver, AsymmetricToursAreOptimalUpTo13Cities) {
  for (int n = 5; n <= 13; ++n)
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      SCOPED_TRACE(concat("n=", n, " seed=", seed));
      const AsymmetricMatrix m = test::random_asymmetric(n, 1000 * seed + static_cast<uint64_t>(n));
      const RouteProblem problem(m, PathEnds{});
      EXPECT_EQ(problem.solved_instance().n(), 2 * n);
      const Result result = problem.solve(cpu_config(seed));
      EXPECT_EQ(result.tour.length(), test::held_karp(m, true));
      EXPECT_EQ(result.tour.length(), directed_length(m, result.tour.order(), true));
      EXPECT_EQ(result.tour.n(), n);
      EXPECT_TRUE(result.asymmetric);
      ASSERT_FALSE(result.history.empty());
      EXPECT_EQ(result.history.back().length, result.tour.length());
    }
}

TEST(RouteSolver, AsymmetricPathsAreOptimal) {
  for (int n = 5; n <= 10; ++n)
    for (const PathEnds& ends : path_kinds(n, static_cast<uint64_t>(n))) {
      SCOPED_TRACE(concat("n=", n, " ", describe(ends)));
      const AsymmetricMatrix m = test::random_asymmetric(n, 77 + static_cast<uint64_t>(n));
      const Result result = RouteProblem(m, ends).solve(cpu_config(2));
      EXPECT_EQ(result.tour.length(), test::held_karp(m, false, ends));
      EXPECT_EQ(result.tour.length(), directed_length(m, result.tour.order(), false));
      EXPECT_TRUE(test::honours(result.tour.order(), ends));
    }
}

TEST(RouteSolver, TargetAndProgressAreInPathUnits) {
  const Instance instance = io::generate_instance(9, io::InstanceKind::Uniform, 12);
  const PathEnds ends{false, 4, {}};  // one fixed end: the transformed tour pays the penalty once
  const RouteProblem problem(instance, ends);
  const int64_t optimum = test::brute_force_path(instance, ends);
  SolverConfig config = cpu_config(1, 1000);
  config.target = optimum;
  SolveOptions options;
  std::vector<int64_t> seen;
  options.on_progress = [&](const Progress& p) { seen.push_back(p.best_length); };
  const Result result = problem.solve(config, options);
  EXPECT_EQ(result.stop_reason, "exact");  // 10 cities with the dummy: solved exactly at once
  EXPECT_EQ(result.tour.length(), optimum);
  EXPECT_EQ(result.config.target, optimum);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), optimum);
}

TEST(RouteSolver, AutoKnowsAnAsymmetricInstancesForm) {
  // resolve() marks the form, so that the resolution says what runs: GA-EAX on a 150-city
  // matrix's 300-city form, where a symmetric instance of 300 cities gets the colonies
  // (docs/tuning.md#ga-eax-on-the-cpu-from-400-cities); the target stays in the route's units.
  const AsymmetricMatrix m = test::random_asymmetric(150, 5);
  const RouteProblem problem(m, PathEnds{});
  SolverConfig request;
  request.backend = Backend::Cpu;
  request.time_limit = 10;
  request.target = 1000;
  const ResolvedRequest resolved = problem.resolve(request);
  EXPECT_TRUE(resolved.config.asymmetric_form);
  EXPECT_EQ(resolved.config.target, 1000);
  EXPECT_EQ(resolved.config.algorithm, Algorithm::Eax);
  EXPECT_EQ(resolve_config(request, problem.solved_instance().n(), Backend::Cpu).algorithm, Algorithm::Mmas);
  const Instance instance = io::generate_instance(20, io::InstanceKind::Uniform, 4);
  const ResolvedRequest closed = RouteProblem(instance, PathEnds{}).resolve(request);
  EXPECT_FALSE(closed.config.asymmetric_form);
  EXPECT_EQ(closed.config.target, 1000);
}

TEST(RouteSolver, PathsAreCutAtTheDummyAndOrientedFromStartToEnd) {
  const Instance instance = io::generate_instance(6, io::InstanceKind::Uniform, 3);
  const PathTransform transform(instance, PathEnds{false, 1, 4});
  EXPECT_EQ(transform.offset(), 0);
  // The tour 6(dummy) 4 0 2 3 5 1 runs from the end to the start: reversed.
  EXPECT_EQ(transform.path(std::vector<int32_t>{6, 4, 0, 2, 3, 5, 1}), (std::vector<int32_t>{1, 5, 3, 2, 0, 4}));
  const PathTransform start_only(instance, PathEnds{false, 1, {}});
  EXPECT_EQ(start_only.offset(), start_only.penalty());
  EXPECT_GT(start_only.penalty(), 0);
  EXPECT_EQ(start_only.instance().distance(6, 1), 0);
  EXPECT_EQ(start_only.instance().distance(6, 2), start_only.penalty());
  // A path that misses its ends (possible only with the local search off) is mended.
  // Reversed (0 was first), rotated to start at 2, then 0 moved last.
  EXPECT_EQ(honour_ends({0, 1, 2, 3, 4}, PathEnds{false, 2, 0}, true), (std::vector<int32_t>{2, 1, 4, 3, 0}));
  EXPECT_EQ(honour_ends({0, 1, 2, 3, 4}, PathEnds{false, 2, 0}, false), (std::vector<int32_t>{2, 3, 4, 1, 0}));
  EXPECT_EQ(honour_ends({0, 1, 2, 3, 4}, PathEnds{false, {}, 1}, false), (std::vector<int32_t>{0, 2, 3, 4, 1}));
  EXPECT_EQ(honour_ends({0, 1, 2, 3, 4}, PathEnds{true, {}, {}}, true), (std::vector<int32_t>{0, 1, 2, 3, 4}));
}

TEST(RouteSolver, PathsHonourTheirEndsWithoutLocalSearch) {
  const Instance instance = io::generate_instance(30, io::InstanceKind::Uniform, 8);
  const PathEnds ends{false, 3, 17};
  SolverConfig config = cpu_config(1, 2);
  config.algorithm = Algorithm::AntSystem;
  config.polish = false;
  const Result result = RouteProblem(instance, ends).solve(config);
  EXPECT_TRUE(test::honours(result.tour.order(), ends));
  EXPECT_EQ(result.tour.length(), path_length(instance, result.tour.order()));
  EXPECT_EQ(result.history.back().length, result.tour.length());
}

TEST(RouteSolver, AsymmetricTransformReadsDirectedTours) {
  const AsymmetricMatrix m("m", 3, {0, 1, 2, 3, 0, 4, 5, 6, 0});
  const AsymmetricTransform transform(m);
  EXPECT_EQ(transform.offset(), 3 * 7);  // B = largest weight + 1
  EXPECT_EQ(transform.instance().distance(0, 3), 0);
  EXPECT_EQ(transform.instance().distance(3, 1), 1 + 7);   // out of 0, into 1: c(0, 1) + B
  EXPECT_EQ(transform.instance().distance(0, 1), 2 * 7);   // two "in" nodes: INF = 2 B
  // 0 -> 2 -> 1 -> 0, walked either way round.
  EXPECT_EQ(transform.directed_tour(std::vector<int32_t>{0, 3, 2, 5, 1, 4}), (std::vector<int32_t>{0, 2, 1}));
  EXPECT_EQ(transform.directed_tour(std::vector<int32_t>{4, 1, 5, 2, 3, 0}), (std::vector<int32_t>{0, 2, 1}));
  EXPECT_EQ(directed_length(m, std::vector<int32_t>{0, 2, 1}, true), 2 + 6 + 3);
  EXPECT_EQ(directed_length(m, std::vector<int32_t>{0, 2, 1}, false), 2 + 6);
  EXPECT_FALSE(m.symmetric());
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RouteSolver, ErrorsNameTheOptionAndTheRange) {
  const Instance instance = io::generate_instance(6, io::InstanceKind::Uniform, 3);
  EXPECT_EQ(error_of([&] { RouteProblem(instance, PathEnds{false, 6, {}}); }),
            "--start-city 7: no such city; the instance's cities are 1..6");
  EXPECT_EQ(error_of([&] { RouteProblem(instance, PathEnds{false, {}, -1}, PathEndNames{"start=", "end=", 0}); }),
            "end= -1: no such city; the instance's cities are 0..5");
  EXPECT_EQ(error_of([&] { RouteProblem(instance, PathEnds{false, 2, 2}); }),
            "--start-city and --end-city name the same city 3: a path from a city back to itself is a closed tour "
            "(leave out --end-city)");
  const AsymmetricMatrix m = test::random_asymmetric(5, 1);
  EXPECT_EQ(error_of([&] { RouteProblem(m, PathEnds{false, 9, {}}); }),
            "--start-city 10: no such city; the instance's cities are 1..5");
  EXPECT_EQ(error_of([&] { RouteProblem(instance, PathEnds{true, {}, {}}).resolve(cpu_config(1), {0, 1, 2, 3, 4, 5}); }),
            "--initial-tour starts a closed tour of a symmetric instance; it does not apply to an open path");
  EXPECT_THROW(AsymmetricMatrix("neg", 3, {0, -1, 2, 3, 0, 4, 5, 6, 0}), InputError);
}

TEST(RouteSolver, WeightsTooLargeForTheTransformsAreRefused) {
  const int32_t huge = std::numeric_limits<int32_t>::max();
  const Instance instance = Instance::from_matrix("huge", 3, {0, huge, 1, huge, 0, 1, 1, 1, 0});
  EXPECT_THROW(PathTransform(instance, PathEnds{true, {}, {}}), InputError);
  const AsymmetricMatrix large("large", 3, {0, 1 << 30, 2, 3, 0, 4, 5, 6, 0});
  EXPECT_THROW(AsymmetricTransform{large}, InputError);
  const AsymmetricMatrix wide("wide", 3, {0, 1 << 29, 2, 3, 0, 4, 5, 6, 0});
  EXPECT_NO_THROW(AsymmetricTransform{wide});
  // The dummy's penalty 3 * 2^29 + 1 fits, but not twice it in the symmetric form.
  EXPECT_THROW(AsymmetricTransform{with_path_ends(wide, PathEnds{false, 1, {}})}, InputError);
  EXPECT_NO_THROW(AsymmetricTransform{with_path_ends(wide, PathEnds{true, {}, {}})});  // free ends: no penalty
  EXPECT_THROW(with_path_ends(large, PathEnds{false, {}, 2}), InputError);  // 3 * 2^30 + 1 > 2^31 - 1
}

TEST(RouteSolver, ReportsRecordTheRoute) {
  const AsymmetricMatrix m = test::random_asymmetric(6, 2);
  const Result result = RouteProblem(m, PathEnds{false, 1, {}}).solve(cpu_config(1, 5));
  const nlohmann::json doc = nlohmann::json::parse(result_json(m.name(), m.n(), "EXPLICIT", result, std::nullopt));
  EXPECT_EQ(doc["open"], true);
  EXPECT_EQ(doc["start"], 1);
  EXPECT_TRUE(doc["end"].is_null());
  EXPECT_EQ(doc["asymmetric"], true);
  EXPECT_EQ(doc["n"], 6);
  EXPECT_EQ(doc["tour"].size(), 6u);
  EXPECT_EQ(doc["best_length"], result.tour.length());
}

}  // namespace
}  // namespace formica
