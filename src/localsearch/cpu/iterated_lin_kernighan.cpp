// SPDX-License-Identifier: MIT
// Iterated Lin-Kernighan workers (see iterated_lin_kernighan.h).
#include "localsearch/cpu/iterated_lin_kernighan.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

#include "core/error.h"
#include "core/rng.h"
#include "core/search.h"
#include "localsearch/cpu/kicked_tour.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/sequential_three_opt.h"

namespace formica::localsearch::cpu {

IteratedLinKernighan::IteratedLinKernighan(const Instance& instance, CandidateLists lists, int threads,
                                           uint64_t seed, bool independent, LinKernighanOptions lk,
                                           bool adopt_offers, bool replay)
    : instance_(instance),
      seed_(seed),
      independent_(independent),
      adopt_offers_(adopt_offers && independent),
      replays_(replay),
      lk_options_(lk),
      lists_(make_lists(std::move(lists))) {
  if (replays_ && (independent_ || !walks_two_level(instance.n(), lk.step)))
    throw InputError(
        concat("--lk-replay: only shared walks on two-level lists replay their moves (10,000 cities or "
               "more, 2-opt or 3-opt steps); this run's walks ",
               independent_ ? "are independent" : "keep arrays"));
  if (independent_) walks_.resize(static_cast<size_t>(std::max(threads, 1)));
  for (int w = 0; w < std::max(threads, 1); ++w) workers_.emplace_back([this, w] { work(w); });
}

std::shared_ptr<const IteratedLinKernighan::Lists> IteratedLinKernighan::make_lists(
    CandidateLists lists) const {
  FORMICA_EXPECTS(lists.n() == instance_.n(), "the Lin-Kernighan threads' lists have ", lists.n(),
                  " rows for ", instance_.n(), " cities");
  std::vector<int32_t> distances = lk_options_.step == LinKernighanStep::ThreeOpt
                                       ? list_distances(instance_, lists)
                                       : std::vector<int32_t>{};
  return std::make_shared<const Lists>(Lists{std::move(lists), std::move(distances)});
}

void IteratedLinKernighan::use_lists(CandidateLists lists) {
  std::shared_ptr<const Lists> made = make_lists(std::move(lists));
  const std::lock_guard lock(mutex_);
  lists_ = std::move(made);
  lists_version_.fetch_add(1, std::memory_order_release);
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
  if (adopt_offers_) {
    const std::lock_guard lock(mutex_);
    const int64_t shortest = offer_length_.load(std::memory_order_relaxed);
    if (shortest < 0 || length < shortest) {
      offer_tour_.assign(tour.begin(), tour.end());
      offer_length_.store(length, std::memory_order_release);
    }
  }
  offered_.notify_all();
}

void IteratedLinKernighan::publish(std::span<const int32_t> tour, int64_t length) {
  const std::lock_guard lock(mutex_);
  const int64_t best = best_length_.load(std::memory_order_relaxed);
  if (best >= 0 && length >= best) return;
  best_.assign(tour.begin(), tour.end());
  best_length_.store(length, std::memory_order_release);
  if (replays_) {
    shared_.assign(tour);
    shared_ahead_ = false;
    version_.fetch_add(1, std::memory_order_release);
  }
}

int64_t IteratedLinKernighan::take(std::vector<int32_t>& out, int64_t& version) const {
  const std::lock_guard lock(mutex_);
  const int64_t length = best_length_.load(std::memory_order_relaxed);
  if (shared_ahead_) shared_.write(best_), shared_ahead_ = false;
  if (length >= 0) out = best_;
  version = version_.load(std::memory_order_relaxed);
  return length;
}

int64_t IteratedLinKernighan::hand_over(std::span<const std::array<int32_t, 4>> moves, int64_t delta) {
  const std::lock_guard lock(mutex_);
  if (!shared_.replay(moves)) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    return -1;
  }
  replayed_.fetch_add(1, std::memory_order_relaxed);
  best_length_.store(best_length_.load(std::memory_order_relaxed) + delta, std::memory_order_release);
  shared_ahead_ = true;
  return version_.fetch_add(1, std::memory_order_release) + 1;
}

int64_t IteratedLinKernighan::best(std::vector<int32_t>& out) const {
  int64_t version = 0;
  return take(out, version);
}

void IteratedLinKernighan::walks(std::vector<Walk>& out) const {
  const std::lock_guard lock(mutex_);
  out.clear();
  for (const Walk& walk : walks_)
    if (walk.length >= 0) out.push_back(walk);
}

void IteratedLinKernighan::work(int worker) {
  const int n = instance_.n();
  {  // idle until the first tour
    std::unique_lock lock(mutex_);
    offered_.wait(lock, [&] { return stop_.load() || best_length_.load() >= 0; });
  }
  if (stop_.load() || n < kMinKickCities) return;
  std::shared_ptr<const Lists> lists;  // the ones lk chooses among
  int64_t lists_seen = -1;
  std::optional<LinKernighan> lk;
  const auto take_lists = [&] {
    if (lists_version_.load(std::memory_order_acquire) == lists_seen) return;
    {
      const std::lock_guard lock(mutex_);
      lists = lists_;
      lists_seen = lists_version_.load(std::memory_order_relaxed);
    }
    lk.emplace(instance_, lists->lists, lk_options_, lists->distances);
    if (lists_seen > 0) list_changes_.fetch_add(1, std::memory_order_relaxed);
  };
  take_lists();
  RandomStream random(seed_, 0x11CC0000u + static_cast<uint64_t>(worker));
  StopFlag stop;
  stop.interrupt = &stop_;
  KickedTour walk;
  std::vector<int32_t> adopted;
  int64_t walk_best = -1, since_best = 0;  // the walk's shortest tour, kicks since it got shorter
  using Clock = std::chrono::steady_clock;
  Clock::time_point published = Clock::now();
  bool unpublished = false;  // the walk's tour is shorter than it last published
  const auto publish_walk = [&] {
    publish(walk.tour(), walk.length());
    if (independent_) {
      const std::lock_guard lock(mutex_);
      walks_[worker].length = walk.length();
      walks_[worker].tour.assign(walk.tour().begin(), walk.tour().end());
    }
    published = Clock::now(), unpublished = false;
  };
  // One kick, counted: true when it made the walk's tour its shortest; after kStallKicks kicks
  // without that the walk leaves its basin (kEscapeBridges bridges, kept whatever they cost).
  const auto kick = [&] {
    take_lists();
    walk.kick(instance_, *lk, random, &stop, kMaxKickSegment);
    kicks_.fetch_add(1, std::memory_order_relaxed);
    if (walk.length() < walk_best) {
      walk_best = walk.length(), since_best = 0;
      return true;
    }
    if (++since_best >= kStallKicks) {
      walk.perturb(instance_, *lk, random, &stop, kMaxKickSegment, kEscapeBridges);
      since_best = 0;
    }
    return false;
  };
  int64_t seen = -1;           // replays_: the shared tour's version the walk last took or made
  int64_t base = -1;           // replays_: the walk's length when it last took or handed over
  bool resync = false;         // replays_: the shared tour refused the walk's moves
  Clock::time_point synced{};  // replays_: when the walk last took the shared tour
  walk.log_moves(replays_);
  while (!stop_.load(std::memory_order_relaxed)) {
    if (replays_) {
      if (walk.length() < 0 || resync ||
          (seen != shared_version() && Clock::now() - synced >= kResyncPeriod)) {
        const int64_t length = take(adopted, seen);
        if (stop_.load(std::memory_order_relaxed)) break;  // see below
        walk.reset(adopted, length, true);
        base = walk_best = length, since_best = 0;
        synced = Clock::now(), resync = false;
      }
      // base is the walk's shortest length since it last took the shared tour or handed over, so
      // a kick that shortens the walk hands over everything since the last hand-over.
      if (kick()) {
        const int64_t version = hand_over(walk.logged(), walk.length() - base);
        walk.clear_log();
        base = walk.length();
        if (version < 0)
          resync = true;
        else if (version == seen + 1)
          seen = version;  // no other walk changed it since
      } else if (walk.logged().size() > kMaxLoggedMoves) {
        resync = true;  // an excursion too long to replay
      }
      continue;
    }
    const int64_t offered = adopt_offers_ ? offer_length_.load(std::memory_order_acquire) : -1;
    if (walk.length() >= 0 && offered >= 0 && offered < walk_best) {  // a merged tour
      int64_t length = 0;
      {
        const std::lock_guard lock(mutex_);
        adopted = offer_tour_;
        length = offer_length_.load(std::memory_order_relaxed);
      }
      walk.reset(adopted, length, walks_two_level(n, lk_options_.step));
      walk_best = length, since_best = 0;
      adoptions_.fetch_add(1, std::memory_order_relaxed);
    }
    if (walk.length() < 0 || (!independent_ && best_length_.load(std::memory_order_acquire) < walk_best)) {
      const int64_t length = best(adopted);  // adopt
      // Stopped while it waited for the tour: no walk set up for nothing (256 threads on 2 cores,
      // each resetting its walk after the stop, took 5 s past a 0.5-s limit).
      if (stop_.load(std::memory_order_relaxed)) break;
      walk.reset(adopted, length, walks_two_level(n, lk_options_.step));
      walk_best = length, since_best = 0;
    }
    if (kick()) {
      unpublished = true;
      // A list's tour is written out and copied at most every kPublishPeriod: on large tours most
      // kicks that are kept shorten the tour, and each copy costs as much as hundreds of kicks.
      if (!walk.two_level() || Clock::now() - published >= kPublishPeriod) publish_walk();
    }
  }
  if (unpublished) publish_walk();
}

}  // namespace formica::localsearch::cpu
