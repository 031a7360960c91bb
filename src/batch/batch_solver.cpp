// SPDX-License-Identifier: MIT
// The batch solver (see batch_solver.h): checks the whole batch first, prepares every instance's
// lists and limits, runs the walks on the chosen backend and keeps each instance's shortest walk.
#include "batch/batch_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <thread>

#include "batch/cpu/batch_walks.h"
#include "core/error.h"
#include "core/number_text.h"
#include "core/search.h"
#include "cuda/device.h"
#include "localsearch/double_bridge.h"
#include "localsearch/start_tour.h"

#if FORMICA_HAVE_CUDA
#include "batch/cuda/batch_walks_cuda.h"
#endif

namespace formica::batch {
namespace {

/// Walks per instance on the GPU aim at about this many warps in all (an H100 or H200 keeps some
/// 8,000 resident), and at most kMaxWalks each.
constexpr int kGpuWalkSlots = 8192;
constexpr int kMaxWalks = 64;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int thread_count(const BatchConfig& config) { return config.threads > 0 ? config.threads : hardware_threads(); }


/// The exact optimum of a tour of fewer than kMinKickCities cities: every order with city 0 first.
std::vector<int32_t> exact_tour(const Instance& instance) {
  std::vector<int32_t> order(static_cast<size_t>(instance.n()));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int32_t> best = order;
  int64_t best_length = tour_length(instance, order);
  while (std::next_permutation(order.begin() + 1, order.end()))
    if (const int64_t length = tour_length(instance, order); length < best_length) best_length = length, best = order;
  return best;
}

/// The instance's result from its walks: the shortest (the first of equal ones), every walk's
/// improvements merged in time order, the reason it ended.
BatchResult merge_walks(const Instance& instance, std::span<WalkOutcome> walks, const PlannedInstance& planned) {
  BatchResult result;
  result.seed = planned.seed;
  result.walks = static_cast<int>(walks.size());
  size_t best = 0;
  std::vector<HistoryPoint> points;
  bool interrupted = false, timed_out = false;
  for (size_t w = 0; w < walks.size(); ++w) {
    result.kicks += walks[w].kicks;
    result.seconds = std::max(result.seconds, walks[w].seconds);
    if (walks[w].length < walks[best].length) best = w;
    points.insert(points.end(), walks[w].history.begin(), walks[w].history.end());
    interrupted |= walks[w].interrupted;
    timed_out |= walks[w].timed_out;
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const HistoryPoint& a, const HistoryPoint& b) { return a.seconds < b.seconds; });
  for (const HistoryPoint& point : points)
    if (result.history.empty() || point.length < result.history.back().length) result.history.push_back(point);
  result.tour = Tour(instance, std::move(walks[best].tour));
  if (result.tour.length() <= planned.target)
    result.stop_reason = planned.target_named ? "target" : "optimal";
  else if (interrupted)
    result.stop_reason = "interrupted";
  else if (timed_out)
    result.stop_reason = "time limit";
  else
    result.stop_reason = "kicks";
  return result;
}

/// A time limit of the batch or of instance `prefix` ("instance 3: "), when one is set: at most
/// kMaxTimeLimit, as a solve's, so that every deadline is a time the clock can hold.
void expect_time_limit(const std::optional<double>& seconds, const std::string& prefix) {
  FORMICA_EXPECTS(!seconds || (*seconds > 0 && *seconds <= kMaxTimeLimit), prefix, "time-limit must be in (0, ",
                  number_text(kMaxTimeLimit), "] seconds, got ", number_text(seconds.value_or(0.0)));
}

}  // namespace

void BatchConfig::validate() const {
  expect_time_limit(time_limit, "");
  FORMICA_EXPECTS(!kicks || *kicks >= 0, "kicks must be at least 0");
  FORMICA_EXPECTS(threads >= 0 && threads <= kMaxThreads, "threads must be from 0 (every hardware thread) to ",
                  kMaxThreads, ", got ", threads);
  FORMICA_EXPECTS(walks >= 0 && walks <= 1024, "walks must be from 0 (auto) to 1024");
  FORMICA_EXPECTS(kick_segment >= 0 && kick_segment <= 1000000, "kick-segment must be from 0 (auto) to 1000000");
  FORMICA_EXPECTS(neighbours >= 2 && neighbours <= 32, "ls-neighbours must be from 2 to 32");
  FORMICA_EXPECTS(local_search != localsearch::LocalSearchKind::None, "local-search must be two-opt, or-opt or three-opt");
}

nlohmann::json BatchConfig::to_json() const {
  nlohmann::json out;
  out["algorithm"] = "iterated-local-search";
  out["backend"] = std::string(to_string(backend));
  out["time_limit"] = time_limit ? nlohmann::json(*time_limit) : nlohmann::json();
  out["kicks"] = kicks ? nlohmann::json(*kicks) : nlohmann::json();
  out["seed"] = seed;
  out["threads"] = threads;
  out["walks"] = walks;
  out["ls_neighbours"] = neighbours;
  out["neighbour_lists"] = std::string(formica::to_string(neighbour_lists));
  out["local_search"] = std::string(localsearch::to_string(local_search));
  out["kick_segment"] = kick_segment;
  return out;
}

int resolve_walks(const BatchConfig& config, int instances, Backend backend) {
  if (config.walks > 0) return config.walks;
  const int slots = backend == Backend::Cuda ? kGpuWalkSlots : thread_count(config);
  return std::clamp((slots + instances - 1) / std::max(instances, 1), 1, kMaxWalks);
}

void validate_batch(std::span<const Instance> instances, const BatchConfig& config,
                    std::span<const InstanceLimits> limits) {
  config.validate();
  FORMICA_EXPECTS(!instances.empty(), "the batch holds no instance");
  // The batch's walks run on the instances as they are: fixed edges would be lost, not kept.
  for (size_t i = 0; i < instances.size(); ++i)
    FORMICA_EXPECTS(instances[i].fixed_edges().empty(), "instance ", i, " (", instances[i].name(),
                    ") has fixed edges (FIXED_EDGES_SECTION), which the batch solver does not keep; formica solve and "
                    "formica.solve keep them");
  FORMICA_EXPECTS(limits.empty() || limits.size() == instances.size(), "the batch has ", instances.size(),
                  " instances but ", limits.size(), " sets of limits");
  for (size_t i = 0; i < limits.size(); ++i) {
    const InstanceLimits& l = limits[i];
    expect_time_limit(l.time_limit, concat("instance ", i, ": "));
    FORMICA_EXPECTS(!l.kicks || *l.kicks >= 0, "instance ", i, ": kicks must be at least 0");
    FORMICA_EXPECTS(!l.target || *l.target >= 0, "instance ", i, ": target must be at least 0");
    if (!l.start.empty()) {
      const int n = instances[i].n();
      FORMICA_EXPECTS(static_cast<int64_t>(l.start.size()) == n, "instance ", i, ": the start tour has ",
                      l.start.size(), " cities, the instance ", n);
      std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
      for (const int32_t c : l.start) {
        FORMICA_EXPECTS(c >= 0 && c < n && !seen[c], "instance ", i, ": the start tour is not a permutation of 0 .. ",
                        n - 1, " (city ", c, ")");
        seen[c] = 1;
      }
    }
  }
}

Batch solve_batch(std::span<const Instance> instances, const BatchConfig& config,
                  std::span<const InstanceLimits> limits, const BatchOptions& options) {
  validate_batch(instances, config, limits);
  Batch batch;
  // The solver's rule and messages: the default algorithm has a CUDA implementation, as the batch does.
  batch.backend = resolve_backend(Algorithm::Auto, config.backend);
  const int count = static_cast<int>(instances.size()), threads = thread_count(config);
  batch.walks = resolve_walks(config, count, batch.backend);

  const double reserve = options.write_reserve + (batch.backend == Backend::Cuda ? options.gpu_exit_seconds : 0.0);
  // Every instance's limits and lists, built in parallel (an instance a thread).
  std::vector<PlannedInstance> planned(static_cast<size_t>(count));
  std::atomic<int> next{0};
  const InstanceLimits none;
  const auto prepare = [&] {
    for (int i; (i = next.fetch_add(1)) < count;) {
      const Instance& instance = instances[i];
      const InstanceLimits& l = limits.empty() ? none : limits[i];
      PlannedInstance& p = planned[i];
      p.instance = &instance;
      p.seed = l.seed.value_or(config.seed + static_cast<uint64_t>(i));
      const std::optional<double> time_limit = l.time_limit ? l.time_limit : config.time_limit;
      const std::optional<int64_t> kicks = l.kicks ? l.kicks : config.kicks;
      if (time_limit)
        p.deadline = options.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                         std::chrono::duration<double>(*time_limit - std::min(reserve, *time_limit / 2)));
      if (kicks)
        p.kicks = *kicks;
      else if (!time_limit)
        p.kicks = kDefaultKicksPerCity * instance.n();
      if (l.target) p.target = *l.target, p.target_named = true;
      p.start = l.start;
      if (instance.n() >= localsearch::kMinKickCities) {
        // The lists keep half the time left at most (preparation_stop): an instance whose lists
        // cannot be built in time walks no kicks on the CPU, its start tour is its result (a
        // million cities at a 2-s limit took 36 s); on the GPU its walks climb nothing (no
        // candidates) and keep their start tours.
        const StopFlag until{options.interrupt, p.deadline};
        const StopFlag lists_stop = preparation_stop(&until);
        try {
          p.lists = build_candidate_lists(instance, config.neighbours, 1, config.neighbour_lists, &lists_stop);
        } catch (const SetupStopped&) {
          p.lists = CandidateLists();
        }
      }
    }
  };
  {
    std::vector<std::thread> workers;
    for (int t = 0; t < std::min(threads, count); ++t) workers.emplace_back(prepare);
    for (std::thread& worker : workers) worker.join();
  }

  // Tours of fewer than kMinKickCities cities are solved exactly here; the walks take the rest.
  std::vector<PlannedInstance> walked;
  std::vector<int> walked_index;
  batch.results.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (instances[i].n() < localsearch::kMinKickCities) {
      BatchResult& r = batch.results[i];
      r.seed = planned[i].seed;
      r.tour = Tour(instances[i], exact_tour(instances[i]));
      r.seconds = seconds_since(options.start);
      r.history.push_back({0, r.seconds, r.tour.length()});
      r.stop_reason = "exact";
      continue;
    }
    walked.push_back(std::move(planned[i]));
    walked_index.push_back(i);
  }
  WalkPlan plan;
  plan.walks = batch.walks;
  plan.moves = config.local_search;
  plan.kick_segment = config.kick_segment > 0 ? config.kick_segment : kDefaultKickSegment;
  plan.threads = threads;
  plan.start = options.start;
  plan.interrupt = options.interrupt;
  const int exact = count - static_cast<int>(walked.size());
  if (options.on_progress)
    plan.on_progress = [&](int done) { options.on_progress({exact + done, count, seconds_since(options.start)}); };
  std::vector<WalkOutcome> outcomes;
  if (!walked.empty()) {
#if FORMICA_HAVE_CUDA
    if (batch.backend == Backend::Cuda) outcomes = cuda::run_walks(walked, plan, &batch.layout);
#endif
    if (batch.backend == Backend::Cpu) {
      outcomes = cpu::run_walks(walked, plan);
      batch.layout = "a thread a walk";
    }
  }
  for (size_t j = 0; j < walked.size(); ++j) {
    const std::span<WalkOutcome> walks(outcomes.data() + j * static_cast<size_t>(batch.walks),
                                       static_cast<size_t>(batch.walks));
    batch.results[walked_index[j]] = merge_walks(instances[walked_index[j]], walks, walked[j]);
  }
  batch.seconds = seconds_since(options.start);
  batch.device = batch.backend == Backend::Cuda ? formica::cuda::find_device()->name
                                                : concat("CPU, ", threads, threads == 1 ? " thread" : " threads");
  return batch;
}

std::vector<int32_t> walk_start(const PlannedInstance& instance, int walk, const StopFlag* stop) {
  if (!instance.start.empty()) return instance.start;
  return localsearch::start_tour_in_time(*instance.instance, instance.seed, walk, stop);
}

}  // namespace formica::batch
