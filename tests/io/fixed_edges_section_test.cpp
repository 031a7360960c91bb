// SPDX-License-Identifier: MIT
// TSPLIB's FIXED_EDGES_SECTION: read into the instance, every breach of its rules one error naming
// the file and line (core/fixed_edges.h), never skipped.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

using test::input_error_of;

/// A 6-city EUC_2D file with `section` (its lines, -1 included) as FIXED_EDGES_SECTION, which
/// starts at line 5.
std::string with_fixed_edges(const std::string& section, const std::string& type = "TSP") {
  return "NAME : six\nTYPE : " + type + "\nDIMENSION : 6\nEDGE_WEIGHT_TYPE : EUC_2D\nFIXED_EDGES_SECTION\n" + section +
         "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 6 0\n4 6 4\n5 3 4\n6 0 4\nEOF\n";
}

TEST(FixedEdgesSection, EdgesAreReadZeroBased) {
  const Instance instance = io::parse_tsplib(with_fixed_edges("1 2\n2 3\n\n6 5\n-1\n"), "six.tsp");
  ASSERT_EQ(instance.fixed_edges().size(), 3u);
  EXPECT_EQ(instance.fixed_edges()[0], (FixedEdge{0, 1}));
  EXPECT_EQ(instance.fixed_edges()[1], (FixedEdge{1, 2}));
  EXPECT_EQ(instance.fixed_edges()[2], (FixedEdge{5, 4}));
  EXPECT_EQ(instance.n(), 6);
  // An instance without the section has none; a whole tour of fixed edges is allowed.
  EXPECT_TRUE(io::parse_tsplib(with_fixed_edges("-1\n"), "six.tsp").fixed_edges().empty());
  EXPECT_EQ(io::parse_tsplib(with_fixed_edges("1 2\n2 3\n3 4\n4 5\n5 6\n6 1\n-1\n"), "six.tsp").fixed_edges().size(), 6u);
}

TEST(FixedEdgesSection, EveryBadEdgeIsOneLineNamingFileAndLine) {
  const struct {
    std::string section, error;
  } cases[] = {
      {"1 x\n-1\n", "six.tsp:6: fixed edge: 'x' is not a city number"},
      {"1 2.5\n-1\n", "six.tsp:6: fixed edge: '2.5' is not a city number"},
      {"1 2 3\n-1\n", "six.tsp:6: a fixed edge is two city numbers, found 3 fields"},
      {"1\n-1\n", "six.tsp:6: a fixed edge is two city numbers, found 1 fields"},
      {"0 2\n-1\n", "six.tsp:6: fixed edge: city 0 is not in 1..6"},
      {"1 2\n2 7\n-1\n", "six.tsp:7: fixed edge: city 7 is not in 1..6"},
      {"1 99999999999\n-1\n", "six.tsp:6: fixed edge: city 99999999999 is not in 1..6"},
      {"3 3\n-1\n", "six.tsp:6: fixed edge: an edge from city 3 to itself"},
      {"1 2\n2 1\n-1\n", "six.tsp:7: fixed edge: the edge 2-1 is fixed twice"},
      {"1 2\n1 3\n1 4\n-1\n", "six.tsp:8: fixed edge: city 1 would have 3 fixed edges (a tour has 2 at each city)"},
      {"1 2\n2 3\n3 1\n-1\n", "six.tsp:8: fixed edge: the edge 3-1 closes a cycle of 3 cities, not a tour of all 6"},
      {"1 2\n2 3\n", "six.tsp:8: FIXED_EDGES_SECTION ends without the -1 that closes it"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.section);
    EXPECT_EQ(input_error_of([&] { io::parse_tsplib(with_fixed_edges(c.section), "six.tsp"); }), c.error);
  }
  EXPECT_EQ(input_error_of([] { io::parse_tsplib("NAME : a\nFIXED_EDGES_SECTION\n1 2\n-1\nEOF\n", "a.tsp"); }),
            "a.tsp:2: DIMENSION must come before FIXED_EDGES_SECTION");
  EXPECT_EQ(input_error_of([] { io::parse_tsplib("NAME : a\nDIMENSION : 3\nFIXED_EDGES_SECTION\n1 2\n", "a.tsp"); }),
            "a.tsp:4: FIXED_EDGES_SECTION ends without the -1 that closes it (the file ends early)");
  EXPECT_EQ(input_error_of([] { io::parse_tsplib(with_fixed_edges("1 2\n-1\nFIXED_EDGES_SECTION\n3 4\n-1\n"), "six.tsp"); }),
            "six.tsp:8: a second FIXED_EDGES_SECTION (a file gives each section once)");
}

TEST(FixedEdgesSection, AnAsymmetricFileWithFixedEdgesIsRefused) {
  const std::string atsp =
      "NAME : a\nTYPE : ATSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\n"
      "FIXED_EDGES_SECTION\n1 2\n-1\nEDGE_WEIGHT_SECTION\n0 1 2\n3 0 4\n5 6 0\nEOF\n";
  EXPECT_EQ(input_error_of([&] { io::parse_tsplib_problem(atsp, "a.atsp"); }),
            "a.atsp: FIXED_EDGES_SECTION in an asymmetric (ATSP) instance: formica keeps the fixed edges of symmetric "
            "instances only");
}

TEST(FixedEdgesSection, LinHp318HasItsFixedEdge) {
  const auto dir = test::tsplib_dir();
  if (!dir || !std::filesystem::exists(*dir / "tsp" / "linhp318.tsp")) GTEST_SKIP() << "TSPLIB folder not found";
  const Instance instance = io::read_tsplib(*dir / "tsp" / "linhp318.tsp");
  ASSERT_EQ(instance.fixed_edges().size(), 1u);
  EXPECT_EQ(instance.fixed_edges()[0], (FixedEdge{0, 213}));
}

}  // namespace
}  // namespace formica
