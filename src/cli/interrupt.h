// Ctrl-C while a command solves: the first one sets a flag that the solver polls (it stops within
// a step and keeps its best tours, so the command still writes them), a second one ends the
// process at once with exit code 130.
#pragma once

#include <atomic>
#include <csignal>

namespace formica::cli {

class InterruptGuard {
 public:
  /// Clears the flag and installs the SIGINT handler.
  InterruptGuard();
  /// Restores the handler that was there before.
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  /// The flag for SolveOptions::interrupt / BatchOptions::interrupt.
  const std::atomic<bool>* flag() const;

 private:
  struct sigaction previous_ {};
};

}  // namespace formica::cli
