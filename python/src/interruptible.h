// SPDX-License-Identifier: MIT
// Running C++ work from Python with the GIL released, Ctrl-C included: the work runs on a worker
// thread while the calling thread waits without the GIL, waking every few milliseconds to let
// Python run its signal handlers (PyErr_CheckSignals, which only acts on the main thread) and an
// optional `poll` (a progress callback, say) with the GIL held. When either raises, `interrupt` is
// set, the work stops within a step and returns what it has, and the Python error comes back
// beside the result, for the caller to raise with that result attached.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <utility>

#include "bindings.h"

namespace formica::python {

inline constexpr auto kSignalPoll = std::chrono::milliseconds(20);

template <typename Work>
auto run_interruptibly(Work&& work, std::atomic<bool>& interrupt, const std::function<void()>& poll = {})
    -> std::pair<decltype(work()), std::optional<nb::python_error>> {
  std::optional<nb::python_error> error;
  const auto check = [&] {
    try {
      if (PyErr_CheckSignals() != 0) throw nb::python_error();  // takes the pending exception
      if (poll) poll();
    } catch (nb::python_error& e) {
      error.emplace(std::move(e));
      interrupt = true;
    }
  };
  std::optional<decltype(work())> result;
  {
    nb::gil_scoped_release release;
    std::future<decltype(work())> run = std::async(std::launch::async, std::forward<Work>(work));
    while (run.wait_for(kSignalPoll) != std::future_status::ready) {
      if (interrupt.load()) continue;
      nb::gil_scoped_acquire acquire;
      check();
    }
    result.emplace(run.get());
  }
  if (!error && poll) check();  // the last word of the progress callback
  return {std::move(*result), std::move(error)};
}

/// Raises `error` (when there is one) with `result` attached as `_formica_result`.
inline void raise_with_result(std::optional<nb::python_error>& error, const nb::handle result) {
  if (!error) return;
  nb::setattr(error->value(), "_formica_result", result);
  throw std::move(*error);
}

}  // namespace formica::python
