// SPDX-License-Identifier: MIT
// Instances from in-memory arrays, as the Python extension (python/src) receives them from NumPy:
// (n, 2) or (n, 3) coordinates under a metric's name, a square int32 distance matrix (symmetric,
// or asymmetric for a directed tour), and the arrays a pickled Instance keeps. Every check of
// those arrays is here, so the binding and fuzz/fuzz_arrays.cpp run the same code; a bad array
// gets one InputError line (a ValueError in Python).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/asymmetric.h"
#include "core/instance.h"

namespace formica::io {

/// A C-ordered (rows, cols) array; `values` holds rows * cols elements.
template <typename T>
struct ArrayView {
  std::span<const T> values;
  size_t rows = 0, cols = 0;
  const T& operator()(size_t i, size_t j) const { return values[i * cols + j]; }
};

/// An instance of `coordinates.rows` cities under `metric`, a TSPLIB coordinate type in any case
/// ("euc_2d", "GEO"; (n, 3) for EUC_3D, (n, 2) for the others).
Instance instance_from_coordinates(const std::string& name, ArrayView<double> coordinates,
                                   std::string_view metric);

/// Throws InputError unless every coordinate (n rows of 2 or 3 axes) is finite and within
/// kMaxFloatCoordinate: the check of float coordinates (metric="float"), on the user's values
/// before they are scaled to fixed point.
void expect_float_coordinates_in_range(ArrayView<double> coordinates);

/// An EXPLICIT instance from a square, symmetric, non-negative matrix.
Instance instance_from_matrix(const std::string& name, ArrayView<int32_t> matrix);

/// The directed weights of a square matrix (c[i, j] from i to j; the diagonal is ignored).
AsymmetricMatrix asymmetric_from_matrix(const std::string& name, ArrayView<int32_t> matrix);

/// What a pickled Instance keeps: its edge weight type's name, and the coordinates (x, y, z) or the
/// row-major matrix of an EXPLICIT instance with its display coordinates (empty when it has none),
/// and its fixed edges.
struct InstanceState {
  std::string name, comment, edge_weight_type;
  std::span<const double> x, y, z;
  std::span<const int32_t> matrix;
  std::span<const double> display_x, display_y;
  std::span<const int32_t> fixed_edges;  ///< pairs of 0-based cities, flat
};

/// The instance `state` describes, as it was pickled.
Instance instance_from_state(const InstanceState& state);

}  // namespace formica::io
