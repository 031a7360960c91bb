// SPDX-License-Identifier: MIT
// The batch's walks on the CPU (see batch_walks.h and batch_solver.h).
#include "batch/cpu/batch_walks.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <thread>

#include "core/search.h"
#include "core/tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/double_bridge.h"

namespace formica::batch::cpu {

using localsearch::DoubleBridge;
using localsearch::cpu::NeighbourClimber;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The deadline of a walk of `instance` about to start, moved in so that the walks not yet started, `waiting` of them this
/// one included, share the time left fairly among `workers` threads: a batch of more walks than
/// threads ends at its time limit, each walk getting about threads / walks of it, instead of the
/// first walks taking it all.
std::chrono::steady_clock::time_point share_time(const PlannedInstance& instance, int64_t waiting, int workers) {
  const auto now = std::chrono::steady_clock::now();
  if (instance.deadline == std::chrono::steady_clock::time_point::max() || waiting <= workers ||
      instance.deadline <= now)
    return instance.deadline;
  return now + (instance.deadline - now) * workers / waiting;
}

}  // namespace

WalkOutcome run_walk(const PlannedInstance& planned, int walk, const WalkPlan& plan, std::atomic<bool>& reached,
                     std::chrono::steady_clock::time_point deadline) {
  const Instance& instance = *planned.instance;
  const int n = instance.n();
  WalkOutcome out;
  // The start tour and its first climb stop at the walk's deadline too (a million cities: seconds
  // each); the start tour keeps half the time left at most (walk_start's fallback is at once).
  // Lists not built in time (solve_batch): the start tour is the walk's, the space-filling curve's.
  const bool lists = planned.lists.n() == n;
  const StopFlag stop{plan.interrupt, deadline};
  StopFlag start_stop = preparation_stop(&stop);
  if (!lists) start_stop.deadline = std::chrono::steady_clock::time_point::min();
  out.tour = walk_start(planned, walk, &start_stop);
  std::optional<NeighbourClimber> climber;
  if (lists) {
    climber.emplace(instance, planned.lists, localsearch::cpu::climb_options(plan.moves, false));
    climber->climb(out.tour, &stop);
  }
  out.length = tour_length(instance, out.tour);
  out.history.push_back({0, seconds_since(plan.start), out.length});
  if (out.length <= planned.target) reached.store(true, std::memory_order_relaxed);
  if (n < localsearch::kMinKickCities || !lists) {
    // Lists are missing only where the time limit or an interrupt stopped them.
    out.interrupted = !lists && plan.interrupt != nullptr && plan.interrupt->load();
    out.timed_out = !lists && !out.interrupted;
    out.seconds = seconds_since(plan.start);
    return out;
  }

  std::vector<int32_t> tour = out.tour, pos(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) pos[tour[p]] = p;
  const auto distance = [&](int a, int b) { return instance.distance(a, b); };
  const auto at = [n](int p) { return p % n; };
  while (out.kicks < planned.kicks && !reached.load(std::memory_order_relaxed)) {
    if (plan.interrupt != nullptr && plan.interrupt->load(std::memory_order_relaxed)) {
      out.interrupted = true;
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      out.timed_out = true;
      break;
    }
    RandomStream random = kick_random(planned.seed, walk, out.kicks);
    const DoubleBridge bridge = localsearch::draw_double_bridge(random, n, plan.kick_segment);
    int32_t ends[8];
    localsearch::double_bridge_ends(bridge, [&](int p) { return tour[at(p)]; }, ends);
    const int64_t kick = localsearch::double_bridge_delta(ends, distance);
    for (int i = 0; i < bridge.moved(); ++i)
      tour[at(bridge.p0 + 1 + i)] = out.tour[at(localsearch::double_bridge_source(bridge, i))];
    for (int i = 1; i <= bridge.moved(); ++i) pos[tour[at(bridge.p0 + i)]] = at(bridge.p0 + i);
    const int64_t gain = climber->climb(tour, pos, ends).gain;
    ++out.kicks;
    const int64_t next = out.length + kick - gain;
    if (next <= out.length) {  // kept (equal lengths too: plateaus)
      out.tour = tour;
      if (next < out.length) out.history.push_back({out.kicks, seconds_since(plan.start), next});
      out.length = next;
      if (next <= planned.target) reached.store(true, std::memory_order_relaxed);
    } else {
      tour = out.tour;
      for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    }
  }
  out.seconds = seconds_since(plan.start);
  return out;
}

std::vector<WalkOutcome> run_walks(std::span<const PlannedInstance> instances, const WalkPlan& plan) {
  const int count = static_cast<int>(instances.size()), walks = plan.walks;
  const int64_t slots = static_cast<int64_t>(count) * walks;
  std::vector<WalkOutcome> outcomes(static_cast<size_t>(slots));
  const auto reached = std::make_unique<std::atomic<bool>[]>(static_cast<size_t>(count));
  const auto ended = std::make_unique<std::atomic<int>[]>(static_cast<size_t>(count));
  std::atomic<int64_t> next_slot{0};
  std::atomic<int> done{0};
  const int workers = static_cast<int>(std::min<int64_t>(std::max(plan.threads, 1), slots));
  const auto work = [&] {
    for (int64_t slot; (slot = next_slot.fetch_add(1)) < slots;) {
      const int i = static_cast<int>(slot / walks), w = static_cast<int>(slot % walks);
      outcomes[static_cast<size_t>(slot)] = run_walk(instances[i], w, plan, reached[i], share_time(instances[i], slots - slot, workers));
      if (ended[i].fetch_add(1) + 1 == walks) done.fetch_add(1);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < workers; ++t) threads.emplace_back(work);
  // The calling thread reports progress until every walk has ended.
  while (done.load() < count) {
    if (plan.on_progress) plan.on_progress(done.load());
    std::this_thread::sleep_for(std::chrono::milliseconds(done.load() < count ? 50 : 0));
  }
  for (std::thread& thread : threads) thread.join();
  if (plan.on_progress) plan.on_progress(count);
  return outcomes;
}

}  // namespace formica::batch::cpu
