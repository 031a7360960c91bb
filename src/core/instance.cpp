// SPDX-License-Identifier: MIT
// Instance construction and validation.
#include "core/instance.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/fixed_edges.h"

namespace formica {
namespace {

void expect_finite(std::span<const double> values, const char* axis) {
  for (size_t i = 0; i < values.size(); ++i)
    FORMICA_EXPECTS(std::isfinite(values[i]), "city ", i + 1, " has a non-finite ", axis,
                    " coordinate");
}

}  // namespace

/// Finite and within kMaxCoordinate, so that no distance overflows.
void expect_coordinates_in_range(std::span<const double> values, const char* axis, double limit) {
  expect_finite(values, axis);
  for (size_t i = 0; i < values.size(); ++i)
    FORMICA_EXPECTS(std::fabs(values[i]) <= limit, "city ", i + 1, " has ", axis, " coordinate ", values[i],
                    ", beyond +-", limit,
                    limit == kMaxCoordinate ? " (distances must fit in 32 bits)"
                                            : " (float coordinates: their squared distances must stay finite)");
}

Instance::Instance(std::string name, EdgeWeightType type, std::vector<double> x,
                   std::vector<double> y, std::vector<double> z)
    : name_(std::move(name)), type_(type), metric_(type), x_(std::move(x)), y_(std::move(y)), z_(std::move(z)) {
  FORMICA_EXPECTS(type != EdgeWeightType::Explicit,
                  "EXPLICIT instances are built from a weight matrix, not coordinates");
  FORMICA_EXPECTS(x_.size() == y_.size(), "x and y coordinate counts differ (", x_.size(), " vs ",
                  y_.size(), ")");
  if (type == EdgeWeightType::Euc3D)
    FORMICA_EXPECTS(z_.size() == x_.size(), "EUC_3D needs a z coordinate for every city");
  else
    z_.clear();
  FORMICA_EXPECTS(x_.size() >= 3, "an instance needs at least 3 cities, got ", x_.size());
  FORMICA_EXPECTS(x_.size() <= static_cast<size_t>(kMaxCities), "too many cities: ", x_.size());
  expect_coordinates_in_range(x_, "x");
  expect_coordinates_in_range(y_, "y");
  expect_coordinates_in_range(z_, "z");
  n_ = base_n_ = static_cast<int>(x_.size());
  if (type == EdgeWeightType::Geo) {
    lat_.resize(x_.size());
    lon_.resize(x_.size());
    for (size_t i = 0; i < x_.size(); ++i) {
      lat_[i] = tsplib::geo_radians(x_[i]);
      lon_[i] = tsplib::geo_radians(y_[i]);
    }
  }
}

Instance Instance::from_matrix(std::string name, int n, std::vector<int32_t> weights) {
  FORMICA_EXPECTS(n >= 3, "an instance needs at least 3 cities, got ", n);
  FORMICA_EXPECTS(weights.size() == static_cast<size_t>(n) * static_cast<size_t>(n),
                  "a ", n, "-city matrix needs ", static_cast<size_t>(n) * n, " weights, got ",
                  weights.size());
  const auto at = [&](int i, int j) { return weights[static_cast<size_t>(i) * n + j]; };
  // Checked in tiles on every core (a row against a column one city at a time misses the cache on
  // every read: seconds for 20,000 cities); where a weight is wrong, the first one in row order is
  // named, as one row-by-row pass finds it.
  constexpr int kTile = 64;
  bool wrong = false;
#pragma omp parallel for schedule(dynamic, 1) reduction(|| : wrong)
  for (int first_row = 0; first_row < n; first_row += kTile)
    for (int first_column = first_row; first_column < n; first_column += kTile)
      for (int i = first_row; i < std::min(n, first_row + kTile); ++i)
        for (int j = std::max(first_column, i); j < std::min(n, first_column + kTile); ++j)
          wrong = wrong || at(i, j) < 0 || at(j, i) < 0 || at(i, j) != at(j, i);
  for (int i = 0; wrong && i < n; ++i)
    for (int j = 0; j < n; ++j) {
      FORMICA_EXPECTS(at(i, j) >= 0, "negative weight ", at(i, j), " between cities ", i + 1,
                      " and ", j + 1);
      FORMICA_EXPECTS(at(i, j) == at(j, i), "weights are not symmetric: d(", i + 1, ",", j + 1,
                      ") = ", at(i, j), " but d(", j + 1, ",", i + 1, ") = ", at(j, i));
    }
  Instance instance;
  instance.name_ = std::move(name);
  instance.n_ = instance.base_n_ = n;
  instance.type_ = instance.metric_ = EdgeWeightType::Explicit;
  instance.matrix_ = std::move(weights);
  for (int i = 0; i < n; ++i) instance.matrix_[static_cast<size_t>(i) * n + i] = 0;
  return instance;
}

Instance Instance::with_path_city(const Instance& base, std::span<const int32_t> ends, int32_t penalty) {
  FORMICA_EXPECTS(!base.has_path_city(), base.name(), " has a path city already");
  FORMICA_EXPECTS(ends.size() <= 2, "a path has at most two ends, got ", ends.size());
  FORMICA_EXPECTS(base.n() < kMaxCities, "too many cities for a path city: ", base.n());
  FORMICA_EXPECTS(penalty >= 0, "the path city's penalty must be non-negative, got ", penalty);
  Instance instance = base;
  instance.n_ = base.n_ + 1;
  instance.metric_ = kPathCityMetric;
  instance.path_penalty_ = penalty;
  for (size_t e = 0; e < ends.size(); ++e) {
    FORMICA_EXPECTS(ends[e] >= 0 && ends[e] < base.n_, "path end ", ends[e], " is not a city of ", base.name());
    instance.path_ends_[e] = ends[e];
  }
  return instance;
}

int64_t Instance::path_city_distance(int i, int j) const {
  // Only the path city lies beyond base_n_.
  if (std::max(i, j) >= base_n_) return path_may_end_at(std::min(i, j)) ? 0 : path_penalty_;
  return distance_by(type_, i, j);
}

void Instance::set_display_coordinates(std::vector<double> x, std::vector<double> y) {
  FORMICA_EXPECTS(x.size() == static_cast<size_t>(base_n_) && y.size() == static_cast<size_t>(base_n_),
                  "display data needs ", base_n_, " points, got ", x.size());
  expect_finite(x, "display x");
  expect_finite(y, "display y");
  display_x_ = std::move(x);
  display_y_ = std::move(y);
}

void Instance::set_fixed_edges(std::vector<FixedEdge> edges) {
  validate_fixed_edges(edges, n());
  fixed_edges_ = std::move(edges);
}

}  // namespace formica
