// SPDX-License-Identifier: MIT
// Ctrl-C (SIGINT) or SIGTERM while a command solves: the first one sets a flag that the solver
// polls (it stops within a step and keeps its best tours, so the command still writes them), and
// the command exits with 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM); a second
// one ends the process at once with that code.
#pragma once

#include <atomic>
#include <csignal>

namespace formica::cli {

class InterruptGuard {
 public:
  /// Clears the flag and installs the SIGINT and SIGTERM handlers.
  InterruptGuard();
  /// Restores the handlers that were there before.
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  /// The flag for SolveOptions::interrupt / BatchOptions::interrupt.
  const std::atomic<bool>* flag() const;

  /// The exit code for a run that stopped by the flag: 128 + the first signal received.
  static int exit_code();

 private:
  struct sigaction previous_int_ {}, previous_term_ {};
};

}  // namespace formica::cli
