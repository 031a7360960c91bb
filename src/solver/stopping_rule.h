// SPDX-License-Identifier: MIT
// When a run of formica::solve stops: the stopping rules it shares between searches, in one small
// type. solve() asks before every iteration (before_step) and after every completed one
// (after_step); the first rule that fires names the run's stop reason.
//
// The rules: iterations done, interrupt (Ctrl-C, Python's signals), time limit (the deadline the
// search's own steps obey too), target length reached, a callback asking to stop, the tour proven
// optimal (its length equals a proven lower bound, or is 0), and, for runs whose budget nobody named, no
// improvement for as long as the run took to find its best tour (at least kMinStallSeconds).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "core/search.h"

namespace formica {

class StoppingRule {
 public:
  /// The shortest stretch without improvement that ends a run without a named budget.
  static constexpr double kMinStallSeconds = 0.1;

  std::optional<int64_t> iterations;  ///< stop after this many iterations
  std::optional<int64_t> target;      ///< stop once the best length is at most this
  /// The time limit and interrupt, as the search's steps obey them.
  StopFlag stop;
  /// A proven lower bound once one is known (0 until then): a tour that long is optimal.
  const std::atomic<int64_t>* lower_bound = nullptr;
  /// Stop once the best length has not improved for as long as it took to reach it (at least
  /// kMinStallSeconds): for runs whose budget is the default.
  bool stop_on_stall = false;
  /// Called after an iteration that improved the best length (length, seconds since the start);
  /// returning false stops the run.
  std::function<bool(int64_t length, double seconds)> keep_going;

  /// The reason to stop before the next iteration, or "" to run it. `finished`: the search has
  /// nothing left to do; `bounded`: the run has a tour to return, so the interrupt and the time
  /// limit apply (otherwise the first iteration completes, so that every run returns a tour).
  std::string_view before_step(int64_t completed, bool finished, bool bounded) const;
  /// The reason a step that did not complete gives: "interrupted" or "time limit".
  std::string_view after_incomplete_step() const;
  /// The reason to stop after a completed iteration with best length `best` at `seconds`, or "".
  std::string_view after_step(int64_t best, double seconds, bool improved);
  /// Seconds into the run of the last improvement of the best length (0 before any).
  double improved_at() const { return improved_at_; }
  /// The reason a run reports for its `reason` with a final tour of `length`: "target" where that
  /// tour meets `target` though the time limit fired first (before a step could see it: a set-up,
  /// or a GPU context created in a fresh process, that took the budget); else `reason`.
  static std::string_view final_reason(std::string_view reason, std::optional<int64_t> target,
                                       int64_t length);

 private:
  double improved_at_ = 0.0;  ///< seconds of the last improvement
};

}  // namespace formica
