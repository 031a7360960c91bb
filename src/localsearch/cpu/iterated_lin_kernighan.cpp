// Iterated Lin-Kernighan workers (see iterated_lin_kernighan.h).
#include "localsearch/cpu/iterated_lin_kernighan.h"

#include <algorithm>
#include <utility>

#include "core/rng.h"
#include "core/search.h"
#include "localsearch/cpu/lin_kernighan.h"

namespace formica::localsearch::cpu {

IteratedLinKernighan::IteratedLinKernighan(const Instance& instance, CandidateLists lists, int threads,
                                           uint64_t seed, bool independent)
    : instance_(instance), lists_(std::move(lists)), seed_(seed), independent_(independent) {
  if (independent_) walks_.resize(static_cast<size_t>(std::max(threads, 1)));
  for (int w = 0; w < std::max(threads, 1); ++w) workers_.emplace_back([this, w] { work(w); });
}

void IteratedLinKernighan::stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  offered_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
}

void IteratedLinKernighan::offer(std::span<const int32_t> tour, int64_t length) {
  publish(tour, length);
  offered_.notify_all();
}

void IteratedLinKernighan::publish(std::span<const int32_t> tour, int64_t length) {
  const std::lock_guard lock(mutex_);
  const int64_t best = best_length_.load(std::memory_order_relaxed);
  if (best >= 0 && length >= best) return;
  best_.assign(tour.begin(), tour.end());
  best_length_.store(length, std::memory_order_release);
}

int64_t IteratedLinKernighan::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  const int64_t length = best_length_.load(std::memory_order_relaxed);
  if (length >= 0) out = best_;
  return length;
}

void IteratedLinKernighan::walks(std::vector<Walk>& out) const {
  const std::lock_guard lock(mutex_);
  out.clear();
  for (const Walk& walk : walks_)
    if (walk.length >= 0) out.push_back(walk);
}

void IteratedLinKernighan::work(int worker) {
  const int n = instance_.n();
  std::vector<int32_t> tour, saved, pos(static_cast<size_t>(n));
  int64_t length = -1;
  {  // idle until the first tour
    std::unique_lock lock(mutex_);
    offered_.wait(lock, [&] { return stop_.load() || best_length_.load() >= 0; });
  }
  if (stop_.load() || n < kMinKickCities) return;
  LinKernighan lk(instance_, lists_);
  RandomStream random(seed_, 0x11CC0000u + static_cast<uint64_t>(worker));
  StopFlag stop;
  stop.interrupt = &stop_;
  const auto distance = [&](int a, int b) { return instance_.distance(a, b); };
  while (!stop_.load(std::memory_order_relaxed)) {
    if (length < 0 || (!independent_ && best_length_.load(std::memory_order_acquire) < length)) {  // adopt
      length = best(tour);
      saved = tour;
      for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    }
    // The kick, a double bridge: x, A, B, C, y -> x, C, B, A, y.
    const DoubleBridge bridge = draw_double_bridge(random, n);
    const int p0 = bridge.p0, m = bridge.moved();
    const auto at = [&](int p) { return p % n; };
    int32_t ends[8];
    double_bridge_ends(bridge, [&](int p) { return tour[at(p)]; }, ends);
    const int64_t kick = double_bridge_delta(ends, distance);
    for (int i = 0; i < m; ++i) tour[at(p0 + 1 + i)] = saved[at(double_bridge_source(bridge, i))];
    for (int i = 1; i <= m; ++i) pos[tour[at(p0 + i)]] = at(p0 + i);
    const NeighbourClimbCounts repair = lk.improve(tour, pos, ends, &stop);
    kicks_.fetch_add(1, std::memory_order_relaxed);
    const int64_t next = length + kick - repair.gain;
    if (next <= length) {  // keep it (equal lengths too: plateaus)
      if (repair.moves == 0)
        for (int i = 1; i <= m; ++i) saved[at(p0 + i)] = tour[at(p0 + i)];
      else
        saved = tour;
      const bool shorter = next < length;
      length = next;
      if (shorter) {
        publish(tour, length);
        if (independent_) {
          const std::lock_guard lock(mutex_);
          walks_[worker].length = length;
          walks_[worker].tour = tour;
        }
      }
    } else if (repair.moves == 0) {  // undo the kick only
      for (int i = 1; i <= m; ++i) tour[at(p0 + i)] = saved[at(p0 + i)], pos[tour[at(p0 + i)]] = at(p0 + i);
    } else {
      tour = saved;
      for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    }
  }
}

}  // namespace formica::localsearch::cpu
