// SPDX-License-Identifier: MIT
// Exact TSPLIB distances: every optimal tour in the data folder measures exactly its optimum,
// which checks EUC_2D, CEIL_2D, ATT, GEO and the EXPLICIT formats at once; hand-computed values
// cover MAN_2D, MAX_2D and EUC_3D, which no TSPLIB instance uses.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/distance.h"
#include "core/tour.h"
#include "io/known_optima.h"
#include "test_support.h"

namespace formica {
namespace {

std::map<std::string, int64_t> read_solutions(const std::filesystem::path& csv) {
  std::map<std::string, int64_t> optimum;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string name, n, type, value;
    std::getline(fields, name, ',');
    std::getline(fields, n, ',');
    std::getline(fields, type, ',');
    std::getline(fields, value, ',');
    optimum[name] = std::stoll(value);
  }
  return optimum;
}

TEST(Distance, EveryOptimalTourMeasuresItsOptimum) {
  FORMICA_REQUIRE_TSPLIB();
  const auto dir = *test::tsplib_dir();
  const auto optima = read_solutions(dir / "solutions.csv");
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "opt_tour")) {
    const std::string file = entry.path().filename().string();
    const std::string name = file.substr(0, file.find('.'));
    SCOPED_TRACE(name);
    const Instance instance = io::read_tsplib(dir / "tsp" / (name + ".tsp"));
    const Tour tour(instance, io::read_tour(entry.path()));
    ASSERT_TRUE(optima.count(name));
    EXPECT_EQ(tour.length(), optima.at(name));
    EXPECT_EQ(known_optimum(instance.name(), instance.n()), optima.at(name));
    ++checked;
  }
  EXPECT_EQ(checked, 34);
}

TEST(Distance, KnownOptimaTableMatchesSolutionsCsv) {
  FORMICA_REQUIRE_TSPLIB();
  const auto dir = *test::tsplib_dir();
  for (const auto& [name, value] : read_solutions(dir / "solutions.csv")) {
    const Instance instance = io::read_tsplib(dir / "tsp" / (name + ".tsp"));
    EXPECT_EQ(known_optimum(name, instance.n()), value) << name;
  }
}

TEST(Distance, HandComputedValues) {
  using namespace tsplib;
  EXPECT_EQ(euc_2d(3, 4), 5);
  EXPECT_EQ(euc_2d(1, 1), 1);       // 1.414 rounds down
  EXPECT_EQ(euc_2d(1.5, 1.5), 2);   // 2.121
  EXPECT_EQ(ceil_2d(1, 1), 2);
  EXPECT_EQ(ceil_2d(3, 4), 5);
  EXPECT_EQ(att(3, 4), 2);          // sqrt(2.5) = 1.58 -> nint 2, not below r
  EXPECT_EQ(att(10, 0), 4);         // sqrt(10) = 3.16 -> nint 3 < r -> 4
  EXPECT_EQ(man_2d(3, -4), 7);
  EXPECT_EQ(man_2d(1.2, 1.2), 2);   // 2.4 rounds to 2
  EXPECT_EQ(max_2d(3, -4), 4);
  EXPECT_EQ(max_2d(2.6, 1.0), 3);
  EXPECT_EQ(euc_3d(2, 3, 6), 7);
  EXPECT_EQ(euc_3d(1, 1, 1), 2);    // 1.732
}

TEST(Distance, GeoUsesTruncatedDegreesMinutes) {
  // 16.47 is 16 degrees 47 minutes: 16 + 5 * 0.47 / 3 degrees, with PI = 3.141592.
  EXPECT_DOUBLE_EQ(tsplib::geo_radians(16.47), 3.141592 * (16.0 + 5.0 * (16.47 - 16.0) / 3.0) / 180.0);
  // burma14 cities 1 and 2 (16.47, 96.10) and (16.47, 94.44): 153 km under the TSPLIB formula.
  const double lat = tsplib::geo_radians(16.47);
  EXPECT_EQ(tsplib::geo(lat, tsplib::geo_radians(96.10), lat, tsplib::geo_radians(94.44)), 153);
}

TEST(Distance, EdgeWeightTypeNamesRoundTrip) {
  for (auto type : {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att, EdgeWeightType::Geo,
                    EdgeWeightType::Man2D, EdgeWeightType::Max2D, EdgeWeightType::Euc3D, EdgeWeightType::Explicit})
    EXPECT_EQ(parse_edge_weight_type(to_string(type)), type);
  EXPECT_FALSE(parse_edge_weight_type("XRAY1"));
}

}  // namespace
}  // namespace formica
