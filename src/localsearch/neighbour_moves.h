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

/// A move found from one city. Among equal gains the smaller `order` wins: the order in which the
/// CPU climber tries them (2-opt with neighbour t: 2t, 2t + 1; then Or-opt, see or_opt_moves).
struct LocalMove {
  int64_t gain = 0;
  int order = 0;
  bool or_opt = false;
  int e1 = -1, e2 = -1;                // 2-opt: the two removed edges, as positions
  int x = -1, y = -1, c = -1, e = -1;  // Or-opt: segment x..y goes between c and e, x next to c
  int before = -1, after = -1;         // Or-opt: the cities next to x and y outside the segment
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
    m.or_opt = true;
    m.x = ctx.a, m.y = s.last, m.c = c, m.e = e, m.before = s.before, m.after = s.after;
    if (better_move(m, best)) best = m;
  }
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
/// Or-opt, in the order the climbers queue them); returns how many.
FORMICA_HD_TEMPLATE
template <class Tour>
FORMICA_HD int apply_move(Tour& t, const LocalMove& m, int* ends) {
  if (!m.or_opt) {
    ends[0] = t.at(m.e1), ends[1] = t.at(m.e1 + 1), ends[2] = t.at(m.e2), ends[3] = t.at(m.e2 + 1);
    t.two_opt(m.e1, m.e2);
    return 4;
  }
  ends[0] = m.x, ends[1] = m.y, ends[2] = m.c, ends[3] = m.e, ends[4] = m.before, ends[5] = m.after;
  apply_or_opt(t, m.x, m.y, m.c, m.e);
  return 6;
}

}  // namespace formica::localsearch
