// SPDX-License-Identifier: MIT
// ArrayTour: a tour as an array of cities plus each city's position, the representation every CPU
// local search and the focused construction edit in place. A 2-opt move reverses the shorter of
// its two sides (the tour is a cycle, so either gives the same tour), and every other move is
// composed of 2-opt moves named by cities, so the orientation a reversal leaves behind never
// matters to the caller. Or-opt (moving a segment of cities between two others, either way round)
// is two or three such moves (neighbour_moves.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "localsearch/neighbour_moves.h"

namespace formica::localsearch::cpu {

/// The positions of a tour that moves rewrote, in blocks of 64: what a caller keeping a copy of
/// the tour (kicked_tour.h) copies back or forth instead of the whole of it. The same walks, more
/// kicks (this project's 2-core VM, bench/large_tour_bench, 3-opt steps): one thread, 20 s,
/// pla85900 2,830 against 2,522, 200,000 cities 9,965 against 9,402; two threads on stretches of
/// 25,000 cities, 24 s, 59,862 against 54,408, every round's tour the same.
class TouchedBlocks {
 public:
  static constexpr int kShift = 6;
  /// For tours of n positions, none touched.
  void reset(int n) {
    n_ = n;
    marked_.assign(static_cast<size_t>(n >> kShift) + 1, 0);
    list_.clear();
  }
  /// Positions first .. first + length - 1, modulo n (0 <= first < n, length <= n).
  void mark(int first, int length) {
    if (length <= 0) return;
    const int last = first + length - 1;
    if (last >= n_) {
      mark_blocks(first, n_ - 1);
      mark_blocks(0, last - n_);
    } else {
      mark_blocks(first, last);
    }
  }
  /// None touched again.
  void clear() {
    for (const int32_t b : list_) marked_[b] = 0;
    list_.clear();
  }
  /// The touched blocks, each once (block b holds positions 64 b .. min(64 b + 63, n - 1)).
  std::span<const int32_t> blocks() const { return list_; }
  /// Calls f(p) for every position of every touched block.
  template <class F>
  void for_each_position(F f) const {
    for (const int32_t b : list_) {
      const int end = std::min((b + 1) << kShift, n_);
      for (int p = b << kShift; p < end; ++p) f(p);
    }
  }

 private:
  void mark_blocks(int from, int to) {
    for (int b = from >> kShift; b <= to >> kShift; ++b)
      if (marked_[b] == 0) marked_[b] = 1, list_.push_back(b);
  }
  int n_ = 0;
  std::vector<uint8_t> marked_;
  std::vector<int32_t> list_;
};

class ArrayTour {
 public:
  /// A view of `tour` and `pos` (pos[tour[p]] == p must already hold); both are edited in place.
  ArrayTour(std::span<int32_t> tour, std::span<int32_t> pos)
      : tour_(tour), pos_(pos), n_(static_cast<int>(tour.size())) {}

  int n() const { return n_; }
  /// The city at position p, for any p in [-n, 2n).
  int at(int p) const { return tour_[p < 0 ? p + n_ : (p >= n_ ? p - n_ : p)]; }
  int pos(int city) const { return pos_[city]; }
  int succ(int city) const { return at(pos_[city] + 1); }
  int pred(int city) const { return at(pos_[city] - 1); }
  /// b lies on the way from a to c going forward (succ), a and c included.
  bool between(int a, int b, int c) const {
    const int pa = pos_[a], pb = pos_[b], pc = pos_[c];
    return pa <= pc ? pa <= pb && pb <= pc : pb >= pa || pb <= pc;
  }

  /// The 2-opt move removing edges e1 and e2 (edge e joins positions e and e + 1): reverses
  /// positions i+1..j for i = min, j = max, or equivalently the rest of the cycle, whichever is
  /// shorter. Returns the number of positions rewritten.
  int two_opt(int e1, int e2) {
    const int i = e1 < e2 ? e1 : e2, j = e1 < e2 ? e2 : e1;
    const int inside = j - i;  // positions i+1..j
    if (inside <= n_ - inside) return reverse(i + 1, inside);
    return reverse(j + 1, n_ - inside);  // positions j+1..n-1, 0..i
  }

  /// The 2-opt move named by cities: removes edges (u1, u2) and (v1, v2), adds (u1, v1) and
  /// (u2, v2). Needs u2 = succ(u1) and v2 = succ(v1), or u2 = pred(u1) and v2 = pred(v1).
  int exchange(int u1, int u2, int v1, int v2) {
    if (succ(u1) == u2) return two_opt(pos_[u1], pos_[v1]);
    return two_opt(pos_[u2], pos_[v2]);
  }

  /// Puts `city` at position p, for moves that rewrite whole stretches (k_opt_move.h); the caller
  /// leaves the array a permutation again.
  void place(int p, int city) {
    tour_[p] = city;
    pos_[city] = p;
    if (touched_ != nullptr) touched_->mark(p, 1);
  }

  /// Marks every position a move rewrites from now on in `touched` (nullptr: none).
  void track(TouchedBlocks* touched) { touched_ = touched; }

  /// Or-opt: the segment x..y between the adjacent cities c and d, x next to c (see
  /// localsearch/neighbour_moves.h, apply_or_opt).
  void or_opt(int x, int y, int c, int d) { apply_or_opt(*this, x, y, c, d); }

 private:
  int reverse(int first, int length) {
    int a = first >= n_ ? first - n_ : first, b = first + length - 1;
    if (touched_ != nullptr) touched_->mark(a, length);
    if (b >= n_) b -= n_;
    for (int s = 0; s < length / 2; ++s) {
      const int ca = tour_[a], cb = tour_[b];
      tour_[a] = cb;
      tour_[b] = ca;
      pos_[cb] = a;
      pos_[ca] = b;
      if (++a == n_) a = 0;
      if (--b < 0) b = n_ - 1;
    }
    return length;
  }

  std::span<int32_t> tour_;
  std::span<int32_t> pos_;
  int n_;
  TouchedBlocks* touched_ = nullptr;
};

}  // namespace formica::localsearch::cpu
