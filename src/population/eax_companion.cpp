// SPDX-License-Identifier: MIT
// GA-EAX beside the colonies (see eax_companion.h).
#include "population/eax_companion.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/candidates.h"
#include "core/rng.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"
#include "localsearch/cpu/lin_kernighan.h"

namespace formica::population {
namespace {

constexpr uint64_t kBridgeTag = 0x42524447;  // "BRDG": the bridge's kicks
/// The bridge's lists: as the Lin-Kernighan threads' beside the colonies on large instances.
constexpr int kBridgeNeighbours = 10;

}  // namespace

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
  std::unique_ptr<localsearch::cpu::TourCompanion> bridge;  // left running by an error
  {
    const std::lock_guard lock(mutex_);
    error = std::exchange(error_, nullptr);
    bridge = std::move(bridge_);
    bridging_.store(false);
  }
  if (bridge) bridge->stop();
  if (error) std::rethrow_exception(error);
}

void EaxCompanion::publish_locked(std::span<const int32_t> tour, int64_t length) {
  const int64_t published = best_length_.load();
  if (published >= 0 && length >= published) return;
  bridge_published_ = false;
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
    if (bridge_) bridge_->offer(tour, length);
  }
  offered_.notify_all();
}

int64_t EaxCompanion::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  const int64_t own = best_length_.load();
  if (bridge_) {
    std::vector<int32_t> tour;
    const int64_t length = bridge_->best(tour);
    if (length >= 0 && (own < 0 || length < own)) {
      out = std::move(tour);
      return length;
    }
  }
  if (own >= 0) out = best_;
  return own;
}

int64_t EaxCompanion::best_length() const {
  // The population's length is atomic (publish_locked stores it with the tour), so without the
  // bridge (bridge_threads 0, the default, or once it has ended) this takes no lock. With it, the
  // lock stays: end_bridge takes bridge_ out under the lock and then destroys it, so asking bridge_
  // unlocked could read a companion being destroyed. bridging_ changes with bridge_ under the lock:
  // a read that finds it false answers what a locked read would have answered then.
  if (!bridging_.load()) return best_length_.load();
  const std::lock_guard lock(mutex_);
  const int64_t own = best_length_.load(), bridged = bridge_ ? bridge_->best_length() : -1;
  return bridged >= 0 && (own < 0 || bridged < own) ? bridged : own;
}

bool EaxCompanion::best_by_lin_kernighan() const {
  const std::lock_guard lock(mutex_);
  if (!bridge_) return bridge_published_;
  const int64_t bridged = bridge_->best_length();
  return bridged >= 0 && bridged < best_length_.load();
}

bool EaxCompanion::bridging() const { return bridging_.load(); }

void EaxCompanion::start_bridge(int threads, EdgeAssemblySearch& search) {
  const int n = instance_.n();
  auto bridge = std::make_unique<localsearch::cpu::IteratedLinKernighan>(
      instance_, build_candidate_lists(instance_, std::min(kBridgeNeighbours, n - 1), threads, NeighbourShape::Quadrant),
      threads, derive_seed(config_.seed, kBridgeTag), false,
      localsearch::cpu::lin_kernighan_options(localsearch::LinKernighanStep::ThreeOpt, n));
  bridge->offer(search.best_tour(), search.best_length());
  search.use_threads(config_.threads - threads);
  const std::lock_guard lock(mutex_);
  if (pending_length_ >= 0) bridge->offer(pending_, pending_length_);
  bridge_ = std::move(bridge);
  bridging_.store(true);
}

void EaxCompanion::end_bridge(EdgeAssemblySearch& search, bool now) {
  std::unique_ptr<localsearch::cpu::TourCompanion> bridge;
  {
    const std::lock_guard lock(mutex_);
    if (!bridge_) return;
    const int64_t bridged = bridge_->best_length();
    // Caught up: the population's own tours (not the guest's, which holds the colonies' merged
    // tour and so the bridge's gains) as short as the bridge's.
    if (!now && (search.generations() == 0 || search.own_best_length() > bridged)) return;
    bridge = std::move(bridge_);
    bridging_.store(false);
  }
  bridge->stop();
  std::vector<int32_t> tour;
  const int64_t length = bridge->best(tour);
  if (length >= 0) {
    if (!now) search.adopt(tour, length);
    const std::lock_guard lock(mutex_);
    const int64_t before = best_length_.load();
    publish_locked(tour, length);
    if (before < 0 || length < before) bridge_published_ = true;
  }
  search.use_threads(config_.threads);
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
    if (const int lent = std::min(config_.bridge_threads, config_.threads - 1); lent > 0 && !stop_.load())
      start_bridge(lent, search);
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
      end_bridge(search, false);
      if (search.best_length() >= best_length_.load()) continue;
      const std::vector<int32_t> tour = search.best_tour();
      const std::lock_guard lock(mutex_);
      publish_locked(tour, search.best_length());
    }
    end_bridge(search, true);
  } catch (...) {
    const std::lock_guard lock(mutex_);
    error_ = std::current_exception();
  }
}

}  // namespace formica::population
