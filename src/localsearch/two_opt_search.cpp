// SPDX-License-Identifier: MIT
// Restart bookkeeping shared by the CPU and CUDA 2-opt searches (see two_opt_search.h).
#include "localsearch/two_opt_search.h"

#include <algorithm>
#include <stdexcept>

#include "core/error.h"
#include "core/timer.h"
#include "core/tour.h"

namespace formica::localsearch {

TwoOptStats& TwoOptStats::operator+=(const TwoOptStats& other) {
  restarts += other.restarts;
  passes += other.passes;
  evaluations += other.evaluations;
  neighbour_passes += other.neighbour_passes;
  moves += other.moves;
  climb_ms += other.climb_ms;
  return *this;
}

TwoOptSearch::TwoOptSearch(const Instance& instance, const TwoOptConfig& config)
    : instance_(instance), config_(config) {
  config_.validate();
  FORMICA_EXPECTS(config_.start != StartKind::SpaceFillingCurve || instance.has_display_coordinates(),
                  "--start space-filling-curve needs coordinates, and ", instance.name(), " has none");
}

bool TwoOptSearch::step(const StopFlag& stop) {
  if (finished()) return true;
  const Stopwatch clock;
  const int64_t remaining = config_.restarts - next_restart_;
  const int64_t count = std::clamp<int64_t>(batch_size(remaining), 1, remaining);
  Batch batch;
  if (!climb_batch(next_restart_, count, stop, batch)) return false;
  // Every length leaving the search is exact: the batch's best tour is measured here again.
  const int64_t measured = tour_length(instance_, batch.best_tour);
  if (measured != batch.best_length)
    throw std::logic_error(concat("2-opt restart ", batch.best_restart, " reported length ", batch.best_length,
                                  " but its tour measures ", measured));
  next_restart_ += count;
  iteration_best_ = batch.best_length;
  if (best_tour_.empty() || batch.best_length < best_length_) {  // ties keep the earlier restart
    best_length_ = batch.best_length;
    best_restart_ = batch.best_restart;
    best_tour_ = std::move(batch.best_tour);
  }
  stats_ += batch.stats;
  times_.total_ms = clock.seconds() * 1e3;
  times_.local_search_ms = batch.stats.climb_ms;
  return true;
}

}  // namespace formica::localsearch
