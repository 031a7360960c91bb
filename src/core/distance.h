// SPDX-License-Identifier: MIT
// The TSPLIB95 distance functions, exact to the integer, as the TSPLIB documentation defines them.
//
// Every length formica reports is a sum of these values in 64 bits. Kernels may use float
// approximations for heuristic values; they never report them.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#if defined(__CUDACC__)
#define FORMICA_HD __host__ __device__
/// Before a FORMICA_HD template whose host instantiations call host-only members (e.g. a CPU tour
/// class): lets nvcc compile those instantiations for the host alone.
#define FORMICA_HD_TEMPLATE _Pragma("nv_exec_check_disable")
#else
#define FORMICA_HD
#define FORMICA_HD_TEMPLATE
#endif

namespace formica {

/// The symmetric TSPLIB edge-weight types formica understands.
enum class EdgeWeightType { Euc2D, Ceil2D, Att, Geo, Man2D, Max2D, Euc3D, Explicit };

std::string_view to_string(EdgeWeightType type);
std::optional<EdgeWeightType> parse_edge_weight_type(std::string_view text);

/// True for the types whose distances come from coordinates (all but EXPLICIT).
constexpr bool has_coordinates(EdgeWeightType type) { return type != EdgeWeightType::Explicit; }

namespace tsplib {

/// nint(x) = (int)(x + 0.5), the TSPLIB rounding.
FORMICA_HD inline int64_t nint(double x) { return static_cast<int64_t>(x + 0.5); }

FORMICA_HD inline int64_t euc_2d(double dx, double dy) { return nint(std::sqrt(dx * dx + dy * dy)); }

FORMICA_HD inline int64_t ceil_2d(double dx, double dy) {
  return static_cast<int64_t>(std::ceil(std::sqrt(dx * dx + dy * dy)));
}

/// Pseudo-Euclidean distance of the ATT instances.
FORMICA_HD inline int64_t att(double dx, double dy) {
  const double r = std::sqrt((dx * dx + dy * dy) / 10.0);
  const int64_t t = nint(r);
  return static_cast<double>(t) < r ? t + 1 : t;
}

FORMICA_HD inline int64_t man_2d(double dx, double dy) { return nint(std::fabs(dx) + std::fabs(dy)); }

FORMICA_HD inline int64_t max_2d(double dx, double dy) {
  const int64_t a = nint(std::fabs(dx));
  const int64_t b = nint(std::fabs(dy));
  return a > b ? a : b;
}

FORMICA_HD inline int64_t euc_3d(double dx, double dy, double dz) {
  return nint(std::sqrt(dx * dx + dy * dy + dz * dz));
}

/// Converts a GEO coordinate (DDD.MM, degrees and minutes) to radians with PI = 3.141592.
FORMICA_HD inline double geo_radians(double coordinate) {
  constexpr double kPi = 3.141592;
  const double degrees = static_cast<double>(static_cast<int64_t>(coordinate));
  const double minutes = coordinate - degrees;
  return kPi * (degrees + 5.0 * minutes / 3.0) / 180.0;
}

/// GEO distance between two points given as (latitude, longitude) in geo_radians.
FORMICA_HD inline int64_t geo(double lat_i, double lon_i, double lat_j, double lon_j) {
  constexpr double kRrr = 6378.388;
  const double q1 = std::cos(lon_i - lon_j);
  const double q2 = std::cos(lat_i - lat_j);
  const double q3 = std::cos(lat_i + lat_j);
  double c = 0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3);
  c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);  // rounding must not push acos out of its domain
  return static_cast<int64_t>(kRrr * std::acos(c) + 1.0);
}

}  // namespace tsplib
}  // namespace formica
