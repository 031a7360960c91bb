// SPDX-License-Identifier: MIT
// The CUDA 2-opt search: layout and shape choices, batches of restarts (see two_opt_cuda.h).
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/candidates.h"
#include "core/error.h"
#include "cuda/device.h"
#include "localsearch/cuda/device_instance.h"
#include "localsearch/cuda/grid_climb.h"
#include "localsearch/cuda/restart_climb.h"
#include "localsearch/cuda/two_opt_cuda.h"
#include "localsearch/start_tour.h"
#include "localsearch/two_opt_move.h"

namespace formica::localsearch::cuda {
namespace {

constexpr int kRowsPerGroup = 4 * 32;   // R = 4 rows per lane in the fast passes
constexpr int kTilePointsPerWarp = 128;  // default S / warps
constexpr double kTargetStepSeconds = 1.0;
// The grid-per-tour layout pays about this much per pass in launches and one host round trip, and
// a multiprocessor evaluates about this many moves per second.
constexpr double kGridPassOverheadSeconds = 50e-6;
constexpr double kMovesPerSecondPerSm = 1.2e10;

int64_t units(int n, int chunk) {
  int64_t total = 0;
  for (int64_t g = 0; g * kRowsPerGroup <= n - 3; ++g) {
    const int64_t columns = n - (g * kRowsPerGroup + 2);
    if (columns > 0) total += (columns + chunk - 1) / chunk;
  }
  return total;
}

int floor_power_of_two(int64_t v) {
  int p = 1;
  while (static_cast<int64_t>(p) * 2 <= v && p < (1 << 30)) p *= 2;
  return p;
}

class TwoOptCuda final : public TwoOptSearch {
 public:
  TwoOptCuda(const Instance& instance, const TwoOptConfig& config, int multiprocessors)
      : TwoOptSearch(instance, config), device_(instance), multiprocessors_(multiprocessors) {
    const AutoShape shape = choose_block_shape(instance.n(), config_.restarts, multiprocessors, config_);
    shape_ = {shape.threads, shape.tile};
  }

  Backend backend() const override { return Backend::Cuda; }

  std::string describe_launch() const override {
    std::string text;
    if (blocks_)
      text += concat("block per tour: T=", shape_.threads, " S=", shape_.tile, ", ", blocks_->blocks(),
                     " blocks, queue ", config_.queue == 0 ? std::string("off") : std::to_string(config_.queue),
                     use_block_lists() ? concat(", neighbour lists k=", config_.block_neighbours) : std::string());
    if (grid_)
      text += concat(text.empty() ? "" : "; ", "grid per tour: ", grid_->blocks(), " blocks x 256 threads",
                     use_lists() ? concat(", neighbour lists k=", config_.neighbours) : std::string());
    return text.empty() ? std::string("not launched yet") : text;
  }

 private:
  bool use_lists() const { return config_.neighbours > 0 && instance_.n() >= kNeighbourListMinCities; }
  bool use_block_lists() const {
    return config_.block_neighbours > 0 && instance_.n() >= kBlockNeighbourListMinCities;
  }

  /// The block-per-tour climber, made on first use (with neighbour lists when they pay).
  BlockPerTourClimber& blocks() {
    if (!blocks_) {
      if (use_block_lists()) {
        const CandidateLists lists = build_candidate_lists(instance_, config_.block_neighbours, config_.threads);
        blocks_ = std::make_unique<BlockPerTourClimber>(device_, config_, shape_, lists.data(), lists.k());
      } else {
        blocks_ = std::make_unique<BlockPerTourClimber>(device_, config_, shape_);
      }
    }
    return *blocks_;
  }

  Layout layout_for(int64_t first) const {
    return choose_layout(instance_.n(), config_.restarts - first, multiprocessors_, config_);
  }

  int64_t batch_size(int64_t remaining) override {
    if (layout_for(config_.restarts - remaining) == Layout::GridPerTour) return 1;
    const int64_t wave = static_cast<int64_t>(blocks().blocks()) * std::max(1, config_.queue);
    if (!seconds_per_restart_) return wave;  // the first batch measures the climbs
    // Later batches: as many waves as fit in about a second.
    const double per_block = *seconds_per_restart_ * std::max(1, config_.queue);
    return wave * std::max<int64_t>(1, static_cast<int64_t>(kTargetStepSeconds / std::max(per_block, 1e-6)));
  }

  bool climb_batch(int64_t first, int64_t count, const StopFlag& stop, Batch& out) override {
    if (layout_for(first) == Layout::GridPerTour) return climb_on_grid(first, count, stop, out);
    BlockPerTourClimber& climber = blocks();
    const std::vector<int32_t> starts =
        config_.start == StartKind::Random
            ? std::vector<int32_t>{}
            : start_tours(instance_, config_.start, config_.seed, first, count, config_.threads);
    RestartBatchResult result;
    if (!climber.climb(first, count, starts, stop, result)) return false;
    out.best_restart = result.best_restart;
    out.best_length = result.best_length;
    out.best_tour = std::move(result.best_tour);
    out.stats.restarts = count;
    out.stats.passes = result.passes;
    out.stats.evaluations = result.passes * moves_per_pass(instance_.n());
    out.stats.moves = result.moves;
    out.stats.neighbour_passes = result.neighbour_passes;
    out.stats.climb_ms = result.kernel_ms;
    // Time of one restart on one block, for the next batch's size.
    const double waves = std::ceil(static_cast<double>(count) / climber.blocks());
    seconds_per_restart_ = result.kernel_ms / 1e3 / std::max(1.0, waves);
    return true;
  }

  bool climb_on_grid(int64_t first, int64_t count, const StopFlag& stop, Batch& out) {
    if (!grid_) {
      TwoOptConfig grid_config = config_;
      if (!use_lists()) grid_config.neighbours = 0;  // no lists to build for tours this small
      grid_ = std::make_unique<GridClimber>(device_, instance_, grid_config);
    }
    for (int64_t r = first; r < first + count; ++r) {
      std::vector<int32_t> tour;
      GridClimbResult result;
      bool done = false;
      if (config_.start == StartKind::Random) {
        done = grid_->climb_random(r, use_lists(), stop, tour, result);
      } else {
        tour = start_tour(instance_, config_.start, config_.seed, r);
        done = grid_->climb(tour, use_lists(), stop, result);
      }
      if (!done) return false;
      out.stats.restarts += 1;
      out.stats.passes += result.passes;
      out.stats.evaluations += result.passes * moves_per_pass(instance_.n());
      out.stats.neighbour_passes += result.neighbour_passes;
      out.stats.moves += result.moves;
      out.stats.climb_ms += result.kernel_ms;
      if (out.best_restart < 0 || result.length < out.best_length) {
        out.best_restart = r;
        out.best_length = result.length;
        out.best_tour = std::move(tour);
      }
    }
    return true;
  }

  DeviceInstance device_;
  int multiprocessors_;
  BlockShape shape_;
  std::unique_ptr<BlockPerTourClimber> blocks_;
  std::unique_ptr<GridClimber> grid_;
  std::optional<double> seconds_per_restart_;
};

}  // namespace

AutoShape choose_block_shape(int n, int64_t restarts, int multiprocessors, const TwoOptConfig& config) {
  AutoShape shape;
  shape.threads = config.threads_per_block;
  if (shape.threads == 0) {
    // Enough threads per block to fill the GPU with the tours there are (about 1024 resident
    // threads per SM at this kernel's register use) ...
    const int64_t capacity = static_cast<int64_t>(multiprocessors) * 1024;
    const int fill = std::clamp(floor_power_of_two(capacity / std::max<int64_t>(1, restarts)), 64, 1024);
    // ... but no more warps than the tour has units of work for, two per warp at least.
    int work = 32;
    for (int t = 64; t <= 1024; t *= 2)
      if (units(n, kTilePointsPerWarp - 1) >= 2 * (t / 32)) work = t;
    shape.threads = std::min(fill, work);
  }
  shape.tile = config.tile != 0 ? config.tile : shape.threads / 32 * kTilePointsPerWarp;
  return shape;
}

Layout choose_layout(int n, int64_t remaining, int multiprocessors, const TwoOptConfig& config) {
  if (config.layout != Layout::Auto) return config.layout;
  // Large tours get the neighbour-list pre-climb, which only the grid-per-tour layout runs: it
  // replaces thousands of O(n^2) passes.
  if (config.neighbours > 0 && n >= kNeighbourListMinCities) return Layout::GridPerTour;
  // The whole GPU on one tour pays a fixed cost per pass; one tour per block leaves SMs idle when
  // there are fewer tours than SMs. Take the layout that keeps more of the GPU busy.
  const double pass_seconds = static_cast<double>(moves_per_pass(n)) / (multiprocessors * kMovesPerSecondPerSm);
  const double grid_busy = pass_seconds / (pass_seconds + kGridPassOverheadSeconds);
  const double block_busy = std::min(1.0, static_cast<double>(remaining) / multiprocessors);
  return grid_busy > block_busy ? Layout::GridPerTour : Layout::BlockPerTour;
}

std::unique_ptr<TwoOptSearch> make_two_opt_cuda(const Instance& instance, const TwoOptConfig& config) {
  const auto device = formica::cuda::find_device();
  FORMICA_EXPECTS(device.has_value(), "--backend cuda: no CUDA device is available");
  return std::make_unique<TwoOptCuda>(instance, config, device->multiprocessors);
}

}  // namespace formica::localsearch::cuda
