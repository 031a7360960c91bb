// SPDX-License-Identifier: MIT
// Every deliberately broken file in tests/data gets one clear InputError naming the file, the
// line where it applies, and the reason. (tests/cli checks the exit code for the same files.)
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/tour.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

std::string read_error(const std::string& file) {
  try {
    io::read_tsplib(test::data_file(file));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

struct Case {
  const char* file;
  const char* message;  // expected after "<path>:"
};

class MalformedInstance : public ::testing::TestWithParam<Case> {};

TEST_P(MalformedInstance, GivesOneClearError) {
  const std::string path = test::data_file(GetParam().file).string();
  const std::string error = read_error(GetParam().file);
  EXPECT_EQ(error, path + ":" + GetParam().message);
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    BrokenFiles, MalformedInstance,
    ::testing::Values(
        Case{"truncated.tsp", "8: DIMENSION is 5 but NODE_COORD_SECTION has only 3 cities (the file ends early)"},
        Case{"malformed_coordinate.tsp", "8: coordinate 'ten' is not a number"},
        Case{"missing_field.tsp", "8: expected 3 fields (city number and 2 coordinates), found 2"},
        Case{"unknown_edge_weight_type.tsp",
             "4: unknown EDGE_WEIGHT_TYPE 'XRAY1' (formica reads EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, "
             "EUC_3D and EXPLICIT)"},
        Case{"dimension_too_large.tsp", "10: DIMENSION is 5 but NODE_COORD_SECTION has only 4 cities"},
        Case{"dimension_too_small.tsp", "9: NODE_COORD_SECTION has more than DIMENSION = 3 cities"},
        Case{"too_few_cities.tsp", "3: DIMENSION is 2; at least 3 cities are needed"},
        Case{"nan_coordinate.tsp", "7: coordinate 'nan' is not a number"},
        Case{"infinite_coordinate.tsp", "7: coordinate '1e999' is not finite"},
        Case{"nan_weight.tsp", "7: weight 'nan' is not a number"},
        Case{"geo_latitude_beyond_90.tsp", "7: city 2: latitude 89.99 is 90.65 degrees, beyond +-90 degrees (GEO "
                                           "coordinates are latitude and longitude in DDD.MM: degrees, then minutes)"},
        // Found by fuzz_tsplib (nint of an infinite distance: undefined behaviour).
        Case{"huge_coordinate.tsp", "7: coordinate '151e300' is beyond +-5e+08 (distances must fit in 32 bits)"},
        Case{"explicit_too_few_weights.tsp",
             "9: DIMENSION 4 in this EDGE_WEIGHT_FORMAT needs 6 weights, found only 5"},
        // ATSP files are read now (read_tsplib_problem); the symmetric reader names what they are.
        Case{"asymmetric_type.tsp", " atsp is an asymmetric (ATSP) instance; `formica solve` and formica.solve read "
                                    "those, this needs a symmetric one"},
        Case{"unsupported_type.tsp", " TYPE 'CVRP' is not supported: formica solves the TSP and the ATSP"},
        Case{"atsp_not_full_matrix.tsp", " TYPE ATSP needs EDGE_WEIGHT_TYPE EXPLICIT and EDGE_WEIGHT_FORMAT FULL_MATRIX"},
        Case{"missing_dimension.tsp", "4: DIMENSION must come before NODE_COORD_SECTION"},
        Case{"garbage.tsp", "2: unknown keyword 'this'"},
        // Found by fuzz_tsplib (a heap read past the weights, in CI's 60-s run).
        Case{"format_changed_after_weights.tsp",
             "9: EDGE_WEIGHT_FORMAT changed after EDGE_WEIGHT_SECTION: it needs 10 weights for DIMENSION 4, the "
             "section has 6"}),
    [](const auto& param_info) {
      std::string name = param_info.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(MalformedTour, RepeatedCity) {
  const auto order = io::read_tour(test::data_file("repeated_city.tour"));
  try {
    validate_permutation(order, 4);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "tour visits city 2 twice");
  }
}

TEST(MalformedTour, OutOfRangeCity) {
  const auto order = io::read_tour(test::data_file("out_of_range_city.tour"));
  EXPECT_THROW(validate_permutation(order, 4), InputError);
}

TEST(MalformedTour, MissingFile) {
  try {
    io::read_tour("/nonexistent/formica.tour");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/formica.tour: cannot open (No such file or directory)");
  }
}

}  // namespace
}  // namespace formica
