// ArrayTour: a tour as an array of cities plus each city's position, the representation every CPU
// local search and the focused construction edit in place. A 2-opt move reverses the shorter of
// its two sides (the tour is a cycle, so either gives the same tour), and every other move is
// composed of 2-opt moves named by cities, so the orientation a reversal leaves behind never
// matters to the caller. Or-opt (moving a segment of cities between two others, either way round)
// is two or three such moves (neighbour_moves.h).
#pragma once

#include <cstdint>
#include <span>

#include "localsearch/neighbour_moves.h"

namespace formica::localsearch::cpu {

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
  }

  /// Or-opt: the segment x..y between the adjacent cities c and d, x next to c (see
  /// localsearch/neighbour_moves.h, apply_or_opt).
  void or_opt(int x, int y, int c, int d) { apply_or_opt(*this, x, y, c, d); }

 private:
  int reverse(int first, int length) {
    int a = first >= n_ ? first - n_ : first, b = first + length - 1;
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
};

}  // namespace formica::localsearch::cpu
