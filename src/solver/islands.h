// SPDX-License-Identifier: MIT
// The island model across ranks: every rank runs its own search (its colonies and
// Lin-Kernighan threads, seeded with seed + rank); every island interval the ranks exchange their
// best tours through the distributed layer (distributed/communicator.h) and each adopts the others'
// (Search::adopt: partition merge with its best, aco/colony_merge.h); at the end rank 0 gathers
// every rank's best tour and merges them. The ranks stop together: the first rank whose stopping
// rule fires (time limit, target, iterations, Ctrl-C, a failure) says so at the next exchange and
// every rank stops there. solve() runs this only with more than one rank: a run of one rank has no
// exchange and no collective call.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/instance.h"
#include "core/search.h"
#include "core/timer.h"
#include "distributed/communicator.h"
#include "solver/solver.h"

namespace formica {

/// Seconds between exchanges when SolverConfig::island_interval is 0: 1 s up to 2,000 cities, then
/// n / 2000 s (a tour of n cities takes longer to improve), at most 10 s, and at most a fifth of
/// the time limit so that a short run still exchanges.
double default_island_interval(int n, std::optional<double> time_limit);

class Islands {
 public:
  /// `interval` in seconds (> 0). Collective (it counts the ranks' GPUs).
  Islands(distributed::Communicator& ranks, const Instance& instance, double interval, bool gpu);

  /// Runs `advance` (one step of `search` under the stopping rules, false with result.stop_reason
  /// set once one fires) with an exchange every interval, until a rank stops; then every rank
  /// stops, with its own reason or "rank R: <reason>". An exception from `advance` is kept in
  /// result.failure and reported to the others as a stop, so nobody waits on the failed rank.
  /// options.on_progress hears of every exchange on rank 0, options.on_checkpoint of every one that
  /// shortened rank 0's best tour (after the others' tours were adopted).
  void run(Search& search, const std::function<bool()>& advance, Result& result, const Stopwatch& clock,
           const SolveOptions& options);

  /// After the search's finish(): every rank's best tour (`tour`, `length`) gathered on rank 0 and
  /// merged there (partition merge, shortest first) into `tour` and `length`; other ranks keep
  /// their own. A rank that `failed` sends no tour.
  void gather_best(bool failed, std::vector<int32_t>& tour, int64_t& length);

  int gpus() const { return gpus_; }
  int64_t exchanges() const { return exchanges_; }

 private:
  /// One exchange: every rank's best length and state, then (while all go on and the search
  /// takes tours) every rank's best tour, the others' adopted shortest first. Returns the lowest
  /// rank that stopped, or -1.
  int exchange(Search& search, int64_t state, Result& result, const Stopwatch& clock,
               const SolveOptions& options);

  distributed::Communicator& ranks_;
  const Instance& instance_;
  double interval_;
  int gpus_ = 0;
  int64_t exchanges_ = 0;
  int64_t checkpointed_ = -1;  // the length last handed to on_checkpoint
  std::vector<int64_t> states_;  // ranks x (best length, state)
  std::vector<int32_t> tours_;   // ranks x n
};

}  // namespace formica
