// SPDX-License-Identifier: MIT
// A tour's stretches solved as one batch (see stretch_batch.h).
#include "batch/stretch_batch.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "batch/walks.h"  // for_each_index
#include "core/error.h"
#include "core/path_transform.h"
#include "core/rng.h"
#include "core/tour.h"
#include "decomposition/stretch_lin_kernighan.h"

namespace formica::batch {
namespace {

constexpr uint64_t kOffsetStreams = 0x0FF5E7BA7C000000ull;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

StretchRound improve_stretches(const Instance& instance, std::span<int32_t> tour, int stretch, int offset,
                               const BatchConfig& config, const std::atomic<bool>* interrupt) {
  const auto start = std::chrono::steady_clock::now();
  FORMICA_EXPECTS(stretch >= 8, "a stretch needs at least 8 cities, got ", stretch);
  StretchRound round;
  const int n = static_cast<int>(tour.size());
  if (n < 2 * stretch) return round;
  const int count = n / stretch;
  round.stretches = count;

  // Every stretch's cities (in tour order), its closed instance and the path it starts from: the
  // cities in their order, then the dummy city.
  std::vector<std::vector<int32_t>> cities(static_cast<size_t>(count));
  std::vector<std::optional<PathTransform>> transforms(static_cast<size_t>(count));
  std::vector<std::optional<Instance>> built(static_cast<size_t>(count));
  std::vector<InstanceLimits> limits(static_cast<size_t>(count));
  const int threads = config.threads > 0 ? config.threads : hardware_threads();
  for_each_index(count, threads, [&](int s) {
    const decomposition::StretchCut cut = decomposition::stretch_cut(n, stretch, offset, s);
    std::vector<int32_t>& own = cities[s];
    own.resize(static_cast<size_t>(cut.cities));
    for (int i = 0; i < cut.cities; ++i) own[i] = tour[(cut.first + i) % n];
    PathEnds ends;
    ends.open = true;
    ends.start = 0;
    ends.end = cut.cities - 1;
    transforms[s].emplace(decomposition::stretch_instance(instance, own), ends, PathEndNames{}, PathForm::Dense);
    built[s].emplace(transforms[s]->release_instance());
    limits[s].start.resize(static_cast<size_t>(cut.cities) + 1);
    std::iota(limits[s].start.begin(), limits[s].start.end(), 0);
  });

  std::vector<Instance> closed;
  closed.reserve(static_cast<size_t>(count));
  for (std::optional<Instance>& instance_of_stretch : built) closed.push_back(std::move(*instance_of_stretch));

  BatchOptions options;
  options.start = start;
  options.interrupt = interrupt;
  const Batch batch = solve_batch(closed, config, limits, options);
  round.walks = batch.walks;

  std::vector<int64_t> gains(static_cast<size_t>(count), 0);
  for_each_index(count, threads, [&](int s) {
    const std::vector<int32_t>& own = cities[s];
    const int m = static_cast<int>(own.size());
    const std::vector<int32_t> path = transforms[s]->path(batch.results[s].tour.order());
    if (path.front() != 0 || path.back() != m - 1) return;  // ends moved: only possible in an unfinished repair
    const int64_t gain = path_length(instance, own) - decomposition::path_through(instance, own, path);
    if (gain <= 0) return;
    const int first = decomposition::stretch_cut(n, stretch, offset, s).first;
    for (int i = 0; i < m; ++i) tour[(first + i) % n] = own[path[i]];
    gains[s] = gain;
  });
  for (int s = 0; s < count; ++s) {
    round.kicks += batch.results[s].kicks;
    round.gain += gains[s];
    round.improved += gains[s] > 0;
  }
  round.seconds = seconds_since(start);
  return round;
}

StretchBatchSearch::StretchBatchSearch(const Instance& instance, BatchConfig config, int stretch,
                                       double round_seconds)
    : instance_(instance), config_(std::move(config)), stretch_(stretch), round_seconds_(round_seconds) {
  FORMICA_EXPECTS(stretch >= 8 && instance.n() >= 2 * stretch, "batch stretches of ", stretch,
                  " cities need a tour of at least twice that, got ", instance.n(), " cities");
  FORMICA_EXPECTS(round_seconds > 0, "a stretch round needs a positive time, got ", round_seconds);
  config_.kicks.reset();
  config_.time_limit = round_seconds_;
  config_.validate();
  thread_ = std::thread([this] { run(); });
}

void StretchBatchSearch::offer(std::span<const int32_t> tour, int64_t length) {
  {
    const std::lock_guard lock(mutex_);
    offered_.keep_if_shorter(tour, length, published_.length());
  }
  wake_.notify_all();
}

int64_t StretchBatchSearch::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  return published_.copy(out);
}

void StretchBatchSearch::stop() {
  localsearch::cpu::request_stop(mutex_, stop_, wake_);
  if (thread_.joinable()) thread_.join();
}

std::exception_ptr StretchBatchSearch::failure() const {
  const std::lock_guard lock(mutex_);
  return failure_;
}

void StretchBatchSearch::run() {
  std::vector<int32_t> tour;
  int64_t length = -1;
  double seconds = round_seconds_;
  try {
    for (uint64_t round = 0;; ++round) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_.load() || offered_.length >= 0 || length >= 0; });
        if (stop_.load()) return;
        if (offered_.length >= 0 && (length < 0 || offered_.length < length)) {
          tour.swap(offered_.tour);
          length = offered_.length;
          published_.publish(tour, length);
        }
        offered_.length = -1;
      }
      BatchConfig config = config_;
      config.seed = config_.seed + round * 0x9E3779B97F4A7C15ull;
      config.time_limit = seconds;
      const int offset = static_cast<int>(
          RandomStream(config_.seed, kOffsetStreams, static_cast<uint32_t>(round)).below(static_cast<uint32_t>(stretch_)));
      const StretchRound done = improve_stretches(instance_, tour, stretch_, offset, config, &stop_);
      kicks_.fetch_add(done.kicks, std::memory_order_relaxed);
      rounds_.fetch_add(1, std::memory_order_relaxed);
      seconds = done.kicks > 0 ? round_seconds_ : std::min(2 * seconds, kMaxRoundGrowth * round_seconds_);
      if (done.gain > 0) {
        const int64_t measured = tour_length(instance_, tour);
        if (measured != length - done.gain)
          throw std::logic_error(concat("a stretch round's gain (", done.gain, ") does not match the tour's length (",
                                        length, " -> ", measured, ")"));
        length = measured;
        const std::lock_guard lock(mutex_);
        published_.publish(tour, length);
      }
    }
  } catch (...) {
    const std::lock_guard lock(mutex_);
    failure_ = std::current_exception();
  }
}

}  // namespace formica::batch
