// SPDX-License-Identifier: MIT
// What the batch solver hands its backends and gets back (batch_solver.cpp drives them): the
// instances with their lists and resolved limits, and each walk's outcome. Host-only, no CUDA
// types, so the CPU build and the front ends never see the CUDA side.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

#include "core/distance.h"  // FORMICA_HD

#include "core/candidates.h"
#include "core/instance.h"
#include "core/rng.h"
#include "localsearch/config.h"
#include "solver/solver.h"  // HistoryPoint

namespace formica::batch {

/// Runs body(i) for i in [0, count) on `threads` threads (the calling one among them), each taking
/// the next index as it finishes one.
template <class Body>
void for_each_index(int count, int threads, const Body& body) {
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < count;) body(i);
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < std::min(threads, count); ++t) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
}

/// One instance as the walks see it.
struct PlannedInstance {
  const Instance* instance = nullptr;
  CandidateLists lists;
  uint64_t seed = 0;
  int64_t kicks = std::numeric_limits<int64_t>::max();  ///< per walk
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  /// The walks stop once one's tour is at most this: the named target, else 0 (a tour of length 0
  /// is optimal, weights are never negative).
  int64_t target = 0;
  bool target_named = false;
  std::vector<int32_t> start;  ///< every walk's start tour (InstanceLimits::start); empty: walk_start's own
};

/// What every walk of the batch shares.
struct WalkPlan {
  int walks = 1;  ///< per instance; walk w of instance i is slot i * walks + w
  localsearch::LocalSearchKind moves = localsearch::LocalSearchKind::ThreeOpt;
  int kick_segment = 50;  ///< the longest stretch a kick moves
  int threads = 1;
  std::chrono::steady_clock::time_point start;
  const std::atomic<bool>* interrupt = nullptr;
  /// Called now and then from the thread that runs the walks with the number of instances whose
  /// walks have all ended.
  std::function<void(int done)> on_progress;
};

struct WalkOutcome {
  std::vector<int32_t> tour;
  int64_t length = 0;
  int64_t kicks = 0;
  bool interrupted = false;
  bool timed_out = false;
  double seconds = 0.0;  ///< from WalkPlan::start to the walk's end
  std::vector<HistoryPoint> history;  ///< iteration: the walk's kicks when it improved
};

/// Random numbers of kick `kick` of walk `walk` of an instance seeded `seed` (batch_solver.h).
FORMICA_HD inline RandomStream kick_random(uint64_t seed, int walk, int64_t kick) {
  constexpr uint64_t kWalkStreams = 0xBA7C000000000000ull;
  return RandomStream(seed, kWalkStreams + static_cast<uint64_t>(walk), static_cast<uint32_t>(kick));
}

/// The tour walk `walk` starts from (before its first climb). The nearest-neighbour tour, or where
/// `stop` (null: never) asks before it is done, the space-filling curve's (the cities' order for an
/// instance without coordinates): a million cities take seconds of the one and a fifth of a
/// second of the other.
std::vector<int32_t> walk_start(const PlannedInstance& instance, int walk, const StopFlag* stop = nullptr);

}  // namespace formica::batch
