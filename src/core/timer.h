// SPDX-License-Identifier: MIT
// Wall-clock timing on the host: a stopwatch and a deadline shared by every stopping rule.
#pragma once

#include <chrono>
#include <limits>

namespace formica {

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;
  Stopwatch() : start_(Clock::now()) {}
  explicit Stopwatch(Clock::time_point start) : start_(start) {}
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  Clock::time_point start() const { return start_; }

 private:
  Clock::time_point start_;
};

}  // namespace formica
