// SPDX-License-Identifier: MIT
// Who found the improvements of a run (Result::credits): the colonies, the host threads beside
// them, the merges, adopted tours and the polish, adding up exactly to the first tour's length less
// the returned one; the JSON report and the one-line summary carry them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "aco/cpu/colony_search.h"
#include "core/nearest_neighbour.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "solver/parameters.h"
#include "solver/report.h"
#include "solver/solver.h"

namespace formica {
namespace {

TEST(Credits, TheHybridsGainsAddUpToTheDropFromItsFirstTourAndTheReportCarriesThem) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 7);
  SolverConfig config;
  set_parameter(config, "algorithm", "mmas");
  set_parameter(config, "backend", "cpu");
  set_parameter(config, "lk-threads", "1");
  set_parameter(config, "merge-tours", "true");
  set_parameter(config, "iterations", "20");
  set_parameter(config, "threads", "2");
  const Result result = solve(instance, config);
  const Credits& credits = result.credits;
  ASSERT_TRUE(credits.started());
  EXPECT_EQ(credits.last(), result.tour.length());
  EXPECT_EQ(credits.sum_of_gains(), credits.first() - result.tour.length());
  EXPECT_GT(credits.total(), 0);
  EXPECT_EQ(credits.gain(Finder::Eax), 0);  // the host threads run Lin-Kernighan
  EXPECT_EQ(credits.gain(Finder::Ranks), 0);
  EXPECT_EQ(result.searched_by, "mmas on the CPU");

  const nlohmann::json doc = nlohmann::json::parse(result_json(instance, result, std::nullopt));
  const nlohmann::json& found = doc.at("found_by");
  EXPECT_EQ(found.at("first_length").get<int64_t>(), credits.first());
  EXPECT_EQ(found.at("search").get<std::string>(), "mmas on the CPU");
  int64_t gains = 0;
  double shares = 0.0;
  for (const auto& [key, gain] : found.at("gains").items()) gains += gain.get<int64_t>();
  for (const auto& [key, share] : found.at("shares").items()) shares += share.get<double>();
  EXPECT_EQ(gains, credits.total());
  EXPECT_NEAR(shares, 1.0, 1e-9);
  EXPECT_EQ(found.at("gains").at("host_lin_kernighan").get<int64_t>(), credits.gain(Finder::LinKernighan));

  const std::string line = found_by_line(result);
  EXPECT_NE(line.find("improvements from " + std::to_string(credits.first()) + " to " +
                      std::to_string(result.tour.length())),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("mmas on the CPU"), std::string::npos) << line;
}

TEST(Credits, AnAlgorithmWithoutHelpersHasEveryGainButThePolishsAsItsOwn) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  set_parameter(config, "algorithm", "two-opt");
  set_parameter(config, "backend", "cpu");
  set_parameter(config, "iterations", "3");
  const Result result = solve(instance, config);
  ASSERT_TRUE(result.credits.started());
  EXPECT_EQ(result.credits.first(), result.history.front().length);
  EXPECT_EQ(result.credits.gain(Finder::Search) + result.credits.gain(Finder::Polish), result.credits.total());
  EXPECT_EQ(result.credits.last(), result.tour.length());
  EXPECT_EQ(result.searched_by, "two-opt on the CPU");
}

TEST(Credits, AnAdoptedTourShorterThanTheColoniesIsCreditedToTheOtherRanks) {
  const Instance instance = io::generate_instance(250, io::InstanceKind::Uniform, 11);
  aco::ColonyConfig config;
  config.threads = 1;
  aco::ColonySearchCpu search(instance, config);
  ASSERT_TRUE(search.step(StopFlag{}));
  const int64_t before = search.best_length();
  // A tour much shorter than one iteration of ants: the nearest-neighbour tour, climbed.
  std::vector<int32_t> tour = nearest_neighbour_tour(instance, 0);
  localsearch::cpu::polish_tour(instance, tour, 1, nullptr, NeighbourShape::Nearest);
  const int64_t length = tour_length(instance, tour);
  ASSERT_LT(length, before);
  ASSERT_TRUE(search.adopt(tour, length));
  const Credits& credits = *search.credits();
  EXPECT_EQ(credits.last(), search.best_length());
  EXPECT_GE(credits.gain(Finder::Ranks), before - length);
  EXPECT_EQ(credits.sum_of_gains(), credits.first() - search.best_length());
}

}  // namespace
}  // namespace formica
