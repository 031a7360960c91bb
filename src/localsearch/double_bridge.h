// SPDX-License-Identifier: MIT
// The double-bridge kick (Martin, Otto and Felten's large-step Markov chains), shared by the
// iterated Lin-Kernighan host threads (cpu/iterated_lin_kernighan.h) and the batch solver's
// iterated local search on the CPU and the GPU (batch/), so that every one of them draws and
// applies the same kick from the same random numbers.
//
// Three adjacent stretches of 1 to kMaxKickSegment cities each, A B C, after the city x at
// position p0 and before the city y, are put back in the order C B A, each stretch unreversed:
// four edges change, and no sequential move (so no Lin-Kernighan chain) undoes that in one step.
#pragma once

#include <cstdint>

#include "core/distance.h"  // FORMICA_HD
#include "core/rng.h"

namespace formica::localsearch {

/// The longest stretch a kick moves.
inline constexpr int kMaxKickSegment = 50;
/// The smallest tour that is kicked (x, three stretches and y are distinct cities).
inline constexpr int kMinKickCities = 8;

struct DoubleBridge {
  int p0 = 0;           ///< position of x, the city before the stretches
  int a = 1, b = 1, c = 1;  ///< lengths of the stretches A, B, C
  FORMICA_HD int moved() const { return a + b + c; }
};

/// The next kick on a tour of n >= kMinKickCities cities, its stretches at most `max_segment`
/// cities long (and at most (n - 2) / 3): four draws from `random`.
FORMICA_HD inline DoubleBridge draw_double_bridge(RandomStream& random, int n, int max_segment = kMaxKickSegment) {
  const int longest = (n - 2) / 3 < max_segment ? (n - 2) / 3 : max_segment;
  DoubleBridge kick;
  kick.p0 = static_cast<int>(random.below(static_cast<uint32_t>(n)));
  kick.a = 1 + static_cast<int>(random.below(static_cast<uint32_t>(longest)));
  kick.b = 1 + static_cast<int>(random.below(static_cast<uint32_t>(longest)));
  kick.c = 1 + static_cast<int>(random.below(static_cast<uint32_t>(longest)));
  return kick;
}

/// Where the city that the kick puts at position p0 + 1 + i (0 <= i < moved()) was before it,
/// as a position p0 + 1 + offset (reduce modulo n): C's cities come first, then B's, then A's.
FORMICA_HD inline int double_bridge_source(const DoubleBridge& kick, int i) {
  if (i < kick.c) return kick.p0 + kick.a + kick.b + 1 + i;
  if (i < kick.c + kick.b) return kick.p0 + kick.a + 1 + (i - kick.c);
  return kick.p0 + 1 + (i - kick.c - kick.b);
}

/// The eight cities at the kick's changed edges, x, A's ends, B's ends, C's ends, y, in the order
/// the repair queues them, read from the tour before the kick (`at(p)` the city at position p mod n).
FORMICA_HD_TEMPLATE
template <class At>
FORMICA_HD void double_bridge_ends(const DoubleBridge& kick, At at, int32_t* ends) {
  const int p0 = kick.p0, a = kick.a, b = kick.b, m = kick.moved();
  ends[0] = at(p0), ends[1] = at(p0 + 1), ends[2] = at(p0 + a), ends[3] = at(p0 + a + 1);
  ends[4] = at(p0 + a + b), ends[5] = at(p0 + a + b + 1), ends[6] = at(p0 + m), ends[7] = at(p0 + m + 1);
}

/// The length the kick adds (negative when it shortens the tour), from its eight ends.
FORMICA_HD_TEMPLATE
template <class Distance>
FORMICA_HD int64_t double_bridge_delta(const int32_t* e, const Distance& distance) {
  // x a0 .. a1 b0 .. b1 c0 .. c1 y  ->  x c0 .. c1 b0 .. b1 a0 .. a1 y
  return distance(e[0], e[5]) + distance(e[6], e[3]) + distance(e[4], e[1]) + distance(e[2], e[7]) -
         distance(e[0], e[1]) - distance(e[2], e[3]) - distance(e[4], e[5]) - distance(e[6], e[7]);
}

}  // namespace formica::localsearch
