// SPDX-License-Identifier: MIT
// SVG pictures of a tour and of a convergence history (see svg.h). Plain text output: no
// drawing library, so the CLI can write them on any machine.
#include "io/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.h"
#include "core/tour.h"

namespace formica::io {
namespace {

constexpr char kTourColour[] = "#1f77b4";
constexpr char kCityColour[] = "#d62728";

/// True if `text` is well-formed UTF-8 (XML requires it).
bool valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
    i += length;
  }
  return true;
}

/// `text` as XML character data: markup characters escaped, control characters (which XML 1.0
/// forbids) and, in text that is not UTF-8, every non-ASCII byte replaced by '?'.
std::string xml_text(std::string_view text) {
  const bool utf8 = valid_utf8(text);
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += (c < 0x20 || c == 0x7F || (c >= 0x80 && !utf8)) ? '?' : ch;
    }
  }
  return out;
}

/// A coordinate in the picture, to a tenth of a pixel.
std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string header(double width, double height) {
  return concat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"",
                px(width), "\" height=\"", px(height), "\" viewBox=\"0 0 ", px(width), " ", px(height),
                "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
}

std::string text_element(double x, double y, std::string_view anchor, int size, std::string_view text,
                         std::string_view extra = {}) {
  return concat("<text x=\"", px(x), "\" y=\"", px(y), "\" text-anchor=\"", anchor, "\" font-size=\"", size, "\"",
                extra.empty() ? "" : " ", extra, ">", xml_text(text), "</text>\n");
}

std::string line_element(double x1, double y1, double x2, double y2) {
  return concat("<line x1=\"", px(x1), "\" y1=\"", px(y1), "\" x2=\"", px(x2), "\" y2=\"", px(y2), "\"/>\n");
}

/// A tick label: whole numbers without decimals, otherwise as many decimals as the step needs.
std::string tick_label(double value, double step) {
  const int decimals = step >= 1 ? 0 : std::min(12, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value == 0 ? 0.0 : value);
  return buffer;
}

/// The 1-2-5 step that cuts `range` into about `parts` intervals.
double nice_step(double range, int parts) {
  const double raw = range / parts;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * decade >= raw) return m * decade;
  return 10.0 * decade;
}

}  // namespace

std::optional<DrawingCoordinates> drawing_coordinates(const Instance& instance) {
  if (!instance.has_display_coordinates()) return std::nullopt;
  const auto x = instance.display_x(), y = instance.display_y();
  if (instance.type() == EdgeWeightType::Geo) {
    // GEO coordinates are (latitude, longitude) in DDD.MM: draw longitude across, latitude up.
    DrawingCoordinates geo;
    for (size_t i = 0; i < x.size(); ++i) {
      geo.x.push_back(tsplib::geo_radians(y[i]));
      geo.y.push_back(tsplib::geo_radians(x[i]));
    }
    return geo;
  }
  return DrawingCoordinates{{x.begin(), x.end()}, {y.begin(), y.end()}};
}

std::string picture_title(std::string_view name, std::string_view length, std::optional<double> gap_percent) {
  std::string title = concat(name, ": length ", length);
  if (gap_percent) {
    char gap[48];
    std::snprintf(gap, sizeof gap, ", gap %.2f%%", *gap_percent);
    title += gap;
  }
  return title;
}

std::string tour_svg(const DrawingCoordinates& points, std::span<const int32_t> order, std::string_view title,
                     bool closed) {
  FORMICA_EXPECTS(points.x.size() == points.y.size(), "tour picture: ", points.x.size(), " x but ",
                  points.y.size(), " y coordinates");
  const int n = static_cast<int>(points.x.size());
  validate_permutation(order, n);
  constexpr double kSide = 800, kMargin = 20, kTitleBand = 36, kMinWidth = 480;
  const auto [min_x, max_x] = std::minmax_element(points.x.begin(), points.x.end());
  const auto [min_y, max_y] = std::minmax_element(points.y.begin(), points.y.end());
  const double extent = std::max(*max_x - *min_x, *max_y - *min_y);
  const double scale = extent > 0 ? (kSide - 2 * kMargin) / extent : 1.0;
  const double content_width = (*max_x - *min_x) * scale + 2 * kMargin;
  const double width = std::max(kMinWidth, content_width);
  const double height = (*max_y - *min_y) * scale + 2 * kMargin + kTitleBand;
  const double left = (width - content_width) / 2 + kMargin;
  // The lambdas capture plain values: clang before 16 cannot capture structured bindings.
  const double x0 = *min_x, y1 = *max_y;
  const auto map_x = [&](int c) { return left + (points.x[c] - x0) * scale; };
  const auto map_y = [&](int c) { return kTitleBand + kMargin + (y1 - points.y[c]) * scale; };

  std::string svg = header(width, height);
  svg += text_element(width / 2, 24, "middle", 16, title);
  svg += concat(closed ? "<polygon" : "<polyline", " fill=\"none\" stroke=\"", kTourColour, "\" stroke-width=\"1.2\" stroke-linejoin=\"round\" points=\"");
  for (size_t p = 0; p < order.size(); ++p) {
    if (p > 0) svg += ' ';
    svg += px(map_x(order[p]));
    svg += ',';
    svg += px(map_y(order[p]));
  }
  svg += "\"/>\n";
  // Dots for the cities while they stay distinguishable; past that the tour alone shows them.
  const double radius = n <= 100 ? 3.0 : n <= 1000 ? 2.0 : n <= 10000 ? 1.0 : 0.0;
  if (radius > 0) {
    svg += concat("<g fill=\"", kCityColour, "\">\n");
    for (int c = 0; c < n; ++c)
      svg += concat("<circle cx=\"", px(map_x(c)), "\" cy=\"", px(map_y(c)), "\" r=\"", px(radius), "\"/>\n");
    svg += "</g>\n";
  }
  return svg + "</svg>\n";
}

std::string convergence_svg(std::span<const double> seconds, std::span<const double> values, double end_seconds,
                            std::string_view title, std::string_view value_label) {
  const PlotSeries one{"", {seconds.begin(), seconds.end()}, {values.begin(), values.end()}, end_seconds};
  return convergence_plot_svg(std::span<const PlotSeries>(&one, 1), {}, title, value_label, false);
}

std::string convergence_plot_svg(std::span<const PlotSeries> series, std::span<const PlotMark> marks,
                                 std::string_view title, std::string_view value_label, bool log_values,
                                 double floor) {
  FORMICA_EXPECTS(!series.empty(), "convergence plot: no series");
  FORMICA_EXPECTS(!log_values || floor > 0, "convergence plot: a logarithmic value axis needs a positive floor");
  double end = 0.0, first_positive = std::numeric_limits<double>::infinity();
  double low = std::numeric_limits<double>::infinity(), high = -low;
  const auto shown = [&](double v) { return log_values ? std::log10(std::max(v, floor)) : v; };
  for (const PlotSeries& s : series) {
    FORMICA_EXPECTS(!s.seconds.empty(), "convergence plot: the history is empty");
    FORMICA_EXPECTS(s.seconds.size() == s.values.size(), "convergence plot: ", s.seconds.size(), " times but ",
                    s.values.size(), " values");
    for (size_t i = 0; i < s.seconds.size(); ++i) {
      FORMICA_EXPECTS(std::isfinite(s.seconds[i]) && s.seconds[i] >= 0 && (i == 0 || s.seconds[i] >= s.seconds[i - 1]),
                      "convergence plot: time ", s.seconds[i], " at point ", i + 1,
                      " is not a finite, non-decreasing number of seconds");
      FORMICA_EXPECTS(std::isfinite(s.values[i]), "convergence plot: value at point ", i + 1, " is not finite");
      if (s.seconds[i] > 0) first_positive = std::min(first_positive, s.seconds[i]);
      low = std::min(low, shown(s.values[i]));
      high = std::max(high, shown(s.values[i]));
    }
    FORMICA_EXPECTS(std::isfinite(s.end_seconds), "convergence plot: the end time is not finite");
    end = std::max({end, s.end_seconds, s.seconds.back()});
  }
  for (const PlotMark& m : marks) {
    FORMICA_EXPECTS(m.series < series.size() && m.seconds > 0 && std::isfinite(m.value),
                    "convergence plot: a mark needs a series, a positive time and a finite value");
    first_positive = std::min(first_positive, m.seconds);
    end = std::max(end, m.seconds);
    low = std::min(low, shown(m.value));
    high = std::max(high, shown(m.value));
  }
  if (!std::isfinite(first_positive)) first_positive = end > 0 ? end : 1e-3;

  constexpr double kLegendWidth = 170;
  const bool legend = series.size() > 1 || !series[0].name.empty();
  const double width = 800 + (legend ? kLegendWidth : 0), kHeight = 480, kLeft = 96, kTop = 48, kBottom = 60;
  const double right = 24 + (legend ? kLegendWidth : 0);
  const double plot_width = width - kLeft - right, plot_height = kHeight - kTop - kBottom;

  // Time axis: whole decades around the runs; a time of zero sits on the axis's left end.
  const int low_decade = static_cast<int>(std::floor(std::log10(first_positive)));
  const int high_decade = std::max(low_decade + 1, static_cast<int>(std::ceil(std::log10(std::max(end, first_positive)))));
  const double log_low = low_decade, log_high = high_decade;
  const auto map_t = [&](double t) {
    const double l = t > 0 ? std::max(std::log10(t), log_low) : log_low;
    return kLeft + (l - log_low) / (log_high - log_low) * plot_width;
  };

  // Value axis: 1-2-5 ticks (linear) or decades (logarithmic), padded so no line sits on the frame.
  if (log_values) {
    low = std::floor(low);
    high = std::max(low + 1, std::ceil(high));
  } else {
    const double pad = high > low ? 0.05 * (high - low) : std::max(0.05 * std::fabs(high), 1.0);
    low -= pad;
    high += pad;
  }
  const double step = log_values ? 1.0 : nice_step(high - low, 5);
  const auto map_v = [&](double v) { return kTop + (high - shown(v)) / (high - low) * plot_height; };

  std::string svg = header(width, kHeight);
  svg += text_element(width / 2, 28, "middle", 16, title);
  svg += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  std::string labels;
  const bool minor_labels = high_decade - low_decade <= 2;
  for (int d = low_decade; d <= high_decade; ++d)
    for (const double m : {1.0, 2.0, 5.0}) {
      const double t = m * std::pow(10.0, d);
      if (d == high_decade && m > 1) break;
      if (m > 1 && !minor_labels) continue;
      const double x = map_t(t);
      svg += line_element(x, kTop, x, kTop + plot_height);
      labels += text_element(x, kTop + plot_height + 18, "middle", 12, concat(tick_label(t, std::pow(10.0, d)), " s"));
    }
  for (double k = std::ceil(low / step); k * step <= high + 1e-9; ++k) {
    const double v = log_values ? std::pow(10.0, k) : k * step;
    const double y = map_v(v);
    svg += line_element(kLeft, y, kLeft + plot_width, y);
    labels += text_element(kLeft - 6, y + 4, "end", 12, log_values ? tick_label(v, v) : tick_label(v, step));
  }
  svg += "</g>\n";
  svg += labels;
  svg += concat("<rect x=\"", px(kLeft), "\" y=\"", px(kTop), "\" width=\"", px(plot_width), "\" height=\"",
                px(plot_height), "\" fill=\"none\" stroke=\"black\"/>\n");
  svg += text_element(kLeft + plot_width / 2, kHeight - 14, "middle", 13, "time (seconds, log scale)");
  svg += text_element(18, kTop + plot_height / 2, "middle", 13, value_label,
                      concat("transform=\"rotate(-90 18 ", px(kTop + plot_height / 2), ")\""));

  // Each best-so-far history is a step function: a value holds until the next improvement.
  static constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                             "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};
  const auto colour = [&](size_t i) { return series.size() == 1 ? kTourColour : kPalette[i % std::size(kPalette)]; };
  for (size_t i = 0; i < series.size(); ++i) {
    const PlotSeries& s = series[i];
    svg += concat("<path fill=\"none\" stroke=\"", colour(i), "\" stroke-width=\"2\" d=\"M", px(map_t(s.seconds[0])),
                  " ", px(map_v(s.values[0])));
    for (size_t k = 1; k < s.seconds.size(); ++k)
      svg += concat(" H", px(map_t(s.seconds[k])), " V", px(map_v(s.values[k])));
    svg += concat(" H", px(map_t(std::max(s.end_seconds, s.seconds.back()))), "\"/>\n");
    if (legend) {
      const double y = kTop + 14 + 20 * static_cast<double>(i), x = kLeft + plot_width + 16;
      svg += concat("<line x1=\"", px(x), "\" y1=\"", px(y - 4), "\" x2=\"", px(x + 22), "\" y2=\"", px(y - 4),
                    "\" stroke=\"", colour(i), "\" stroke-width=\"3\"/>\n");
      svg += text_element(x + 28, y, "start", 12, s.name);
    }
  }
  for (const PlotMark& m : marks) {
    const double x = map_t(m.seconds), y = map_v(m.value);
    svg += concat("<path fill=\"none\" stroke=\"", colour(m.series), "\" stroke-width=\"2\" d=\"M", px(x - 5), " ",
                  px(y - 5), " L", px(x + 5), " ", px(y + 5), " M", px(x - 5), " ", px(y + 5), " L", px(x + 5), " ",
                  px(y - 5), "\"/>\n");
  }
  return svg + "</svg>\n";
}

}  // namespace formica::io
