// SPDX-License-Identifier: MIT
// The SIGINT and SIGTERM handler of the solving commands (see interrupt.h).
#include "cli/interrupt.h"

#include <cstdlib>

namespace formica::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{SIGINT};

extern "C" void on_interrupt(int signal) {
  // A second signal does not wait for the clean stop. The handler blocks both signals while it
  // runs, so the two stores below are never interleaved with another call.
  if (g_interrupted.load()) std::_Exit(128 + g_signal.load());
  g_signal = signal;
  g_interrupted = true;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = false;
  g_signal = SIGINT;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);  // one handler at a time: the first signal names the exit code
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

const std::atomic<bool>* InterruptGuard::flag() const { return &g_interrupted; }

int InterruptGuard::exit_code() { return 128 + g_signal.load(); }

}  // namespace formica::cli
