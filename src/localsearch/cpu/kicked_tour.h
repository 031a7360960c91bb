// SPDX-License-Identifier: MIT
// One walk of iterated Lin-Kernighan, the step that the whole-tour threads
// (iterated_lin_kernighan.h) and the stretch threads (decomposition/stretch_lin_kernighan.h) both repeat:
// kick the tour with a double bridge, repair it with Lin-Kernighan chains from the eight cities at the
// changed edges, keep the result when it is no longer than before (equal lengths too: the walk
// crosses plateaus), else go back. Lengths are exact TSPLIB integers, kept incrementally.
//
// The tour is either two arrays (array_tour.h), where keeping and going back copy only the positions
// the kick and its repair rewrote (TouchedBlocks), or, on large tours, a two-level list
// (two_level_tour.h) whose journal takes back the kick's and the repair's moves when it did not
// pay; the list's tour is written out as an array only when tour() is asked for it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"
#include "core/rng.h"
#include "core/search.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/two_level_tour.h"
#include "localsearch/double_bridge.h"

namespace formica::localsearch::cpu {

/// From this many cities the walks of 2-opt and 3-opt steps edit a two-level list.
inline constexpr int kTwoLevelCities = 10000;

/// Whether a walk on n cities with chains of `step` edits a two-level list (5-opt steps rewrite
/// stretches by position, so they keep the arrays).
inline bool walks_two_level(int n, LinKernighanStep step) {
  return n >= kTwoLevelCities && step != LinKernighanStep::FiveOpt;
}

class KickedTour {
 public:
  /// Starts the walk at `tour`, of exact length `length`, on a two-level list if `two_level`
  /// (walks_two_level), else on arrays.
  void reset(std::span<const int32_t> tour, int64_t length, bool two_level = false);
  bool two_level() const { return two_level_; }

  /// One kick (a double bridge drawn from `random`, stretches of at most `max_segment` cities,
  /// never across `lk`'s fixed edge), repaired by `lk` and kept or undone as the file comment
  /// says (length() tells whether the tour got shorter). The tour must have at least
  /// kMinKickCities cities.
  void kick(const Instance& instance, LinKernighan& lk, RandomStream& random, const StopFlag* stop,
            int max_segment);

  /// Leaves the walk's basin: `bridges` double bridges in a row, each repaired by `lk` and kept
  /// whatever its length (the tour may get longer).
  void perturb(const Instance& instance, LinKernighan& lk, RandomStream& random, const StopFlag* stop,
               int max_segment, int bridges);

  /// On a two-level list, while on, every move the walk keeps (the kicks' kept or equal, their
  /// repairs', perturb()'s) is logged, first first, as TwoLevelTour::journal() lists them: the
  /// walk's tour is the tour at the last clear_log() or reset() with the logged moves played, for
  /// TwoLevelTour::replay() on another copy of that tour. Off by default; reset() empties the log.
  void log_moves(bool on) { logging_ = on; }
  std::span<const std::array<int32_t, 4>> logged() const { return log_; }
  void clear_log() { log_.clear(); }

  /// The walk's tour (the one kept) and its exact length; -1 before reset().
  std::span<const int32_t> tour() const;
  int64_t length() const { return length_; }

 private:
  /// The kick on the two-level list: the same draws, x the city numbered p0 (any city, as any
  /// position, equally likely), the stretches read by walking from it.
  DoubleBridge list_bridge(const Instance& instance, const LinKernighan& lk, RandomStream& random,
                           int max_segment, int32_t (&ends)[8], int64_t& delta);

  /// Applies a double bridge drawn from `random` to tour_ (from saved_), none that removes `lk`'s
  /// fixed edge: its eight ends and the length it adds.
  DoubleBridge bridge(const Instance& instance, const LinKernighan& lk, RandomStream& random, int max_segment,
                      int32_t (&ends)[8], int64_t& delta);

  std::vector<int32_t> tour_, pos_;     // arrays: tour_ equals saved_ between kicks
  mutable std::vector<int32_t> saved_;  // the list: written from it when tour() finds it stale
  TouchedBlocks touched_;               // the positions a kick and its repair rewrote
  bool two_level_ = false;
  TwoLevelTour list_;
  bool logging_ = false;
  std::vector<std::array<int32_t, 4>> log_;  // the kept moves since reset() or clear_log()
  mutable bool stale_ = false;  // saved_ behind list_
  int64_t length_ = -1;
};

}  // namespace formica::localsearch::cpu
