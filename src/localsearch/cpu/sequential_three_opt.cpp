// SPDX-License-Identifier: MIT
// The 3-opt step of Lin-Kernighan: its search and how a move is applied (see sequential_three_opt.h).
#include "localsearch/cpu/sequential_three_opt.h"

#include <algorithm>
#include <cstdlib>
#include <type_traits>
#include <utility>

namespace formica::localsearch::cpu {
namespace {

/// The tour seen going from t1 to t2: succ, pred and between in that direction.
template <class Tour>
struct Oriented {
  const Tour& t;
  bool forward;
  int suc(int c) const { return forward ? t.succ(c) : t.pred(c); }
  int pre(int c) const { return forward ? t.pred(c) : t.succ(c); }
  /// b lies on the way from a to c (both included).
  bool between(int a, int b, int c) const { return forward ? t.between(a, b, c) : t.between(c, b, a); }
};

template <class Tour>
void logged_exchange(Tour& t, std::vector<Exchange>& log, int u1, int u2, int v1, int v2) {
  t.exchange(u1, u2, v1, v2);
  log.push_back({u1, u2, v1, v2});
}

}  // namespace

std::vector<int32_t> list_distances(const Instance& instance, const CandidateLists& lists) {
  std::vector<int32_t> distances(lists.data().size());
  const auto k = static_cast<size_t>(lists.k());
  for (int c = 0; c < lists.n(); ++c) {
    const auto row = lists.of(c);
    for (size_t i = 0; i < row.size(); ++i)
      distances[static_cast<size_t>(c) * k + i] = static_cast<int32_t>(instance.distance(c, row[i]));
  }
  return distances;
}

template <class Tour>
bool search_sequential_three_opt(const Tour& t, const Instance& instance, const CandidateLists& lists,
                                 const ChainEdges& edges, int t1, int t2, int64_t g, int width,
                                 SequentialMove& closing, std::vector<SequentialMove>& open,
                                 std::span<const int32_t> distances, int max_reversal) {
  open.clear();
  const Oriented<Tour> o{t, t.succ(t1) == t2};
  // a and b more than max_reversal positions apart along the tour, either way round (an array's
  // bound: a two-level list has no positions, and no long reversals to avoid).
  const auto far = [&t, max_reversal](int a, int b) {
    if constexpr (std::is_same_v<Tour, ArrayTour>) {
      if (max_reversal <= 0) return false;
      const int apart = std::abs(t.pos(a) - t.pos(b));
      return std::min(apart, t.n() - apart) > max_reversal;
    } else {
      return false;
    }
  };
  const auto d = [&](int a, int b) { return instance.distance(a, b); };
  const auto k = static_cast<size_t>(lists.k());
  // d(c, lists.of(c)[i]), from the table when there is one.
  const auto listed = [&](int c, size_t i, int32_t city) {
    return distances.empty() ? d(c, city) : int64_t{distances[static_cast<size_t>(c) * k + i]};
  };
  const auto row2 = lists.of(t2);
  const int after2 = o.suc(t2);
  for (size_t i3 = 0; i3 < row2.size(); ++i3) {
    const int32_t t3 = row2[i3];
    const int64_t g1 = g - listed(t2, i3, t3);
    if (g1 <= 0) continue;  // lists need not be nearest first (alpha-nearest)
    if (t3 == t1 || t3 == after2 || !edges.may_add(t2, t3) || far(t2, t3)) continue;
    for (const bool before : {true, false}) {  // t4 before t3 (a 2-opt move closes) or after it
      const int t4 = before ? o.pre(t3) : o.suc(t3);
      if (!edges.may_remove(t3, t4)) continue;
      const int64_t g2 = g1 + d(t3, t4);
      if (before && edges.may_add(t4, t1) && g2 - d(t4, t1) > 0) {
        closing = {t1, t2, t3, t4, -1, -1, g2 - d(t4, t1)};
        return true;
      }
      const auto row4 = lists.of(t4);
      const int after4 = o.suc(t4), before4 = o.pre(t4);  // read once: the loop writes `open`
      for (size_t i5 = 0; i5 < row4.size(); ++i5) {
        const int32_t t5 = row4[i5];
        const int64_t g3 = g2 - listed(t4, i5, t5);
        if (g3 <= 0) continue;
        if (t5 == after4 || t5 == before4 || t5 == t1 || !edges.may_add(t4, t5) || far(t4, t5)) continue;
        // The t6 that close a tour: after the 2-opt step the tour is the path t4 .. t2 t3 .. t1,
        // and t6 is t5's neighbour on it towards t4; otherwise (t2 .. t3 a cycle) t5 must be on
        // that cycle, and either neighbour there will do.
        int t6s[2], count = 0;
        if (before) {
          t6s[count++] = o.between(t2, t5, t4) ? o.suc(t5) : o.pre(t5);
        } else {
          if (!o.between(t2, t5, t3)) continue;
          if (t5 != t3) t6s[count++] = o.suc(t5);
          if (t5 != t2) t6s[count++] = o.pre(t5);
        }
        for (int i = 0; i < count; ++i) {
          const int t6 = t6s[i];
          if (!edges.may_remove(t5, t6) || !edges.may_add(t6, t1)) continue;
          const int64_t g4 = g3 + d(t5, t6);
          if (g4 - d(t6, t1) > 0) {
            closing = {t1, t2, t3, t4, t5, t6, g4 - d(t6, t1)};
            return true;
          }
          keep_best(open, SequentialMove{t1, t2, t3, t4, t5, t6, g4}, width);
        }
      }
    }
  }
  return false;
}

template <class Tour>
void apply_sequential_three_opt(Tour& t, const SequentialMove& m, std::vector<Exchange>& log) {
  const Oriented<Tour> o{t, t.succ(m.t1) == m.t2};
  if (m.t5 < 0 || o.pre(m.t3) == m.t4) {
    // t4 before t3: the 2-opt move, then (t4, t1), (t5, t6) replaced by (t4, t5), (t6, t1).
    logged_exchange(t, log, m.t2, m.t1, m.t3, m.t4);
    if (m.t5 >= 0) logged_exchange(t, log, m.t1, m.t4, m.t6, m.t5);
    return;
  }
  if (o.suc(m.t5) == m.t6) {
    // t1 [t2 .. t5 t6 .. t3] t4 becomes t1 [t6 .. t3] [t2 .. t5] t4: both stretches kept in
    // direction, by reversing the whole and then each stretch.
    logged_exchange(t, log, m.t1, m.t2, m.t3, m.t4);  // t1 t3 .. t6 t5 .. t2 t4
    logged_exchange(t, log, m.t1, m.t3, m.t6, m.t5);  // t1 t6 .. t3 t5 .. t2 t4
    logged_exchange(t, log, m.t3, m.t5, m.t2, m.t4);  // t1 t6 .. t3 t2 .. t5 t4
    return;
  }
  // t1 [t2 .. t6 t5 .. t3] t4 becomes t1 [t6 .. t2] [t3 .. t5] t4: each stretch reversed in place.
  logged_exchange(t, log, m.t1, m.t2, m.t6, m.t5);  // t1 t6 .. t2 t5 .. t3 t4
  logged_exchange(t, log, m.t2, m.t5, m.t3, m.t4);  // t1 t6 .. t2 t3 .. t5 t4
}

template <class Tour>
void undo_exchanges(Tour& t, std::vector<Exchange>& log, size_t keep) {
  while (log.size() > keep) {
    const Exchange e = log.back();
    t.exchange(e.u1, e.v1, e.u2, e.v2);  // removes (u1, v1), (u2, v2): what the exchange added
    log.pop_back();
  }
}

#define FORMICA_THREE_OPT_FOR(Tour)                                                                       \
  template bool search_sequential_three_opt(const Tour&, const Instance&, const CandidateLists&,          \
                                            const ChainEdges&, int, int, int64_t, int, SequentialMove&,   \
                                            std::vector<SequentialMove>&, std::span<const int32_t>, int); \
  template void apply_sequential_three_opt(Tour&, const SequentialMove&, std::vector<Exchange>&);         \
  template void undo_exchanges(Tour&, std::vector<Exchange>&, size_t);
FORMICA_THREE_OPT_FOR(ArrayTour)
FORMICA_THREE_OPT_FOR(TwoLevelTour)
#undef FORMICA_THREE_OPT_FOR

}  // namespace formica::localsearch::cpu
