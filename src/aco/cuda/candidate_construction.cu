// Candidate-list tour construction: warp per ant, thread per ant and ACS lockstep (see
// candidate_construction.cuh).
#include "aco/cuda/candidate_construction.cuh"
#include "aco/cuda/warp_scan.cuh"
#include "aco/cuda/warp_selection.cuh"  // VisitedBits, warp_clear
#include "core/rng.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

using formica::cuda::DistanceView;

constexpr int kWarpsUnstaged = 4;
constexpr int kWarpsStaged = 8;
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

/// The fallback city (see the header) for a warp at `from`.
__device__ int warp_fallback(const int32_t* list, int length, VisitedBits visited, const DistanceView& distance, int from,
                             int n, int lane) {
  for (int base = 0; base < length; base += kWarpSize) {
    const int s = base + lane;
    const int city = s < length ? list[s] : -1;
    const unsigned free_lanes = __ballot_sync(kFullMask, city >= 0 && !visited.test(city));
    if (free_lanes) return __shfl_sync(kFullMask, city, first_lane(free_lanes));
  }
  unsigned long long best = ~0ull;
  for (int j = lane; j < n; j += kWarpSize) {
    if (visited.test(j)) continue;
    const long long d = distance(from, j);
    const unsigned long long key = (static_cast<unsigned long long>(d < 0xffffffffLL ? d : 0xffffffffLL) << 32) | j;
    best = key < best ? key : best;
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

/// Where the ant's matrix lives for one kernel: rows of ids and weights (fitness, or tau and
/// eta^beta computed on the fly for lockstep), exact distances.
struct Rows {
  const int32_t* ids;
  const float* weight;    // fitness, or tau (on the fly)
  const float* eta_beta;  // on the fly only
  const int32_t* distances;
};

template <bool kOnTheFly>
__device__ __forceinline__ Lane load_lane(const Rows& rows, int row, int width, VisitedBits visited, float alpha,
                                          int lane) {
  Lane mine{-1, 0.f, 0};
  if (lane < width) {
    const int e = row * width + lane;
    mine.city = rows.ids[e];
    mine.distance = rows.distances[e];
    const float w = kOnTheFly ? entry_fitness(rows.weight[e], rows.eta_beta[e], alpha) : rows.weight[e];
    if (mine.city >= 0 && !visited.test(mine.city)) mine.weight = w;
  }
  return mine;
}

/// One step of a warp-built tour from `current`: the next city, its slot in the row (-1 after a
/// fallback) and the distance, in every lane.
struct StepResult {
  int city;
  int slot;
  long long distance;
  int lane_city;  // this lane's candidate city in the row of `current`
};

template <bool kOnTheFly>
__device__ StepResult warp_step(const Rows& rows, const CandidateConstructionArgs& a, int current, VisitedBits visited,
                                float q0, WarpRandom& rng, int lane) {
  const Lane mine = load_lane<kOnTheFly>(rows, current, a.width, visited, a.alpha, lane);
  const float u_greedy = q0 > 0.f ? to_unit(rng.next(lane)) : 1.f;
  const float u_pick = to_unit(rng.next(lane));
  const int slot = warp_rule(mine, q0, u_greedy, u_pick, lane);
  StepResult step{-1, slot, 0, mine.city};
  if (slot >= 0) {
    step.city = __shfl_sync(kFullMask, mine.city, slot);
    step.distance = __shfl_sync(kFullMask, mine.distance, slot);
  } else {
    step.city = warp_fallback(a.fallback + static_cast<size_t>(current) * a.fallback_length, a.fallback_length, visited,
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

template <bool kStaged>
__global__ void construct_warp_kernel(CandidateConstructionArgs a) {
  extern __shared__ uint32_t shared_words[];
  constexpr int kWarps = kStaged ? kWarpsStaged : kWarpsUnstaged;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int matrix = static_cast<int>(blockIdx.y);
  const size_t cells = static_cast<size_t>(a.n) * a.width;
  Rows rows{a.ids + matrix * cells, a.fitness + matrix * cells, nullptr, a.distances + matrix * cells};
  const int words = (a.n + 31) / 32;
  if (kStaged) {
    int32_t* ids = reinterpret_cast<int32_t*>(shared_words + kWarps * words);
    float* weight = reinterpret_cast<float*>(ids + cells);
    for (size_t e = threadIdx.x; e < cells; e += blockDim.x) ids[e] = rows.ids[e], weight[e] = rows.weight[e];
    __syncthreads();
    rows.ids = ids;
    rows.weight = weight;
  }
  const int first = a.first_ant[matrix * a.group], end = a.first_ant[(matrix + 1) * a.group];
  const int ant = first + static_cast<int>(blockIdx.x) * kWarps + warp;
  if (ant >= end) return;  // whole warps leave; no barrier follows
  VisitedBits visited{shared_words + warp * words};
  warp_clear(visited, words * 32, lane);
  const int colony = a.ant_colony[ant];
  const bool acs = a.colony_acs[colony] != 0;
  const float q0 = acs ? a.q0 : 0.f;
  int* crossings = acs && a.crossings != nullptr ? a.crossings + matrix * cells : nullptr;
  WarpRandom rng{a.ant_seeds[ant], a.iteration};
  const int start = scaled_city(rng.next(lane), a.n);
  int32_t* tour = a.tours + static_cast<size_t>(ant) * a.n;
  if (lane == 0) visited.set(start), tour[0] = start;
  __syncwarp();
  long long length = 0;
  int current = start;
  for (int p = 1; p <= a.n; ++p) {
    StepResult step;
    if (p < a.n) {
      step = warp_step<false>(rows, a, current, visited, q0, rng, lane);
    } else {  // the closing edge back to the start
      step.city = start;
      step.distance = a.distance(current, start);
      step.slot = warp_slot_of(lane < a.width ? rows.ids[current * a.width + lane] : -1, start);
    }
    if (crossings != nullptr) {
      const int reverse = warp_reverse_entry(rows.ids, a.width, step.city, current, lane);
      if (lane == 0) {
        if (step.slot >= 0) atomicAdd(crossings + current * a.width + step.slot, 1);
        if (reverse >= 0) atomicAdd(crossings + reverse, 1);
      }
    }
    if (lane == 0) {
      length += step.distance;
      if (p < a.n) visited.set(step.city), tour[p] = step.city;
    }
    __syncwarp();
    current = step.city;
  }
  if (lane == 0) a.lengths[ant] = length;
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
  for (int p = 1; p <= a.n; ++p) {
    StepResult step;
    if (p < a.n) {
      step = warp_step<true>(rows, a, current, visited, q0, rng, lane);
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
    current = step.city;
  }
  if (lane == 0) a.lengths[ant] = length;
}

}  // namespace

bool warp_construction_stages(int n, int width) {
  return warp_construction_shared_bytes(n, width, kWarpsStaged, true) <= kStageLimit;
}

size_t warp_construction_shared_bytes(int n, int width, int warps, bool staged) {
  const size_t words = static_cast<size_t>(n + 31) / 32;
  return words * warps * sizeof(uint32_t) + (staged ? static_cast<size_t>(n) * width * 8 : 0);
}

void launch_candidate_construction(AntConstruction construction, bool lockstep, int matrices,
                                   const CandidateConstructionArgs& args, cudaStream_t stream) {
  if (lockstep) {
    const int warps = args.max_ants_per_matrix;
    const size_t bytes = static_cast<size_t>((args.n + 31) / 32) * warps * sizeof(uint32_t) + 2 * warps * sizeof(int);
    CUDA_CHECK(cudaFuncSetAttribute(construct_lockstep_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    construct_lockstep_kernel<<<matrices, warps * kWarpSize, bytes, stream>>>(args);
    CUDA_CHECK_LAUNCH();
    return;
  }
  if (construction == AntConstruction::ThreadPerAnt) {
    const int ants = args.ants;
    constexpr int kThreads = 128;
    construct_thread_kernel<<<(ants + kThreads - 1) / kThreads, kThreads, 0, stream>>>(args, ants);
    CUDA_CHECK_LAUNCH();
    return;
  }
  const bool staged = warp_construction_stages(args.n, args.width);
  const int warps = staged ? kWarpsStaged : kWarpsUnstaged;
  const size_t bytes = warp_construction_shared_bytes(args.n, args.width, warps, staged);
  const dim3 grid(static_cast<unsigned>((args.max_ants_per_matrix + warps - 1) / warps), static_cast<unsigned>(matrices));
  if (staged) {
    CUDA_CHECK(cudaFuncSetAttribute(construct_warp_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    construct_warp_kernel<true><<<grid, warps * kWarpSize, bytes, stream>>>(args);
  } else {
    CUDA_CHECK(cudaFuncSetAttribute(construct_warp_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    construct_warp_kernel<false><<<grid, warps * kWarpSize, bytes, stream>>>(args);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
