// SPDX-License-Identifier: MIT
// Distances inside the 2-opt kernels, as small policy structs the kernels take by value
// (Robinson et al. section 4.1: distances are recomputed from coordinates, so memory is O(n)).
//
// A policy reads the cities through DeviceCities (device_instance.h). It has kRows, the rows each
// lane of the search holds in registers (R of two_opt_pass.cuh; fewer for wide points), a Point (what a tour position holds: coordinates and the cost of the edge to the
// next position, the paper's (x, y, cost) triplet), a Value type for distances and gains, and
//   point(city)         the Point of a city (cost not set),
//   distance(a, b)      the distance between two Points (plus an offset, for the float ones),
//   cost(p), set_cost   the stored edge cost (with the same offset).
//
// Fast policies (float) give the TSPLIB integer distance plus an offset of 1.5 * 2^23: the square
// root is the hardware approximation (sqrt.approx, one special-function instruction), and adding
// the offset rounds it to an integer (no fraction bits are left in [2^23, 2^24)). Points store the edge
// cost with the same offset. The kernels only ever subtract two offset values (exact: both lie in
// [2^23, 2^24)) or add a plain difference to one, so every gain comes out exact, and the offset
// saves the instruction that would remove it from each of the n(n - 3) / 2 distances of a pass. For
// integer coordinates whose squared distances stay below 2^24 the distances are the exact TSPLIB
// ones except where the approximate root lands on the wrong side of a rounding boundary, which the
// exact policy then catches. Every operation is an explicit intrinsic, so the same two Points always
// give the same bits and d(a, b) = d(b, a): the climb descends a well-defined potential.
//
// The exact policy computes tsplib:: distances in double, exactly as the host does (the files
// including it are compiled with --fmad=false so nothing is contracted into an FMA); GEO and
// EXPLICIT instances use their n x n matrix, which is exact in both roles.
#pragma once

#include <cstdint>
#include <math_constants.h>

#include "core/distance.h"
#include "localsearch/cuda/device_instance.h"

namespace formica::localsearch::cuda {

namespace detail {

__device__ __forceinline__ float sqrt_approx(float s) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(s));
  return r;
}

inline constexpr float kFloatOffset = 12582912.0f;  // 1.5 * 2^23

/// Nearest integer of 0 <= x < 2^22 (ties to even), plus kFloatOffset.
__device__ __forceinline__ float round_offset(float x) { return __fadd_rn(x, kFloatOffset); }

/// ceil(root) + kFloatOffset where root approximates sqrt(s) and `below(k)` says k < sqrt(s) for an
/// integer k: the rounded approximate root is right to within one, one short exactly when below.
template <class Below>
__device__ __forceinline__ float ceil_offset(float root, Below below) {
  const float shifted = round_offset(root);
  return below(__fsub_rn(shifted, kFloatOffset)) ? __fadd_rn(shifted, 1.0f) : shifted;
}

__device__ __forceinline__ float squared(float dx, float dy) { return __fmaf_rn(dy, dy, __fmul_rn(dx, dx)); }

}  // namespace detail

/// Points of the float policies: coordinates in x, y, z and the edge cost (plus the offset) in w.
struct Float4Points {
  static constexpr int kRows = 4;
  using Point = float4;
  using Value = float;
  __device__ Point point(int city, const DeviceCities& c) const { return reinterpret_cast<const float4*>(c.fcoord)[city]; }
  __device__ static Value cost(const Point& p) { return p.w; }
  __device__ static void set_cost(Point& p, Value v) { p.w = v; }
};

/// EUC_2D in float (the common case and the benchmark instances).
struct FastEuc2D : Float4Points {
  __device__ Value distance(const Point& a, const Point& b) const {
    const float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
    return detail::round_offset(detail::sqrt_approx(detail::squared(dx, dy)));
  }
};

/// CEIL_2D in float (the pla* instances): grids make exact squares common, so the root is
/// corrected to the exact ceiling.
struct FastCeil2D : Float4Points {
  __device__ Value distance(const Point& a, const Point& b) const {
    const float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
    const float s = detail::squared(dx, dy);
    return detail::ceil_offset(detail::sqrt_approx(s), [s](float k) { return __fmaf_rn(k, k, -s) < 0.0f; });
  }
};

/// ATT, MAN_2D, MAX_2D and EUC_3D in float, the type chosen at run time.
struct FastGeneric : Float4Points {
  EdgeWeightType type = EdgeWeightType::Att;
  __device__ Value distance(const Point& a, const Point& b) const {
    const float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
    switch (type) {
      case EdgeWeightType::Att: {  // ceil(sqrt(s / 10)): one more than the rounded root when 10 k^2 < s
        const float s = detail::squared(dx, dy);
        return detail::ceil_offset(detail::sqrt_approx(__fmul_rn(s, 0.1f)),
                                   [s](float k) { return __fmul_rn(__fmul_rn(k, k), 10.0f) < s; });
      }
      case EdgeWeightType::Man2D: return detail::round_offset(__fadd_rn(fabsf(dx), fabsf(dy)));
      case EdgeWeightType::Max2D: return detail::round_offset(fmaxf(fabsf(dx), fabsf(dy)));
      default: {  // EUC_3D
        const float dz = __fsub_rn(a.z, b.z);
        return detail::round_offset(detail::sqrt_approx(__fmaf_rn(dz, dz, detail::squared(dx, dy))));
      }
    }
  }
};

struct ExactPoint {
  double x, y, z, cost;
};

/// Every coordinate type but GEO, in double, exactly as the host computes it.
struct ExactCoord {
  static constexpr int kRows = 1;  // the exact passes run once or twice per climb: keep them lean
  using Point = ExactPoint;
  using Value = double;
  EdgeWeightType type = EdgeWeightType::Euc2D;
  __device__ Point point(int city, const DeviceCities& c) const {
    return {c.x[city], c.y[city], c.z != nullptr ? c.z[city] : 0.0, 0.0};
  }
  __device__ Value distance(const Point& a, const Point& b) const {
    const double dx = a.x - b.x, dy = a.y - b.y;
    switch (type) {
      case EdgeWeightType::Euc2D: return static_cast<double>(tsplib::euc_2d(dx, dy));
      case EdgeWeightType::Ceil2D: return static_cast<double>(tsplib::ceil_2d(dx, dy));
      case EdgeWeightType::Att: return static_cast<double>(tsplib::att(dx, dy));
      case EdgeWeightType::Man2D: return static_cast<double>(tsplib::man_2d(dx, dy));
      case EdgeWeightType::Max2D: return static_cast<double>(tsplib::max_2d(dx, dy));
      default: return static_cast<double>(tsplib::euc_3d(dx, dy, a.z - b.z));
    }
  }
  __device__ static Value cost(const Point& p) { return p.cost; }
  __device__ static void set_cost(Point& p, Value v) { p.cost = v; }
};

struct MatrixPoint {
  int32_t city;
  int32_t unused;
  double cost;
};

/// GEO and EXPLICIT: distances read from the n x n matrix (exact; double holds any int32 sum).
struct MatrixMetric {
  static constexpr int kRows = 2;
  using Point = MatrixPoint;
  using Value = double;
  const int32_t* matrix = nullptr;
  int n = 0;
  __device__ Point point(int city, const DeviceCities&) const { return {city, 0, 0.0}; }
  __device__ Value distance(const Point& a, const Point& b) const {
    return static_cast<double>(__ldg(matrix + static_cast<size_t>(a.city) * static_cast<size_t>(n) + b.city));
  }
  __device__ static Value cost(const Point& p) { return p.cost; }
  __device__ static void set_cost(Point& p, Value v) { p.cost = v; }
};

/// Gains above this count as improving: all distances are integers, so a real gain is at least 1,
/// and float noise on approximate instances cannot make a move look improving.
template <typename Value>
__device__ __forceinline__ Value improving_threshold() {
  return Value(0.5);
}

__device__ __forceinline__ float smaller(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double smaller(double a, double b) { return fmin(a, b); }

template <typename Value>
__device__ __forceinline__ Value infinity();
template <>
__device__ __forceinline__ float infinity<float>() {
  return CUDART_INF_F;
}
template <>
__device__ __forceinline__ double infinity<double>() {
  return CUDART_INF;
}

}  // namespace formica::localsearch::cuda
