// SPDX-License-Identifier: MIT
// Search: the interface every iterative method implements (ant colonies, 2-opt restarts), on any
// backend. The solver drives a Search with its stopping rules; the bench harness times its steps.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/credits.h"

namespace formica {

enum class Backend { Auto, Cpu, Cuda };

/// Why and when to stop early: an interrupt flag (Ctrl-C) and a wall-clock deadline. A Search
/// polls it inside long steps so that neither waits for a whole iteration.
struct StopFlag {
  const std::atomic<bool>* interrupt = nullptr;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

  bool requested() const {
    return (interrupt != nullptr && interrupt->load(std::memory_order_relaxed)) ||
           std::chrono::steady_clock::now() >= deadline;
  }
};

/// Thrown by the set-up of a search (its lists and tables, work that yields no tour) when its stop
/// asks: the solver then runs a search that needs no set-up instead (solver/quick_search.h).
class SetupStopped : public std::runtime_error {
 public:
  SetupStopped() : std::runtime_error("the search's set-up was stopped before it was done") {}
};

/// The stop for a search's lists and tables: the interrupt of `setup_stop`, and half the time left
/// before its deadline, so that a run whose set-up cannot finish in time keeps the other half for
/// a search that needs none. A stop that never asks when `setup_stop` is null or has no deadline.
inline StopFlag preparation_stop(const StopFlag* setup_stop) {
  if (setup_stop == nullptr) return {};
  StopFlag stop = *setup_stop;
  const auto now = std::chrono::steady_clock::now();
  if (stop.deadline != std::chrono::steady_clock::time_point::max() && stop.deadline > now)
    stop.deadline = now + (stop.deadline - now) / 2;
  return stop;
}

/// Time one step spent in each phase, in milliseconds (CUDA events on the GPU).
struct StepTimes {
  double total_ms = 0.0;
  double construction_ms = 0.0;
  double pheromone_ms = 0.0;
  double local_search_ms = 0.0;
};

class Search {
 public:
  virtual ~Search() = default;

  /// Runs one iteration. Returns false if `stop` was requested before the iteration finished;
  /// the unfinished iteration then leaves the best tour unchanged.
  virtual bool step(const StopFlag& stop) = 0;

  /// Exact length and order of the best tour found so far: 0 and empty before the first step,
  /// unless the search starts from a tour (focused colonies).
  virtual int64_t best_length() const = 0;
  virtual std::vector<int32_t> best_tour() const = 0;
  /// Exact length of the best tour of the last completed iteration.
  virtual int64_t iteration_best_length() const = 0;

  virtual StepTimes last_step_times() const = 0;
  virtual Backend backend() const = 0;

  /// True once the search has done all the work it was configured for (e.g. a fixed number of
  /// restarts); the solver then stops. Searches that can always go on keep the default.
  virtual bool finished() const { return false; }

  /// Whether adopt() takes tours found outside this search (other ranks' in the island model,
  /// solver/islands.h). The solver exchanges tours only with searches that do.
  virtual bool supports_adoption() const { return false; }

  /// Takes in `tour`, a permutation of the cities of exact length `length` found elsewhere: the
  /// search merges it with its best tour (partition merge) and goes on from the result where that
  /// is shorter. Returns whether best_length() got shorter. Called between steps, after the first.
  /// Searches without supports_adoption() throw std::logic_error.
  virtual bool adopt(std::span<const int32_t> tour, int64_t length) {
    (void)tour, (void)length;
    throw std::logic_error("this search takes no tours from outside (supports_adoption() is false)");
  }

  /// Who found the improvements of best_length() (core/credits.h), for searches in which more than
  /// their own iterations improve the best tour (colonies with host threads, merges, adoption);
  /// null for the others, whose every improvement is their own (the solver credits them).
  virtual const Credits* credits() const { return nullptr; }

  /// Called once after the last step: a search with helper threads (--lk-threads) stops them and
  /// takes in what they found, so that best_length() and best_tour() are final.
  virtual void finish() {}
};

}  // namespace formica
