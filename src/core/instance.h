// SPDX-License-Identifier: MIT
// Instance: the cities of a symmetric TSP and their exact TSPLIB integer distances.
//
// Coordinate instances keep their coordinates (distances are computed on demand, O(n) memory);
// EXPLICIT instances keep the full n x n weight matrix. Everything downstream asks `distance(i, j)`.
//
// An instance may end in a path city (with_path_city): the dummy city of an open path or of fixed
// ends (core/path_transform.h), at distance 0 from the cities a path may end at and a penalty from
// the rest, answered without a matrix. It has no coordinates: x(), y(), z() and matrix() hold the
// other cities only, so code that reads them asks has_path_city() and treats that city apart.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/distance.h"

namespace formica {

/// The largest coordinate magnitude formica accepts. Cities within +-5e8 on every axis are at most
/// 2e9 apart in every TSPLIB metric, which fits the 32-bit distances of the GPU code (as EXPLICIT
/// weights do), and a tour of 10^8 such edges sums to well under 2^63. TSPLIB's largest is 1.452e6.
inline constexpr double kMaxCoordinate = 5e8;
/// The most cities an instance may have (and a TSPLIB file may declare).
inline constexpr int kMaxCities = 100'000'000;
/// The largest magnitude of float coordinates (Python's metric="float", the fractional coordinates
/// of a batch), which are scaled by a power of two into kMaxCoordinate before an instance is built:
/// any scale works, up to where a squared distance, and a tour of kMaxCities edges, would no longer
/// be finite in double.
inline constexpr double kMaxFloatCoordinate = 1e150;

/// Throws InputError ("city i has x coordinate v, beyond +-5e+08 ...") unless every value of one
/// axis ("x", "y" or "z") is finite and within `limit`: kMaxCoordinate is the check of every
/// coordinate instance, kMaxFloatCoordinate that of float coordinates on the user's values, before
/// they are scaled.
void expect_coordinates_in_range(std::span<const double> values, const char* axis, double limit = kMaxCoordinate);

/// An edge every tour must contain: two 0-based cities (core/fixed_edges.h).
using FixedEdge = std::array<int32_t, 2>;

class Instance {
 public:
  /// A coordinate instance. `z` is used by EUC_3D only. Throws InputError for n < 3, coordinate
  /// arrays of different lengths, or NaN / infinite coordinates or any beyond kMaxCoordinate.
  Instance(std::string name, EdgeWeightType type, std::vector<double> x, std::vector<double> y,
           std::vector<double> z = {});

  /// An EXPLICIT instance from a full, symmetric, row-major n x n matrix of non-negative weights.
  static Instance from_matrix(std::string name, int n, std::vector<int32_t> weights);

  /// `base` with one more city, its path city n: at distance 0 from `ends` (every city when
  /// `ends` is empty) and `penalty` from the others. Throws InputError when `base` has a path city
  /// already, for more than two ends, an end that is not a city of `base`, or a negative penalty.
  static Instance with_path_city(const Instance& base, std::span<const int32_t> ends, int32_t penalty);

  const std::string& name() const { return name_; }
  const std::string& comment() const { return comment_; }
  void set_comment(std::string comment) { comment_ = std::move(comment); }

  /// The edges every tour must contain (TSPLIB's FIXED_EDGES_SECTION), none for most instances;
  /// solver/route_solver.h keeps them (core/fixed_edges.h).
  std::span<const FixedEdge> fixed_edges() const { return fixed_edges_; }
  /// Throws InputError unless `edges` are paths or one whole tour (validate_fixed_edges).
  void set_fixed_edges(std::vector<FixedEdge> edges);

  int n() const { return n_; }
  EdgeWeightType type() const { return type_; }
  bool has_coordinates() const { return formica::has_coordinates(type_); }

  /// Whether the last city, n() - 1, is a path city (with_path_city).
  bool has_path_city() const { return base_n_ != n_; }
  /// The cities other than the path city: n(), or n() - 1 with one. Coordinates and the matrix
  /// cover these.
  int base_n() const { return base_n_; }
  /// The path city's distance to the cities a path may not end at.
  int32_t path_penalty() const { return path_penalty_; }
  /// Whether the path city is at distance 0 from `city` (a city other than the path city).
  bool path_may_end_at(int city) const {
    return path_ends_[0] < 0 || city == path_ends_[0] || city == path_ends_[1];
  }
  /// The cities a path must end at (one or two), or none when it may end anywhere.
  std::span<const int32_t> path_ends() const {
    return {path_ends_.data(), static_cast<size_t>(path_ends_[0] < 0 ? 0 : path_ends_[1] < 0 ? 1 : 2)};
  }

  /// Exact TSPLIB distance between cities i and j (0-based). distance(i, i) is 0.
  int64_t distance(int i, int j) const {
    if (i == j) return 0;
    return distance_by(metric_, i, j);
  }

  /// Coordinates as given in the file (empty for EXPLICIT unless display data was attached), one
  /// per city other than the path city.
  std::span<const double> x() const { return x_; }
  std::span<const double> y() const { return y_; }
  std::span<const double> z() const { return z_; }

  /// Coordinates for drawing only (TSPLIB DISPLAY_DATA_SECTION); never used for distances.
  bool has_display_coordinates() const { return !display_x_.empty() || has_coordinates(); }
  std::span<const double> display_x() const { return display_x_.empty() ? x() : display_x_; }
  std::span<const double> display_y() const { return display_y_.empty() ? y() : display_y_; }
  void set_display_coordinates(std::vector<double> x, std::vector<double> y);

  /// The full weight matrix of an EXPLICIT instance (row-major, base_n x base_n); empty otherwise.
  std::span<const int32_t> matrix() const { return matrix_; }

 private:
  Instance() = default;

  /// What distance() dispatches on: type_, or for an instance with a path city kPathCityMetric,
  /// so that only its distances pay the test for that city (out of line: distance() stays as
  /// small as it was, and inlined where the searches call it).
  static constexpr auto kPathCityMetric = static_cast<EdgeWeightType>(-1);
  int64_t distance_by(EdgeWeightType metric, int i, int j) const {
    switch (metric) {
      case EdgeWeightType::Euc2D: return tsplib::euc_2d(x_[i] - x_[j], y_[i] - y_[j]);
      case EdgeWeightType::Ceil2D: return tsplib::ceil_2d(x_[i] - x_[j], y_[i] - y_[j]);
      case EdgeWeightType::Att: return tsplib::att(x_[i] - x_[j], y_[i] - y_[j]);
      case EdgeWeightType::Geo: return tsplib::geo(lat_[i], lon_[i], lat_[j], lon_[j]);
      case EdgeWeightType::Man2D: return tsplib::man_2d(x_[i] - x_[j], y_[i] - y_[j]);
      case EdgeWeightType::Max2D: return tsplib::max_2d(x_[i] - x_[j], y_[i] - y_[j]);
      case EdgeWeightType::Euc3D: return tsplib::euc_3d(x_[i] - x_[j], y_[i] - y_[j], z_[i] - z_[j]);
      case EdgeWeightType::Explicit:
        return matrix_[static_cast<size_t>(i) * static_cast<size_t>(base_n_) + static_cast<size_t>(j)];
      default: return path_city_distance(i, j);
    }
  }
  /// distance(i, j), i != j, of an instance with a path city.
  int64_t path_city_distance(int i, int j) const;

  std::string name_;
  std::string comment_;
  int n_ = 0;
  int base_n_ = 0;                             // n_, or n_ - 1 with a path city
  int32_t path_penalty_ = 0;
  std::array<int32_t, 2> path_ends_{-1, -1};  // -1: none fixed (every city may end a path)
  EdgeWeightType type_ = EdgeWeightType::Euc2D;
  EdgeWeightType metric_ = EdgeWeightType::Euc2D;  // type_, or kPathCityMetric (distance_by)
  std::vector<double> x_, y_, z_;
  std::vector<double> lat_, lon_;  // GEO only: coordinates converted to radians once
  std::vector<int32_t> matrix_;    // EXPLICIT only
  std::vector<double> display_x_, display_y_;
  std::vector<FixedEdge> fixed_edges_;
};

}  // namespace formica
