// SPDX-License-Identifier: MIT
// Sequential k-opt moves: feasibility, application and the step's search (see k_opt_move.h).
#include "localsearch/cpu/k_opt_move.h"

#include <algorithm>
#include <utility>

namespace formica::localsearch::cpu {
namespace {

constexpr int kMaxEnds = 2 * kMaxKOpt;

/// The stretches the removed edges cut the tour into. Each city t[j] of the move is an end of
/// one: other[j] is the index of the other end of its stretch, and starts[j] says whether the
/// stretch begins (going forward in the array) at t[j].
struct Stretches {
  int other[kMaxEnds];
  bool starts[kMaxEnds];

  Stretches(const ArrayTour& tour, std::span<const int32_t> t) {
    const int m = static_cast<int>(t.size());
    int key[kMaxEnds], order[kMaxEnds];
    for (int i = 0; i < m; i += 2) {
      // Of the edge (t[i], t[i+1]), the end that comes first in the array ends a stretch, the
      // other starts the next one; at a position held by both kinds (a stretch of one city) the
      // start sorts first.
      const bool forward = tour.succ(t[i]) == t[i + 1];
      key[i] = 2 * tour.pos(t[i]) + (forward ? 1 : 0);
      key[i + 1] = 2 * tour.pos(t[i + 1]) + (forward ? 0 : 1);
    }
    for (int j = 0; j < m; ++j) {
      int at = j;
      while (at > 0 && key[order[at - 1]] > key[j]) order[at] = order[at - 1], --at;
      order[at] = j;
    }
    // The first in the array may end the stretch that wraps round position 0: it goes last.
    const int shift = (key[order[0]] & 1) ? 1 : 0;
    for (int s = 0; s < m; s += 2) {
      const int a = order[(s + shift) % m], b = order[(s + 1 + shift) % m];
      other[a] = b, other[b] = a;
      starts[a] = true, starts[b] = false;
    }
  }
};

/// The index joined to t[j] by an added edge: (t[2i+1], t[2i+2]) and the closing (t[2k-1], t[0]).
int partner(int j, int m) { return j % 2 ? (j + 1) % m : (j + m - 1) % m; }

bool same_edge(int a, int b, int c, int d) { return (a == c && b == d) || (a == d && b == c); }

}  // namespace

bool feasible_k_opt(const ArrayTour& tour, std::span<const int32_t> t) {
  const int m = static_cast<int>(t.size()), k = m / 2;
  const Stretches s(tour, t);
  int j = 0, visited = 0;
  do {
    j = partner(s.other[j], m);
    ++visited;
  } while (j != 0 && visited <= k);
  return visited == k;
}

int apply_k_opt(ArrayTour& tour, std::span<const int32_t> t, std::vector<int32_t>& scratch) {
  const int m = static_cast<int>(t.size()), n = tour.n();
  const Stretches s(tour, t);
  const auto length = [&](int start) {
    const int d = tour.pos(t[s.other[start]]) - tour.pos(t[start]);
    return (d < 0 ? d + n : d) + 1;
  };
  int keep = -1;  // the start of the longest stretch
  for (int j = 0; j < m; ++j)
    if (s.starts[j] && (keep < 0 || length(j) > length(keep))) keep = j;
  // Walk the new tour from the kept stretch's end, copying the other stretches in their new order
  // and direction, then write them after it.
  scratch.clear();
  for (int j = partner(s.other[keep], m); j != keep; j = partner(s.other[j], m)) {
    const int from = tour.pos(t[j]), to = tour.pos(t[s.other[j]]);
    const int step = s.starts[j] ? 1 : -1;
    for (int p = from;; p += step) {
      if (p == n) p = 0;
      if (p < 0) p = n - 1;
      scratch.push_back(tour.at(p));
      if (p == to) break;
    }
  }
  int p = tour.pos(t[s.other[keep]]);
  for (const int32_t city : scratch) {
    if (++p == n) p = 0;
    tour.place(p, city);
  }
  return static_cast<int>(scratch.size());
}

bool search_sequential_k_opt(const ArrayTour& tour, const Instance& instance, const CandidateLists& lists,
                             int neighbours, int k, const ChainEdges& edges, int t1, int t2, int64_t g, int width,
                             KOptMove& closing, std::vector<KOptMove>& open) {
  open.clear();
  const int row = std::min(neighbours, lists.k());
  KOptMove move;
  move.t[0] = t1, move.t[1] = t2;
  const auto d = [&](int a, int b) { return instance.distance(a, b); };
  // Whether the move's first `pairs` removed edges, or its added edges up to t[2 pairs - 1],
  // already hold (a, b).
  const auto removes = [&](int pairs, int a, int b) {
    for (int i = 0; i < pairs; ++i)
      if (same_edge(move.t[2 * i], move.t[2 * i + 1], a, b)) return true;
    return false;
  };
  const auto adds = [&](int pairs, int a, int b) {
    for (int i = 0; i + 1 < pairs; ++i)
      if (same_edge(move.t[2 * i + 1], move.t[2 * i + 2], a, b)) return true;
    return false;
  };
  // Extends the move that has removed `pairs` edges, with gain g so far.
  const auto extend = [&](const auto& self, int pairs, int64_t gain) -> bool {
    const int from = move.t[2 * pairs - 1];
    for (const int32_t a : lists.of(from).first(static_cast<size_t>(row))) {
      const int64_t g1 = gain - d(from, a);
      if (g1 <= 0) continue;  // lists need not be nearest first (alpha-nearest)
      if (a == t1 || a == tour.succ(from) || a == tour.pred(from) || !edges.may_add(from, a) ||
          adds(pairs, from, a))
        continue;
      for (const int b : {tour.succ(a), tour.pred(a)}) {
        if (!edges.may_remove(a, b) || removes(pairs, a, b)) continue;
        move.t[2 * pairs] = a, move.t[2 * pairs + 1] = b;
        move.size = 2 * pairs + 2;
        const int64_t g2 = g1 + d(a, b);
        // b = t1 (t1's other edge removed) cannot close, but the move may go on from it. The
        // feasibility check costs most: only a move that would close shorter, or join the open
        // moves, is checked.
        if (b != t1 && edges.may_add(b, t1) && !adds(pairs + 1, b, t1)) {
          const int64_t closed = g2 - d(b, t1);
          const bool last = pairs + 1 == k;
          const bool joins = last && (static_cast<int>(open.size()) < width || g2 > open.back().gain);
          if ((closed > 0 || joins) && feasible_k_opt(tour, move.cities())) {
            if (closed > 0) {
              closing = move;
              closing.gain = closed;
              return true;
            }
            KOptMove m = move;
            m.gain = g2;
            keep_best(open, m, width);
          }
        }
        if (pairs + 1 < k && self(self, pairs + 1, g2)) return true;
      }
    }
    return false;
  };
  return extend(extend, 1, g);
}

}  // namespace formica::localsearch::cpu
