// The SIGINT handler of the solving commands (see interrupt.h).
#include "cli/interrupt.h"

#include <cstdlib>

namespace formica::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) {
  // A second Ctrl-C does not wait for the clean stop.
  if (g_interrupted.exchange(true)) std::_Exit(130);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = false;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }

const std::atomic<bool>* InterruptGuard::flag() const { return &g_interrupted; }

}  // namespace formica::cli
