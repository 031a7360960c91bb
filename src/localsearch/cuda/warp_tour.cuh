// SPDX-License-Identifier: MIT
// WarpTour: the GPU twin of cpu/array_tour.h, one tour (array of cities plus positions, in global
// or shared memory) edited by one warp, or by half of one (WarpTour::width). Reads are plain loads every lane makes; a 2-opt move reverses the
// shorter side with the lanes swapping pairs of positions, between two __syncwarp()s (the first
// so that no lane writes before every lane has read what the move depends on, the second so that
// every lane sees the whole reversal). Every lane must call two_opt and exchange together, with
// the same arguments. The same rule picks the side to reverse as on the CPU, so a sequence of moves
// leaves the same array on both.
#pragma once

#include <cstdint>

namespace formica::localsearch::cuda {

struct WarpTour {
  int32_t* tour_;
  int32_t* pos_;
  int n_;
  int lane;  ///< within the group of lanes that holds the tour
  /// The lanes that hold the tour: the whole warp, or half of it (16 lanes from lane 0 or 16:
  /// two tours per warp), and their mask.
  int width = 32;
  unsigned mask = 0xffffffffu;

  __device__ int n() const { return n_; }
  /// The city at position p, for any p in [-n, 2n).
  __device__ int at(int p) const { return tour_[p < 0 ? p + n_ : (p >= n_ ? p - n_ : p)]; }
  __device__ int pos(int city) const { return pos_[city]; }
  __device__ int succ(int city) const { return at(pos_[city] + 1); }
  __device__ int pred(int city) const { return at(pos_[city] - 1); }

  /// The 2-opt move removing edges e1 and e2: reverses positions min+1..max or the rest of the
  /// cycle, whichever is shorter (as ArrayTour::two_opt). Returns the positions rewritten.
  __device__ int two_opt(int e1, int e2) {
    const int i = e1 < e2 ? e1 : e2, j = e1 < e2 ? e2 : e1;
    const int inside = j - i;
    if (inside <= n_ - inside) return reverse(i + 1, inside);
    return reverse(j + 1, n_ - inside);
  }

  /// Removes edges (u1, u2) and (v1, v2), adds (u1, v1) and (u2, v2) (as ArrayTour::exchange).
  __device__ int exchange(int u1, int u2, int v1, int v2) {
    if (succ(u1) == u2) return two_opt(pos_[u1], pos_[v1]);
    return two_opt(pos_[u2], pos_[v2]);
  }

  /// Reverses `length` positions from `first` (cyclically; first <= n).
  __device__ int reverse(int first, int length) {
    __syncwarp(mask);
    for (int s = lane; s < length / 2; s += width) {
      int a = first + s, b = first + length - 1 - s;
      if (a >= n_) a -= n_;
      if (b >= n_) b -= n_;
      const int32_t ca = tour_[a], cb = tour_[b];
      tour_[a] = cb;
      tour_[b] = ca;
      pos_[cb] = a;
      pos_[ca] = b;
    }
    __syncwarp(mask);
    return length;
  }
};

}  // namespace formica::localsearch::cuda
