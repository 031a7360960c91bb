// SPDX-License-Identifier: MIT
// Instances from in-memory arrays (see array_instance.h): the checks the Python entry points
// apply before the core's own (finite coordinates, at least 3 cities, non-negative weights...).
#include "io/array_instance.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <vector>

#include "core/error.h"
#include "io/geo_coordinates.h"

namespace formica::io {
namespace {

void expect_square(size_t rows, size_t cols) {
  FORMICA_EXPECTS(cols == rows, "a distance matrix must be square, got ", rows, " x ", cols);
}

std::vector<int32_t> copy(std::span<const int32_t> values) { return {values.begin(), values.end()}; }
std::vector<double> copy(std::span<const double> values) { return {values.begin(), values.end()}; }

}  // namespace

Instance instance_from_coordinates(const std::string& name, ArrayView<double> coordinates,
                                   std::string_view metric) {
  std::string upper(metric);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  const auto type = parse_edge_weight_type(upper);
  FORMICA_EXPECTS(type && has_coordinates(*type), "unknown coordinate metric '", metric, "'");
  const size_t n = coordinates.rows, dimensions = coordinates.cols;
  const size_t want = *type == EdgeWeightType::Euc3D ? 3 : 2;
  FORMICA_EXPECTS(dimensions == want, to_string(*type), " needs ", want, " coordinates per city, got ",
                  dimensions);
  std::vector<double> axes[3];
  for (size_t a = 0; a < dimensions; ++a) {
    axes[a].resize(n);
    for (size_t i = 0; i < n; ++i) {
      axes[a][i] = coordinates(i, a);
      // Non-finite values are the Instance's to refuse, with its own words.
      if (*type == EdgeWeightType::Geo && std::isfinite(axes[a][i]))
        if (const std::string off = geo_coordinate_problem(axes[a][i], a == 0); !off.empty())
          throw InputError(concat("city ", i + 1, ": ", off));
    }
  }
  return Instance(name, *type, std::move(axes[0]), std::move(axes[1]), std::move(axes[2]));
}

void expect_float_coordinates_in_range(ArrayView<double> coordinates) {
  static const char* const kAxes[] = {"x", "y", "z"};
  FORMICA_EXPECTS(coordinates.cols <= 3, "coordinates have 2 or 3 axes, got ", coordinates.cols);
  std::vector<double> axis(coordinates.rows);
  for (size_t a = 0; a < coordinates.cols; ++a) {
    for (size_t i = 0; i < coordinates.rows; ++i) axis[i] = coordinates(i, a);
    formica::expect_coordinates_in_range(axis, kAxes[a], kMaxFloatCoordinate);
  }
}

Instance instance_from_matrix(const std::string& name, ArrayView<int32_t> matrix) {
  expect_square(matrix.rows, matrix.cols);
  return Instance::from_matrix(name, static_cast<int>(matrix.rows), copy(matrix.values));
}

AsymmetricMatrix asymmetric_from_matrix(const std::string& name, ArrayView<int32_t> matrix) {
  expect_square(matrix.rows, matrix.cols);
  return AsymmetricMatrix(name, static_cast<int>(matrix.rows), copy(matrix.values));
}

Instance instance_from_state(const InstanceState& state) {
  const auto type = parse_edge_weight_type(state.edge_weight_type);
  FORMICA_EXPECTS(type, "unpickling an instance: unknown edge weight type '", state.edge_weight_type, "'");
  std::optional<Instance> instance;
  if (*type == EdgeWeightType::Explicit) {
    const auto n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(state.matrix.size()))));
    instance.emplace(Instance::from_matrix(state.name, n, copy(state.matrix)));
    if (!state.display_x.empty())
      instance->set_display_coordinates(copy(state.display_x), copy(state.display_y));
  } else {
    instance.emplace(state.name, *type, copy(state.x), copy(state.y), copy(state.z));
  }
  instance->set_comment(state.comment);
  FORMICA_EXPECTS(state.fixed_edges.size() % 2 == 0, "unpickling an instance: fixed edges are pairs of cities");
  std::vector<FixedEdge> fixed(state.fixed_edges.size() / 2);
  for (size_t k = 0; k < fixed.size(); ++k) fixed[k] = {state.fixed_edges[2 * k], state.fixed_edges[2 * k + 1]};
  instance->set_fixed_edges(std::move(fixed));
  return std::move(*instance);
}

}  // namespace formica::io
