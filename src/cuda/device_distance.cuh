// SPDX-License-Identifier: MIT
// Exact TSPLIB distances on the device for kernels that cannot keep an n x n matrix: coordinates
// (any type but EXPLICIT, GEO converted to radians once on the host) or, for EXPLICIT instances,
// the weight matrix. The same functions as Instance::distance, so lengths agree to the integer.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/distance.h"
#include "core/instance.h"
#include "cuda/buffer.cuh"

namespace formica::cuda {

/// A view passed to kernels by value.
struct DistanceView {
  EdgeWeightType type;
  int n;
  const double* x;  // GEO: latitude in radians
  const double* y;  // GEO: longitude in radians
  const double* z;
  const int32_t* matrix;  // EXPLICIT only

  __device__ int64_t operator()(int i, int j) const {
    if (i == j) return 0;
    switch (type) {
      case EdgeWeightType::Explicit: return matrix[static_cast<size_t>(i) * n + j];
      case EdgeWeightType::Geo: return tsplib::geo(x[i], y[i], x[j], y[j]);
      case EdgeWeightType::Ceil2D: return tsplib::ceil_2d(x[i] - x[j], y[i] - y[j]);
      case EdgeWeightType::Att: return tsplib::att(x[i] - x[j], y[i] - y[j]);
      case EdgeWeightType::Man2D: return tsplib::man_2d(x[i] - x[j], y[i] - y[j]);
      case EdgeWeightType::Max2D: return tsplib::max_2d(x[i] - x[j], y[i] - y[j]);
      case EdgeWeightType::Euc3D: return tsplib::euc_3d(x[i] - x[j], y[i] - y[j], z[i] - z[j]);
      case EdgeWeightType::Euc2D: break;
    }
    return tsplib::euc_2d(x[i] - x[j], y[i] - y[j]);
  }
};

/// Owns the device copies behind a DistanceView.
class DeviceDistances {
 public:
  explicit DeviceDistances(const Instance& instance) : type_(instance.type()), n_(instance.n()) {
    // A path's dummy city reaches the GPU in a dense matrix (PathForm::Dense), never implicit.
    if (instance.has_path_city()) throw std::logic_error("DeviceDistances: an implicit path city on the GPU");
    if (instance.type() == EdgeWeightType::Explicit) {
      matrix_ = DeviceBuffer<int32_t>(instance.matrix());
      return;
    }
    std::vector<double> x(instance.x().begin(), instance.x().end()), y(instance.y().begin(), instance.y().end());
    if (instance.type() == EdgeWeightType::Geo)
      for (size_t i = 0; i < x.size(); ++i) x[i] = tsplib::geo_radians(x[i]), y[i] = tsplib::geo_radians(y[i]);
    x_ = DeviceBuffer<double>(std::span<const double>(x));
    y_ = DeviceBuffer<double>(std::span<const double>(y));
    if (!instance.z().empty()) z_ = DeviceBuffer<double>(instance.z());
  }
  DistanceView view() const { return {type_, n_, x_.data(), y_.data(), z_.data(), matrix_.data()}; }

 private:
  EdgeWeightType type_;
  int n_;
  DeviceBuffer<double> x_, y_, z_;
  DeviceBuffer<int32_t> matrix_;
};

}  // namespace formica::cuda
