// SPDX-License-Identifier: MIT
// The island model across ranks (see islands.h).
#include "solver/islands.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <span>
#include <string_view>

#include "core/error.h"
#include "core/tour.h"
#include "distributed/start_ranks.h"
#include "population/partition_merge.h"

namespace formica {
namespace {

/// A rank's state at an exchange: 0 while it goes on, else 1 + the index of its stop reason here.
constexpr std::array<std::string_view, 6> kStopReasons = {"iterations", "time limit", "target",
                                                          "interrupted", "finished", "failed"};

int64_t state_of(const std::string& stop_reason) {
  const auto at = std::find(kStopReasons.begin(), kStopReasons.end(), stop_reason);
  return at == kStopReasons.end() ? static_cast<int64_t>(kStopReasons.size()) : 1 + (at - kStopReasons.begin());
}

}  // namespace

double default_island_interval(int n, std::optional<double> time_limit) {
  const double by_n = std::clamp(n / 2000.0, 1.0, 10.0);
  return time_limit ? std::min(by_n, *time_limit / 5) : by_n;
}

Islands::Islands(distributed::Communicator& ranks, const Instance& instance, double interval, bool gpu)
    : ranks_(ranks), instance_(instance), interval_(interval) {
  gpus_ = distributed::count_gpus(ranks, gpu);
  states_.resize(static_cast<size_t>(ranks.size()) * 2);
}

void Islands::run(Search& search, const std::function<bool()>& advance, Result& result, const Stopwatch& clock,
                  const SolveOptions& options) {
  double next = clock.seconds() + interval_;
  while (true) {
    bool going = false;
    try {
      going = advance();
    } catch (...) {
      result.failure = std::current_exception();
      result.stop_reason = "failed";
    }
    if (going && clock.seconds() < next) continue;
    const int stopped = exchange(search, going ? 0 : state_of(result.stop_reason), result, clock, options);
    if (stopped >= 0) {
      if (going) {
        const int64_t state = states_[static_cast<size_t>(stopped) * 2 + 1];
        result.stop_reason = concat("rank ", stopped, ": ",
                                    state <= static_cast<int64_t>(kStopReasons.size()) ? kStopReasons[state - 1]
                                                                                        : "stopped");
      }
      return;
    }
    next = clock.seconds() + interval_;
  }
}

int Islands::exchange(Search& search, int64_t state, Result& result, const Stopwatch& clock,
                      const SolveOptions& options) {
  const int size = ranks_.size(), me = ranks_.rank(), n = instance_.n();
  // A failed search may not answer: it reports no length.
  int64_t length = -1;
  if (!result.failure) length = search.best_length();
  const std::array<int64_t, 2> mine = {length, state};
  ranks_.allgather(std::span<const int64_t>(mine), states_);
  ++exchanges_;
  int stopped = -1;
  bool every_rank_has_a_tour = true;
  std::vector<int64_t> bests(static_cast<size_t>(size));
  int64_t shortest = 0;
  for (int r = 0; r < size; ++r) {
    bests[r] = states_[static_cast<size_t>(r) * 2];
    if (stopped < 0 && states_[static_cast<size_t>(r) * 2 + 1] != 0) stopped = r;
    every_rank_has_a_tour = every_rank_has_a_tour && bests[r] > 0;
    if (bests[r] > 0 && (shortest == 0 || bests[r] < shortest)) shortest = bests[r];
  }
  // Decided from what every rank received, so that every rank makes the same collective calls.
  if (stopped < 0 && every_rank_has_a_tour && search.supports_adoption()) {
    const std::vector<int32_t> own = search.best_tour();
    tours_.resize(static_cast<size_t>(size) * n);
    ranks_.allgather(std::span<const int32_t>(own), tours_);
    // The others' tours, shortest first, each merged with the best the ones before it left.
    std::vector<int> order(static_cast<size_t>(size));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return bests[a] < bests[b]; });
    for (int r : order)
      if (r != me) search.adopt(std::span<const int32_t>(tours_).subspan(static_cast<size_t>(r) * n, n), bests[r]);
  }
  if (options.on_progress && me == 0)
    options.on_progress({result.iterations, clock.seconds(), shortest, search.iteration_best_length(), false, bests});
  if (options.on_checkpoint && me == 0 && !result.failure) {
    const int64_t best = search.best_length();
    if (best > 0 && (checkpointed_ < 0 || best < checkpointed_)) {
      options.on_checkpoint(search.best_tour(), best);
      checkpointed_ = best;
    }
  }
  return stopped;
}

void Islands::gather_best(bool failed, std::vector<int32_t>& tour, int64_t& length) {
  const int size = ranks_.size(), n = instance_.n();
  // Lengths first, so that rank 0 knows which ranks sent no tour.
  const int64_t mine = failed || tour.empty() ? -1 : length;
  std::vector<int64_t> lengths(static_cast<size_t>(size));
  ranks_.allgather(std::span<const int64_t>(&mine, 1), lengths);
  std::vector<int32_t> sent = tour;
  if (sent.size() != static_cast<size_t>(n)) {
    sent.resize(static_cast<size_t>(n));
    std::iota(sent.begin(), sent.end(), 0);
  }
  std::vector<int32_t> all(ranks_.rank() == 0 ? static_cast<size_t>(size) * n : 0);
  ranks_.gather(sent, all, 0);
  if (ranks_.rank() != 0) return;
  std::vector<population::LengthTour> donors;
  for (int r = 0; r < size; ++r)
    if (lengths[r] >= 0) donors.emplace_back(lengths[r], std::span<const int32_t>(all).subspan(static_cast<size_t>(r) * n, n));
  FORMICA_EXPECTS(!donors.empty(), "every rank failed before it found a tour");
  if (n < 5) {
    std::stable_sort(donors.begin(), donors.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    tour.assign(donors.front().second.begin(), donors.front().second.end());
    length = donors.front().first;
    return;
  }
  length = population::merge_tours(instance_, donors, tour);
}

}  // namespace formica
