// SPDX-License-Identifier: MIT
// Host threads that improve the colonies' best tour beside them (aco/colony_merge.h): the merger
// offers them its merged tour and takes their shortest as one more donor. The kinds: iterated
// Lin-Kernighan over the whole tour (iterated_lin_kernighan.h), over stretches of very large tours
// (decomposition/stretch_lin_kernighan.h) and GA-EAX (population/eax_companion.h); the hybrid
// (hybrid/host_threads.h) picks one.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace formica::localsearch::cpu {

class TourCompanion {
 public:
  virtual ~TourCompanion() = default;

  /// Hands the threads `tour` of exact length `length` when it is shorter than the shortest
  /// published; they adopt it when they next can.
  virtual void offer(std::span<const int32_t> tour, int64_t length) = 0;
  /// The shortest published tour, copied to `out`, and its length (-1 and `out` untouched before
  /// the first offer).
  virtual int64_t best(std::vector<int32_t>& out) const = 0;
  /// Its length without the copy (-1 before the first offer).
  virtual int64_t best_length() const = 0;
  /// Stops and joins the threads; the published tour stays. Idempotent.
  virtual void stop() = 0;

  /// One walk's shortest tour (threads that walk independently).
  struct Walk {
    int64_t length = -1;
    std::vector<int32_t> tour;
  };
  /// Each independent walk's shortest tour so far (those that improved on the first tour), copied
  /// to `out`; empty when the threads share one walk.
  virtual void walks(std::vector<Walk>& out) const = 0;
  /// Kicks tried by all threads so far.
  virtual int64_t kicks() const = 0;
  /// True once the threads walk on the alpha-nearest lists of a Held-Karp ascent beside them
  /// (--lk-lists alpha); threads without one keep the default.
  virtual bool alpha_lists() const { return false; }
  /// True while the shortest published tour is one that Lin-Kernighan threads found, for a
  /// companion of another kind that lends them threads (GA-EAX's bridge, population/eax_companion.h):
  /// the ledger credits them.
  virtual bool best_by_lin_kernighan() const { return false; }
};

}  // namespace formica::localsearch::cpu
