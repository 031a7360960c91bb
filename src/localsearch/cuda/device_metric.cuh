// Distances inside the 2-opt kernels, as small policy structs the kernels take by value
// (Robinson et al. section 4.1: distances are recomputed from coordinates, so memory is O(n)).
//
// A policy reads the cities through DeviceCities (device_instance.h). It has kRows, the rows each
// lane of the search holds in registers (R of two_opt_pass.cuh; fewer for wide points), a Point (what a tour position holds: coordinates and the cost of the edge to the
// next position, the paper's (x, y, cost) triplet), a Value type for distances and gains, and
//   point(city)         the Point of a city (cost not set),
//   distance(a, b)      the distance between two Points,
//   cost(p), set_cost   the stored edge cost.
//
// Fast policies (float) give the TSPLIB integer distance as a float: the square root is the
// hardware approximation (sqrt.approx, one special-function instruction), rounded to an integer
// with the magic-number trick (two adds). For integer coordinates whose squared distances stay
// below 2^24 this is exact except where the approximate root lands on the wrong side of a rounding
// boundary, which the exact policy then catches. Every operation is an explicit intrinsic, so the
// same two Points always give the same bits and d(a, b) = d(b, a): gains are exact integers in
// float, and the climb descends a well-defined potential.
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

/// Nearest integer of 0 <= x < 2^22 (ties to even): adding 1.5 * 2^23 leaves no fraction bits.
__device__ __forceinline__ float round_nearest(float x) {
  constexpr float kMagic = 12582912.0f;
  return __fsub_rn(__fadd_rn(x, kMagic), kMagic);
}

/// ceil(sqrt(s)) for an integer s < 2^24: the rounded approximate root k is right to within one,
/// and k * k < s (exact in float) says when it is one short.
__device__ __forceinline__ float ceil_sqrt(float s) {
  const float k = round_nearest(sqrt_approx(s));
  return __fmaf_rn(k, k, -s) < 0.0f ? __fadd_rn(k, 1.0f) : k;
}

__device__ __forceinline__ float squared(float dx, float dy) { return __fmaf_rn(dy, dy, __fmul_rn(dx, dx)); }

}  // namespace detail

/// Points of the float policies: coordinates in x, y, z and the edge cost in w.
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
    return detail::round_nearest(detail::sqrt_approx(detail::squared(dx, dy)));
  }
};

/// CEIL_2D in float (the pla* instances): grids make exact squares common, so the root is
/// corrected to the exact ceiling.
struct FastCeil2D : Float4Points {
  __device__ Value distance(const Point& a, const Point& b) const {
    const float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
    return detail::ceil_sqrt(detail::squared(dx, dy));
  }
};

/// ATT, MAN_2D, MAX_2D and EUC_3D in float, the type chosen at run time.
struct FastGeneric : Float4Points {
  EdgeWeightType type = EdgeWeightType::Att;
  __device__ Value distance(const Point& a, const Point& b) const {
    const float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
    switch (type) {
      case EdgeWeightType::Att: {  // ceil(sqrt(s / 10)): k = round(root), one more when 10 k^2 < s
        const float s = detail::squared(dx, dy);
        const float k = detail::round_nearest(detail::sqrt_approx(__fmul_rn(s, 0.1f)));
        return __fmul_rn(__fmul_rn(k, k), 10.0f) < s ? __fadd_rn(k, 1.0f) : k;
      }
      case EdgeWeightType::Man2D: return detail::round_nearest(__fadd_rn(fabsf(dx), fabsf(dy)));
      case EdgeWeightType::Max2D: return detail::round_nearest(fmaxf(fabsf(dx), fabsf(dy)));
      default: {  // EUC_3D
        const float dz = __fsub_rn(a.z, b.z);
        return detail::round_nearest(detail::sqrt_approx(__fmaf_rn(dz, dz, detail::squared(dx, dy))));
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
