// SPDX-License-Identifier: MIT
// Lin-Kernighan search on the CPU (Lin and Kernighan 1973), in the form of Johnson and McGeoch's
// LK: a move is a chain of 2-opt moves that all keep city t1 and remove the edge at t1 that the
// previous one added. From t1 and a tour neighbour t2 (gain G = d(t1, t2)), each step picks t3
// among t2's listed neighbours with G - d(t2, t3) > 0, and t4 the neighbour of t3 that makes
// "remove (t1, t2), (t3, t4); add (t2, t3), (t4, t1)" a 2-opt move; G grows by d(t3, t4) -
// d(t2, t3) and t4 becomes the next t2. After every step the closed tour's gain is G - d(t4, t1);
// the chain keeps the best of them. t3 is taken by the largest d(t3, t4) - d(t2, t3) (the LK
// lookahead); the first levels also try the next-best choices when a chain finds nothing
// (LinKernighanOptions::breadth), deeper levels only the best. No added edge is removed again and
// no removed edge added again. Gains are exact TSPLIB integers, and a chain is kept only when its
// best closed gain is at least 1.
//
// With LinKernighanStep::ThreeOpt a step is a sequential 3-opt move instead, searched whole before
// one is applied (sequential_three_opt.h; LKH's MOVE_TYPE = 3): the chain takes the first move that
// closes a shorter tour, else applies the move of largest open gain and goes on from t1 and its t6,
// trying the next-best moves at the first levels (breadth) when a chain finds nothing below.
//
// Where 3-opt stops: the chain follows steps that gain nothing (on instances with many equal
// distances, such as drilling grids, most improving moves are long chains of such steps) as long as
// the total gain G stays positive, to depths of dozens of exchanges.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "localsearch/config.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/city_queue.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/cpu/sequential_three_opt.h"

namespace formica::localsearch::cpu {

/// What one step of a chain is: a 2-opt move (applied as it is tried), or a sequential 3-opt move
/// (evaluated first, among all of them; includes the pure segment moves no 2-opt chain reaches).
using localsearch::LinKernighanStep;

struct LinKernighanOptions {
  int max_depth = 50;                   ///< steps of one chain at most
  LinKernighanStep step = LinKernighanStep::TwoOpt;
  int step_neighbours = 5;  ///< FiveOpt: the first this many cities of each list (LKH: 5 candidates)
  std::array<int, 3> breadth{5, 3, 1};  ///< alternatives tried at the first levels; 1 below them
  /// ThreeOpt: no step to a t3 more than this many tour positions from t2 (nor a t5 as far from
  /// t4), so that no reversal is much longer; 0: no bound. On large tours most of a chain's time
  /// goes into reversing long stretches for tentative steps that are then undone.
  int max_reversal = 0;
  /// An edge of the tour that no chain removes (-1, -1: none): a stretch closed into a tour of its
  /// own by the edge between its fixed ends (decomposition/stretch_lin_kernighan.h).
  std::array<int, 2> fixed_edge{-1, -1};
};

/// From kBoundedReversalCities cities the 3-opt steps on arrays bound their reach to kMaxReversal
/// positions; the walks of iterated Lin-Kernighan edit two-level lists from kTwoLevelCities on
/// (kicked_tour.h), where the bound does not apply. Measured before those lists: one thread, the
/// same start tour, this project's 2-core VM: 200,000 uniform cities (seeds 1-3, nearest-neighbour start),
/// 10,000 against no bound: at 20 s 3.5 to 6.7 times the kicks and tours 0.14 / 0.15 / 0.39 %
/// shorter, at 60 s level (+0.06 / 0.00 / -0.07 %); 50,000 in between at 20 s, 1,000 too tight
/// (worse, with 7 times the kicks). A million cities (seed 1, the colonies' start tour, 30 s):
/// 1.46 % below the start with 10,000, 1.39 % with 20,000, 1.20 % with 50,000, 0.60 % with no
/// bound. pla85900 (85,900 cities) with 10,000 or 25,000 mixed at 20 s: no bound below 150,000.
inline constexpr int kBoundedReversalCities = 150000;
inline constexpr int kMaxReversal = 10000;

/// From kNarrowBreadthCities cities the 3-opt steps try 3, 1, 1 alternatives at the first levels
/// instead of 5, 3, 1: a chain that finds nothing costs a fifth of the steps, so a walk kicks 2-3
/// times as often (docs/tuning.md#lk-narrow-breadth).
inline constexpr int kNarrowBreadthCities = 10000;

/// The options a step is run with by default on a tour of n cities: 5-opt steps search widely
/// enough without backtracking (breadth 1, as LKH), the others try alternatives at the first
/// levels (3-opt steps fewer on large tours); 3-opt steps bound their reversals on large tours
/// (max_reversal).
inline LinKernighanOptions lin_kernighan_options(LinKernighanStep step, int n = 0) {
  LinKernighanOptions options;
  options.step = step;
  if (step == LinKernighanStep::FiveOpt) options.breadth = {1, 1, 1};
  if (step == LinKernighanStep::ThreeOpt && n >= kNarrowBreadthCities) options.breadth = {3, 1, 1};
  if (step == LinKernighanStep::ThreeOpt && n >= kBoundedReversalCities)
    options.max_reversal = kMaxReversal;
  return options;
}

class LinKernighan {
 public:
  /// `distances`: list_distances(instance, lists) made by the caller (several searches over the same
  /// lists share one); without it the 3-opt step makes its own.
  LinKernighan(const Instance& instance, const CandidateLists& lists, LinKernighanOptions options = {},
               std::span<const int32_t> distances = {});
  LinKernighan(const LinKernighan&) = delete;  // list_distances_ may point into own_distances_
  LinKernighan& operator=(const LinKernighan&) = delete;

  /// Improves `tour` in place until no chain from any city gains, or until `stop`. moves counts
  /// the chains kept, gain the exact length saved.
  NeighbourClimbCounts improve(std::span<int32_t> tour, const StopFlag* stop = nullptr);

  /// Improves `tour` in place, `pos` its position array (kept up to date), starting from the
  /// cities of `active` only (e.g. the ends of the edges a kick changed).
  NeighbourClimbCounts improve(std::span<int32_t> tour, std::span<int32_t> pos,
                               std::span<const int32_t> active, const StopFlag* stop = nullptr);

  /// The same on a two-level list (two_level_tour.h), for large tours; 2-opt and 3-opt steps only
  /// (5-opt steps rewrite stretches by position), and no max_reversal bound.
  NeighbourClimbCounts improve(TwoLevelTour& tour, std::span<const int32_t> active,
                               const StopFlag* stop = nullptr);

  /// False for the options' fixed edge, which no chain removes (nor a kick: kicked_tour.h).
  bool removable(int a, int b) const { return !edges_.fixed(a, b); }
  /// Marks every position the next improve() calls rewrite in `touched` (nullptr: none).
  void track(TouchedBlocks* touched) { touched_ = touched; }

 private:
  struct Step {
    int t2, t3, t4;
  };
  template <class Tour>
  class Chain;
  template <class Steps, class Tour>
  class StepChain;
  /// The chains from the cities of `active`, on either tour form (5-opt steps on arrays only).
  template <class Tour>
  NeighbourClimbCounts climb(Tour& t, std::span<const int32_t> active, const StopFlag* stop);

  const Instance& instance_;
  const CandidateLists& lists_;
  LinKernighanOptions options_;
  std::vector<int32_t> pos_;
  CityQueue queue_;
  ChainEdges edges_;  // the step chains' (3-opt, 5-opt)
  std::vector<int32_t> own_distances_;       // the 3-opt step's table when the caller gave none
  std::span<const int32_t> list_distances_;  // d(c, each listed city): the caller's or own_distances_
  TouchedBlocks* touched_ = nullptr;
};

}  // namespace formica::localsearch::cpu
