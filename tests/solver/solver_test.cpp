// The solver's defaults: what Algorithm::Auto runs, the default stopping rule, and a Result that
// reports the configuration that actually ran.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/generator.h"
#include "solver/parameters.h"
#include "solver/report.h"
#include "solver/solver.h"

namespace formica {
namespace {

TEST(Solver, AutoIsTheDefaultAndResolvesToAConcreteAlgorithm) {
  EXPECT_EQ(SolverConfig{}.algorithm, Algorithm::Auto);
  EXPECT_EQ(parse_algorithm("auto"), Algorithm::Auto);
  EXPECT_EQ(to_string(Algorithm::Auto), "auto");
  EXPECT_EQ(resolve_algorithm(Algorithm::Auto), Algorithm::AntSystem);
  EXPECT_EQ(resolve_algorithm(Algorithm::AntSystem), Algorithm::AntSystem);
  EXPECT_EQ(resolve_config(SolverConfig{}).algorithm, Algorithm::AntSystem);
}

TEST(Solver, DefaultStoppingRule) {
  SolverConfig config;
  EXPECT_EQ(resolve_config(config).time_limit, kDefaultTimeLimit);
  config.target = 5;  // a target may never be reached: it does not replace the default
  EXPECT_EQ(resolve_config(config).time_limit, kDefaultTimeLimit);
  config.iterations = 3;
  EXPECT_FALSE(resolve_config(config).time_limit);
  config = SolverConfig{};
  config.time_limit = 2.5;
  EXPECT_EQ(resolve_config(config).time_limit, 2.5);
  EXPECT_FALSE(resolve_config(config).iterations);
}

TEST(Solver, ResultReportsWhatRan) {
  const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.iterations = 3;
  config.backend = Backend::Cpu;
  const Result result = solve(instance, config);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_EQ(result.config.algorithm, Algorithm::AntSystem);
  EXPECT_EQ(result.config.backend, Backend::Cpu);
  EXPECT_EQ(result.config.threads, hardware_threads());
  EXPECT_EQ(result.config.ant_system.ants, 40);
  EXPECT_EQ(result.config.iterations, 3);
  EXPECT_FALSE(result.config.time_limit);

  const auto report = nlohmann::json::parse(result_json(instance, result, std::nullopt));
  EXPECT_EQ(report["algorithm"], "as");
  EXPECT_EQ(report["parameters"], parameters_json(result.config));
  EXPECT_EQ(report["parameters"]["ants"], 40);
}

TEST(Solver, AutoGivesTheSameRunAsItsAlgorithm) {
  const Instance instance = io::generate_instance(30, io::InstanceKind::Clustered, 2);
  SolverConfig automatic, explicit_as;
  automatic.iterations = explicit_as.iterations = 4;
  explicit_as.algorithm = Algorithm::AntSystem;
  const Result a = solve(instance, automatic), b = solve(instance, explicit_as);
  EXPECT_TRUE(std::equal(a.tour.order().begin(), a.tour.order().end(), b.tour.order().begin()));
  EXPECT_EQ(parameters_json(a.config), parameters_json(b.config));
}

}  // namespace
}  // namespace formica
