// One walk of iterated Lin-Kernighan, the step that the whole-tour threads
// (iterated_lin_kernighan.h) and the stretch threads (stretch_lin_kernighan.h) both repeat: kick the
// tour with a double bridge, repair it with Lin-Kernighan chains from the eight cities at the
// changed edges, keep the result when it is no longer than before (equal lengths too: the walk
// crosses plateaus), else go back. Lengths are exact TSPLIB integers, kept incrementally. Keeping
// and going back copy only the positions the kick and its repair rewrote (TouchedBlocks).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"
#include "core/rng.h"
#include "core/search.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/double_bridge.h"

namespace formica::localsearch::cpu {

class KickedTour {
 public:
  /// Starts the walk at `tour`, of exact length `length`.
  void reset(std::span<const int32_t> tour, int64_t length);

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

  /// The walk's tour (the one kept) and its exact length; -1 before reset().
  std::span<const int32_t> tour() const { return saved_; }
  int64_t length() const { return length_; }

 private:
  /// Applies a double bridge drawn from `random` to tour_ (from saved_), none that removes `lk`'s
  /// fixed edge: its eight ends and the length it adds.
  DoubleBridge bridge(const Instance& instance, const LinKernighan& lk, RandomStream& random, int max_segment,
                      int32_t (&ends)[8], int64_t& delta);

  std::vector<int32_t> tour_, saved_, pos_;  // tour_ equals saved_ between kicks
  TouchedBlocks touched_;                    // the positions a kick and its repair rewrote
  int64_t length_ = -1;
};

}  // namespace formica::localsearch::cpu
