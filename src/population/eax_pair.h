// SPDX-License-Identifier: MIT
// One pair's edge assembly crossover over flat arrays, for the host and the GPU alike: GA-EAX's
// single-AB-cycle children of parents A and B (the first stage of the population search), their
// best by the search's score. It is EdgeAssembly::best_child (edge_assembly.h, which explains the
// crossover) without block E-sets, written over raw arrays of fixed capacity so that the same
// code runs on the GPU (population/cuda/eax_children.cu: a block per pair, a warp per child, the
// joins' scans on its lanes; hence a child's phases, start_child to apply_join) and on the host,
// where its tests check it child for child against EdgeAssembly: the same random draws in the same
// order, the same lists in the same order, hence the same children and the same score sums.
//
// What a pair needs of its parents: A's tour, positions and links (successor, predecessor), B's
// tour. What it needs of the instance: exact distances and the nearest-neighbour lists. Every
// per-city array of the workspace is sized for n cities (PairArrays gives the sizes); the stamp and
// mark arrays must be zero before the first pair and are kept valid from pair to pair.
#pragma once

#include <cstdint>

#include "core/distance.h"  // FORMICA_HD
#include "core/rng.h"

namespace formica::population::eax {

/// Where a pair's crossover failed its own invariants: a bug, reported by the caller (the host
/// throws; the GPU copies it back), never bad input.
enum class PairFault : int32_t {
  None = 0,
  AbPathStuck,       ///< an AB path with no edge left at its end
  CityTooOften,      ///< a city more than four times on an AB path
  NoExchange,        ///< an AB-cycle whose exchange is inconsistent
  EdgeInNeither,     ///< a removed edge in neither parent
  EdgeNotInChild,    ///< an edge taken out of a child that holds no such edge
  CityDegree,        ///< a city without two edges in a child
};

/// Parent A as the crossover reads it.
struct ParentView {
  int n = 0;
  const int32_t* tour = nullptr;   ///< n cities
  const int32_t* pos = nullptr;    ///< n: city -> position
  const int32_t* links = nullptr;  ///< 2n: successor, predecessor
  FORMICA_HD int32_t succ(int32_t c) const { return links[2 * c]; }
  FORMICA_HD int32_t pred(int32_t c) const { return links[2 * c + 1]; }
  FORMICA_HD bool adjacent(int32_t u, int32_t v) const { return links[2 * u] == v || links[2 * u + 1] == v; }
};

/// Carves per-city arrays out of one block of words: take(k) gives the next k * n of them.
struct WordCarver {
  int32_t* next;
  size_t n;
  FORMICA_HD int32_t* take(size_t per_city) {
    int32_t* p = next;
    next += per_city * n;
    return p;
  }
};

/// The workspace of one child: per city up to two removed and two added neighbours of A, valid
/// while stamp == stamp_now, its exchange's edges, and the pieces of that exchange
/// (MergeBase::exchange_pieces). Edges are (a, b) pairs with a < b, flattened.
struct ChildWork {
  /// int32 words per city: 21 used, one more so that every workspace after this one starts
  /// 8-byte aligned for any n (the ends are int64 pairs).
  static constexpr int kPerCity = 22;
  uint32_t* stamp = nullptr;  // n
  uint32_t stamp_now = 0;
  int32_t* gone = nullptr;     // 2n
  int32_t* extra = nullptr;    // 2n
  int32_t* removed = nullptr;  // 2n
  int32_t* added = nullptr;    // 2n
  int removed_edges = 0, added_edges = 0;
  int32_t* cut = nullptr;          // n
  int32_t* link = nullptr;         // 2n
  int32_t* ends = nullptr;         // 4n: (city, slot) pairs as int64, sorted
  int32_t* piece_cycle = nullptr;  // n
  int32_t* size = nullptr;         // n
  int32_t* root = nullptr;         // n
  uint32_t* mark = nullptr;        // n
  uint32_t mark_now = 0;
  int32_t* members = nullptr;  // n: the smallest subtour's cities, in the joins' scan order
  int pieces = 0, cycles = 0, smallest = -1;
  PairFault fault = PairFault::None;

  /// Points the arrays into the carver's next kPerCity * n words (8-byte aligned); stamp and mark
  /// must be zero there before the first child.
  FORMICA_HD void bind(WordCarver& words) {
    ends = words.take(4);  // first: its int64 pairs stay 8-byte aligned
    stamp = reinterpret_cast<uint32_t*>(words.take(1));
    gone = words.take(2);
    extra = words.take(2);
    removed = words.take(2);
    added = words.take(2);
    cut = words.take(1);
    link = words.take(2);
    piece_cycle = words.take(1);
    size = words.take(1);
    root = words.take(1);
    mark = reinterpret_cast<uint32_t*>(words.take(1));
    members = words.take(1);
  }
};

/// A pair's workspace: its parents' difference, G_AB, the AB-cycles, one child's workspace and the
/// best child so far, in PairArrays::kPerCity * n words (bind), and the state that runs from pair
/// to pair (the child's stamps). Edges are (a, b) pairs with a < b, flattened.
struct PairWork {
  static constexpr int kOwnPerCity = 30;  ///< int32 words per city besides the child's
  int n = 0;
  // The parents' difference and G_AB.
  int32_t* diff_removed = nullptr;  // 2n: A's edges that B lacks
  int32_t* diff_added = nullptr;    // 2n: B's edges that A lacks
  int removed_count = 0, added_count = 0;
  // 11n: per city one record of G_AB (detail::kNodeWords): two A slots, two B slots, their two
  // counts, the city's occurrences on the tracing path and their positions. One record is what a
  // step of the tracing reads, so that on the GPU it is one trip to memory, not one per array.
  int32_t* node = nullptr;
  int32_t* path = nullptr;      // 5n (at most 4n + 1 used)
  int32_t* starts = nullptr;    // n
  // The AB-cycles, traced: cycle c is cycle_cities[cycle_start[c] .. cycle_start[c + 1]).
  int32_t* cycle_cities = nullptr;  // 2n
  int32_t* cycle_start = nullptr;   // 2n (n + 1 used)
  int32_t* order = nullptr;         // n: the cycles in the order children are made of them
  int cycles = 0;
  ChildWork child;
  // The best child so far.
  int32_t* best_removed = nullptr;  // 2n
  int32_t* best_added = nullptr;    // 2n
  int best_removed_edges = 0, best_added_edges = 0;
  PairFault fault = PairFault::None;

  /// Points the arrays into the carver's next PairArrays::kPerCity * n words (8-byte aligned):
  /// the child's first, then the pair's own.
  FORMICA_HD void bind(WordCarver& words, int cities) {
    n = cities;
    child.bind(words);
    diff_removed = words.take(2);
    diff_added = words.take(2);
    node = words.take(11);
    path = words.take(5);
    starts = words.take(1);
    cycle_cities = words.take(2);
    cycle_start = words.take(2);
    order = words.take(1);
    best_removed = words.take(2);
    best_added = words.take(2);
  }
  FORMICA_HD void bind(int32_t* words, int cities) {
    WordCarver carver{words, static_cast<size_t>(cities)};
    bind(carver, cities);
  }
};

/// The words per city of a pair's workspace (PairWork::bind).
struct PairArrays {
  static constexpr int kPerCity = PairWork::kOwnPerCity + ChildWork::kPerCity;
};
// Workspaces laid one after another stay 8-byte aligned, whatever n: an even number of words per city.
static_assert(PairArrays::kPerCity % 2 == 0 && ChildWork::kPerCity % 2 == 0);

namespace detail {

/// Occurrences of a city on the tracing path (EdgeAssembly's kOccurrences), and the start.
inline constexpr int kOccurrences = 4;
/// A city's record of G_AB (PairWork::node): its slots (two A edges, then two B edges) from
/// kSlotsAt, the counts of A's and B's from kCountAt, the path occurrences' count at kSeenAt and
/// their positions after it.
inline constexpr int kSlotsAt = 0, kCountAt = 4, kSeenAt = 6;
inline constexpr int kNodeWords = kSeenAt + 1 + kOccurrences;
static_assert(kNodeWords == 11, "PairWork::bind takes 11 words a city for the records");

FORMICA_HD inline void push_edge(int32_t* edges, int& count, int32_t u, int32_t v) {
  edges[2 * count] = u < v ? u : v;
  edges[2 * count + 1] = u < v ? v : u;
  ++count;
}

/// Removes edge (u, v) from a list by moving the last one into its place, as erase_edge does;
/// false when the list holds no such edge.
FORMICA_HD inline bool erase_edge(int32_t* edges, int& count, int32_t u, int32_t v) {
  const int32_t a = u < v ? u : v, b = u < v ? v : u;
  for (int i = 0; i < count; ++i)
    if (edges[2 * i] == a && edges[2 * i + 1] == b) {
      --count;
      edges[2 * i] = edges[2 * count];
      edges[2 * i + 1] = edges[2 * count + 1];
      return true;
    }
  return false;
}

/// Heap sort of `count` values (distinct ones give std::sort's order).
template <class T>
FORMICA_HD void heap_sort(T* values, int count) {
  const auto sift = [values](int root, int end) {
    while (2 * root + 1 < end) {
      int child = 2 * root + 1;
      if (child + 1 < end && values[child] < values[child + 1]) ++child;
      if (!(values[root] < values[child])) return;
      const T t = values[root];
      values[root] = values[child];
      values[child] = t;
      root = child;
    }
  };
  for (int i = count / 2 - 1; i >= 0; --i) sift(i, count);
  for (int end = count - 1; end > 0; --end) {
    const T t = values[0];
    values[0] = values[end];
    values[end] = t;
    sift(0, end);
  }
}

}  // namespace detail

/// The edges in which B (its tour `b`) differs from A at positions [from, to) of B, appended to
/// the lists at `added` and `removed` (edge counts, advanced), in the order MergeBase::difference
/// lists them. With null lists, only counts.
FORMICA_HD inline void difference_between(const ParentView& a, const int32_t* b, int from, int to,
                                          int32_t* added_list, int& added, int32_t* removed_list, int& removed) {
  const int n = a.n;
  for (int p = from; p < to; ++p) {
    const int32_t v = b[p], next = b[p + 1 < n ? p + 1 : 0], prev = b[p > 0 ? p - 1 : n - 1];
    if (!a.adjacent(v, next)) {
      if (added_list != nullptr) {
        detail::push_edge(added_list, added, v, next);
      } else {
        ++added;
      }
    }
    const int32_t around[2] = {a.succ(v), a.pred(v)};
    for (const int32_t x : around)
      if (x != prev && x != next && v < x) {
        if (removed_list != nullptr) {
          detail::push_edge(removed_list, removed, v, x);
        } else {
          ++removed;
        }
      }
  }
}

/// The edges in which B (its tour `b`) differs from A, as MergeBase::difference lists them.
FORMICA_HD inline void difference(const ParentView& a, const int32_t* b, PairWork& w) {
  w.removed_count = w.added_count = 0;
  difference_between(a, b, 0, a.n, w.diff_added, w.added_count, w.diff_removed, w.removed_count);
}

/// How many steps of its walk the tracing takes between two looks at its stop flag.
inline constexpr int kStopPollSteps = 4096;

/// The AB-cycles of the difference (after difference()), traced as EdgeAssembly::ab_cycles traces
/// them; false on a fault (w.fault says which) or when `*stop` (when given: the GPU's flag) turned
/// non-zero, looked at every kStopPollSteps steps (w.fault None, the cycles unfinished).
FORMICA_HD inline bool ab_cycles(PairWork& w, RandomStream& rng, const volatile int* stop = nullptr) {
  using detail::kCountAt;
  using detail::kNodeWords;
  using detail::kOccurrences;
  using detail::kSeenAt;
  using detail::kSlotsAt;
  w.cycles = 0;
  w.cycle_start[0] = 0;
  if (w.removed_count == 0) return true;
  const auto node = [&w](int32_t c) { return w.node + static_cast<size_t>(kNodeWords) * c; };
  int starts = 0;
  for (int kind = 0; kind < 2; ++kind) {
    const int32_t* edges = kind == 0 ? w.diff_removed : w.diff_added;
    const int count = kind == 0 ? w.removed_count : w.added_count;
    for (int e = 0; e < 2 * count; ++e) {
      int32_t* r = node(edges[e]);
      r[kCountAt] = r[kCountAt + 1] = r[kSeenAt] = 0;
    }
  }
  const auto link = [&node](int32_t u, int32_t v, int kind) {
    int32_t* ru = node(u);
    int32_t* rv = node(v);
    ru[kSlotsAt + 2 * kind + ru[kCountAt + kind]++] = v;
    rv[kSlotsAt + 2 * kind + rv[kCountAt + kind]++] = u;
  };
  for (int e = 0; e < w.removed_count; ++e) {
    link(w.diff_removed[2 * e], w.diff_removed[2 * e + 1], 0);
    w.starts[starts++] = w.diff_removed[2 * e];
  }
  for (int e = 0; e < w.added_count; ++e) link(w.diff_added[2 * e], w.diff_added[2 * e + 1], 1);
  const auto unlink = [](int32_t* rx, int32_t y, int kind) {
    int32_t* slots = rx + kSlotsAt + 2 * kind;
    int32_t& count = rx[kCountAt + kind];
    const int i = slots[0] == y ? 0 : 1;
    slots[i] = slots[--count];
  };
  int written = 0;
  int steps = 0;
  const auto stopped = [&] { return stop != nullptr && ++steps % kStopPollSteps == 0 && *stop != 0; };
  while (starts > 0) {
    if (stopped()) return false;
    const uint32_t r = rng.below(static_cast<uint32_t>(starts));
    const int32_t s = w.starts[r];
    int32_t* rs = node(s);
    if (rs[kCountAt] == 0) {
      w.starts[r] = w.starts[--starts];
      continue;
    }
    int length = 1;  // the path: w.path[0 .. length), its last city `v`
    w.path[0] = s;
    rs[kSeenAt + 1 + rs[kSeenAt]++] = 0;
    int32_t v = s;
    while (length > 0) {
      if (stopped()) return false;
      const int last = length - 1;
      const int kind = last % 2;  // A edges leave even positions
      int32_t* rv = node(v);
      const int count = rv[kCountAt + kind];
      if (count == 0) {  // only the start, all its edges traced
        if (last != 0) {
          w.fault = PairFault::AbPathStuck;
          return false;
        }
        --rv[kSeenAt];
        length = 0;
        break;
      }
      const int32_t x = rv[kSlotsAt + 2 * kind + (count == 2 ? static_cast<int>(rng.below(2)) : 0)];
      int32_t* rx = node(x);
      unlink(rv, x, kind);
      unlink(rx, v, kind);
      const int at = last + 1;
      int j = -1;
      int32_t* seen = rx + kSeenAt;
      for (int o = seen[0]; o >= 1 && j < 0; --o)
        if ((seen[o] - at) % 2 == 0) j = seen[o];
      if (j < 0) {
        if (seen[0] >= kOccurrences) {
          w.fault = PairFault::CityTooOften;
          return false;
        }
        w.path[length++] = x;
        seen[1 + seen[0]++] = at;
        v = x;
        continue;
      }
      // path[j .. at - 1] closed by the edge to x = path[j]; the cycle starts with an A edge.
      int32_t* out = w.cycle_cities + written;
      int m = 0;
      if (j % 2 == 0) {
        for (int i = j; i < length; ++i) out[m++] = w.path[i];
      } else {
        for (int i = j + 1; i < length; ++i) out[m++] = w.path[i];
        out[m++] = w.path[j];
      }
      written += m;
      w.cycle_start[++w.cycles] = written;
      for (int i = last; i > j; --i) --node(w.path[i])[kSeenAt];
      length = j + 1;
      v = w.path[j];
    }
  }
  return true;
}

/// A's edges of the child in the making, given the stamps: what EdgeAssembly's touch,
/// remove_edge, add_edge and neighbours do.
namespace detail {

FORMICA_HD inline void touch(ChildWork& w, int32_t city) {
  if (w.stamp[city] == w.stamp_now) return;
  w.stamp[city] = w.stamp_now;
  w.gone[2 * city] = w.gone[2 * city + 1] = w.extra[2 * city] = w.extra[2 * city + 1] = -1;
}

FORMICA_HD inline bool drop(int32_t* slots, int32_t x) {
  if (slots[0] == x) {
    slots[0] = -1;
  } else if (slots[1] == x) {
    slots[1] = -1;
  } else {
    return false;
  }
  return true;
}

FORMICA_HD inline bool remove_edge(const ParentView& a, ChildWork& w, int32_t u, int32_t v) {
  touch(w, u);
  touch(w, v);
  if (drop(&w.extra[2 * u], v)) {  // an edge the child added goes again
    drop(&w.extra[2 * v], u);
    if (!erase_edge(w.added, w.added_edges, u, v)) return w.fault = PairFault::EdgeNotInChild, false;
    return true;
  }
  if (!a.adjacent(u, v)) return w.fault = PairFault::EdgeInNeither, false;
  (w.gone[2 * u] < 0 ? w.gone[2 * u] : w.gone[2 * u + 1]) = v;
  (w.gone[2 * v] < 0 ? w.gone[2 * v] : w.gone[2 * v + 1]) = u;
  push_edge(w.removed, w.removed_edges, u, v);
  return true;
}

FORMICA_HD inline bool add_edge(ChildWork& w, int32_t u, int32_t v) {
  touch(w, u);
  touch(w, v);
  if (w.gone[2 * u] == v || w.gone[2 * u + 1] == v) {  // a base edge the child removed comes back
    (w.gone[2 * u] == v ? w.gone[2 * u] : w.gone[2 * u + 1]) = -1;
    (w.gone[2 * v] == u ? w.gone[2 * v] : w.gone[2 * v + 1]) = -1;
    if (!erase_edge(w.removed, w.removed_edges, u, v)) return w.fault = PairFault::EdgeNotInChild, false;
    return true;
  }
  (w.extra[2 * u] < 0 ? w.extra[2 * u] : w.extra[2 * u + 1]) = v;
  (w.extra[2 * v] < 0 ? w.extra[2 * v] : w.extra[2 * v + 1]) = u;
  push_edge(w.added, w.added_edges, u, v);
  return true;
}

FORMICA_HD inline bool child_neighbours(const ParentView& a, ChildWork& w, int32_t city, int32_t out[2]) {
  int found = 0;
  const bool touched = w.stamp[city] == w.stamp_now;
  const int32_t around[2] = {a.succ(city), a.pred(city)};
  for (const int32_t x : around)
    if (!touched || (w.gone[2 * city] != x && w.gone[2 * city + 1] != x)) {
      if (found == 2) return w.fault = PairFault::CityDegree, false;
      out[found++] = x;
    }
  if (touched)
    for (int s = 0; s < 2; ++s)
      if (const int32_t x = w.extra[2 * city + s]; x >= 0) {
        if (found == 2) return w.fault = PairFault::CityDegree, false;
        out[found++] = x;
      }
  if (found != 2) return w.fault = PairFault::CityDegree, false;
  return true;
}

/// The pieces of the child's exchange (MergeBase::exchange_pieces): returns the number of cycles
/// the base falls into, 0 when the edges are inconsistent.
FORMICA_HD inline int exchange_pieces(const ParentView& a, ChildWork& w) {
  const int n = a.n, k = w.removed_edges;
  if (k < 2 || w.added_edges != k) return 0;
  for (int e = 0; e < k; ++e) {
    const int32_t u = w.removed[2 * e], v = w.removed[2 * e + 1];
    if (a.succ(u) == v) {
      w.cut[e] = a.pos[u];
    } else if (a.succ(v) == u) {
      w.cut[e] = a.pos[v];
    } else {
      return 0;
    }
  }
  heap_sort(w.cut, k);
  for (int i = 1; i < k; ++i)
    if (w.cut[i] == w.cut[i - 1]) return 0;
  // Path ends as slots: 2 i is path i's first city, 2 i + 1 its last; sorted as (city, slot).
  int64_t* ends = reinterpret_cast<int64_t*>(w.ends);
  for (int i = 0; i < k; ++i) {
    const int32_t first = a.tour[w.cut[i] + 1 < n ? w.cut[i] + 1 : 0], last = a.tour[w.cut[(i + 1) % k]];
    ends[2 * i] = static_cast<int64_t>(first) << 32 | (2 * i);
    ends[2 * i + 1] = static_cast<int64_t>(last) << 32 | (2 * i + 1);
  }
  heap_sort(ends, 2 * k);
  for (int s = 0; s < 2 * k; ++s) w.link[s] = -1;
  const auto free_slot = [&](int32_t city) {
    int lo = 0, hi = 2 * k;  // the first end of `city`
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if ((ends[mid] >> 32) < city) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (; lo < 2 * k && (ends[lo] >> 32) == city; ++lo) {
      const int slot = static_cast<int>(ends[lo] & 0xffffffff);
      if (w.link[slot] < 0) return slot;
    }
    return -1;
  };
  for (int e = 0; e < k; ++e) {
    const int u = free_slot(w.added[2 * e]);
    if (u < 0) return 0;
    w.link[u] = -2;  // taken, so that a path of one city gives its other slot to the edge's other end
    const int v = free_slot(w.added[2 * e + 1]);
    if (v < 0) return 0;
    w.link[u] = v;
    w.link[v] = u;
  }
  for (int i = 0; i < k; ++i) w.piece_cycle[i] = -1;
  int cycles = 0;
  for (int start = 0; start < k; ++start) {
    if (w.piece_cycle[start] >= 0) continue;
    const int c = cycles++;
    w.size[c] = 0;
    int enter = 2 * start;
    do {
      const int i = enter >> 1;
      w.piece_cycle[i] = c;
      w.size[c] += (w.cut[(i + 1) % k] - w.cut[i] + n) % n;
      enter = w.link[enter ^ 1];
    } while (w.piece_cycle[enter >> 1] < 0);
  }
  return cycles;
}

/// The piece holding position p (MergeBase::Pieces::piece_at).
FORMICA_HD inline int piece_at(const ChildWork& w, int k, int p) {
  int lo = 0, hi = k;  // the first cut >= p
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (w.cut[mid] < p) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo - 1 >= 0 ? lo - 1 : k - 1;
}

}  // namespace detail

/// The cheapest join found so far of the smallest subtour to another: edges (u, u2) and (v, v2)
/// replaced by (u, v) and (u2, v2), `delta` the length it adds; `order` its place in the scan's
/// order (the host's loops), which breaks ties as the host's first strict minimum does.
struct JoinCandidate {
  int64_t delta = INT64_MAX;
  int64_t order = INT64_MAX;
  int32_t u = -1, u2 = -1, v = -1, v2 = -1;
  FORMICA_HD bool better_than(const JoinCandidate& other) const {
    return delta < other.delta || (delta == other.delta && order < other.order);
  }
};

/// A child's phases (make_child runs them in turn; the GPU runs the scan on every lane of a warp
/// and the rest on its first). start_child: the AB-cycle `cities` (m of them, the first edge one
/// of A's) applied, the pieces found; returns the number of subtours (0: no exchange, w.fault
/// set, or a fault on the way), its gain in `gain`.
template <class Distance>
FORMICA_HD int start_child(const ParentView& a, const Distance& distance, const int32_t* cities, int m, ChildWork& w,
                           int64_t& gain) {
  using namespace detail;
  w.fault = PairFault::None;
  if (++w.stamp_now == 0) {
    for (int c = 0; c < a.n; ++c) w.stamp[c] = 0;
    w.stamp_now = 1;
  }
  w.removed_edges = w.added_edges = 0;
  gain = 0;
  for (int i = 0; i < m; ++i) {
    const int32_t u = cities[i], v = cities[(i + 1) % m];
    if (i % 2 == 0) {
      if (!remove_edge(a, w, u, v)) return 0;
      gain += distance(u, v);
    } else {
      if (!add_edge(w, u, v)) return 0;
      gain -= distance(u, v);
    }
  }
  const int cycles = exchange_pieces(a, w);
  if (cycles <= 0) return w.fault = PairFault::NoExchange, 0;
  w.pieces = w.removed_edges;  // the cuts: the removed edges when the pieces were found
  w.cycles = cycles;
  for (int c = 0; c < cycles; ++c) w.root[c] = c;
  return cycles;
}

namespace detail {
/// The subtour that piece cycle c was joined into (union-find with path halving).
FORMICA_HD inline int joined(ChildWork& w, int c) {
  while (w.root[c] != c) c = w.root[c] = w.root[w.root[c]];
  return c;
}
}  // namespace detail

/// Before a join: the smallest subtour (the first of equal size), its cities marked and listed in
/// w.members in the scan's order; returns how many. On the GPU the lanes of a warp list it
/// together (lane `first` of `stride`: the cities at offsets first, first + stride, ... of each
/// piece, every lane with its own copy of w's counters, equal on every lane); every lane returns
/// the same count, and the warp syncs before it reads the lists.
FORMICA_HD inline int list_smallest(const ParentView& a, ChildWork& w, int first = 0, int stride = 1) {
  const int n = a.n, pieces = w.pieces;
  // The subtour of a piece cycle, without path halving: the lanes only read the forest.
  const auto subtour = [&w](int c) {
    while (w.root[c] != c) c = w.root[c];
    return c;
  };
  int smallest = -1;
  for (int c = 0; c < w.cycles; ++c)
    if (w.root[c] == c && (smallest < 0 || w.size[c] < w.size[smallest])) smallest = c;
  w.smallest = smallest;
  if (++w.mark_now == 0) {  // every lane at once: their counters are equal
    if (first == 0)
      for (int c = 0; c < n; ++c) w.mark[c] = 0;
    w.mark_now = 1;
#ifdef __CUDA_ARCH__
    __syncwarp();
#endif
  }
  int members = 0;
  for (int i = 0; i < pieces; ++i) {
    if (subtour(w.piece_cycle[i]) != smallest) continue;
    const int start = w.cut[i] + 1, length = (w.cut[(i + 1) % pieces] - w.cut[i] + n) % n;
    for (int s = first; s < length; s += stride) {
      const int32_t city = a.tour[(start + s) % n];
      w.mark[city] = w.mark_now;
      w.members[members + s] = city;
    }
    members += length;
  }
  return members;
}

/// The cheapest join over members first, first + stride, ... (of `members`): each city u of the
/// smallest subtour, its first `merge_neighbours` listed neighbours v outside it, each of u's and
/// v's two edges in the child; into `best` where better. False on a fault (w.fault set).
template <class Distance>
FORMICA_HD bool scan_joins(const ParentView& a, const Distance& distance, const int32_t* lists, int k,
                           int merge_neighbours, ChildWork& w, int members, int first, int stride,
                           JoinCandidate& best) {
  for (int o = first; o < members; o += stride) {
    const int32_t u = w.members[o];
    int32_t nu[2], nv[2];
    if (!detail::child_neighbours(a, w, u, nu)) return false;
    const int64_t u_edge[2] = {distance(u, nu[0]), distance(u, nu[1])};
    const int32_t* near = lists + static_cast<size_t>(u) * k;
    for (int l = 0; l < merge_neighbours; ++l) {
      const int32_t v = near[l];
      if (w.mark[v] == w.mark_now) continue;
      if (!detail::child_neighbours(a, w, v, nv)) return false;
      const int64_t uv = distance(u, v);
      const int64_t v_edge[2] = {distance(v, nv[0]), distance(v, nv[1])};
      for (int x = 0; x < 2; ++x)
        for (int y = 0; y < 2; ++y) {
          const int64_t delta = uv + distance(nu[x], nv[y]) - u_edge[x] - v_edge[y];
          if (delta < best.delta) {  // within one scan the order only grows: the first minimum stays
            best.delta = delta;
            best.order = (static_cast<int64_t>(o) * merge_neighbours + l) * 4 + 2 * x + y;
            best.u = u, best.u2 = nu[x], best.v = v, best.v2 = nv[y];
          }
        }
    }
  }
  return true;
}

/// Joins the smallest subtour by `join` (found: join.u >= 0), its delta taken off `gain`.
FORMICA_HD inline bool apply_join(const ParentView& a, ChildWork& w, const JoinCandidate& join, int64_t& gain) {
  using namespace detail;
  const int other = joined(w, w.piece_cycle[piece_at(w, w.pieces, a.pos[join.v])]);
  w.root[w.smallest] = other;
  w.size[other] += w.size[w.smallest];
  if (!remove_edge(a, w, join.u, join.u2) || !remove_edge(a, w, join.v, join.v2) || !add_edge(w, join.u, join.v) ||
      !add_edge(w, join.u2, join.v2))
    return false;
  gain -= join.delta;
  return true;
}

/// The child of A with the AB-cycle `cities` (m of them, the first edge one of A's) applied and
/// its subtours joined, the smallest first, each by the cheapest exchange (EdgeAssembly::child):
/// its gain, with its edges in w.removed and w.added; false when no child (a subtour without a
/// listed neighbour outside it) or on a fault (w.fault set).
template <class Distance>
FORMICA_HD bool make_child(const ParentView& a, const Distance& distance, const int32_t* lists, int k,
                           int merge_neighbours, const int32_t* cities, int m, ChildWork& w, int64_t& gain_out) {
  int64_t gain = 0;
  const int cycles = start_child(a, distance, cities, m, w, gain);
  if (cycles <= 0) return false;
  for (int left = cycles; left > 1; --left) {
    const int members = list_smallest(a, w);
    JoinCandidate best;
    if (!scan_joins(a, distance, lists, k, merge_neighbours, w, members, 0, 1, best)) return false;
    if (best.u < 0 || !apply_join(a, w, best, gain)) return false;
  }
  gain_out = gain;
  return true;
}

/// What a pair's crossover gives: the children made (0: the parents are the same tour) and the
/// best one's gain, its edges in w.best_removed and w.best_added (when made > 0).
struct PairResult {
  int made = 0;
  int64_t gain = 0;
};

/// Counts a child made (with its `gain` and `child_score`) and keeps it in w's best arrays when
/// it is the first or scores higher than the best so far (the first of equal scores stays).
FORMICA_HD inline void keep_if_best(PairWork& w, const ChildWork& child, int64_t gain, double child_score,
                                    PairResult& result, double& best_score) {
  if (result.made++ != 0 && !(child_score > best_score)) return;
  best_score = child_score;
  result.gain = gain;
  for (int e = 0; e < 2 * child.removed_edges; ++e) w.best_removed[e] = child.removed[e];
  for (int e = 0; e < 2 * child.added_edges; ++e) w.best_added[e] = child.added[e];
  w.best_removed_edges = child.removed_edges;
  w.best_added_edges = child.added_edges;
}

/// Up to `children` single-AB-cycle children of A and B (their difference in w, from
/// difference()), the best by `score`
/// (score(child, gain) of the child in its removed / added edges: larger is better; the first of equal
/// scores), as EdgeAssembly::best_child makes them without block E-sets. On a fault, w.fault says
/// which and the result is empty.
template <class Distance, class Score>
FORMICA_HD PairResult best_child_of_difference(const ParentView& a, const Distance& distance, const int32_t* lists,
                                               int k, int merge_neighbours, int children, RandomStream& rng,
                                               const Score& score, PairWork& w) {
  PairResult result;
  w.fault = PairFault::None;
  if (!ab_cycles(w, rng)) return {};
  const int count = w.cycles;
  for (int c = 0; c < count; ++c) w.order[c] = c;
  double best_score = 0;
  for (int i = 0; i < count && result.made < children; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<uint32_t>(count - i)));
    const int32_t t = w.order[i];
    w.order[i] = w.order[j];
    w.order[j] = t;
    const int32_t* cycle = w.cycle_cities + w.cycle_start[w.order[i]];
    const int m = w.cycle_start[w.order[i] + 1] - w.cycle_start[w.order[i]];
    int64_t gain = 0;
    if (!make_child(a, distance, lists, k, merge_neighbours, cycle, m, w.child, gain)) {
      if (w.child.fault != PairFault::None) return w.fault = w.child.fault, PairResult{};
      continue;
    }
    keep_if_best(w, w.child, gain, score(w.child, gain), result, best_score);
  }
  return result;
}

/// best_child_of_difference after difference(): the whole crossover of A and B.
template <class Distance, class Score>
FORMICA_HD PairResult best_child(const ParentView& a, const int32_t* b, const Distance& distance,
                                 const int32_t* lists, int k, int merge_neighbours, int children,
                                 RandomStream& rng, const Score& score, PairWork& w) {
  difference(a, b, w);
  return best_child_of_difference(a, distance, lists, k, merge_neighbours, children, rng, score, w);
}

/// GA-EAX's entropy-preserving score of a child (EdgeAssemblySearch::generation's, Nagata and
/// Kobayashi's Eval_ent) with the edge counts read from the population's links (`population`
/// tours of n cities, 2n words each): an edge's count is the number of tours that hold it. `h`
/// holds the entropy term of every count 0 .. population + 1, computed once on the host, so that
/// host and GPU add the same doubles in the same order. With `h` null, the score is the gain.
struct PopulationScore {
  const int32_t* links = nullptr;
  int population = 0, n = 0;
  const double* h = nullptr;

  FORMICA_HD int count(int32_t u, int32_t v) const {
    int c = 0;
    for (int t = 0; t < population; ++t) {
      const int32_t* l = links + (static_cast<size_t>(t) * n + u) * 2;
      c += l[0] == v || l[1] == v;
    }
    return c;
  }
  /// The count of the child's edge e: its removed edges first, then its added ones.
  FORMICA_HD int edge_count(const ChildWork& w, int e) const {
    return e < w.removed_edges ? count(w.removed[2 * e], w.removed[2 * e + 1])
                               : count(w.added[2 * (e - w.removed_edges)], w.added[2 * (e - w.removed_edges) + 1]);
  }
  /// The score from the counts of the child's edges (edge_count's order), summed in that order.
  FORMICA_HD double from_counts(const ChildWork& w, const int32_t* counts, int64_t gain) const {
    if (h == nullptr) return static_cast<double>(gain);
    double entropy = 0;
    for (int e = 0; e < w.removed_edges; ++e) entropy += h[counts[e] - 1] - h[counts[e]];
    for (int e = 0; e < w.added_edges; ++e) {
      const int c = counts[w.removed_edges + e];
      entropy += h[c + 1] - h[c];
    }
    const double g = static_cast<double>(gain);
    constexpr double kEpsilon = 1e-9;
    return entropy < -kEpsilon ? g / -entropy : g / kEpsilon;
  }
  /// The score of the child in w (its counts kept in w.ends, free once its pieces are joined).
  FORMICA_HD double operator()(ChildWork& w, int64_t gain) const {
    if (h == nullptr) return static_cast<double>(gain);
    for (int e = 0; e < w.removed_edges + w.added_edges; ++e) w.ends[e] = edge_count(w, e);
    return from_counts(w, w.ends, gain);
  }
};

}  // namespace formica::population::eax
