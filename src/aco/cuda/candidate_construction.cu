// SPDX-License-Identifier: MIT
// Candidate-list tour construction: warp per ant, thread per ant and ACS lockstep (see
// candidate_construction.cuh).
#include "aco/cuda/candidate_construction.cuh"
#include "aco/cuda/candidate_fallback.h"
#include "aco/cuda/warp_scan.cuh"
#include "aco/cuda/warp_selection.cuh"  // VisitedBits, warp_clear
#include "core/rng.h"
#include "core/error.h"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

using formica::cuda::DistanceView;

constexpr int kWarpsUnstaged = 4;
constexpr int kWarpsStaged = 8;
/// Resident blocks per SM the unstaged kernel is compiled for (the register cap follows: 8 blocks
/// of 4 warps leave 64 registers per thread), so that thousands of ants stay on the SMs at once.
constexpr int kUnstagedBlocksPerSm = 8;
/// Shared memory a staged block may take (the rows of one matrix plus the visited bitmasks).
constexpr size_t kStageLimit = 200 * 1024;

__device__ __forceinline__ float to_unit(uint32_t word) { return static_cast<float>(word >> 8) * (1.0f / 16777216.0f); }

/// An ant's random numbers for one iteration, drawn by the whole warp: each refill evaluates one
/// Philox block per lane (128 words), then word t is read from lane (t / 4) % 32 by a shuffle.
/// Call from every lane with warp-uniform control flow.
struct WarpRandom {
  uint64_t key;
  uint32_t iteration;
  uint32_t block = 0;
  int used = 128;
  PhiloxBlock buffer{};

  __device__ uint32_t next(int lane) {
    if (used == 128) {
      buffer = philox4x32_10(PhiloxBlock{{block * kWarpSize + static_cast<uint32_t>(lane), iteration, 0u, 0u}}, key);
      ++block;
      used = 0;
    }
    const int part = used & 3, owner = used >> 2;
    ++used;
    const uint32_t mine = part == 0 ? buffer.v[0] : part == 1 ? buffer.v[1] : part == 2 ? buffer.v[2] : buffer.v[3];
    return __shfl_sync(kFullMask, mine, owner);
  }
};

__device__ __forceinline__ int scaled_city(uint32_t word, int n) {
  return static_cast<int>((static_cast<unsigned long long>(word) * static_cast<unsigned>(n)) >> 32);
}

/// One lane's candidate: its city, weight (0 when it cannot be chosen) and exact distance.
struct Lane {
  int city;
  float weight;
  int32_t distance;
};

/// The pseudo-random proportional rule over the row held one entry per lane: greedy (largest
/// weight, lowest slot on ties) when u_greedy < q0, else the proportional rule with u_pick.
/// Returns the chosen slot, or -1 when no lane has positive weight. Warp-uniform result.
__device__ int warp_rule(const Lane& mine, float q0, float u_greedy, float u_pick, int lane) {
  const unsigned eligible = __ballot_sync(kFullMask, mine.weight > 0.f);
  if (eligible == 0) return -1;
  if (u_greedy < q0) {
    unsigned long long key =
        mine.weight > 0.f ? (static_cast<unsigned long long>(__float_as_uint(mine.weight)) << 32) | (31u - lane) : 0ull;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
      const unsigned long long other = __shfl_xor_sync(kFullMask, key, offset);
      key = other > key ? other : key;
    }
    return 31 - static_cast<int>(key & 0xffffffffu);
  }
  const float inclusive = warp_inclusive_sum(mine.weight, lane);
  const float total = __shfl_sync(kFullMask, inclusive, 31);
  float r = u_pick * total;
  if (r >= total) r = nextafterf(total, 0.f);
  const unsigned past = __ballot_sync(kFullMask, inclusive > r && mine.weight > 0.f);
  return past ? first_lane(past) : last_lane(eligible);  // rounding kept the running sum at or below r
}

/// This lane's share of the nearest unvisited city, as a key (exact distance, capped at 2^32 - 1,
/// then index): `distance_to(j)` is the distance from the ant's city. The warp takes 32 words
/// (1,024 cities) at a time and deals their unvisited cities out evenly, lane t the t-th of each
/// 32 (a scan of the words' counts, then the owning word by a binary search over the lanes), so a
/// lane computes ceil(free / 32) distances even when the free cities crowd into a few words.
/// Call from every lane; reduce the keys with a warp min.
template <class DistanceTo>
__device__ __forceinline__ unsigned long long lane_nearest_unvisited(VisitedBits visited, int n, int lane,
                                                                     DistanceTo distance_to) {
  unsigned long long best = ~0ull;
  for (int first_word = 0; first_word * 32 < n; first_word += kWarpSize) {
    const uint32_t bits = unvisited_bits(visited, first_word + lane, n);  // 0 past the last word
    const int inclusive = warp_inclusive_sum(__popc(bits), lane);
    const int total = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
    for (int round = 0; round < total; round += kWarpSize) {
      const int t = round + lane;  // this lane's city: the t-th unvisited one of these words
      int owner = 0;               // the first lane whose inclusive count exceeds t
#pragma unroll
      for (int step = 16; step > 0; step >>= 1) {
        const int probe = __shfl_sync(kFullMask, inclusive, owner + step - 1);
        if (probe <= t) owner += step;
      }
      const uint32_t owner_bits = __shfl_sync(kFullMask, bits, owner & (kWarpSize - 1));
      const int owner_before = __shfl_sync(kFullMask, inclusive - __popc(bits), owner & (kWarpSize - 1));
      if (t < total) {
        const int j = (first_word + owner) * 32 + static_cast<int>(__fns(owner_bits, 0, t - owner_before + 1));
        const long long d = distance_to(j);
        const unsigned long long key = (static_cast<unsigned long long>(d < 0xffffffffLL ? d : 0xffffffffLL) << 32) | j;
        best = key < best ? key : best;
      }
    }
    // A city at distance 0 is the nearest, and every later word holds higher indices only: cities
    // on one point would otherwise make every fallback a scan of all n.
    if (__any_sync(kFullMask, best < (1ull << 32))) break;
  }
  return best;
}

/// Whether the stop (mapped host memory, or null) is raised, looked at every 64 steps by lane 0 and
/// told to the whole warp, so that its lanes leave together. Call from every lane.
__device__ __forceinline__ bool stop_seen_by_warp(const volatile int* stop, int p, int lane) {
  if ((p & 63) != 0 || stop == nullptr) return false;
  return __shfl_sync(kFullMask, lane == 0 ? *stop : 0, 0) != 0;
}

/// The fallback city of one ant (at `from`, bitmask `visited`), found by the whole warp: the
/// first unvisited city of the sorted list, else the nearest unvisited one by exact distance
/// (lowest index on ties); the scan skips whole words of visited cities. EUC_2D, the common
/// case, has its own scan with the ant's coordinates loaded once (the same arithmetic as
/// DistanceView, so the same distances), not a branch on the metric per city.
__device__ int warp_fallback_city(const int32_t* list, int length, VisitedBits visited, const DistanceView& distance,
                                  int from, int n, int lane) {
  for (int base = 0; base < length; base += kWarpSize) {
    const int s = base + lane;
    const int city = s < length ? list[s] : -1;
    const unsigned free_lanes = __ballot_sync(kFullMask, city >= 0 && !visited.test(city));
    if (free_lanes) return __shfl_sync(kFullMask, city, first_lane(free_lanes));
  }
  unsigned long long best;
  if (distance.type == EdgeWeightType::Euc2D) {
    const double x = distance.x[from], y = distance.y[from];
    const double* __restrict__ xs = distance.x;
    const double* __restrict__ ys = distance.y;
    best = lane_nearest_unvisited(visited, n, lane, [=](int j) { return tsplib::euc_2d(x - xs[j], y - ys[j]); });
  } else {
    best = lane_nearest_unvisited(visited, n, lane, [&](int j) { return distance(from, j); });
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const unsigned long long other = __shfl_xor_sync(kFullMask, best, offset);
    best = other < best ? other : best;
  }
  return static_cast<int>(best & 0xffffffffu);
}

/// The slot of `target` in the row whose ids the lanes hold, or -1.
__device__ __forceinline__ int warp_slot_of(int lane_city, int target) {
  const unsigned hit = __ballot_sync(kFullMask, lane_city == target);
  return hit ? first_lane(hit) : -1;
}

/// Where a lockstep ant's matrix lives: rows of ids, tau and eta^beta (the weight is computed from
/// them as the step reads them, since tau changes every step), exact distances.
struct Rows {
  const int32_t* ids;
  const float* tau;
  const float* eta_beta;
  const int32_t* distances;
};

__device__ __forceinline__ Lane load_lane(const Rows& rows, int row, int width, VisitedBits visited, float alpha,
                                          int lane) {
  Lane mine{-1, 0.f, 0};
  if (lane < width) {
    const int e = row * width + lane;
    mine.city = rows.ids[e];
    mine.distance = rows.distances[e];
    const float w = entry_fitness(rows.tau[e], rows.eta_beta[e], alpha);
    if (mine.city >= 0 && !visited.test(mine.city)) mine.weight = w;
  }
  return mine;
}

/// One step of a lockstep ant from `current`: the next city, its slot in the row (-1 after a
/// fallback) and the distance, in every lane.
struct StepResult {
  int city;
  int slot;
  long long distance;
};

__device__ StepResult warp_step(const Rows& rows, const CandidateConstructionArgs& a, int current, VisitedBits visited,
                                float q0, WarpRandom& rng, int lane) {
  const Lane mine = load_lane(rows, current, a.width, visited, a.alpha, lane);
  const float u_greedy = q0 > 0.f ? to_unit(rng.next(lane)) : 1.f;
  const float u_pick = to_unit(rng.next(lane));
  const int slot = warp_rule(mine, q0, u_greedy, u_pick, lane);
  StepResult step{-1, slot, 0};
  if (slot >= 0) {
    step.city = __shfl_sync(kFullMask, mine.city, slot);
    step.distance = __shfl_sync(kFullMask, mine.distance, slot);
  } else {
    step.city = warp_fallback_city(a.fallback + static_cast<size_t>(current) * a.fallback_length, a.fallback_length, visited,
                              a.distance, current, a.n, lane);
    step.distance = a.distance(current, step.city);
    step.slot = warp_slot_of(mine.city, step.city);  // a zero-weight candidate can still be the fallback
  }
  return step;
}

/// Entry index of the reverse edge (to, from) in row `to`, or -1 (a warp-wide lookup).
__device__ __forceinline__ int warp_reverse_entry(const int32_t* ids, int width, int to, int from, int lane) {
  const int city = lane < width ? ids[static_cast<size_t>(to) * width + lane] : -1;
  const int slot = warp_slot_of(city, from);
  return slot >= 0 ? to * width + slot : -1;
}

/// A group of G lanes builds one ant's tour (32 / G ants per warp): lane g holds candidate slots
/// g S .. g S + S - 1 of the current row (S = 32 / G; lower lanes hold lower slots, so the lowest
/// winning lane holds the lowest winning slot). A step is one round of loads and one G-lane max: the proportional rule as
/// an exponential race (every eligible slot s draws E_s ~ Exp(1), the largest f_s / E_s wins,
/// which picks s with probability f_s / sum f: the same distribution as a roulette over prefix
/// sums, without the scan), the greedy choice of the pseudo-random rule as the largest f_s, lowest
/// slot on ties. Every group of a warp takes the same number of steps, so the reductions run with
/// the whole warp; a group whose row has no eligible candidate gets its fallback city from the
/// whole warp, one such group at a time.
template <int G>
struct AntGroup {
  static constexpr int kSlots = kWarpSize / G;  // candidate slots per lane (width <= 32)
  static constexpr int kAntsPerWarp = kWarpSize / G;
  int g;          // lane within the group
  int base;       // the group's first lane
  unsigned mask;  // the group's lanes in a warp-wide ballot

  __device__ explicit AntGroup(int lane)
      : g(lane % G), base(lane - lane % G), mask(G == kWarpSize ? kFullMask : ((1u << G) - 1u) << (lane - lane % G)) {}

  /// The largest key of the group, in every lane of it.
  __device__ uint32_t max(uint32_t key) const {
    if constexpr (G == kWarpSize) {
      return __reduce_max_sync(kFullMask, key);
    } else {
#pragma unroll
      for (int offset = G / 2; offset > 0; offset >>= 1) key = ::max(key, __shfl_xor_sync(kFullMask, key, offset, G));
      return key;
    }
  }
};

/// An ant's random words: 64 bits per (step, lane, call), derive_seed (SplitMix64) at a position that
/// no other step, lane or iteration of the ant uses (the ant's seed is its stream).
struct AntRandom {
  uint64_t seed;
  uint32_t iteration;

  __device__ uint64_t at(int step, int g, int call) const {
    const uint64_t position = static_cast<uint64_t>(step) << 6 | static_cast<uint64_t>(g) << 1 | call;
    return derive_seed(seed, static_cast<uint64_t>(iteration) << 40 ^ position);
  }
};

/// 1 / E' with E' = -log2 u = E / ln 2 for u in (0, 1) from 32 random bits, E ~ Exp(1): the race
/// compares f / E' across slots, and one common factor (ln 2) does not change the winner. The fast
/// log2 is exact to 2^-22.6 absolute, so E' is clamped above 0 (u within ~2^-22 of 1, where the
/// slot wins anyway).
/// u >= 2^-25 and the clamped E' are normal floats, so the .ftz forms give the same bits as
/// __log2f and __fdividef without their subnormal fix-ups.
__device__ __forceinline__ float inverse_exponential(uint32_t word) {
  const float u = (static_cast<float>(word >> 8) + 0.5f) * (1.0f / 16777216.0f);
  float log2_u, inverse;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(log2_u) : "f"(u));
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(inverse) : "f"(fmaxf(-log2_u, 1e-7f)));
  return inverse;
}

/// The S inverse exponentials of a lane's slots at step p (one 64-bit draw per two slots).
template <int S>
struct SlotDraws {
  float inverse_e[S];

  __device__ SlotDraws(const AntRandom& rng, int p, int g) {
#pragma unroll
    for (int j = 0; j < S; j += 2) {
      const uint64_t bits = rng.at(p, g, j / 2);
      inverse_e[j] = inverse_exponential(static_cast<uint32_t>(bits));
      if (j + 1 < S) inverse_e[j + 1] = inverse_exponential(static_cast<uint32_t>(bits >> 32));
    }
  }
};

/// One lane's share of a row: S candidate cities (-1: none) and its best race key (0: none).
template <int S>
struct LaneSlots {
  int city[S];
  uint32_t key = 0;
  int best_city = -1;       // the city of the key (-1 while key is 0)
  uint32_t best_word = 0;   // the visited word that holds best_city (its bit clear when key > 0)
};

/// Loads the lane's slots of `row` and runs its part of the race: key = f / E (or f when greedy).
template <int G>
__device__ __forceinline__ LaneSlots<AntGroup<G>::kSlots> race_slots(const int32_t* ids, const float* weight, int row,
                                                                     int width, VisitedBits visited, bool eligible_ant,
                                                                     bool greedy, const SlotDraws<AntGroup<G>::kSlots>& draws,
                                                                     int g) {
  constexpr int S = AntGroup<G>::kSlots;
  LaneSlots<S> mine;
  const int first = row * width + g * S;
#pragma unroll
  for (int j = 0; j < S; ++j) {
    mine.city[j] = g * S + j < width ? ids[first + j] : -1;
    const float f = g * S + j < width ? weight[first + j] : 0.f;
    const float key = greedy ? f : f * draws.inverse_e[j];
    const int c = ::max(mine.city[j], 0);
    const uint32_t word = visited.words[c >> 5];  // unconditional: no branch in the step
    const uint32_t bits = eligible_ant && mine.city[j] >= 0 && !((word >> (c & 31)) & 1u) && f > 0.f
                              ? ::max(__float_as_uint(key), 1u)  // positive: never 0, even if f / E underflows
                              : 0u;
    if (bits > mine.key) mine.key = bits, mine.best_city = mine.city[j], mine.best_word = word;
  }
  return mine;
}

/// The slot of `target` in `row` (the group's lanes load it), or -1; warp-uniform call.
template <int G>
__device__ int group_slot_of(const int32_t* ids, int row, int width, int target, const AntGroup<G>& group) {
  constexpr int S = AntGroup<G>::kSlots;
  int mine = -1;
#pragma unroll
  for (int j = S - 1; j >= 0; --j) {
    const int s = group.g * S + j;
    if (s < width && target >= 0 && ids[row * width + s] == target) mine = s;
  }
  const unsigned hit = __ballot_sync(kFullMask, mine >= 0) & group.mask;
  const int found = __shfl_sync(kFullMask, mine, hit ? first_lane(hit) - group.base : 0, G);  // every lane shuffles
  return hit ? found : -1;
}

/// kMixed: GACO, where some ants follow the pseudo-random rule and count their crossings.
template <int G, bool kStaged, bool kMixed>
__global__ void __launch_bounds__((kStaged ? kWarpsStaged : kWarpsUnstaged) * kWarpSize,
                                  kStaged ? 1 : kUnstagedBlocksPerSm)
    construct_group_kernel(CandidateConstructionArgs a) {
  using Group = AntGroup<G>;
  constexpr int S = Group::kSlots;
  constexpr int kWarps = kStaged ? kWarpsStaged : kWarpsUnstaged;
  extern __shared__ uint32_t shared_words[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const Group group(lane);
  const int matrix = static_cast<int>(blockIdx.y);
  const size_t cells = static_cast<size_t>(a.n) * a.width;
  const int32_t* ids = a.ids + matrix * cells;
  const float* weight = a.fitness + matrix * cells;
  const int words = (a.n + 31) / 32;
  if (kStaged) {
    int32_t* staged_ids = reinterpret_cast<int32_t*>(shared_words + kWarps * Group::kAntsPerWarp * words);
    float* staged_weight = reinterpret_cast<float*>(staged_ids + cells);
    for (size_t e = threadIdx.x; e < cells; e += blockDim.x) staged_ids[e] = ids[e], staged_weight[e] = weight[e];
    __syncthreads();
    ids = staged_ids;
    weight = staged_weight;
  }
  const int first = a.first_ant[matrix * a.group], end = a.first_ant[(matrix + 1) * a.group];
  const int warp_ant = first + (static_cast<int>(blockIdx.x) * kWarps + warp) * Group::kAntsPerWarp;
  if (warp_ant >= end) return;  // whole warps leave; no barrier follows
  const int ant = warp_ant + lane / G;
  const bool active = ant < end;  // a group past the last ant steps along without writing
  VisitedBits visited{shared_words + (warp * Group::kAntsPerWarp + lane / G) * words};
  for (int w = group.g; w < words; w += G) visited.words[w] = 0;
  const bool acs = kMixed && a.colony_acs[a.ant_colony[active ? ant : first]] != 0;
  const float q0 = acs ? a.q0 : 0.f;
  int* crossings = kMixed && acs && active ? a.crossings + matrix * cells : nullptr;
  const AntRandom rng{a.ant_seeds[active ? ant : first], a.iteration};
  const int start = active ? scaled_city(static_cast<uint32_t>(rng.at(0, 0, 0)), a.n) : 0;
  int32_t* tour = a.tours + static_cast<size_t>(active ? ant : first) * a.n;
  __syncwarp();
  if (active && group.g == 0) visited.set(start), tour[0] = start;
  __syncwarp();
  int current = start;
  SlotDraws<S> draws(rng, 1, group.g);
  for (int p = 1; p <= a.n; ++p) {
    if (stop_seen_by_warp(a.stop, p, lane)) return;
    int city = start;
    if (p < a.n) {
      bool greedy = false;
      if constexpr (kMixed) greedy = to_unit(static_cast<uint32_t>(rng.at(p, 31, 1) >> 32)) < q0;
      const LaneSlots<S> mine = race_slots<G>(ids, weight, current, a.width, visited, active, greedy, draws, group.g);
      draws = SlotDraws<S>(rng, p + 1, group.g);  // independent of this step: fills its latency
      const uint32_t best = group.max(mine.key);
      // A tie (a greedy step's equal weights) goes to the lowest slot, as on the CPU: the first
      // winning lane, whose first best slot race_slots kept.
      const unsigned winners = __ballot_sync(kFullMask, mine.key == best && best != 0u) & group.mask;
      const int chosen = mine.best_city;
      city = __shfl_sync(kFullMask, chosen, winners ? first_lane(winners) - group.base : 0, G);
      __syncwarp();  // every lane's reads of the visited words come before the winner's write
      if (active && winners != 0 && lane == first_lane(winners)) {
        // The winning lane already holds the chosen city's visited word: no read-modify-write.
        visited.words[chosen >> 5] = mine.best_word | 1u << (chosen & 31);
        tour[p] = chosen;
      }
      unsigned stuck = __ballot_sync(kFullMask, active && best == 0u && group.g == 0);
      while (stuck) {  // the fallback, one group at a time with the whole warp
        const int leader = first_lane(stuck);
        stuck &= stuck - 1;
        const int from = __shfl_sync(kFullMask, current, leader);
        const VisitedBits theirs{shared_words + (warp * Group::kAntsPerWarp + leader / G) * words};
        const int found = warp_fallback_city(a.fallback + static_cast<size_t>(from) * a.fallback_length,
                                             a.fallback_length, theirs, a.distance, from, a.n, lane);
        if (group.base == leader) city = found;
        if (lane == leader) visited.set(found), tour[p] = found;
      }
      if (!active) city = 0;  // keeps the inactive group on a valid row
    }
    if constexpr (kMixed) {
      if (__any_sync(kFullMask, crossings != nullptr)) {  // both directions of the edge crossed
        const int slot = group_slot_of<G>(ids, current, a.width, city, group);
        const int reverse = group_slot_of<G>(ids, city, a.width, current, group);
        if (crossings != nullptr && group.g == 0) {
          if (slot >= 0) atomicAdd(crossings + current * a.width + slot, 1);
          if (reverse >= 0) atomicAdd(crossings + city * a.width + reverse, 1);
        }
      }
    }
    __syncwarp();  // this step's visited bit is seen by the next step's loads
    current = city;
  }
}

/// device_fallback_cities: a warp per query.
__global__ void fallback_cities_kernel(const int32_t* list, int length, DistanceView distance, int n,
                                       const int32_t* from, uint32_t* words, int queries, int32_t* out) {
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int q = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / kWarpSize);
  if (q >= queries) return;
  const VisitedBits visited{words + static_cast<size_t>(q) * ((n + 31) / 32)};
  const int city = warp_fallback_city(list + static_cast<size_t>(from[q]) * length, length, visited, distance, from[q],
                                      n, lane);
  if (lane == 0) out[q] = city;
}

/// Exact tour lengths (a warp per ant) for the kernels that do not sum them while building.
__global__ void tour_lengths_kernel(const int32_t* tours, int n, int ants, DistanceView distance, long long* lengths) {
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int ant = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / kWarpSize);
  if (ant >= ants) return;
  const int32_t* tour = tours + static_cast<size_t>(ant) * n;
  long long length = 0;
  for (int p = lane; p < n; p += kWarpSize) length += distance(tour[p], tour[p + 1 < n ? p + 1 : 0]);
  length = warp_sum(length);
  if (lane == 0) lengths[ant] = length;
}

/// Li and Jin's Algorithm 1 over candidate rows: one thread per ant.
__global__ void construct_thread_kernel(CandidateConstructionArgs a, int ants) {
  const int ant = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (ant >= ants) return;
  const int colony = a.ant_colony[ant];
  const int matrix = colony / a.group;
  const size_t cells = static_cast<size_t>(a.n) * a.width;
  const int32_t* ids = a.ids + matrix * cells;
  const float* fitness = a.fitness + matrix * cells;
  const int32_t* distances = a.distances + matrix * cells;
  const bool acs = a.colony_acs[colony] != 0;
  const float q0 = acs ? a.q0 : 0.f;
  int* crossings = acs && a.crossings != nullptr ? a.crossings + matrix * cells : nullptr;
  uint32_t* visited = a.visited + static_cast<size_t>(ant) * a.visited_words;
  for (int w = 0; w < a.visited_words; ++w) visited[w] = 0;
  const auto seen = [&](int city) { return (visited[city >> 5] >> (city & 31)) & 1u; };
  RandomStream rng(a.ant_seeds[ant], 0, a.iteration);
  const int start = scaled_city(rng.next_u32(), a.n);
  int32_t* tour = a.tours + static_cast<size_t>(ant) * a.n;
  visited[start >> 5] |= 1u << (start & 31);
  tour[0] = start;
  const auto slot_in = [&](int row, int city) {
    for (int s = 0; s < a.width; ++s)
      if (ids[row * a.width + s] == city) return s;
    return -1;
  };
  long long length = 0;
  int current = start;
  for (int p = 1; p <= a.n; ++p) {
    if ((p & 63) == 0 && a.stop != nullptr && *a.stop != 0) return;
    int city = start, slot = -1;
    long long d = 0;
    if (p < a.n) {
      const int row = current * a.width;
      const float u_greedy = q0 > 0.f ? rng.next_float() : 1.f;
      const float u_pick = rng.next_float();
      float total = 0.f, best = 0.f;
      for (int s = 0; s < a.width; ++s) {
        const int c = ids[row + s];
        const float f = c >= 0 && !seen(c) ? fitness[row + s] : 0.f;
        total += f;
        if (f > best) best = f, slot = s;  // greedy: the first largest
      }
      if (total > 0.f && !(u_greedy < q0)) {
        float r = u_pick * total;
        if (r >= total) r = nextafterf(total, 0.f);
        float acc = 0.f;
        slot = -1;
        for (int s = 0; s < a.width; ++s) {
          const int c = ids[row + s];
          const float f = c >= 0 && !seen(c) ? fitness[row + s] : 0.f;
          if (!(f > 0.f)) continue;
          acc += f;
          slot = s;
          if (r < acc) break;
        }
      }
      if (total > 0.f) {
        city = ids[row + slot];
        d = distances[row + slot];
      } else {
        city = -1;
        const int32_t* list = a.fallback + static_cast<size_t>(current) * a.fallback_length;
        for (int s = 0; s < a.fallback_length && city < 0; ++s)
          if (!seen(list[s])) city = list[s];
        if (city < 0) {  // the nearest unvisited city, lowest index on ties
          long long best_d = 0x7fffffffffffffffLL;
          for (int j = 0; j < a.n; ++j) {
            if (seen(j)) continue;
            const long long dj = a.distance(current, j);
            if (dj < best_d) best_d = dj, city = j;
            if (dj == 0) break;  // nothing is nearer, and later cities lose the tie
          }
        }
        d = a.distance(current, city);
        slot = slot_in(current, city);
      }
    } else {
      d = a.distance(current, start);
      slot = slot_in(current, start);
    }
    if (crossings != nullptr) {
      if (slot >= 0) atomicAdd(crossings + current * a.width + slot, 1);
      const int reverse = slot_in(city, current);
      if (reverse >= 0) atomicAdd(crossings + city * a.width + reverse, 1);
    }
    length += d;
    if (p < a.n) visited[city >> 5] |= 1u << (city & 31), tour[p] = city;
    current = city;
  }
  a.lengths[ant] = length;
}

/// ACS: one block per matrix, a warp per ant, every ant in lockstep (see the header).
__global__ void __launch_bounds__(1024) construct_lockstep_kernel(CandidateConstructionArgs a) {
  extern __shared__ uint32_t shared_words[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int warps = static_cast<int>(blockDim.x) / kWarpSize;
  const int matrix = static_cast<int>(blockIdx.x);
  const size_t cells = static_cast<size_t>(a.n) * a.width;
  float* tau = a.tau + matrix * cells;
  const Rows rows{a.ids + matrix * cells, tau, a.eta_beta + matrix * cells, a.distances + matrix * cells};
  const int words = (a.n + 31) / 32;
  int* entries = reinterpret_cast<int*>(shared_words + warps * words);  // 2 per warp
  VisitedBits visited{shared_words + warp * words};
  warp_clear(visited, words * 32, lane);
  const Bounds bounds = a.bounds[matrix];
  const int ant = a.first_ant[matrix * a.group] + warp;
  const float q0 = a.colony_acs[a.ant_colony[ant]] ? a.q0 : 0.f;
  WarpRandom rng{a.ant_seeds[ant], a.iteration};
  const int start = scaled_city(rng.next(lane), a.n);
  int32_t* tour = a.tours + static_cast<size_t>(ant) * a.n;
  if (lane == 0) visited.set(start), tour[0] = start;
  __syncwarp();
  long long length = 0;
  int current = start;
  __shared__ int stop_raised;  // thread 0's look at the stop, read by the block between the barriers
  for (int p = 1; p <= a.n; ++p) {
    if (threadIdx.x == 0) stop_raised = (p & 63) == 0 && a.stop != nullptr && *a.stop != 0;
    StepResult step;
    if (p < a.n) {
      step = warp_step(rows, a, current, visited, q0, rng, lane);
    } else {
      step.city = start;
      step.distance = a.distance(current, start);
      step.slot = warp_slot_of(lane < a.width ? rows.ids[current * a.width + lane] : -1, start);
    }
    const int reverse = warp_reverse_entry(rows.ids, a.width, step.city, current, lane);
    if (lane == 0) {
      entries[2 * warp] = step.slot >= 0 ? current * a.width + step.slot : -1;
      entries[2 * warp + 1] = reverse;
      length += step.distance;
      if (p < a.n) visited.set(step.city), tour[p] = step.city;
    }
    __syncthreads();  // every ant has chosen on the pheromone of the previous step
    // Read before the next barrier, which thread 0 passes before it writes the flag again.
    const bool stopping = stop_raised != 0;
    const int t = static_cast<int>(threadIdx.x);
    if (t < 2 * warps) {
      const int e = entries[t];
      bool first = e >= 0;
      int count = 0;
      for (int u = 0; u < 2 * warps && first; ++u) {
        if (entries[u] != e) continue;
        if (u < t) first = false;
        ++count;
      }
      if (first) tau[e] = clamp_pheromone(local_update(tau[e], a.tau0, a.local_keep, count), bounds);
    }
    __syncthreads();  // the updates are visible to the next step
    if (stopping) return;  // the whole block at once
    current = step.city;
  }
  if (lane == 0) a.lengths[ant] = length;
}

template <int G, bool kStaged, bool kMixed>
void launch_group_construction(int matrices, const CandidateConstructionArgs& args, cudaStream_t stream) {
  constexpr int kWarps = kStaged ? kWarpsStaged : kWarpsUnstaged;
  constexpr int kAntsPerBlock = kWarps * AntGroup<G>::kAntsPerWarp;
  const size_t bytes = construction_shared_bytes(args.n, args.width, kWarps, G, kStaged);
  const dim3 grid(static_cast<unsigned>((args.max_ants_per_matrix + kAntsPerBlock - 1) / kAntsPerBlock),
                  static_cast<unsigned>(matrices));
  CUDA_CHECK(cudaFuncSetAttribute(construct_group_kernel<G, kStaged, kMixed>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  construct_group_kernel<G, kStaged, kMixed><<<grid, kWarps * kWarpSize, bytes, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

template <int G>
void launch_group_construction(int matrices, const CandidateConstructionArgs& args, cudaStream_t stream) {
  const bool staged = construction_stages(args.n, args.width, G), mixed = args.crossings != nullptr;
  if (staged && mixed) launch_group_construction<G, true, true>(matrices, args, stream);
  else if (staged) launch_group_construction<G, true, false>(matrices, args, stream);
  else if (mixed) launch_group_construction<G, false, true>(matrices, args, stream);
  else launch_group_construction<G, false, false>(matrices, args, stream);
}

}  // namespace

int construction_lanes(AntConstruction construction, int n, int width, int ants_per_matrix, int matrices,
                       int multiprocessors) {
  switch (construction) {
    case AntConstruction::WarpPerAnt: return 32;
    case AntConstruction::HalfWarpPerAnt: return 16;
    case AntConstruction::QuarterWarpPerAnt: return 8;
    case AntConstruction::ThreadPerAnt: return 1;
    case AntConstruction::Auto: break;
  }
  if (construction_stages(n, width, kWarpSize)) return 32;
  // Unstaged: half a warp per ant while every ant's warp is resident at once; past one wave a
  // warp per ant measured faster (H100: fnl4461 5.33 against 5.91 ms, usa13509 77.8 against 75.7).
  const long long resident_warps = static_cast<long long>(multiprocessors) * kUnstagedBlocksPerSm * kWarpsUnstaged;
  const long long half_warps = static_cast<long long>(matrices) * ((ants_per_matrix + 1) / 2);
  return half_warps <= resident_warps ? 16 : 32;
}

bool construction_stages(int n, int width, int lanes) {
  return construction_shared_bytes(n, width, kWarpsStaged, lanes, true) <= kStageLimit;
}

size_t construction_shared_bytes(int n, int width, int warps, int lanes, bool staged) {
  const size_t words = static_cast<size_t>(n + 31) / 32;
  const size_t ants = static_cast<size_t>(warps) * (kWarpSize / lanes);
  return words * ants * sizeof(uint32_t) + (staged ? static_cast<size_t>(n) * width * 8 : 0);
}

std::vector<int32_t> device_fallback_cities(const Instance& instance, const CandidateSet& set,
                                            std::span<const int32_t> from, std::span<const uint8_t> visited) {
  const int n = instance.n(), words = (n + 31) / 32;
  const size_t queries = from.size();
  FORMICA_EXPECTS(visited.size() == queries * static_cast<size_t>(n), "visited flags must be queries x n");
  std::vector<uint32_t> bits(queries * static_cast<size_t>(words), 0u);
  for (size_t q = 0; q < queries; ++q)
    for (int c = 0; c < n; ++c)
      if (visited[q * n + c] != 0) bits[q * words + c / 32] |= 1u << (c % 32);
  if (queries == 0) return {};
  const formica::cuda::DeviceDistances distances(instance);
  const formica::cuda::DeviceBuffer<int32_t> list{std::span<const int32_t>(set.fallback)}, starts{from};
  formica::cuda::DeviceBuffer<int32_t> out(queries);
  formica::cuda::DeviceBuffer<uint32_t> masks{std::span<const uint32_t>(bits)};
  constexpr int kThreads = 128;
  const int blocks = static_cast<int>((queries * kWarpSize + kThreads - 1) / kThreads);
  fallback_cities_kernel<<<blocks, kThreads>>>(list.data(), set.fallback_length, distances.view(), n, starts.data(),
                                               masks.data(), static_cast<int>(queries), out.data());
  CUDA_CHECK_LAUNCH();
  return out.download();
}

void launch_candidate_construction(int lanes, bool lockstep, int matrices, const CandidateConstructionArgs& args,
                                   cudaStream_t stream) {
  if (lockstep) {
    const int warps = args.max_ants_per_matrix;
    const size_t bytes = static_cast<size_t>((args.n + 31) / 32) * warps * sizeof(uint32_t) + 2 * warps * sizeof(int);
    CUDA_CHECK(cudaFuncSetAttribute(construct_lockstep_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    construct_lockstep_kernel<<<matrices, warps * kWarpSize, bytes, stream>>>(args);
    CUDA_CHECK_LAUNCH();
    return;
  }
  switch (lanes) {
    case 1: {
      constexpr int kThreads = 128;
      construct_thread_kernel<<<(args.ants + kThreads - 1) / kThreads, kThreads, 0, stream>>>(args, args.ants);
      CUDA_CHECK_LAUNCH();
      return;
    }
    case 8: launch_group_construction<8>(matrices, args, stream); break;
    case 16: launch_group_construction<16>(matrices, args, stream); break;
    default: launch_group_construction<32>(matrices, args, stream); break;
  }
  constexpr int kThreads = 128;  // a warp per ant
  const int blocks = static_cast<int>((static_cast<long long>(args.ants) * kWarpSize + kThreads - 1) / kThreads);
  tour_lengths_kernel<<<blocks, kThreads, 0, stream>>>(args.tours, args.n, args.ants, args.distance, args.lengths);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
