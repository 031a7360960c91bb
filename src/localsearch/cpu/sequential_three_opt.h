// SPDX-License-Identifier: MIT
// The step of Lin-Kernighan with 3-opt moves (Helsgaun 2000, section 4.3; LKH's MOVE_TYPE = 3):
// from t1 and its tour neighbour t2, with G the gain of the chain so far ((t1, t2) counted as
// removed), every sequential 3-opt move over the candidate lists is evaluated before any is applied:
//   t3 a listed neighbour of t2 with g1 = G - d(t2, t3) > 0;
//   t4 either tour neighbour of t3 (g2 = g1 + d(t3, t4));
//   t5 a listed neighbour of t4 with g3 = g2 - d(t4, t5) > 0, and t6 a tour neighbour of t5 that
//   makes removing (t1, t2), (t3, t4), (t5, t6) and adding (t2, t3), (t4, t5), (t6, t1) a tour.
// Going from t1 to t2 ("forward"), t4 before t3 closes a 2-opt move with (t4, t1) already, and then
// t6 is fixed by where t5 lies; t4 after t3 closes nothing by itself (the stretch t2..t3 would be a
// cycle of its own), and t5 must lie on t2..t3 with either neighbour as t6: the pure segment moves
// that no chain of valid 2-opt moves from t1 reaches. The first move whose closed tour is shorter
// (2-opt or 3-opt) is taken at once; otherwise the search returns the moves with the largest open
// gain g4 = g3 + d(t5, t6), the chain applies one and goes on from t1 and t6. Edges the chain added
// are not removed again and edges it removed are not added again (ChainEdges).
//
// Against the 2-opt chains of lin_kernighan.h, whose every tentative step reverses part of the
// array, this step looks at about k^2 moves per level and reverses only for the one it takes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/two_level_tour.h"

namespace formica::localsearch::cpu {

/// A move of the step: removes (t1, t2), (t3, t4), (t5, t6) and adds (t2, t3), (t4, t5), (t6, t1);
/// t5 = t6 = -1 for the 2-opt move that removes (t1, t2), (t3, t4) and adds (t2, t3), (t4, t1).
/// gain is the closed tour's gain for a closing move, the open gain g4 for a move the chain goes on
/// from.
struct SequentialMove {
  int t1 = -1, t2 = -1, t3 = -1, t4 = -1, t5 = -1, t6 = -1;
  int64_t gain = 0;
  /// The city whose edge to t1 the next step removes.
  int last() const { return t5 < 0 ? t4 : t6; }
};

/// The edges one chain has added and removed: few, so a linear search finds them, and with a
/// stamp per city (the constructor with n) a query about a city no chain edge touches answers at
/// once.
class ChainEdges {
 public:
  ChainEdges() = default;
  explicit ChainEdges(int n) : touched_(static_cast<size_t>(n), 0) {}
  void clear() {
    added_.clear(), removed_.clear();
    if (++stamp_ == 0) std::fill(touched_.begin(), touched_.end(), 0), stamp_ = 1;
  }
  void add(int a, int b) { added_.push_back(key(a, b)), touch(a, b); }
  void remove(int a, int b) { removed_.push_back(key(a, b)), touch(a, b); }
  /// An edge no chain removes at all (a stretch's closing edge: decomposition/stretch_lin_kernighan.h); -1,
  /// -1 for none. It stays through clear().
  void fix(int a, int b) { fixed_a_ = a, fixed_b_ = b; }
  bool fixed(int a, int b) const {
    return (a == fixed_a_ && b == fixed_b_) || (a == fixed_b_ && b == fixed_a_);
  }
  /// The chain may remove (a, b) unless it added it or it is fixed, and add (a, b) unless it
  /// removed it.
  bool may_remove(int a, int b) const {
    return !fixed(a, b) && (!touches(a, b) || !contains(added_, key(a, b)));
  }
  bool may_add(int a, int b) const { return !touches(a, b) || !contains(removed_, key(a, b)); }
  size_t size() const { return removed_.size(); }
  /// Back to the first `added` and `removed` edges (the stamps stay: queries stay exact).
  void truncate(size_t added, size_t removed) { added_.resize(added), removed_.resize(removed); }
  size_t added_count() const { return added_.size(); }

 private:
  static uint64_t key(int a, int b) {
    const auto lo = static_cast<uint64_t>(a < b ? a : b), hi = static_cast<uint64_t>(a < b ? b : a);
    return lo << 32 | hi;
  }
  static bool contains(const std::vector<uint64_t>& edges, uint64_t e) {
    return std::find(edges.begin(), edges.end(), e) != edges.end();
  }
  void touch(int a, int b) {
    if (!touched_.empty()) touched_[a] = touched_[b] = stamp_;
  }
  bool touches(int a, int b) const {
    return touched_.empty() || (touched_[a] == stamp_ && touched_[b] == stamp_);
  }
  std::vector<uint64_t> added_, removed_;
  std::vector<uint32_t> touched_;
  uint32_t stamp_ = 1;
  int fixed_a_ = -1, fixed_b_ = -1;
};

/// Keeps `m` among the `width` moves of largest gain in `open`, largest first (ties: found first).
template <class Move>
void keep_best(std::vector<Move>& open, const Move& m, int width) {
  if (static_cast<int>(open.size()) == width) {
    if (m.gain <= open.back().gain) return;
    open.pop_back();
  }
  auto at = open.end();
  while (at != open.begin() && (at - 1)->gain < m.gain) --at;
  open.insert(at, m);
}

/// A 2-opt move on an ArrayTour, named as ArrayTour::exchange names it, kept so it can be undone.
struct Exchange {
  int u1, u2, v1, v2;
};

/// The distance from every city to each city of its candidate list, row-major as the lists
/// (list_distances(...)[c * k + i] = d(c, lists.of(c)[i])): the search's inner loops read these
/// instead of computing them.
std::vector<int32_t> list_distances(const Instance& instance, const CandidateLists& lists);

/// Searches the step from t1 and t2 (a tour neighbour of t1) with chain gain g (see the file
/// comment). Returns true with `closing` set when a move closes a shorter tour (closing.gain > 0).
/// Otherwise fills `open` with up to `width` moves of positive open gain, the largest first, and
/// returns false. `distances` is list_distances(instance, lists) or empty (then computed as needed);
/// the result is the same. `max_reversal` > 0 leaves out every t3 more than that many positions
/// along the tour from t2, and every t5 as far from t4 (LinKernighanOptions::max_reversal).
/// Tour: ArrayTour or TwoLevelTour (which has no positions, so no max_reversal bound).
template <class Tour>
bool search_sequential_three_opt(const Tour& t, const Instance& instance, const CandidateLists& lists,
                                 const ChainEdges& edges, int t1, int t2, int64_t g, int width,
                                 SequentialMove& closing, std::vector<SequentialMove>& open,
                                 std::span<const int32_t> distances = {}, int max_reversal = 0);

/// Applies `m` to `t` as two or three 2-opt moves, appending them to `log` (undo_exchanges takes
/// them back). The tour then holds (t2, t3), (t4, t5), and (t6, t1) (or (t4, t1) for a 2-opt move).
template <class Tour>
void apply_sequential_three_opt(Tour& t, const SequentialMove& m, std::vector<Exchange>& log);

/// Takes back the exchanges of `log` from index `keep` on, last first, and drops them from it.
template <class Tour>
void undo_exchanges(Tour& t, std::vector<Exchange>& log, size_t keep);

}  // namespace formica::localsearch::cpu
