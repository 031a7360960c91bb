// SPDX-License-Identifier: MIT
// Reading every TSPLIB form and quirk, and .tour / .tsp round trips.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "io/generator.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

// A symmetric 5 x 5 matrix, written below in each EDGE_WEIGHT_FORMAT.
constexpr int kN = 5;
const int kW[kN][kN] = {{0, 3, 5, 9, 4}, {3, 0, 7, 2, 8}, {5, 7, 0, 6, 1}, {9, 2, 6, 0, 11}, {4, 8, 1, 11, 0}};

std::string explicit_file(const std::string& format) {
  std::ostringstream out;
  out << "NAME: m\nTYPE: TSP\nDIMENSION: " << kN << "\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: "
      << format << "\nEDGE_WEIGHT_SECTION\n";
  const bool diag = format.find("DIAG") != std::string::npos;
  const bool upper = format.rfind("UPPER", 0) == 0;
  const bool by_column = format.find("_COL") != std::string::npos;
  for (int a = 0; a < kN; ++a) {
    for (int b = 0; b < kN; ++b) {
      // Row-wise forms list (row a, column b); column-wise forms list (row b, column a).
      const int i = by_column ? b : a, j = by_column ? a : b;
      bool take = format == "FULL_MATRIX" || (upper ? (diag ? j >= i : j > i) : (diag ? j <= i : j < i));
      if (take) out << kW[i][j] << (b % 3 == 2 ? "\n" : " ");  // odd line breaks on purpose
    }
  }
  out << "\nEOF\n";
  return out.str();
}

class ExplicitFormats : public ::testing::TestWithParam<std::string> {};

TEST_P(ExplicitFormats, ReadTheSameMatrix) {
  const Instance instance = io::parse_tsplib(explicit_file(GetParam()), GetParam());
  ASSERT_EQ(instance.n(), kN);
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) EXPECT_EQ(instance.distance(i, j), kW[i][j]) << i << "," << j;
}

INSTANTIATE_TEST_SUITE_P(AllFormats, ExplicitFormats,
                         ::testing::Values("FULL_MATRIX", "UPPER_ROW", "LOWER_ROW", "UPPER_DIAG_ROW",
                                           "LOWER_DIAG_ROW", "UPPER_COL", "LOWER_COL", "UPPER_DIAG_COL",
                                           "LOWER_DIAG_COL"));

TEST(Tsplib, CoordinateTypes) {
  const auto read = [](const std::string& type, const std::string& coords) {
    return io::parse_tsplib("NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: " + type +
                                "\nNODE_COORD_SECTION\n" + coords + "EOF\n",
                            type);
  };
  EXPECT_EQ(read("MAN_2D", "1 0 0\n2 3 4\n3 1 1\n").distance(0, 1), 7);
  EXPECT_EQ(read("MAX_2D", "1 0 0\n2 3 4\n3 1 1\n").distance(0, 1), 4);
  EXPECT_EQ(read("CEIL_2D", "1 0 0\n2 1 1\n3 1 0\n").distance(0, 1), 2);
  EXPECT_EQ(read("EUC_3D", "1 0 0 0\n2 2 3 6\n3 1 1 1\n").distance(0, 1), 7);
  EXPECT_EQ(read("ATT", "1 0 0\n2 10 0\n3 1 1\n").distance(0, 1), 4);
}

TEST(Tsplib, ToleratesCrlfSpacedKeysTabsTrailingBlanksAndNoEof) {
  const Instance instance = io::read_tsplib(test::data_file("crlf_quirks.tsp"));
  EXPECT_EQ(instance.name(), "crlf");
  EXPECT_EQ(instance.n(), 4);
  EXPECT_EQ(instance.distance(0, 1), 5);
  EXPECT_EQ(instance.distance(2, 3), 5);
}

TEST(Tsplib, ReadsEveryFileInTheDataFolder) {
  FORMICA_REQUIRE_TSPLIB();
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(*test::tsplib_dir() / "tsp")) {
    SCOPED_TRACE(entry.path().string());
    const Instance instance = io::read_tsplib(entry.path());
    EXPECT_GE(instance.n(), 3);
    ++read;
  }
  EXPECT_EQ(read, 111);
}

TEST(Tsplib, ReadsAsymmetricFullMatrices) {
  const io::TsplibProblem problem = io::read_tsplib_problem(test::data_file("atsp6.atsp"));
  const auto* matrix = std::get_if<AsymmetricMatrix>(&problem);
  ASSERT_NE(matrix, nullptr);
  EXPECT_EQ(matrix->name(), "atsp6");
  EXPECT_EQ(matrix->n(), 6);
  EXPECT_EQ(matrix->distance(0, 1), 12);
  EXPECT_EQ(matrix->distance(1, 0), 3);
  EXPECT_EQ(matrix->distance(5, 4), 6);
  EXPECT_EQ(matrix->distance(2, 2), 0);  // TSPLIB's 9999 on the diagonal is no edge
  EXPECT_FALSE(matrix->symmetric());
  EXPECT_NE(matrix->comment().find("brute force"), std::string::npos);
  // A symmetric file through the same reader is an Instance.
  EXPECT_TRUE(std::holds_alternative<Instance>(io::read_tsplib_problem(test::data_file("square.tsp"))));
}

TEST(Tsplib, DisplayDataIsNeverUsedForDistances) {
  FORMICA_REQUIRE_TSPLIB();
  const Instance bays29 = test::tsplib_instance("bays29");
  EXPECT_EQ(bays29.type(), EdgeWeightType::Explicit);
  EXPECT_FALSE(bays29.display_x().empty());
  EXPECT_EQ(bays29.distance(0, 1), 107);  // the matrix, not the display coordinates
}

TEST(Tsplib, TourRoundTrip) {
  const Instance instance = io::generate_instance(50, io::InstanceKind::Uniform, 3);
  std::vector<int32_t> order(50);
  for (int i = 0; i < 50; ++i) order[i] = (i * 7) % 50;
  const Tour tour(instance, order);
  const auto path = std::filesystem::temp_directory_path() / "formica_round_trip.tour";
  io::write_tour(path, instance.name(), tour);
  EXPECT_EQ(io::read_tour(path), order);
  std::filesystem::remove(path);
}

TEST(Tsplib, TourOfAPermutationWithAComment) {
  const auto path = std::filesystem::temp_directory_path() / "formica_plain.tour";
  const std::vector<int32_t> order = {2, 0, 3, 1};
  io::write_tour(path, "plain", order, "by hand");
  EXPECT_EQ(io::read_text_file(path),
            "NAME : plain.tour\nCOMMENT : by hand\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\n");
  io::write_tour(path, "plain", order, "");
  EXPECT_EQ(io::read_text_file(path).find("COMMENT"), std::string::npos);
  std::filesystem::remove(path);
  EXPECT_THROW(io::write_tour(path, "plain", std::vector<int32_t>{0, 2}, ""), InputError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Tsplib, InstanceRoundTrip) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Clustered, 9);
  const auto path = std::filesystem::temp_directory_path() / "formica_round_trip.tsp";
  io::write_tsplib(path, instance);
  const Instance back = io::read_tsplib(path);
  EXPECT_EQ(back.name(), instance.name());
  ASSERT_EQ(back.n(), instance.n());
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(back.x()[i], instance.x()[i]);
    EXPECT_EQ(back.y()[i], instance.y()[i]);
  }
  std::filesystem::remove(path);
}

TEST(Tsplib, TourWithSeveralCitiesPerLine) {
  EXPECT_EQ(io::read_tour(test::data_file("square.tour")), (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(Tsplib, CitiesListedOutOfOrderKeepTheirNumbers) {
  const Instance instance = io::parse_tsplib(
      "NAME: shuffled\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n3 30 3\n1 10 1\n2 20 2\n",
      "shuffled.tsp");
  EXPECT_EQ(std::vector<double>(instance.x().begin(), instance.x().end()), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(std::vector<double>(instance.y().begin(), instance.y().end()), (std::vector<double>{1, 2, 3}));
}

TEST(Tsplib, ReadsFromTheFirstLineOnlyWhatItNeeds) {
  // A NUL byte ends the read at its line; what follows it is never looked at.
  const std::string text = std::string("NAME: x\nTYPE: TSP\0", 18) + std::string(1 << 20, 'z');
  try {
    io::parse_tsplib(text, "binary.tsp");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "binary.tsp:2: a NUL byte: not a text file");
  }
  // A token of a megabyte is quoted by its first 40 characters.
  try {
    io::parse_tsplib(std::string(1 << 20, 'k') + "\n", "long.tsp");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "long.tsp:1: unknown keyword '" + std::string(40, 'k') + "...'");
  }
}

TEST(Tsplib, TourLongerThanItsDimensionStopsAtTheFirstCityTooMany) {
  try {
    io::parse_tour("DIMENSION: 3\nTOUR_SECTION\n1 2 3 1 2 3\n-1\n", "long.tour");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "long.tour:3: TOUR_SECTION lists more than DIMENSION = 3 cities");
  }
}

}  // namespace
}  // namespace formica
