// SPDX-License-Identifier: MIT
// TwoOptSearch: iterated 2-opt hill climbing from random restarts as a Search (Robinson et al.
// sections 2.2 and 3.1): each step climbs one batch of restarts, the best tour over all restarts is
// the result, and the search is finished once TwoOptConfig::restarts climbs are done. The CPU and
// CUDA backends derive from it and only say how a batch is climbed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/instance.h"
#include "core/search.h"
#include "localsearch/config.h"

namespace formica::localsearch {

/// Work counters, summed over restarts.
struct TwoOptStats {
  int64_t restarts = 0;          ///< climbs finished
  int64_t passes = 0;            ///< full passes over all n(n - 3) / 2 moves
  int64_t evaluations = 0;       ///< moves evaluated by full passes: n(n - 3) / 2 each
  int64_t neighbour_passes = 0;  ///< neighbour-list passes (GPU) or neighbour-list moves tried (CPU)
  int64_t moves = 0;             ///< moves applied
  double climb_ms = 0.0;         ///< time spent climbing (CUDA events on the GPU)

  TwoOptStats& operator+=(const TwoOptStats& other);
};

class TwoOptSearch : public Search {
 public:
  TwoOptSearch(const Instance& instance, const TwoOptConfig& config);

  /// Climbs the next batch of restarts; does nothing once finished.
  bool step(const StopFlag& stop) final;
  bool finished() const final { return next_restart_ >= config_.restarts; }

  int64_t best_length() const final { return best_length_; }
  std::vector<int32_t> best_tour() const final { return best_tour_; }
  int64_t iteration_best_length() const final { return iteration_best_; }
  StepTimes last_step_times() const final { return times_; }

  const TwoOptConfig& config() const { return config_; }
  const TwoOptStats& stats() const { return stats_; }
  int64_t restarts_done() const { return next_restart_; }
  /// Restart whose tour is best_tour() (the lowest index among equally short ones).
  int64_t best_restart() const { return best_restart_; }
  /// How the work is laid out on the hardware (GPU: layout, threads per block, tile, grid).
  virtual std::string describe_launch() const = 0;

 protected:
  struct Batch {
    int64_t best_restart = -1;  ///< lowest-indexed restart of the shortest length
    int64_t best_length = 0;
    std::vector<int32_t> best_tour;
    TwoOptStats stats;
  };
  /// Climbs restarts first .. first + count - 1. Returns false when `stop` cut the batch short;
  /// nothing of an unfinished batch is kept.
  virtual bool climb_batch(int64_t first, int64_t count, const StopFlag& stop, Batch& out) = 0;
  /// How many restarts the next step should climb (at least 1; at most `remaining` is used).
  virtual int64_t batch_size(int64_t remaining) = 0;

  const Instance& instance_;
  const TwoOptConfig config_;

 private:
  int64_t next_restart_ = 0;
  int64_t best_restart_ = -1;
  int64_t best_length_ = 0, iteration_best_ = 0;
  std::vector<int32_t> best_tour_;
  TwoOptStats stats_;
  StepTimes times_;
};

}  // namespace formica::localsearch
