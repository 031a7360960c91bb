// SPDX-License-Identifier: MIT
// Next-city selection by one warp per ant: the four methods of Uchida et al. section 4.2 written
// for a warp, with the ant's visited set as a bitmask in shared memory and no block barriers
// (and Cecilia et al.'s I-Roulette, from i_roulette.cuh).
//
// Every function but I-Roulette returns a city drawn with probability f_ij / (sum of f_il over
// unvisited l) (up to float rounding of the sums). Cities are summed in a fixed order, so the result is
// reproducible; the order need not be the index order for the distribution to be exact.
//
// Tour construction is latency-bound: a step cannot start before the previous one chose its
// city. Each method therefore issues all of a step's global loads at once (register arrays of
// compile-time size kG, unrolled) so that a step costs one or two memory round trips, not one
// per element. kG = 0 selects loop versions for rows too long for registers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "aco/config.h"
#include "aco/cuda/alias_table.cuh"
#include "aco/cuda/i_roulette.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/visited_bits.cuh"
#include "aco/cuda/warp_scan.cuh"
#include "aco/cuda/warp_search.cuh"

namespace formica::aco::cuda {

/// A choice: the city and, for compression, its slot in the unvisited index array.
struct Choice {
  int city;
  int slot;
};

/// Walks masked values in order from `acc`: the city of the first value that takes the running
/// sum past r; if rounding keeps it at or below r, the last positive one. -1 if none is positive.
struct Walk {
  float acc;
  float r;
  int city = -1;
  int last_positive = -1;
  bool done = false;

  __device__ void take(float value, int index) {
    if (done || value <= 0.f) return;
    last_positive = index;
    acc += value;
    if (acc > r) city = index, done = true;
  }
  __device__ int result() const { return done ? city : last_positive; }
};

/// Float4 group g of a row of `group_count` groups, zero past the row: a predicated load, so no
/// branch separates it from the loads after it.
__device__ __forceinline__ float4 load_group(const float4* groups, int g, int group_count) {
  return g < group_count ? __ldg(groups + g) : make_float4(0.f, 0.f, 0.f, 0.f);
}
/// f with the visited cities of group g zeroed (the bitmask read from a clamped index, unguarded).
__device__ __forceinline__ float4 mask_group_at(float4 f, VisitedBits visited, int g, int group_count) {
  return mask_group(f, visited.group_bits(min(g, group_count - 1)));
}
__device__ __forceinline__ float group_sum(float4 f) { return (f.x + f.y) + (f.z + f.w); }

/// The visited flags of the float4 groups that lane `lane` holds in warp_roulette<kG> (groups
/// lane + 32 t, t < kG) in one register, bit 4 t + c for city 4 (lane + 32 t) + c. Kept beside the
/// shared bitmask, so that the roulette masks its values with no shared-memory read and no index
/// arithmetic; the ant updates both when it moves.
template <int kG>
struct LaneVisited {
  using Word = std::conditional_t<(4 * kG > 32), uint64_t, uint32_t>;
  Word bits = 0;

  /// Marks `city` (every lane calls it; the lane that holds the city keeps the bit).
  __device__ __forceinline__ void set(int city, int lane) {
    const int g = city >> 2;
    if ((g & 31) == lane) bits |= Word{1} << (4 * (g >> 5) + (city & 3));
  }
  __device__ __forceinline__ uint32_t group(int t) const { return static_cast<uint32_t>(bits >> (4 * t)) & 0xfu; }
  /// The register of `lane` for a row of `ld` entries with nothing visited: the groups past the
  /// row count as visited, so that the roulette may load them from a clamped address unguarded.
  __device__ static LaneVisited empty(int ld, int lane) {
    LaneVisited v;
    for (int t = 0; t < kG; ++t)
      if (lane + kWarpSize * t >= ld / 4) v.bits |= Word{0xf} << (4 * t);
    return v;
  }
  /// The smallest city no lane has visited (every lane calls it). The cities past n in the row's
  /// last groups count as unvisited here, so it answers for a warp with a city below n unvisited.
  __device__ __forceinline__ int first_unvisited(int lane) const {
    const Word clear = ~bits;
    unsigned city = UINT_MAX;
    if (clear != 0) {
      const int b =
          (sizeof(Word) == 8 ? __ffsll(static_cast<long long>(clear)) : __ffs(static_cast<int>(clear))) - 1;
      city = static_cast<unsigned>(4 * (lane + kWarpSize * (b >> 2)) + (b & 3));
    }
    return static_cast<int>(__reduce_min_sync(kFullMask, city));
  }
  /// The register of `lane` read from a shared bitmask of `ld` bits.
  __device__ static LaneVisited from(VisitedBits visited, int ld, int lane) {
    LaneVisited v = empty(ld, lane);
    for (int t = 0; t < kG; ++t) {
      const int g = lane + kWarpSize * t;
      if (g < ld / 4) v.bits |= static_cast<Word>(visited.group_bits(g)) << (4 * t);
    }
    return v;
  }
};

/// The city of `g4` (float4 group `group` of a row) at which a running sum from `from` passes r;
/// if rounding keeps it at or below r, the group's last positive city. The group must hold a
/// positive weight and r must be at least `from`, so that the first prefix above r is a city's
/// own positive weight. Comparisons and selects only.
__device__ __forceinline__ int city_in_group(float4 g4, int group, float from, float r) {
  const float p0 = from + g4.x, p1 = p0 + g4.y, p2 = p1 + g4.z;
  int k = (p0 <= r ? 1 : 0) + (p1 <= r ? 1 : 0) + (p2 <= r ? 1 : 0);
  if (k == 3 && !(g4.w > 0.f)) k = g4.z > 0.f ? 2 : g4.y > 0.f ? 1 : 0;
  return 4 * group + k;
}

/// A running sum from `acc` over non-negative weights added in order, watching where it crosses
/// r: the first positive weight that takes it past r or, when rounding keeps it at or below r to
/// the end, the last positive one. Conditional moves only, no branch, so a batch of weights in
/// registers is searched without a per-weight exit (warp_roulette<0>'s owner; Walk, which stops at
/// the crossing, serves the compression selection's loop).
struct Crossing {
  float acc;
  float r;
  int first = -1;
  float first_from = 0.f;
  int last = -1;
  float last_from = 0.f;

  __device__ __forceinline__ void add(float w, int index) {
    const float before = acc;
    acc += w;
    const bool positive = w > 0.f;
    last = positive ? index : last;
    last_from = positive ? before : last_from;
    const bool crosses = positive && acc > r && first < 0;
    first = crosses ? index : first;
    first_from = crosses ? before : first_from;
  }
  /// The chosen index (-1 if no weight was positive) and the sum before it.
  __device__ __forceinline__ int index() const { return first >= 0 ? first : last; }
  __device__ __forceinline__ float from() const { return first >= 0 ? first_from : last_from; }
};

/// f[t] for a t known only at run time, by conditional moves (no local-memory array).
template <int kCount>
__device__ __forceinline__ float4 pick(const float4 (&f)[kCount], int t) {
  float4 g = f[0];
#pragma unroll
  for (int k = 1; k < kCount; ++k) g = k == t ? f[k] : g;
  return g;
}

/// Float4 groups per lane for rows of ld entries: the register-resident sizes, or 0 (loops).
constexpr int groups_per_lane(int ld) {
  return ld <= 256 ? 2 : ld <= 1024 ? 8 : ld <= 2048 ? 16 : 0;
}

/// Floats past the last row of an ld-wide matrix that RowGroups::load_unclamped reads (each row
/// before it reads into the next): 128 kG - ld.
constexpr int row_slack_floats(int ld) { return std::max(groups_per_lane(ld) * 128 - ld, 0); }

/// The float4 groups of a row that lane `lane` holds in warp_roulette<kG>: groups lane, lane + 32,
/// ... (kG of them), loaded from clamped addresses with no predicate between the loads (a predicate
/// per load would compete with the masking for the seven predicate registers and split the loads
/// into rounds). Groups past the row are visited in LaneVisited, so the masking zeroes them. A
/// caller may issue the loads of the next step's row before the bookkeeping of this one.
template <int kG>
struct RowGroups {
  float4 f[kG];

  __device__ __forceinline__ void load(const float* row, int ld, int lane) {
    const float4* groups = reinterpret_cast<const float4*>(row);
    const int last_group = ld / 4 - 1;
#pragma unroll
    for (int t = 0; t < kG; ++t) f[t] = __ldg(groups + min(lane + kWarpSize * t, last_group));
  }
  /// The same without the clamping, for a matrix followed by row_slack_floats(ld) readable floats:
  /// one address and kG loads at immediate offsets from it.
  __device__ __forceinline__ void load_unclamped(const float* row, int lane) {
    const float4* groups = reinterpret_cast<const float4*>(row) + lane;
#pragma unroll
    for (int t = 0; t < kG; ++t) f[t] = __ldg(groups + kWarpSize * t);
  }
};

/// SelectWithoutCompression (Uchida 4.2.1) for a warp, on a row already loaded (RowGroups):
/// roulette over the whole row, visited cities weighted 0. Lane l holds float4 groups l, l + 32,
/// ... in registers, masked by its own visited register; a warp scan of the lane sums, and the
/// lane owning the threshold finds the group and then the city in its registers by counting
/// prefixes, with no branch. The row has zeros past n; `u` in [0, 1) is the same in every lane.
template <int kG>
__device__ inline int warp_roulette_loaded(RowGroups<kG> row, LaneVisited<kG> mine, float u, int lane) {
  float4 (&f)[kG] = row.f;
  // The masking waits for every load (a fitness is never NaN, so this adds no bit): without the
  // dependency the compiler starts masking the first groups before issuing the last loads, and a
  // step waits for two round trips.
  float probe = 0.f;
#pragma unroll
  for (int t = 0; t < kG; ++t) probe += f[t].x;
  const LaneVisited<kG> masks{mine.bits | (probe != probe ? 1u : 0u)};
  // s: the group sums; prefix: their running sums within the lane, computed while the warp scan's
  // shuffles are in flight, so that the owner's search after the scan is comparisons only.
  float s[kG], prefix[kG];
#pragma unroll
  for (int t = 0; t < kG; ++t) {
    f[t] = mask_group(f[t], masks.group(t));
    s[t] = group_sum(f[t]);
    prefix[t] = t == 0 ? s[0] : prefix[t - 1] + s[t];
  }
  const float lane_sum = prefix[kG - 1];
  const float inclusive = warp_inclusive_sum(lane_sum, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  const float r = threshold_below(u, total);
  const unsigned past = __ballot_sync(kFullMask, inclusive > r && lane_sum > 0.f);
  if (past == 0) return mine.first_unvisited(lane);  // every remaining fitness is zero
  const int owner = first_lane(past);
  // Every lane runs the owner's search on its own registers (no divergence); the owner's counts.
  // Within the lane, the threshold is r less the sum before the lane (at least 0: r is raised to
  // that sum where rounding put it above r). Prefix sums of non-negative weights never decrease,
  // so the group that takes the sum past the threshold is the number of prefixes at or below it,
  // and that group's weight is positive.
  const float before = inclusive - lane_sum;
  float r_lane = fmaxf(r, before) - before;
  int below[kG];  // counted as a tree, not as a chain of increments
#pragma unroll
  for (int k = 0; k < kG; ++k) below[k] = k + 1 < kG && prefix[k] <= r_lane ? 1 : 0;
#pragma unroll
  for (int width = 1; width < kG; width *= 2)
#pragma unroll
    for (int k = 0; k + width < kG; k += 2 * width) below[k] += below[k + width];
  int t = below[0];
  if (t == kG - 1 && !(s[kG - 1] > 0.f)) {  // rounding kept the sum at or below r: the last positive group
#pragma unroll
    for (int k = 0; k + 1 < kG; ++k) t = s[k] > 0.f ? k : t;
    r_lane = __int_as_float(0x7f800000);
  }
  float from = 0.f;
#pragma unroll
  for (int k = 0; k + 1 < kG; ++k) from = k + 1 == t ? prefix[k] : from;
  const int city = city_in_group(pick(f, t), lane + kWarpSize * t, from, r_lane);
  return __shfl_sync(kFullMask, city, owner);
}

/// warp_roulette_loaded on a row it loads itself. `row` is 16-byte aligned with `ld` <= 128 * kG
/// entries, zero past n.
template <int kG>
__device__ inline int warp_roulette(const float* row, int /*n*/, int ld, VisitedBits /*visited*/,
                                    LaneVisited<kG> mine, float u, int lane) {
  RowGroups<kG> groups;
  groups.load(row, ld, lane);
  return warp_roulette_loaded(groups, mine, u, lane);
}

/// warp_roulette for rows of any length: the row in batches of kBatch groups per lane (each batch's
/// loads issued together), then the owner reads its batches again until one crosses the
/// threshold, so a step costs a few round trips rather than one per group.
template <>
__device__ inline int warp_roulette<0>(const float* row, int n, int ld, VisitedBits visited, LaneVisited<0>, float u,
                                       int lane) {
  constexpr int kBatch = 8;
  const float4* groups = reinterpret_cast<const float4*>(row);
  const int group_count = ld / 4;
  const auto load_batch = [&](int first, float4 (&f)[kBatch]) {
#pragma unroll
    for (int b = 0; b < kBatch; ++b) f[b] = load_group(groups, first + kWarpSize * b, group_count);
#pragma unroll
    for (int b = 0; b < kBatch; ++b) f[b] = mask_group_at(f[b], visited, first + kWarpSize * b, group_count);
  };
  float lane_sum = 0.f;
  for (int first = lane; first < group_count; first += kWarpSize * kBatch) {
    float4 f[kBatch];
    load_batch(first, f);
#pragma unroll
    for (int b = 0; b < kBatch; ++b) lane_sum += group_sum(f[b]);
  }
  const float inclusive = warp_inclusive_sum(lane_sum, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  const float r = threshold_below(u, total);
  const unsigned past = __ballot_sync(kFullMask, inclusive > r && lane_sum > 0.f);
  if (past == 0) return warp_first_unvisited(visited, n, lane);
  const int owner = first_lane(past);
  int city = -1;
  if (lane == owner) {
    Crossing c{inclusive - lane_sum, r};
    float4 g4{};
    for (int first = lane; first < group_count && c.first < 0; first += kWarpSize * kBatch) {
      float4 f[kBatch];
      load_batch(first, f);
#pragma unroll
      for (int b = 0; b < kBatch; ++b) c.add(group_sum(f[b]), first + kWarpSize * b);
      if (c.first >= 0) g4 = pick(f, (c.first - first) / kWarpSize);
    }
    // Rounding kept the sum at or below r to the end (rare): the last positive group, read again.
    if (c.first < 0) g4 = mask_group_at(load_group(groups, c.last, group_count), visited, c.last, group_count);
    city = city_in_group(g4, c.index(), c.from(), c.first >= 0 ? fmaxf(r, c.from()) : __int_as_float(0x7f800000));
  }
  return __shfl_sync(kFullMask, city, owner);
}

/// SelectWithCompression (Uchida 4.2.2) for a warp: roulette over the unvisited index array
/// `unvisited[0, count)` only (shared or global memory). Lane l owns slots l, l + 32, ...; up to
/// 256 entries the gathered fitness values stay in registers for the owner's search, beyond that
/// the owner reads its slots again.
__device__ inline Choice warp_compression(const float* row, const int32_t* unvisited, int count, float u,
                                          int lane) {
  constexpr int kBatch = 8;
  float value[kBatch];
  float lane_sum = 0.f;
  for (int base = 0; base < count; base += kWarpSize * kBatch) {
    int city[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int k = base + lane + kWarpSize * b;
      city[b] = k < count ? unvisited[k] : -1;
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) value[b] = city[b] >= 0 ? __ldg(row + city[b]) : 0.f;
#pragma unroll
    for (int b = 0; b < kBatch; ++b) lane_sum += value[b];
  }
  const float inclusive = warp_inclusive_sum(lane_sum, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  const float r = threshold_below(u, total);
  unsigned past = __ballot_sync(kFullMask, inclusive > r && lane_sum > 0.f);
  const bool all_zero = past == 0;
  if (all_zero) past = __ballot_sync(kFullMask, lane < count);  // any city will do
  const int owner = first_lane(past);
  int slot = -1;
  if (lane == owner) {
    Walk walk{inclusive - lane_sum, r};
    if (count <= kWarpSize * kBatch) {
#pragma unroll
      for (int b = 0; b < kBatch; ++b) walk.take(value[b], lane + kWarpSize * b);
    } else {
      for (int k = lane; k < count && !walk.done; k += kWarpSize) walk.take(__ldg(row + unvisited[k]), k);
    }
    slot = all_zero ? lane : walk.result();
  }
  slot = __shfl_sync(kFullMask, slot, owner);
  return {unvisited[slot], slot};
}

/// Removes slot `slot` from the unvisited index array in O(1) by moving the last entry into it
/// (Uchida Figure 7). Call with the whole warp; returns the new count.
__device__ inline int warp_remove_slot(int32_t* unvisited, int count, int slot, int lane) {
  // Every lane has read unvisited[slot] (the selection's return) before lane 0 overwrites it: lanes
  // are not in lockstep after a shuffle (racecheck, compression selection, warp per ant).
  __syncwarp();
  if (lane == 0) unvisited[slot] = unvisited[count - 1];
  __syncwarp();
  return count - 1;
}

/// SelectWithStochasticTrial (Uchida 4.2.3) for a warp: up to `trials` draws j from the whole row
/// through its static prefix sums q'[0, n) (32-way search), accepting the first unvisited j.
/// Trial t uses the uniform of lane t (`u` differs per lane). Returns -1 when every trial lands
/// on a visited city; the caller then falls back to roulette, which keeps the distribution exact
/// (rejection sampling conditioned on "unvisited" is the target distribution itself). A draw
/// only ever lands on an entry with f_j > 0, since q'[j] > r >= q'[j-1].
///
/// The first search round is the same for every trial and is loaded once; the later rounds of
/// kBatch trials are searched together, their loads issued at once, and the first unvisited
/// result in trial order wins, exactly as if the trials ran one after another.
__device__ inline int warp_stochastic_trial(const float* prefix, int n, int top, VisitedBits visited, float u,
                                            int trials, int lane) {
  constexpr int kBatch = 4;
  const float kInfinity = __int_as_float(0x7f800000);
  const int first_end = min((lane + 1) * top - 1, n - 1);
  const float first = lane * top < n ? __ldg(prefix + first_end) : kInfinity;
  const float total = __shfl_sync(kFullMask, first, (n - 1) / top);  // q'[n-1], the row total
  if (!(total > 0.f)) return -1;
  for (int t0 = 0; t0 < trials; t0 += kBatch) {
    float r[kBatch];
    int lo[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      r[b] = threshold_below(__shfl_sync(kFullMask, u, (t0 + b) & 31), total);
      // r < q'[n-1], so the first segment whose last entry exceeds r is a live one.
      lo[b] = first_lane(__ballot_sync(kFullMask, first > r[b])) * top;
    }
    for (int s = top / 32; s >= 1; s /= 32) {
      float value[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int idx = lo[b] + (lane + 1) * s - 1;
        value[b] = idx < n ? __ldg(prefix + idx) : kInfinity;
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) lo[b] += first_lane(__ballot_sync(kFullMask, value[b] > r[b])) * s;
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
      if (t0 + b < trials && !visited.test(lo[b])) return lo[b];
  }
  return -1;
}

/// SelectWithStochasticTrial from an alias table (alias_table.cuh): lane t < trials draws its own
/// city from the whole row with one load; the first unvisited result in trial order wins, as if
/// the trials ran one after another. Returns -1 when every trial lands on a visited city.
__device__ inline int warp_alias_trials(const uint32_t* alias_row, int n, int bits, VisitedBits visited,
                                        uint32_t draw, int trials, int lane) {
  const int j = lane < trials ? alias_draw(alias_row, n, bits, draw) : 0;
  const unsigned accepted = __ballot_sync(kFullMask, lane < trials && !visited.test(j));
  return accepted ? __shfl_sync(kFullMask, j, first_lane(accepted)) : -1;
}

/// Stochastic trial's whole step from an alias table: the trials, then the roulette over the row
/// (its threshold from lane `trials`' draw) when every trial landed on a visited city.
template <int kG>
__device__ inline int warp_alias_select(const uint32_t* alias_row, const float* row, int n, int ld, int bits,
                                        VisitedBits visited, LaneVisited<kG> mine, uint32_t draw, int trials,
                                        int lane) {
  const int j = warp_alias_trials(alias_row, n, bits, visited, draw, trials, lane);
  if (j >= 0) return j;
  return warp_roulette<kG>(row, n, ld, visited, mine, __shfl_sync(kFullMask, uniform01(draw), trials), lane);
}

/// Where a step reads its row: the dense fitness matrix and, for stochastic trial, either the
/// alias tables or the prefix matrix (all ld x ld, row-major).
struct RowSource {
  const float* fitness;
  const float* prefix;
  int n, ld;
  int top;     // search_top_stride(n)
  int trials;  // w, at most 31: lane `trials` keeps the roulette's uniform
  const uint32_t* alias = nullptr;  // alias tables (rows up to kAliasRowLimit), used before the prefix sums
  int alias_bits = 0;               // alias_index_bits(n)
};

/// One selection step of method kMethod from city `current`, without changing the ant's state
/// (the caller commits the choice). `trial_phase` is true for stochastic trial and for hybrid
/// before its switch point; compression reads unvisited[0, remaining). `draw` (32 random bits)
/// and `u` (uniform in [0, 1)) differ per lane: the alias trials use the first, the other methods
/// the second; I-Roulette draws its per-city numbers from `rnd` instead; `mine` is the lane's
/// visited register (warp_roulette).
template <Selection kMethod, int kG>
__device__ inline Choice warp_select_next(const RowSource& src, int current, bool trial_phase,
                                          VisitedBits visited, LaneVisited<kG> mine, const int32_t* unvisited,
                                          int remaining, uint32_t draw, float u, const StepRandom& rnd,
                                          int lane) {
  const float* row = src.fitness + static_cast<size_t>(current) * src.ld;
  if (kMethod == Selection::IRoulette) return {warp_i_roulette<kG>(row, src.n, src.ld, visited, rnd, lane), -1};
  if (kMethod == Selection::Roulette)
    return {warp_roulette<kG>(row, src.n, src.ld, visited, mine, __shfl_sync(kFullMask, u, 0), lane), -1};
  if (kMethod == Selection::StochasticTrial || (kMethod == Selection::Hybrid && trial_phase)) {
    const size_t offset = static_cast<size_t>(current) * src.ld;
    if (src.alias != nullptr) {
      const uint32_t* alias_row = src.alias + offset;
      return {warp_alias_select<kG>(alias_row, row, src.n, src.ld, src.alias_bits, visited, mine, draw, src.trials,
                                    lane),
              -1};
    }
    const int j = warp_stochastic_trial(src.prefix + offset, src.n, src.top, visited, u, src.trials, lane);
    if (j >= 0) return {j, -1};
    return {warp_roulette<kG>(row, src.n, src.ld, visited, mine, __shfl_sync(kFullMask, u, src.trials), lane), -1};
  }
  return warp_compression(row, unvisited, remaining, __shfl_sync(kFullMask, u, 0), lane);
}

}  // namespace formica::aco::cuda
