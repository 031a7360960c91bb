// SPDX-License-Identifier: MIT
// The moves of the neighbour-list local search, shared word for word by the CPU climber
// (cpu/neighbour_list_climb.cpp) and the GPU's warp-per-tour climber (cuda/ant_local_search.cu):
// which moves a city tries with one of its listed neighbours, their exact gains, the order that
// breaks ties between equal gains, and how a move is applied to a tour held as an array plus
// positions. The neighbourhood itself is described in cpu/neighbour_list_climb.h.
//
// `Tour` is anything with n(), at(p) (any p in [-n, 2n)), pos(city), succ(city), pred(city),
// two_opt(e1, e2) and exchange(u1, u2, v1, v2) (cpu/array_tour.h; cuda/warp_tour.cuh, where every
// lane of the warp calls them together). `Distance` returns the exact TSPLIB distance of two cities
// as int64_t (Instance::distance on the host, cuda::DistanceView on the device).
#pragma once

#include <cstdint>

#include "core/distance.h"  // FORMICA_HD

namespace formica::localsearch {

enum class MoveKind : int { TwoOpt, OrOpt, ThreeOpt };

/// A move found from one city. Among equal gains the smaller `order` wins: the order of the search
/// (2-opt with neighbour t: 2t, 2t + 1; then Or-opt, see or_opt_segment; then 3-opt, see
/// three_opt_order_base).
struct LocalMove {
  int64_t gain = 0;
  int order = 0;
  MoveKind kind = MoveKind::TwoOpt;
  int e1 = -1, e2 = -1;  ///< 2-opt: the two removed edges, as positions
  /// The six cities of the changed edges, in the order the climbers queue them.
  ///   Or-opt: x, y, c, e, before, after: segment x..y goes between c and e, x next to c; before
  ///     and after are the cities next to x and y outside the segment.
  ///   3-opt: t1..t6: edges (t1, t2), (t3, t4), (t5, t6) go, (t2, t3), (t4, t5), (t6, t1) come.
  int city[6] = {-1, -1, -1, -1, -1, -1};
};

/// True when `a` should replace `b` as a city's best move: a larger gain, or an equal positive
/// gain found earlier.
FORMICA_HD inline bool better_move(const LocalMove& a, const LocalMove& b) {
  return a.gain > b.gain || (a.gain == b.gain && a.gain > 0 && a.order < b.order);
}

/// What every move of city `a` needs: its position and tour neighbours.
struct CityContext {
  int a, p, succ, pred;
  int64_t d_succ, d_pred;
};

FORMICA_HD_TEMPLATE
template <class Tour, class Distance>
FORMICA_HD CityContext city_context(const Tour& t, const Distance& distance, int a) {
  CityContext ctx;
  ctx.a = a;
  ctx.p = t.pos(a);
  ctx.succ = t.at(ctx.p + 1);
  ctx.pred = t.at(ctx.p - 1);
  ctx.d_succ = distance(a, ctx.succ);
  ctx.d_pred = distance(a, ctx.pred);
  return ctx;
}

/// True when no 2-opt move with neighbour c (d_ac = d(a, c)) or any later one can gain: the lists
/// are nearest first, so the search of a's 2-opt moves stops at the first such neighbour.
FORMICA_HD inline bool two_opt_exhausted(const CityContext& ctx, int64_t d_ac) {
  return d_ac >= ctx.d_succ && d_ac >= ctx.d_pred;
}

/// The 2-opt moves giving a the edge (a, c) to its `index`-th listed neighbour c: instead of
/// (a, succ) with (succ, succ of c), or instead of (a, pred) with (pred, pred of c).
FORMICA_HD_TEMPLATE
template <class Tour, class Distance>
FORMICA_HD void two_opt_moves(const Tour& t, const Distance& distance, const CityContext& ctx, int c,
                              int64_t d_ac, int index, LocalMove& best) {
  const int n = t.n(), q = t.pos(c);
  if (d_ac < ctx.d_succ) {
    const int sc = t.at(q + 1);
    if (c != ctx.succ && sc != ctx.a) {
      LocalMove m;
      m.gain = ctx.d_succ + distance(c, sc) - d_ac - distance(ctx.succ, sc);
      m.order = 2 * index;
      m.e1 = ctx.p, m.e2 = q;
      if (better_move(m, best)) best = m;
    }
  }
  if (d_ac < ctx.d_pred) {
    const int pc = t.at(q - 1);
    if (c != ctx.pred && pc != ctx.a) {
      LocalMove m;
      m.gain = ctx.d_pred + distance(pc, c) - d_ac - distance(ctx.pred, pc);
      m.order = 2 * index + 1;
      m.e1 = ctx.p == 0 ? n - 1 : ctx.p - 1, m.e2 = q == 0 ? n - 1 : q - 1;
      if (better_move(m, best)) best = m;
    }
  }
}

/// One of a's Or-opt segments: `length` cities from a in direction `dir` (+1 along the array,
/// -1 against), `before` and `after` around it, and g1, the gain of taking it out.
struct Segment {
  int dir, length, before, last, after;
  int64_t g1;
  int order_base;  ///< order of its first move
};

/// Segments are numbered 0..5: dir +1 with lengths 1, 2, 3, then dir -1. Or-opt moves come after
/// the 2k 2-opt moves of a list of k neighbours. Valid for length <= n - 3.
FORMICA_HD_TEMPLATE
template <class Tour, class Distance>
FORMICA_HD Segment or_opt_segment(const Tour& t, const Distance& distance, const CityContext& ctx, int number,
                                  int k) {
  Segment s;
  s.dir = number < 3 ? 1 : -1;
  s.length = number % 3 + 1;
  s.before = t.at(ctx.p - s.dir);
  s.last = t.at(ctx.p + s.dir * (s.length - 1));
  s.after = t.at(ctx.p + s.dir * s.length);
  s.g1 = distance(s.before, ctx.a) + distance(s.last, s.after) - distance(s.before, s.after);
  s.order_base = 2 * k + 2 * k * number;
  return s;
}

/// The Or-opt moves of segment `s` with a's `index`-th listed neighbour c: the segment between c
/// and either tour neighbour e of c, a next to c (neither c nor e in the segment). The caller
/// stops at the first neighbour with d(a, c) >= g1 (nearest first: the partial gain only falls).
FORMICA_HD_TEMPLATE
template <class Tour, class Distance>
FORMICA_HD void or_opt_moves(const Tour& t, const Distance& distance, const CityContext& ctx,
                             const Segment& s, int c, int64_t d_ac, int index, LocalMove& best) {
  const int n = t.n();
  // Offset of a city from a along dir, in [0, n): the segment is offsets 0..length-1.
  const auto in_segment = [&](int city) {
    int o = (t.pos(city) - ctx.p) * s.dir;
    if (o < 0) o += n;
    return o < s.length;
  };
  if (in_segment(c)) return;
  const int qc = t.pos(c);
  for (int side = 0; side < 2; ++side) {
    const int e = t.at(qc + (side == 0 ? 1 : -1));
    if (in_segment(e)) continue;
    LocalMove m;
    m.gain = s.g1 - d_ac - distance(s.last, e) + distance(c, e);
    m.order = s.order_base + 2 * index + side;
    m.kind = MoveKind::OrOpt;
    m.city[0] = ctx.a, m.city[1] = s.last, m.city[2] = c, m.city[3] = e, m.city[4] = s.before,
    m.city[5] = s.after;
    if (better_move(m, best)) best = m;
  }
}

/// The smallest tour the 3-opt moves are searched on.
inline constexpr int kThreeOptMinCities = 8;

/// The sequential 3-opt moves (Lin-Kernighan steps of depth 3, the kind whose first step alone
/// would already be a valid 2-opt move) start at t2 = a: t1 is a's tour neighbour on side `dir`
/// (t2 follows t1 going in direction dir), t3 a listed neighbour of a with g1 = d(t1, t2) -
/// d(t2, t3) > 0, t4 the city before t3 (direction dir), so that closing with (t4, t1) would be a
/// 2-opt move; t5 a listed neighbour of t4 with g2 = g1 + d(t3, t4) - d(t4, t5) > 0, and t6 the
/// neighbour of t5 that makes removing (t5, t6) and closing with (t6, t1) a valid tour. Their search
/// order comes after the 2k 2-opt and 12k Or-opt orders: side dir = +1 first, then t3's index, then
/// t5's.
FORMICA_HD inline int three_opt_order(int k, int dir, int index3, int index5) {
  return 14 * k + ((dir > 0 ? 0 : k) + index3) * k + index5;
}

/// The 3-opt moves with t2 = a, side `dir` and t3 a's `index`-th listed neighbour, d_23 = d(a, t3)
/// (the caller stops at the first t3 with d_23 >= d(t1, a): nearest first, g1 only falls); t5 runs
/// over t4's list in `lists`, the n x k neighbour lists (nearest first).
FORMICA_HD_TEMPLATE
template <class Tour, class Distance>
FORMICA_HD void three_opt_moves(const Tour& t, const Distance& distance, const CityContext& ctx, int dir,
                                int t3, int64_t d_23, int index, const int32_t* lists, int k,
                                LocalMove& best) {
  const int n = t.n(), t2 = ctx.a;
  const int t1 = dir > 0 ? ctx.pred : ctx.succ;
  const int64_t d_12 = dir > 0 ? ctx.d_pred : ctx.d_succ;
  const int q3 = t.pos(t3);
  const int t4 = t.at(q3 - dir);
  if (t3 == t1 || t4 == t2) return;  // t3 a tour neighbour of t2: no 3-opt move
  const int64_t open = d_12 - d_23 + distance(t3, t4);  // g1 + d(t3, t4): (t3, t4) taken away
  // After the first step the tour runs t2 ..X.. t4 t1 ..Y reversed.. t3 (t2): X the cities from
  // t2 to t4 going in direction dir (offsets below off3 from t2), Y those from t3 to t1.
  const auto offset = [&](int city) {
    int o = (t.pos(city) - ctx.p) * dir;
    if (o < 0) o += n;
    return o;
  };
  const int off3 = offset(t3);
  const int before_t4 = t.at(t.pos(t4) - dir);  // t4's other neighbour after the first step
  const int32_t* list4 = lists + static_cast<size_t>(t4) * k;
  for (int index5 = 0; index5 < k; ++index5) {
    const int t5 = list4[index5];
    const int64_t g2 = open - distance(t4, t5);
    if (g2 <= 0) break;  // nearest first: g2 only falls
    if (t5 == t1 || t5 == t3 || t5 == before_t4) continue;
    // t6 follows t5 in the tour after the first step: along dir in X, against it in Y.
    const int q5 = t.pos(t5);
    const int t6 = offset(t5) < off3 ? t.at(q5 + dir) : t.at(q5 - dir);
    LocalMove m;
    m.gain = g2 + distance(t5, t6) - distance(t6, t1);
    m.order = three_opt_order(k, dir, index, index5);
    m.kind = MoveKind::ThreeOpt;
    m.city[0] = t1, m.city[1] = t2, m.city[2] = t3, m.city[3] = t4, m.city[4] = t5, m.city[5] = t6;
    if (better_move(m, best)) best = m;
  }
}

/// The sequential 3-opt move t1..t6 (three_opt_moves) on `t`: two 2-opt moves, the first replacing
/// (t1, t2), (t3, t4) by (t2, t3), (t4, t1), the second (t4, t1), (t5, t6) by (t4, t5), (t6, t1).
FORMICA_HD_TEMPLATE
template <class Tour>
FORMICA_HD void apply_three_opt(Tour& t, const int* city) {
  t.exchange(city[1], city[0], city[2], city[3]);
  t.exchange(city[3], city[0], city[4], city[5]);
}

/// Or-opt on `t`: moves the segment from x to y (a path of at most a few cities, in either
/// direction, with at least three cities outside it) between the adjacent cities c and d (a tour
/// edge with neither end in the segment), x next to c and y next to d. Three 2-opt moves at most;
/// every other edge of the tour stays.
FORMICA_HD_TEMPLATE
template <class Tour>
FORMICA_HD void apply_or_opt(Tour& t, int x, int y, int c, int d) {
  const int n = t.n();
  // The segment's direction: from x forward to y is the short way round, or not.
  int ahead = t.pos(y) - t.pos(x);
  if (ahead < 0) ahead += n;
  const bool forward_segment = ahead <= n - ahead;
  // In array order: the segment s1..sL with p before it and q after it, and the edge cf -> df.
  const int s1 = forward_segment ? x : y, sl = forward_segment ? y : x;
  const int p = t.pred(s1), q = t.succ(sl);
  const bool c_first = t.succ(c) == d;
  const int cf = c_first ? c : d, df = c_first ? d : c;
  // After the move cf is adjacent to s1 ("in order") or to sL ("reversed").
  const bool in_order = (cf == c) == (s1 == x);
  if (df != p) {
    t.exchange(p, s1, cf, df);              // p-cf, s1-df
    if (cf != q) t.exchange(p, cf, q, sl);  // p-q, cf-sL: cf sL..s1 df
  } else {
    t.exchange(q, sl, df, cf);  // q-p, sL-cf: cf sL..s1 p q
  }
  if (in_order) t.exchange(cf, sl, s1, df);  // cf s1..sL df
}

/// Applies `m` to `t` and writes the cities of its changed edges to `ends` (4 for 2-opt, 6 for
/// Or-opt and 3-opt, in the order the climbers queue them); returns how many.
FORMICA_HD_TEMPLATE
template <class Tour>
FORMICA_HD int apply_move(Tour& t, const LocalMove& m, int* ends) {
  if (m.kind == MoveKind::TwoOpt) {
    ends[0] = t.at(m.e1), ends[1] = t.at(m.e1 + 1), ends[2] = t.at(m.e2), ends[3] = t.at(m.e2 + 1);
    t.two_opt(m.e1, m.e2);
    return 4;
  }
  for (int i = 0; i < 6; ++i) ends[i] = m.city[i];
  if (m.kind == MoveKind::OrOpt)
    apply_or_opt(t, m.city[0], m.city[1], m.city[2], m.city[3]);
  else
    apply_three_opt(t, m.city);
  return 6;
}

}  // namespace formica::localsearch
