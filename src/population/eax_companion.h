// SPDX-License-Identifier: MIT
// GA-EAX beside the colonies (--host-search eax): one host thread drives an EdgeAssemblySearch
// (edge_assembly_search.h) whose generations run on --lk-threads OpenMP threads, in place of the
// iterated Lin-Kernighan threads. The merger (aco/colony_merge.h) offers it the colonies' merged
// tour, which joins the population in its one guest slot (EdgeAssemblySearch::adopt), and
// takes its shortest tour as one more donor: the colonies give the run a good tour early, while
// the population converges, and GA-EAX the far better tours after (portfolio.cpp has the figures).
// With EdgeAssemblyConfig::bridge_threads, some of the threads first run iterated Lin-Kernighan on
// the colonies' tours (the bridge) while the population converges from its climbed starts, and
// rejoin the generations once the population's own shortest tour has caught up with the bridge's:
// a population of large tours takes many generations to overtake the colonies' tour, which the
// Lin-Kernighan threads bring down meanwhile (docs/gpu-engine.md#bridge-threads).
// The result depends on timing, as with the Lin-Kernighan threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/instance.h"
#include "localsearch/cpu/tour_companion.h"
#include "population/edge_assembly_search.h"

namespace formica::population {

class EaxCompanion final : public localsearch::cpu::TourCompanion {
 public:
  /// Starts the driving thread, idle until the first offer, whose tour is the population's first
  /// (`config.threads` threads run the generations).
  EaxCompanion(const Instance& instance, const EdgeAssemblyConfig& config);
  ~EaxCompanion() override;

  void offer(std::span<const int32_t> tour, int64_t length) override;
  int64_t best(std::vector<int32_t>& out) const override;
  int64_t best_length() const override;
  /// Stops and joins the thread; rethrows (once) what the search threw, an internal error.
  void stop() override;
  void walks(std::vector<Walk>& out) const override { out.clear(); }
  /// GA-EAX tries no kicks: 0.
  int64_t kicks() const override { return 0; }
  bool best_by_lin_kernighan() const override;
  /// Generations run so far.
  int64_t generations() const { return generations_.load(); }
  /// Whether the bridge's threads run now (bridge_threads, before the population catches up).
  bool bridging() const;

 private:
  void run();
  /// Publishes `tour` when shorter than the shortest published; the caller holds mutex_.
  void publish_locked(std::span<const int32_t> tour, int64_t length);
  /// Starts the bridge on `threads` threads from `search`'s best tour, and lends them to it.
  void start_bridge(int threads, EdgeAssemblySearch& search);
  /// Once the population's own shortest tour is no longer than the bridge's (or `now`), stops the
  /// bridge, hands its best tour to `search` and gives the threads back.
  void end_bridge(EdgeAssemblySearch& search, bool now);

  const Instance& instance_;
  const EdgeAssemblyConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable offered_;
  std::vector<int32_t> best_;     // guarded by mutex_
  std::vector<int32_t> pending_;  // guarded by mutex_: the latest offer the search has not taken
  int64_t pending_length_ = -1;   // guarded by mutex_
  std::exception_ptr error_;      // guarded by mutex_
  std::unique_ptr<localsearch::cpu::TourCompanion> bridge_;  // guarded by mutex_: while it runs
  bool bridge_published_ = false;  // guarded by mutex_: the published tour is the bridge's last
  /// The population's published length (best_'s), stored under mutex_, read without it.
  std::atomic<int64_t> best_length_{-1};
  /// bridge_ != nullptr, stored under mutex_ with bridge_, read without it (best_length).
  std::atomic<bool> bridging_{false};
  std::atomic<int64_t> generations_{0};
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

}  // namespace formica::population
