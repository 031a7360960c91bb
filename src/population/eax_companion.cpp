// SPDX-License-Identifier: MIT
// GA-EAX beside the colonies (see eax_companion.h).
#include "population/eax_companion.h"

#include <memory>
#include <utility>

namespace formica::population {

EaxCompanion::EaxCompanion(const Instance& instance, const EdgeAssemblyConfig& config)
    : instance_(instance), config_(config) {
  config_.validate();
  worker_ = std::thread([this] { run(); });
}

EaxCompanion::~EaxCompanion() {
  try {
    stop();
  } catch (...) {  // an error nobody asked for by stopping: the run is over anyway
  }
}

void EaxCompanion::stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  offered_.notify_all();
  if (worker_.joinable()) worker_.join();
  std::exception_ptr error;
  {
    const std::lock_guard lock(mutex_);
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

void EaxCompanion::publish_locked(std::span<const int32_t> tour, int64_t length) {
  const int64_t published = best_length_.load();
  if (published >= 0 && length >= published) return;
  best_.assign(tour.begin(), tour.end());
  best_length_.store(length);
}

void EaxCompanion::offer(std::span<const int32_t> tour, int64_t length) {
  {
    const std::lock_guard lock(mutex_);
    if (pending_length_ >= 0 && length >= pending_length_) return;
    pending_.assign(tour.begin(), tour.end());
    pending_length_ = length;
    publish_locked(tour, length);
  }
  offered_.notify_all();
}

int64_t EaxCompanion::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  if (best_length_.load() >= 0) out = best_;
  return best_length_.load();
}

void EaxCompanion::run() {
  try {
    std::vector<int32_t> first;
    {
      std::unique_lock lock(mutex_);
      offered_.wait(lock, [this] { return stop_.load() || pending_length_ >= 0; });
      if (stop_.load()) return;
      first = std::move(pending_);
      pending_length_ = -1;
    }
    StopFlag stop;
    stop.interrupt = &stop_;
    EdgeAssemblySearch search(instance_, config_, std::move(first), &stop);
    std::vector<int32_t> taken;
    while (!stop_.load() && !search.finished()) {
      int64_t taken_length = -1;
      {
        const std::lock_guard lock(mutex_);
        if (pending_length_ >= 0) {
          taken = std::move(pending_);
          taken_length = std::exchange(pending_length_, -1);
        }
      }
      if (taken_length >= 0) search.adopt(taken, taken_length);
      if (!search.step(stop)) break;
      generations_.store(search.generations());
      if (search.best_length() >= best_length_.load()) continue;
      const std::vector<int32_t> tour = search.best_tour();
      const std::lock_guard lock(mutex_);
      publish_locked(tour, search.best_length());
    }
  } catch (...) {
    const std::lock_guard lock(mutex_);
    error_ = std::current_exception();
  }
}

}  // namespace formica::population
