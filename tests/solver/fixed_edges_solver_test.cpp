// SPDX-License-Identifier: MIT
// Fixed edges through RouteProblem on the CPU: every algorithm returns tours that hold them all,
// measured in the true metric; the transformation alone keeps them in local optima; a tour that
// lost some is mended; the routes and the batch that cannot keep them refuse the instance.
#include <gtest/gtest.h>

#include <numeric>

#include "batch/batch_solver.h"
#include "core/error.h"
#include "core/fixed_edges.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "solver/route_solver.h"
#include "test_support.h"

namespace formica {
namespace {

using test::input_error_of;

/// `instance` with `chains` paths of `length` fixed edges each between cities drawn at random (so
/// far apart, mostly: no search would choose them unprompted).
Instance with_random_fixed_edges(Instance instance, int chains, int length, uint64_t seed) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  RandomStream rng(seed, 0);
  for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.below(static_cast<uint32_t>(i + 1))]);
  std::vector<FixedEdge> edges;
  size_t at = 0;
  for (int c = 0; c < chains; ++c, ++at)
    for (int k = 0; k < length; ++k, ++at) edges.push_back({order[at], order[at + 1]});
  instance.set_fixed_edges(std::move(edges));
  return instance;
}

SolverConfig cpu_config(Algorithm algorithm, int64_t iterations) {
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.algorithm = algorithm;
  config.iterations = iterations;
  config.seed = 3;
  config.threads = 1;
  return config;
}

TEST(FixedEdgesSolver, EveryAlgorithmKeepsTwentyFixedEdgesOf200Cities) {
  const Instance plain = io::generate_instance(200, io::InstanceKind::Uniform, 21);
  const Instance instance = with_random_fixed_edges(plain, 5, 4, 7);
  ASSERT_EQ(instance.fixed_edges().size(), 20u);
  // Left to itself a search takes few of these long edges: the test has something to catch.
  const Result free = RouteProblem(plain, PathEnds{}).solve(cpu_config(Algorithm::TwoOpt, 20));
  EXPECT_TRUE(missing_fixed_edge(free.tour.order(), instance.fixed_edges()).has_value());
  const RouteProblem problem(instance, PathEnds{});
  EXPECT_NE(&problem.solved_instance(), &instance);
  for (const Algorithm algorithm : {Algorithm::Auto, Algorithm::AntSystem, Algorithm::Mmas, Algorithm::Acs,
                                    Algorithm::Gaco, Algorithm::TwoOpt, Algorithm::Eax}) {
    SCOPED_TRACE(to_string(algorithm));
    SolveOptions options;
    int improvements = 0;
    options.on_improvement = [&](std::span<const int32_t> tour, int64_t length, double) {
      ++improvements;
      EXPECT_FALSE(missing_fixed_edge(tour, instance.fixed_edges()).has_value());
      EXPECT_EQ(length, tour_length(instance, tour));
      return true;
    };
    const Result result = problem.solve(cpu_config(algorithm, 10), options);
    const auto lacking = missing_fixed_edge(result.tour.order(), instance.fixed_edges());
    EXPECT_FALSE(lacking.has_value()) << (*lacking)[0] << "-" << (*lacking)[1];
    EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
    ASSERT_FALSE(result.history.empty());
    EXPECT_EQ(result.history.back().length, result.tour.length());
    EXPECT_GT(improvements, 0);
  }
}

TEST(FixedEdgesSolver, LocalOptimaOfTheTransformHoldTheFixedEdges) {
  // The weights alone, without the mending: a 2-opt climb and Or-opt see each missing edge as a gain.
  const Instance instance = with_random_fixed_edges(io::generate_instance(200, io::InstanceKind::Clustered, 5), 5, 4, 9);
  const FixedEdgeTransform transform(instance);
  for (const Algorithm algorithm : {Algorithm::TwoOpt, Algorithm::Mmas, Algorithm::Eax}) {
    SCOPED_TRACE(to_string(algorithm));
    const Result result = solve(transform.instance(), cpu_config(algorithm, 10));
    EXPECT_FALSE(missing_fixed_edge(result.tour.order(), instance.fixed_edges()).has_value());
    EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()) + transform.offset());
  }
}

TEST(FixedEdgesSolver, ATourThatLostFixedEdgesIsMended) {
  const Instance instance = with_random_fixed_edges(io::generate_instance(60, io::InstanceKind::Uniform, 2), 6, 3, 4);
  std::vector<int32_t> order(60);
  std::iota(order.begin(), order.end(), 0);
  ASSERT_TRUE(missing_fixed_edge(order, instance.fixed_edges()).has_value());
  const std::vector<int32_t> mended = keep_fixed_edges(instance, order, instance.fixed_edges());
  EXPECT_NO_THROW(validate_permutation(mended, 60));
  EXPECT_FALSE(missing_fixed_edge(mended, instance.fixed_edges()).has_value());
  // A tour of fixed edges through every city is that tour.
  Instance ring = io::generate_instance(5, io::InstanceKind::Uniform, 1);
  ring.set_fixed_edges({{0, 2}, {2, 4}, {4, 1}, {1, 3}, {3, 0}});
  const std::vector<int32_t> identity{0, 1, 2, 3, 4};
  const std::vector<int32_t> mended_ring = keep_fixed_edges(ring, identity, ring.fixed_edges());
  EXPECT_EQ(mended_ring, (std::vector<int32_t>{0, 2, 4, 1, 3}));
  EXPECT_EQ(RouteProblem(ring, PathEnds{}).solve(cpu_config(Algorithm::Mmas, 3)).tour.length(),
            tour_length(ring, mended_ring));
}

TEST(FixedEdgesSolver, RoutesThatCannotKeepThemRefuseTheInstance) {
  const Instance instance = with_random_fixed_edges(io::generate_instance(30, io::InstanceKind::Uniform, 8), 2, 2, 1);
  EXPECT_EQ(input_error_of([&] { RouteProblem(instance, PathEnds{true, {}, {}}); }),
            instance.name() + " has fixed edges (FIXED_EDGES_SECTION): formica keeps them in closed tours only, not "
                              "with --start-city, --end-city or an open path");
  batch::BatchConfig config;
  config.kicks = 1;
  const std::vector<Instance> batch{io::generate_instance(30, io::InstanceKind::Uniform, 1), instance};
  EXPECT_EQ(input_error_of([&] { batch::solve_batch(batch, config); }),
            "instance 1 (" + instance.name() +
                ") has fixed edges (FIXED_EDGES_SECTION), which the batch solver does not keep; formica solve and "
                "formica.solve keep them");
  Instance bad = io::generate_instance(5, io::InstanceKind::Uniform, 1);
  EXPECT_EQ(input_error_of([&] { bad.set_fixed_edges({{0, 1}, {1, 2}, {2, 0}}); }),
            "fixed edge 3 (3-1): the edge 3-1 closes a cycle of 3 cities, not a tour of all 5");
  EXPECT_EQ(input_error_of([&] { bad.set_fixed_edges({{0, 5}}); }), "fixed edge 1 (1-6): city 6 is not in 1..5");
}

}  // namespace
}  // namespace formica
