// SPDX-License-Identifier: MIT
// Neighbour-list local search with don't-look bits (Bentley 1992) on the CPU: 2-opt, and with
// ClimbOptions::or_opt also Or-opt (a segment of 1-3 cities moved between two adjacent cities,
// either way round; with the reversal this is the "or-3opt" segment insertion). It is the local
// search of every ant of the hybrid colonies on the CPU, the exact final polish of every solver
// run, the reference the GPU local search is tested against, and the 2-opt climber's fast first
// phase on large tours.
//
// The neighbourhood, exactly (tests/localsearch/or_opt_check.h checks it by brute force):
//   2-opt: city a and a listed neighbour c with d(a, c) < d(a, x), x the tour neighbour of a the
//     move takes away: remove (a, x) and (c, y), add (a, c) and (x, y), y on c's side as x is on a's.
//   Or-opt: a segment of L = 1..3 cities with a at one end and x at the other; p and q the cities
//     before and after it; g1 = d(p, a) + d(x, q) - d(p, q) the gain of taking it out. For a
//     listed neighbour c of a with d(a, c) < g1 and either tour neighbour e of c (neither c nor e
//     in the segment), the segment goes between c and e with a next to c.
//   3-opt (ClimbOptions::three_opt, tours of at least kThreeOptMinCities): sequential moves, the
//     Lin-Kernighan steps of depth 3 from t2 = a: t1 either tour neighbour of a, t3 a listed
//     neighbour with g1 = d(t1, a) - d(a, t3) > 0, t4 the neighbour of t3 for which (t4, t1) would
//     close a 2-opt move, t5 a listed neighbour of t4 with g2 = g1 + d(t3, t4) - d(t4, t5) > 0, and
//     t6 the neighbour of t5 that closes a valid tour with (t6, t1) (neighbour_moves.h).
// A city takes the best improving move of its own (best improvement), cities are taken from a
// FIFO queue (first improvement across cities), every city of a changed edge goes back on the
// queue, and with ClimbOptions::sweep every city is re-checked once the queue runs dry, until a
// check finds nothing: the tour then has no improving move of the neighbourhood above. Gains are
// exact TSPLIB integers; a move is applied only when its gain is at least 1.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "localsearch/config.h"
#include "localsearch/cpu/city_queue.h"

namespace formica::localsearch::cpu {

struct NeighbourClimbCounts {
  int64_t evaluated = 0;  ///< cities taken off the queue and tried
  int64_t moves = 0;      ///< moves applied (2-opt, Or-opt and 3-opt)
  int64_t or_moves = 0;   ///< of which Or-opt moves
  int64_t three_opt_moves = 0;  ///< of which 3-opt moves
  int64_t gain = 0;       ///< exact length before minus length after
  bool completed = true;  ///< false when a stop request ended the climb early
};

struct ClimbOptions {
  bool or_opt = false;     ///< also Or-opt moves
  bool three_opt = false;  ///< also sequential 3-opt moves
  bool sweep = true;       ///< re-check every city when the queue runs dry (certifies the local optimum)
};

/// The moves of `kind` (TwoOpt, OrOpt or ThreeOpt, which has all three), with or without the sweep.
ClimbOptions climb_options(LocalSearchKind kind, bool sweep);

/// A climber with its work buffers, reusable for many tours of one instance (one per thread).
class NeighbourClimber {
 public:
  NeighbourClimber(const Instance& instance, const CandidateLists& lists, ClimbOptions options);

  /// Climbs `tour` in place with every city on the queue at first.
  NeighbourClimbCounts climb(std::span<int32_t> tour, const StopFlag* stop = nullptr);

  /// Climbs `tour` in place, `pos` its position array (kept up to date), only `active` on the
  /// queue at first (e.g. the ends of the edges a focused ant changed). `stop` is polled now and then.
  NeighbourClimbCounts climb(std::span<int32_t> tour, std::span<int32_t> pos, std::span<const int32_t> active,
                             const StopFlag* stop = nullptr);

 private:
  const Instance& instance_;
  const CandidateLists& lists_;
  ClimbOptions options_;
  std::vector<int32_t> pos_;
  CityQueue queue_;
};

/// Neighbour-list length of the solver's final polish.
inline constexpr int kPolishNeighbours = 10;

/// The solver's final polish: 2-opt, Or-opt and 3-opt over kPolishNeighbours neighbours of the given
/// shape (lists built with `threads` threads; core/candidates.h), every city active, with the final
/// sweep; exact gains. Tours of fewer than 8 cities are left as they are.
NeighbourClimbCounts polish_tour(const Instance& instance, std::span<int32_t> tour, int threads,
                                 const StopFlag* stop = nullptr, NeighbourShape shape = NeighbourShape::Nearest);

/// 2-opt only, every city active, with the final sweep: the 2-opt climber's pre-climb.
NeighbourClimbCounts climb_neighbour_lists(const Instance& instance, const CandidateLists& lists,
                                           std::span<int32_t> tour, const StopFlag* stop = nullptr);

}  // namespace formica::localsearch::cpu
