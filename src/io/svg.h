// SPDX-License-Identifier: MIT
// Pictures of a run as SVG documents: the tour drawn over the cities, and the convergence of the
// best length (or gap) against time on a logarithmic time axis. `formica solve --svg` and
// `--plot-history` write them, and the Python package writes the same documents for .svg paths.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/instance.h"

namespace formica::io {

/// Where to draw each city: x to the right, y up.
struct DrawingCoordinates {
  std::vector<double> x, y;
};

/// The coordinates an instance is drawn with: its own for the planar types, the (x, y) projection
/// for EUC_3D, (longitude, latitude) for GEO, and the DISPLAY_DATA_SECTION of an EXPLICIT
/// instance; nullopt when there is nothing to draw (EXPLICIT without display data).
std::optional<DrawingCoordinates> drawing_coordinates(const Instance& instance);

/// The title of both pictures: "name: length L, gap G%", or "name: length L" without a gap.
std::string picture_title(std::string_view name, std::string_view length, std::optional<double> gap_percent);

/// An SVG document of the closed tour `order` over `points` (the open path when not `closed`),
/// with `title` above it. Throws InputError unless `order` is a permutation of the points.
std::string tour_svg(const DrawingCoordinates& points, std::span<const int32_t> order, std::string_view title,
                     bool closed = true);

/// An SVG document of a best-so-far history: `values[i]` holds from `seconds[i]` until the next
/// point, the last one until `end_seconds`; time on a logarithmic axis. `value_label` names the
/// vertical axis ("best tour length", "gap above the optimum (%)"). Throws InputError for an
/// empty history, sizes that differ, times that are negative, decrease or are not finite.
std::string convergence_svg(std::span<const double> seconds, std::span<const double> values, double end_seconds,
                            std::string_view title, std::string_view value_label);

/// One line of a convergence plot: a step function as convergence_svg draws it.
struct PlotSeries {
  std::string name;
  std::vector<double> seconds, values;
  double end_seconds = 0.0;
};

/// A marked point (a reference result), drawn as a cross in the colour of the series it belongs to.
struct PlotMark {
  size_t series = 0;
  double seconds = 0.0, value = 0.0;
};

/// Several histories in one picture, time on a logarithmic axis, a legend with the series' names;
/// with `log_values` the value axis is logarithmic too (values below `floor` drawn at `floor`, for
/// gaps that reach 0). Throws InputError as convergence_svg for any series, or for no series.
std::string convergence_plot_svg(std::span<const PlotSeries> series, std::span<const PlotMark> marks,
                                 std::string_view title, std::string_view value_label, bool log_values,
                                 double floor = 0.01);

}  // namespace formica::io
