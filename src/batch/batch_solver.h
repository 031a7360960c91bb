// SPDX-License-Identifier: MIT
// Many small instances at once: B instances of possibly different sizes (a jagged batch), each
// solved by its own iterated local search, all of them at the same time on every CPU core or on
// one GPU.
//
// Each instance runs `walks` independent walks. A walk starts from a nearest-neighbour tour (walk 0
// from city 0, walk w from a seeded random city), climbs it with the neighbour-list 2-opt, Or-opt
// and sequential 3-opt of localsearch/neighbour_moves.h, then repeats: kick the tour with a double
// bridge (localsearch/double_bridge.h), repair it from the eight cities at the changed edges, and
// keep it when it is no longer than before, else go back. The instance's result is its walks'
// shortest tour. On the GPU a warp runs a walk (the climb is the colonies' warp-per-tour climb,
// move for move the CPU's), so thousands of walks fill the device; on the CPU a thread does.
//
// Kick j of walk w of an instance whose seed is s draws its numbers from RandomStream(s, w, j), and
// both backends take the same moves in the same order, so with a kick budget (and no time limit)
// the same seed gives the same tours on the CPU and on the GPU, however the work is scheduled.
// Instance i's seed is its own (InstanceLimits::seed) or BatchConfig::seed + i, so an instance
// solved alone with that seed gives what it gave inside the batch.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "core/tour.h"
#include "localsearch/config.h"
#include "solver/solver.h"  // HistoryPoint, Backend names

namespace formica::batch {

/// The batch's parameters, one set for every instance (limits can differ: InstanceLimits).
struct BatchConfig {
  Backend backend = Backend::Auto;
  /// Seconds each instance may run, counted from BatchOptions::start (instances run side by side,
  /// so this is also about the batch's wall time).
  std::optional<double> time_limit;
  /// Kicks per walk. Without kicks and time limit: kDefaultKicksPerCity x n per walk.
  std::optional<int64_t> kicks;
  uint64_t seed = 1;
  int threads = 0;  ///< CPU threads; 0 means every hardware thread
  /// Independent walks per instance; 0 picks by backend and batch size (resolve_walks).
  int walks = 0;
  int neighbours = 10;  ///< neighbour-list length of the local search (clamped to n - 1)
  NeighbourShape neighbour_lists = NeighbourShape::Quadrant;
  localsearch::LocalSearchKind local_search = localsearch::LocalSearchKind::ThreeOpt;
  /// The longest stretch a kick moves (localsearch/double_bridge.h); 0 picks kDefaultKickSegment.
  int kick_segment = 0;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// Every parameter by name, as the front ends report it.
  nlohmann::json to_json() const;
};

/// The longest stretch a batch kick moves unless BatchConfig::kick_segment says otherwise.
inline constexpr int kDefaultKickSegment = 50;

/// Kicks per walk and city when neither a kick budget nor a time limit is given.
inline constexpr int64_t kDefaultKicksPerCity = 20;

/// What may differ between the instances of one batch; unset fields take the BatchConfig's.
struct InstanceLimits {
  std::optional<uint64_t> seed;
  std::optional<double> time_limit;
  std::optional<int64_t> kicks;
  std::optional<int64_t> target;  ///< stop once the best length is at most this
  /// The tour every walk of the instance starts from (a permutation of 0 .. n - 1), climbed and
  /// kicked as the nearest-neighbour starts are; empty: those starts.
  std::vector<int32_t> start;
};

/// One instance's outcome.
struct BatchResult {
  Tour tour;                          ///< shortest tour of its walks, validated, exact length
  uint64_t seed = 0;                  ///< the instance's seed
  int walks = 0;
  int64_t kicks = 0;                  ///< kicks done, all walks together
  double seconds = 0.0;               ///< from BatchOptions::start to the instance's end
  std::vector<HistoryPoint> history;  ///< improvements of the best length (iteration = kicks so far)
  std::string stop_reason;  ///< "kicks", "time limit", "target", "optimal" (length 0), "interrupted", "exact"
};

struct BatchProgress {
  int done = 0;  ///< instances finished
  int total = 0;
  double seconds = 0.0;
};

struct BatchOptions {
  const std::atomic<bool>* interrupt = nullptr;  ///< set (Ctrl-C) to stop: every instance keeps its best
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  /// Time kept after every time limit for writing the results: the walks stop this much sooner (at
  /// most half the limit).
  double write_reserve = 0.0;
  /// Kept too when the walks run on the GPU: the time the driver takes to release the context as
  /// the process ends (cuda::kContextReleaseSeconds for the command line; 0 in process, Python).
  double gpu_exit_seconds = 0.0;
  std::function<void(const BatchProgress&)> on_progress;  ///< called from the calling thread
};

struct Batch {
  std::vector<BatchResult> results;  ///< one per instance, in order
  Backend backend = Backend::Cpu;
  std::string device;                ///< "CPU, 16 threads" or the GPU's name
  std::string layout;                ///< how the GPU kept the walks (cuda::run_walks); "a thread a walk" on the CPU
  int walks = 0;                     ///< walks per instance
  double seconds = 0.0;
};

/// Walks per instance that `config` gives for a batch of `instances` on `backend` (resolved).
int resolve_walks(const BatchConfig& config, int instances, Backend backend);

/// Checks everything before any work starts: the config, one InstanceLimits per instance or none,
/// and each limit. Throws InputError naming the instance's index ("instance 17: ...").
void validate_batch(std::span<const Instance> instances, const BatchConfig& config,
                    std::span<const InstanceLimits> limits);

/// Solves every instance (see the file comment). Throws InputError (naming the instance's index)
/// before any work when an input is invalid, OutOfMemoryError when the batch cannot fit.
Batch solve_batch(std::span<const Instance> instances, const BatchConfig& config,
                  std::span<const InstanceLimits> limits = {}, const BatchOptions& options = {});

}  // namespace formica::batch
