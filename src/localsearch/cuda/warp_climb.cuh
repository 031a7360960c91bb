// SPDX-License-Identifier: MIT
// The warp-per-tour climb shared by the colonies' local search (ant_local_search.cu) and the
// batch solver's walks (batch/cuda/batch_walks.cu): one warp takes cities off a tour's queue of
// active cities, its lanes try the city's listed neighbours (the moves of neighbour_moves.h, the
// same stopping rules and search order as the CPU's NeighbourClimber), the warp applies the best
// move and queues the cities of the changed edges, until the queue is empty. Every lane of the
// tour's group (WarpTour::width: the warp, or half of it) calls these functions together.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "localsearch/cuda/ant_local_search.cuh"  // queue_city
#include "localsearch/cuda/warp_tour.cuh"
#include "localsearch/neighbour_moves.h"

namespace formica::localsearch::cuda {

inline constexpr unsigned kFullMask = 0xffffffffu;
/// `value` from lane `source` of t's group.
__device__ inline int group_shuffle(const WarpTour& t, int value, int source) {
  return __shfl_sync(t.mask, value, source, t.width);
}
__device__ inline long long shuffle64(const WarpTour& t, long long value, int source) {
  const int lo = group_shuffle(t, static_cast<int>(value & 0xffffffffLL), source);
  const int hi = group_shuffle(t, static_cast<int>(value >> 32), source);
  return (static_cast<long long>(hi) << 32) | static_cast<unsigned>(lo);
}

/// The lanes of t's group for which `predicate` holds, as bits counted from the group's lane 0.
__device__ inline unsigned group_ballot(const WarpTour& t, bool predicate) {
  const unsigned bits = __ballot_sync(t.mask, predicate);
  if (t.width == 32) return bits;
  return (bits >> ((static_cast<int>(threadIdx.x) & 31) - t.lane)) & ((1u << t.width) - 1);
}

/// The move every lane gets: the best of the lanes' moves (better_move: gain, then search order).
__device__ inline LocalMove warp_best(const WarpTour& t, const LocalMove& mine) {
  long long gain = mine.gain;
  int order = mine.order;
  for (int offset = t.width / 2; offset > 0; offset >>= 1) {
    const long long other_gain = shuffle64(t, gain, t.lane ^ offset);
    const int other_order = __shfl_xor_sync(t.mask, order, offset, t.width);
    if (other_gain > gain || (other_gain == gain && other_order < order))
      gain = other_gain, order = other_order;
  }
  LocalMove best;
  if (gain <= 0) return best;
  const int owner = __ffs(group_ballot(t, mine.gain == gain && mine.order == order)) - 1;
  best.gain = gain;
  best.order = order;
  best.kind = static_cast<MoveKind>(group_shuffle(t, static_cast<int>(mine.kind), owner));
  best.e1 = group_shuffle(t, mine.e1, owner);
  best.e2 = group_shuffle(t, mine.e2, owner);
#pragma unroll
  for (int i = 0; i < 6; ++i) best.city[i] = group_shuffle(t, mine.city[i], owner);
  return best;
}

/// City a's best move, lane t trying a's t-th neighbour (the CPU's best_move in
/// cpu/neighbour_list_climb.cpp, its loops' stopping points found by ballot). k <= t.width.
template <bool kOrOpt, bool kThreeOpt, class Distance>
__device__ LocalMove warp_best_move(const WarpTour& t, const Distance& distance, const int32_t* lists,
                                    int k, int a, int lane) {
  const CityContext ctx = city_context(t, distance, a);
  int c = -1;
  long long d_ac = 0;
  if (lane < k) {
    c = lists[static_cast<size_t>(a) * k + lane];
    d_ac = distance(a, c);
  }
  LocalMove best;
  unsigned stop = group_ballot(t, lane < k && two_opt_exhausted(ctx, d_ac));
  int limit = stop ? __ffs(stop) - 1 : k;
  if (lane < limit) two_opt_moves(t, distance, ctx, c, d_ac, lane, best);
  if (kOrOpt) {
    for (int number = 0; number < 6; ++number) {
      const int length = number % 3 + 1;
      if (length > t.n() - 3) continue;
      const Segment s = or_opt_segment(t, distance, ctx, number, k);
      if (s.g1 <= 0) continue;
      stop = group_ballot(t, lane < k && d_ac >= s.g1);
      limit = stop ? __ffs(stop) - 1 : k;
      if (lane < limit) or_opt_moves(t, distance, ctx, s, c, d_ac, lane, best);
    }
  }
  if (kThreeOpt && t.n() >= kThreeOptMinCities) {
    for (int dir = 1; dir >= -1; dir -= 2) {
      const long long d_12 = dir > 0 ? ctx.d_pred : ctx.d_succ;
      stop = group_ballot(t, lane < k && d_ac >= d_12);
      limit = stop ? __ffs(stop) - 1 : k;
      if (lane < limit) three_opt_moves(t, distance, ctx, dir, c, d_ac, lane, lists, k, best);
    }
  }
  return warp_best(t, best);
}

/// Rebuilds t's positions from its tour and queues every city in tour order (ring from 0, every
/// bit set); returns how many are queued (n). Ends with a __syncwarp().
__device__ inline int warp_queue_all(WarpTour& t, int32_t* ring, uint32_t* bits) {
  const int n = t.n(), words = (n + 31) / 32;
  for (int p = t.lane; p < n; p += t.width) {
    const int city = t.tour_[p];
    t.pos_[city] = p;
    ring[p] = city;
  }
  for (int w = t.lane; w < words; w += t.width) bits[w] = w == words - 1 && (n & 31) ? (1u << (n & 31)) - 1 : kFullMask;
  __syncwarp(t.mask);
  return n;
}

/// How many cities a climb takes off its queue between two looks at its stop flag.
inline constexpr int kStopPollCities = 32;

/// Climbs `t` until its queue is empty: `ring` (capacity n) holds `count` cities from `head`, their
/// bits set in `bits` (all clear when it returns), or until `*stop` (when given) is non-zero, looked
/// at every `poll` cities: the queue then keeps what is left. Returns the total gain
/// (exact), the same on every lane.
template <bool kOrOpt, bool kThreeOpt, class Distance>
__device__ long long warp_climb(WarpTour& t, const Distance& distance, const int32_t* lists, int k,
                                int32_t* ring, uint32_t* bits, int head, int count,
                                const volatile int* stop = nullptr, int poll = kStopPollCities) {
  const int lane = t.lane, n = t.n();
  long long total = 0;
  int taken = 0;
  while (count > 0) {
    if (stop != nullptr && ++taken % poll == 0 && group_shuffle(t, lane == 0 ? *stop : 0, 0) != 0) break;
    int city = 0;
    if (lane == 0) {
      city = ring[head];
      bits[city >> 5] &= ~(1u << (city & 31));
    }
    city = group_shuffle(t, city, 0);
    if (++head == n) head = 0;
    --count;
    const LocalMove best = warp_best_move<kOrOpt, kThreeOpt>(t, distance, lists, k, city, lane);
    if (best.gain <= 0) continue;
    total += best.gain;
    int ends[6];
    const int changed = apply_move(t, best, ends);
    if (lane == 0)
      for (int i = 0; i < changed; ++i) queue_city(ring, bits, n, head, count, ends[i]);
    count = group_shuffle(t, count, 0);
  }
  return total;
}

}  // namespace formica::localsearch::cuda
