// SPDX-License-Identifier: MIT
// SVG pictures: well-formed documents, every city drawn, y up, escaped titles, a log time axis,
// and clear errors for what cannot be drawn.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/svg.h"

namespace formica {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Checks that every element is closed in order (the pytest suite parses with a real XML parser).
::testing::AssertionResult well_formed(const std::string& svg) {
  if (svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) != 0)
    return ::testing::AssertionFailure() << "no XML declaration and <svg> root";
  std::vector<std::string> open;
  for (size_t at = svg.find('<', 1); at != std::string::npos; at = svg.find('<', at + 1)) {
    const size_t end = svg.find('>', at);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unterminated tag at " << at;
    const std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "'<' inside a tag: " << tag;
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1))
        return ::testing::AssertionFailure() << "</" << tag.substr(1) << "> closes nothing open";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find(' ')));
    }
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> never closed";
  return ::testing::AssertionSuccess();
}

std::vector<int32_t> identity(int n) {
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

TEST(Svg, DrawingCoordinatesFollowTheInstanceType) {
  const Instance plane("p", EdgeWeightType::Euc2D, {1, 2, 3}, {4, 5, 6});
  const auto p = io::drawing_coordinates(plane);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->x, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(p->y, (std::vector<double>{4, 5, 6}));
  // GEO is (latitude, longitude): longitude goes across, latitude up.
  const Instance geo("g", EdgeWeightType::Geo, {10.30, 20, 30}, {40, 50.30, 60});
  const auto g = io::drawing_coordinates(geo);
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->x[1], tsplib::geo_radians(50.30));
  EXPECT_DOUBLE_EQ(g->y[0], tsplib::geo_radians(10.30));

  Instance matrix = Instance::from_matrix("m", 3, {0, 1, 2, 1, 0, 3, 2, 3, 0});
  EXPECT_FALSE(io::drawing_coordinates(matrix));
  matrix.set_display_coordinates({0, 1, 2}, {2, 1, 0});
  const auto d = io::drawing_coordinates(matrix);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->y, (std::vector<double>{2, 1, 0}));
}

TEST(Svg, PictureTitle) {
  EXPECT_EQ(io::picture_title("eil51", "481", 12.9107981), "eil51: length 481, gap 12.91%");
  EXPECT_EQ(io::picture_title("points3", "1.5", std::nullopt), "points3: length 1.5");
}

TEST(Svg, TourIsWellFormedWithEveryCityAndYUp) {
  // A square drawn as 0 -> 1 -> 2 -> 3: city 2 (top right) must come out above city 1.
  const io::DrawingCoordinates square{{0, 10, 10, 0}, {0, 0, 10, 10}};
  const std::string svg = io::tour_svg(square, std::vector<int32_t>{0, 1, 2, 3}, "square: length 40");
  EXPECT_TRUE(well_formed(svg)) << svg;
  EXPECT_EQ(count(svg, "<polygon"), 1u);
  EXPECT_EQ(count(svg, "<circle"), 4u);
  EXPECT_NE(svg.find(">square: length 40</text>"), std::string::npos);
  const size_t points = svg.find("points=\"") + 8;
  const std::string list = svg.substr(points, svg.find('"', points) - points);
  std::vector<double> xy;
  for (size_t at = 0; at < list.size();) {
    size_t used = 0;
    xy.push_back(std::stod(list.substr(at), &used));
    at += used + 1;
  }
  ASSERT_EQ(xy.size(), 8u);
  EXPECT_LT(xy[0], xy[2]);  // city 1 is right of city 0
  EXPECT_EQ(xy[1], xy[3]);  // at the same height
  EXPECT_GT(xy[3], xy[5]);  // city 2 is above city 1: a smaller SVG y
}

TEST(Svg, ManyCitiesAreDrawnAsTheTourAlone) {
  io::DrawingCoordinates points;
  for (int i = 0; i < 10001; ++i) {
    points.x.push_back(std::cos(i * 0.001) * i);
    points.y.push_back(std::sin(i * 0.001) * i);
  }
  const std::string svg = io::tour_svg(points, identity(10001), "spiral");
  EXPECT_TRUE(well_formed(svg));
  EXPECT_EQ(count(svg, "<circle"), 0u);
  EXPECT_EQ(count(svg, ","), 10001u);  // one "x,y" pair per city
}

TEST(Svg, CoincidentCitiesDoNotDivideByZero) {
  const io::DrawingCoordinates same{{5, 5, 5}, {7, 7, 7}};
  const std::string svg = io::tour_svg(same, identity(3), "same");
  EXPECT_TRUE(well_formed(svg));
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(Svg, TitlesAreEscapedAndStayValidText) {
  const io::DrawingCoordinates p{{0, 1, 0}, {0, 0, 1}};
  const std::string svg = io::tour_svg(p, identity(3), "a&b<c>\"d'\x01\xe9");
  EXPECT_TRUE(well_formed(svg));
  // Markup escaped; the control character and the stray Latin-1 byte (not UTF-8) become '?'.
  EXPECT_NE(svg.find(">a&amp;b&lt;c&gt;&quot;d&apos;?" "?</text>"), std::string::npos) << svg;
  const std::string utf8 = io::tour_svg(p, identity(3), "M\xc3\xbcnchen");
  EXPECT_NE(utf8.find(">M\xc3\xbcnchen</text>"), std::string::npos);
}

TEST(Svg, TourErrors) {
  const io::DrawingCoordinates p{{0, 1, 0}, {0, 0, 1}};
  try {
    io::tour_svg(p, std::vector<int32_t>{0, 1, 1}, "t");
    FAIL() << "a repeated city was drawn";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "tour visits city 2 twice");
  }
  EXPECT_THROW(io::tour_svg({{0, 1, 0}, {0, 1}}, identity(3), "t"), InputError);
}

TEST(Svg, ConvergenceIsAStepFunctionOnALogTimeAxis) {
  const std::vector<double> seconds = {0.012, 0.05, 0.2}, lengths = {1000, 900, 850};
  const std::string svg = io::convergence_svg(seconds, lengths, 0.5, "t: length 850", "best tour length");
  EXPECT_TRUE(well_formed(svg)) << svg;
  EXPECT_EQ(count(svg, "<path"), 1u);
  const size_t d = svg.find(" d=\"M");
  ASSERT_NE(d, std::string::npos);
  const std::string path = svg.substr(d, svg.find('"', d + 4) - d);
  EXPECT_EQ(count(path, "H"), 3u);  // to each later improvement, then on to the end
  EXPECT_EQ(count(path, "V"), 2u);
  // Two decades (0.01 s to 1 s), so the 2 and 5 ticks are labelled too.
  for (const char* label : {">0.01 s<", ">0.02 s<", ">0.05 s<", ">0.1 s<", ">0.5 s<", ">1 s<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_NE(svg.find(">time (seconds, log scale)<"), std::string::npos);
  EXPECT_NE(svg.find(">best tour length<"), std::string::npos);
  EXPECT_NE(svg.find(">900<"), std::string::npos);  // a 1-2-5 value tick
}

TEST(Svg, ConvergenceOverManyDecadesLabelsDecadesOnly) {
  const std::vector<double> seconds = {0, 0.0003, 2.0}, gaps = {12.5, 3.25, 0.0};
  const std::string svg = io::convergence_svg(seconds, gaps, 40, "t", "gap above the optimum (%)");
  EXPECT_TRUE(well_formed(svg));
  for (const char* label : {">0.0001 s<", ">0.001 s<", ">1 s<", ">100 s<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(svg.find(">0.002 s<"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  // A single point with a flat line still gets a value range.
  EXPECT_TRUE(well_formed(io::convergence_svg(std::vector<double>{0.5}, std::vector<double>{7}, 0.5, "t", "v")));
}

TEST(Svg, ConvergenceErrors) {
  const std::vector<double> none;
  EXPECT_THROW(io::convergence_svg(none, none, 1, "t", "v"), InputError);
  EXPECT_THROW(io::convergence_svg(std::vector<double>{1, 2}, std::vector<double>{1}, 3, "t", "v"), InputError);
  EXPECT_THROW(io::convergence_svg(std::vector<double>{2, 1}, std::vector<double>{3, 2}, 3, "t", "v"), InputError);
  EXPECT_THROW(io::convergence_svg(std::vector<double>{1}, std::vector<double>{NAN}, 3, "t", "v"), InputError);
  EXPECT_THROW(io::convergence_svg(std::vector<double>{1}, std::vector<double>{1}, INFINITY, "t", "v"), InputError);
}

}  // namespace
}  // namespace formica
