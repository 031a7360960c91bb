// SPDX-License-Identifier: MIT
// Tile roulette, TR (Zhou et al. B.4.1), for a group of threads: ONE uniform per ant per step.
// The candidates are cut into tiles of one group each (thread t holds candidate t of every tile);
// every warp sums its part of each tile with shuffles, warp 0 forms the tile sums and their
// running sums, draws the threshold r and stops at the first tile whose running sum passes it;
// only that tile is scanned (a group prefix sum) and searched (32-way). The scans of all the
// other tiles, which a full roulette pays for, are skipped. Exact: tile t is taken with
// probability (tile sum) / total and city j inside it with f_j / (tile sum), up to float rounding.
#pragma once

#include "aco/cuda/group_scan.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/visited_bits.cuh"
#include "aco/cuda/warp_search.cuh"

namespace formica::aco::cuda {

/// Floats of tile scratch a group tile roulette needs over at most `ld` candidates (ld a multiple
/// of 32, groups of at least 32 threads): per-warp tile parts, tile running sums and tile sums.
__host__ __device__ constexpr int tile_scratch_floats(int ld) { return 3 * (ld / 32) + 34; }

/// The worker index of a step's roulette threshold in StepRandom (distinct from the lanes 0-31
/// that stochastic trial draws for).
constexpr uint32_t kThresholdWorker = 32;

/// Tile roulette over the candidates of `view` (see block_selection.cuh). `tile_prefix` holds
/// g.threads floats, `scratch` tile_scratch_floats(ld). Returns the chosen slot in every thread
/// (its city in shared.city).
template <typename View>
__device__ inline int group_tile_roulette(const View& view, float* tile_prefix, float* scratch, const StepRandom& rnd,
                                          const ThreadGroup& g, GroupShared& shared) {
  const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5, warps = g.warps();
  const int tiles = (view.count + g.threads - 1) / g.threads;
  float* parts = scratch;               // [tiles][warps]: each warp's part of each tile
  float* running = parts + tiles * warps;  // [tiles]: the sum of tiles 0 .. t
  float* sums = running + tiles;           // [tiles]: the sum of tile t
  for (int tile = 0; tile < tiles; ++tile) {
    const int k = tile * g.threads + tid;
    const float part = warp_sum(k < view.count ? view.value(k, tile) : 0.f);
    if (lane == 0) parts[tile * warps + warp] = part;
  }
  g.sync();
  if (warp == 0) {
    float before = 0.f;
    for (int c = 0; c < tiles; c += kWarpSize) {
      const int tile = c + lane;
      float sum = 0.f;
      if (tile < tiles)
        for (int w = 0; w < warps; ++w) sum += parts[tile * warps + w];
      const float inclusive = warp_inclusive_sum(sum, lane);
      if (tile < tiles) {
        running[tile] = before + inclusive;
        sums[tile] = sum;
      }
      __syncwarp();
      before = running[min(c + kWarpSize, tiles) - 1];
    }
    // The total is the last stored running sum, so r stays below a sum some tile really reaches.
    const float r = threshold_below(rnd.uniform(kThresholdWorker), before);
    int chosen = -1;
    for (int c = 0; c < tiles && chosen < 0; c += kWarpSize) {
      const int tile = c + lane;
      const unsigned hit = __ballot_sync(kFullMask, tile < tiles && running[tile] > r && sums[tile] > 0.f);
      if (hit) chosen = c + first_lane(hit);
    }
    for (int c = (tiles - 1) / kWarpSize * kWarpSize; c >= 0 && chosen < 0; c -= kWarpSize) {
      // Rounding (running sums need not grow in the last bit): the last tile with weight.
      const unsigned positive = __ballot_sync(kFullMask, c + lane < tiles && sums[c + lane] > 0.f);
      if (positive) chosen = c + last_lane(positive);
    }
    if (lane == 0) {
      shared.tile = chosen;
      shared.r = r;
      shared.base = chosen > 0 ? running[chosen - 1] : 0.f;
    }
  }
  g.sync();
  const int tile = shared.tile;
  if (tile < 0) {  // every weight is zero (the same branch in every thread)
    if (warp == 0) {
      const int fallback = view.fallback(lane);
      if (lane == 0) {
        shared.choice = fallback;
        shared.city = view.city(fallback);
      }
    }
    g.sync();
    return shared.choice;
  }
  // Scan the chosen tile only.
  const int origin = tile * g.threads, k = origin + tid;
  tile_prefix[tid] = group_inclusive_sum(k < view.count ? view.value(k, tile) : 0.f, g, shared);
  g.sync();
  if (warp == 0) {
    const int in_tile = min(g.threads, view.count - origin);
    const float r = shared.r - shared.base;
    int i = warp_search_first_greater([tile_prefix](int x) { return tile_prefix[x]; }, in_tile, r,
                                      search_top_stride(in_tile), lane);
    const auto drawable = [&](int x) { return view.drawable(origin + x); };
    if (i == in_tile || !drawable(i)) i = warp_nearest_eligible(drawable, i < in_tile ? i : in_tile - 1, in_tile, lane);
    const int slot = i >= 0 ? origin + i : view.fallback(lane);
    if (lane == 0) {
      shared.choice = slot;
      shared.city = view.city(slot);
    }
  }
  g.sync();
  return shared.choice;
}

}  // namespace formica::aco::cuda
