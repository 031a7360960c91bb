// SPDX-License-Identifier: MIT
// The stopping rules of a run (see stopping_rule.h).
#include "solver/stopping_rule.h"

#include <algorithm>

namespace formica {

std::string_view StoppingRule::before_step(int64_t completed, bool finished, bool bounded) const {
  if (iterations && completed >= *iterations) return "iterations";
  if (finished) return "finished";
  if (bounded && stop.interrupt && stop.interrupt->load()) return "interrupted";
  if (bounded && std::chrono::steady_clock::now() >= stop.deadline) return "time limit";
  return {};
}

std::string_view StoppingRule::after_incomplete_step() const {
  return stop.interrupt && stop.interrupt->load() ? "interrupted" : "time limit";
}

std::string_view StoppingRule::after_step(int64_t best, double seconds, bool improved) {
  if (target && best <= *target) return "target";
  if (improved) {
    improved_at_ = seconds;
    if (keep_going && !keep_going(best, seconds)) return "callback";
  }
  // Weights are never negative, so 0 is a bound of every instance: a tour of length 0 (cities on
  // one point, a matrix of zeros) is optimal whether or not a bound is known.
  if (best <= 0) return "optimal";
  if (lower_bound) {
    const int64_t bound = lower_bound->load();
    if (bound > 0 && best <= bound) return "optimal";
  }
  if (stop_on_stall && seconds - improved_at_ >= std::max(kMinStallSeconds, improved_at_)) return "no improvement";
  return {};
}

std::string_view StoppingRule::final_reason(std::string_view reason, std::optional<int64_t> target,
                                            int64_t length) {
  return target && reason == "time limit" && length <= *target ? "target" : reason;
}

}  // namespace formica
