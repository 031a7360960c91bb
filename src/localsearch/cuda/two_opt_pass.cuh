// SPDX-License-Identifier: MIT
// The GPU 2-opt search phase (Robinson et al. sections 3.1 and 4.1): every move (i, j) of a tour
// is evaluated once per pass and each thread keeps the best move it saw in registers.
//
// The move space {(i, j) : i + 2 <= j} is a triangle of n(n - 3) / 2 cells. It is cut into units:
// a unit is 32 * R consecutive rows i (R per lane) and up to `chunk` consecutive columns j. A warp
// takes whole units (units are dealt round-robin, so the result does not depend on timing), copies
// the unit's columns, the (x, y, cost) points of the tour at positions j, into its own tile of
// shared memory (the paper's tiling, one tile per warp so that warps never wait for each other on
// the triangle's ragged edge), and sweeps them from the highest j down, every lane reading the same
// column (a shared-memory broadcast) for its R rows held in registers.
//
// The gain of (i, j) is cost(i) + cost(j) - d(i, j) - d(i + 1, j + 1), computed as
// cost(i) - ((d(i, j) - cost(j)) + d(i + 1, j + 1)) so that the policies' offsets (device_metric.cuh)
// cancel: every difference is of two offset values, and the offset left in the sum of the inner
// parentheses is removed by the outer difference. Sweeping j downwards, the
// distances d(i + 1, j + 1) of a lane's rows are the ones it computed at the previous column for
// its next row, so R + 1 distances (one square root each) serve R moves: about one root per
// evaluation instead of the two the paper's loop takes. A lane keeps, per row, only the minimum of
// d(i, j) - cost(j) + d(i + 1, j + 1) over each run of kSub columns (one min instruction per move)
// and remembers in which run its best gain lies; at the end of a unit it re-evaluates that run to
// find j. Cells off the triangle (j < i + 2, i > n - 3, the move (0, n - 1)) occur only in the few
// units on the triangle's edges, which take a masked copy of the loop.
#pragma once

#include <cstdint>

#include "localsearch/cuda/device_metric.cuh"
#include "localsearch/two_opt_move.h"

namespace formica::localsearch::cuda {

/// Columns per run of the per-row minimum.
inline constexpr int kSub = 8;

/// The shape of one pass: n, rows per lane R (a template argument of search_units) and the
/// columns per unit.
struct PassShape {
  int n = 0;
  int chunk = 0;  ///< columns per unit (the warp's tile holds chunk + 1 points)
};

/// A lane's best move so far.
template <typename Value>
struct LaneBest {
  Value gain = Value(0);
  int i = -1, j = -1;
  // the run holding the best gain of the current unit, while j is not yet known
  int run_lo = 0, run_hi = -1;
  bool unresolved = false;
};

namespace detail {

/// Sweeps columns hi, hi - 1, ..., lo of the unit whose tile starts at column `col_lo`, for this
/// lane's R rows from `i0`, folding each move into mins[]. dprev[a] holds d(row a, column + 1).
template <int R, bool kMasked, class Metric>
__device__ __forceinline__ void sweep_columns(const Metric& metric, const typename Metric::Point (&rows)[R + 1],
                                              const typename Metric::Point* tile, int col_lo, int lo, int hi,
                                              int i0, int n, typename Metric::Value (&dprev)[R + 1],
                                              typename Metric::Value (&mins)[R]) {
  using Value = typename Metric::Value;
  const auto column = [&](int j) {
    const typename Metric::Point q = tile[j - col_lo];
    const Value cq = Metric::cost(q);
    Value dcur[R + 1];
#pragma unroll
    for (int a = 0; a <= R; ++a) dcur[a] = metric.distance(rows[a], q);
#pragma unroll
    for (int a = 0; a < R; ++a) {
      Value v = (dcur[a] - cq) + dprev[a + 1];
      if (kMasked && !is_move(n, i0 + a, j)) v = infinity<Value>();
      mins[a] = smaller(v, mins[a]);
    }
#pragma unroll
    for (int a = 1; a <= R; ++a) dprev[a] = dcur[a];
  };
  if (hi - lo + 1 == kSub) {
#pragma unroll
    for (int s = 0; s < kSub; ++s) column(hi - s);
  } else {
    for (int j = hi; j >= lo; --j) column(j);
  }
}

/// Finds the column of the lane's best gain within its run [run_lo, run_hi] (same arithmetic as
/// the sweep, so the same bits), or drops the candidate if, against all reason, none matches.
template <int R, class Metric>
__device__ void resolve_column(const Metric& metric, const typename Metric::Point (&rows)[R + 1],
                               const typename Metric::Point* tile, int col_lo, int i0, int n,
                               LaneBest<typename Metric::Value>& best) {
  using Value = typename Metric::Value;
  const int a = best.i - i0;
  typename Metric::Point pa = rows[0], pb = rows[1];
#pragma unroll
  for (int t = 1; t < R; ++t)
    if (t == a) pa = rows[t], pb = rows[t + 1];
  best.unresolved = false;
  for (int j = best.run_hi; j >= best.run_lo; --j) {
    const typename Metric::Point q = tile[j - col_lo], q_next = tile[j + 1 - col_lo];
    const Value v = (metric.distance(pa, q) - Metric::cost(q)) + metric.distance(pb, q_next);
    if (is_move(n, best.i, j) && Metric::cost(pa) - v == best.gain) {
      best.j = j;
      return;
    }
  }
  best = LaneBest<Value>{};
}

/// One unit: rows [row_start, row_start + 32 R), columns [col_lo, col_hi).
template <int R, bool kMasked, class Metric>
__device__ void search_unit(const Metric& metric, const typename Metric::Point* points,
                            typename Metric::Point* tile, int row_start, int col_lo, int col_hi, int n,
                            LaneBest<typename Metric::Value>& best) {
  using Value = typename Metric::Value;
  using Point = typename Metric::Point;
  const int lane = threadIdx.x & 31;
  __syncwarp();  // every lane is done with the previous unit's tile
  for (int k = lane; k <= col_hi - col_lo; k += 32) tile[k] = points[col_lo + k];  // col_hi <= n
  __syncwarp();
  const int i0 = row_start + lane * R;
  Point rows[R + 1];
#pragma unroll
  for (int a = 0; a <= R; ++a) rows[a] = points[min(i0 + a, n)];
  Value dprev[R + 1], mins[R];
  dprev[0] = Value(0);
  const Point top = tile[col_hi - col_lo];
#pragma unroll
  for (int a = 1; a <= R; ++a) dprev[a] = metric.distance(rows[a], top);
#pragma unroll
  for (int a = 0; a < R; ++a) mins[a] = infinity<Value>();
  for (int hi = col_hi - 1; hi >= col_lo; hi -= kSub) {
    const int lo = max(col_lo, hi - kSub + 1);
    sweep_columns<R, kMasked>(metric, rows, tile, col_lo, lo, hi, i0, n, dprev, mins);
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const Value gain = Metric::cost(rows[a]) - mins[a];
      if (gain > best.gain) {
        best.gain = gain;
        best.i = i0 + a;
        best.run_lo = lo;
        best.run_hi = hi;
        best.unresolved = true;
      }
      mins[a] = infinity<Value>();
    }
  }
  if (best.unresolved) resolve_column<R>(metric, rows, tile, col_lo, i0, n, best);
}

}  // namespace detail

/// Units of the pass whose rows start at group g (32 R rows per group): columns g 32R + 2 .. n - 1.
template <int R>
__device__ __forceinline__ int group_units(int n, int chunk, int g) {
  const int columns = n - (g * 32 * R + 2);
  return columns > 0 ? (columns + chunk - 1) / chunk : 0;
}

/// Evaluates the units u = warp, warp + warps, warp + 2 warps, ... of one pass over `points`
/// (positions 0..n, position n repeating position 0), folding them into `best`. `tile` is this
/// warp's shared memory, shape.chunk + 1 points. All 32 lanes of the warp must call it.
template <int R, class Metric>
__device__ void search_units(const Metric& metric, const typename Metric::Point* points,
                             typename Metric::Point* tile, const PassShape& shape, int warp, int warps,
                             LaneBest<typename Metric::Value>& best) {
  const int n = shape.n, rows_per_group = 32 * R;
  int base = 0;  // index of the group's first unit
  for (int g = 0; g * rows_per_group <= n - 3; ++g) {
    const int units = group_units<R>(n, shape.chunk, g);
    const int row_start = g * rows_per_group, row_last = row_start + rows_per_group - 1;
    for (int u = base + ((warp - base) % warps + warps) % warps; u < base + units; u += warps) {
      const int col_lo = row_start + 2 + (u - base) * shape.chunk;
      const int col_hi = min(col_lo + shape.chunk, n);
      // Off-triangle cells: j < i + 2 for the group's last rows, rows past n - 3, or (0, n - 1).
      const bool masked = col_lo < row_last + 2 || row_last > n - 3 || (row_start == 0 && col_hi == n);
      if (masked) detail::search_unit<R, true>(metric, points, tile, row_start, col_lo, col_hi, n, best);
      else detail::search_unit<R, false>(metric, points, tile, row_start, col_lo, col_hi, n, best);
    }
    base += units;
  }
}

/// Builds the points of a tour for `metric`: position p gets its city's point and the cost of the
/// edge to position p + 1; position n repeats position 0. Threads `first`, `first + stride`, ...
template <class Metric>
__device__ void build_points(const Metric& metric, const DeviceCities& cities, const int32_t* tour, int n,
                             typename Metric::Point* points, int first, int stride) {
  for (int p = first; p < n; p += stride) {
    typename Metric::Point here = metric.point(tour[p], cities);
    const typename Metric::Point next = metric.point(tour[p + 1 == n ? 0 : p + 1], cities);
    Metric::set_cost(here, metric.distance(here, next));
    points[p] = here;
    if (p == 0) points[n] = here;
  }
}

/// Sort key of a candidate: gain first (the bits of a positive float order like the float), then
/// the lower `id` first; 0 when the move does not improve.
template <typename Value>
__device__ __forceinline__ unsigned long long candidate_key(Value gain, unsigned int id) {
  if (!(gain > improving_threshold<Value>())) return 0ull;
  return (static_cast<unsigned long long>(__float_as_uint(static_cast<float>(gain))) << 32) |
         static_cast<unsigned long long>(0xFFFFFFFFu - id);
}

/// The id a key was made with.
__device__ __forceinline__ unsigned int candidate_id(unsigned long long key) {
  return 0xFFFFFFFFu - static_cast<unsigned int>(key & 0xFFFFFFFFull);
}

}  // namespace formica::localsearch::cuda
