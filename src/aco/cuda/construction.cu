// Tour construction kernels: a warp per ant (no block barriers inside a step) and a block per ant
// (Uchida et al. 4.2, shared-memory prefix sums), each for the four selection methods.
#include <curand_kernel.h>

#include "aco/cuda/block_selection.cuh"
#include "aco/cuda/construction.cuh"
#include "aco/cuda/warp_selection.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

#include <algorithm>

namespace formica::aco::cuda {
namespace {

constexpr int kWarpsPerBlock = 4;

/// Uniform in [0, 1): cuRAND's curand_uniform is in (0, 1].
__device__ __forceinline__ float uniform01(curandStatePhilox4_32_10_t& state) {
  return 1.0f - curand_uniform(&state);
}

/// A random start city in [0, n) from one 32-bit draw (bias at most n / 2^32).
__device__ __forceinline__ int random_city(uint32_t draw, int n) {
  return static_cast<int>((static_cast<unsigned long long>(draw) * static_cast<unsigned>(n)) >> 32);
}

/// Each lane gets its own Philox subsequence per (iteration, ant), so a tour does not depend on
/// which SM runs it or when.
__device__ __forceinline__ void init_rng(curandStatePhilox4_32_10_t& state, const ConstructionArgs& a, int ant,
                                         int lane) {
  const unsigned long long subsequence =
      (a.iteration * static_cast<unsigned long long>(a.m) + static_cast<unsigned long long>(ant)) * kWarpSize + lane;
  curand_init(a.seed, subsequence, 0, &state);
}

/// Stores a warp's visiting order 32 positions at a time (one coalesced 128-byte store) from the
/// register that lane p % 32 keeps for position p.
struct OrderWriter {
  int32_t* out;
  int held = 0;

  __device__ void record(int position, int city, int lane) {
    if (lane == (position & 31)) held = city;
    if ((position & 31) == 31) out[position - 31 + lane] = held;
  }
  __device__ void flush(int n, int lane) {
    const int base = n & ~31;
    if (base < n && lane < n - base) out[base + lane] = held;
  }
};

RowSource row_source(const ConstructionArgs& a) {
  return {a.fitness, a.prefix, a.summary, a.n, a.ld, search_top_stride(a.n), a.trials};
}

/// The step at which an ant switches to the unvisited index array: step 1 for compression, the
/// hybrid's switch point, never for the others.
template <Selection kMethod>
__device__ __forceinline__ int index_array_step(const ConstructionArgs& a) {
  if (kMethod == Selection::Compression) return 1;
  if (kMethod == Selection::Hybrid) return max(a.switch_count, 1);
  return a.n;
}

template <Selection kMethod, int kG>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize) construct_warp_per_ant(ConstructionArgs a, RowSource src) {
  extern __shared__ uint32_t warp_shared[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int ant = static_cast<int>(blockIdx.x) * kWarpsPerBlock + warp;
  if (ant >= a.m) return;  // whole warps leave; nothing below waits on the block
  const int n = a.n;
  // Per warp: the visited bitmask, then (when it fits) the unvisited index array.
  uint32_t* region = warp_shared + static_cast<size_t>(warp) * a.shared_words_per_warp;
  VisitedBits visited{region};
  warp_clear(visited, a.ld, lane);
  int32_t* unvisited = a.index_in_shared ? reinterpret_cast<int32_t*>(region + a.ld / 32)
                                         : a.scratch + static_cast<size_t>(ant) * n;

  curandStatePhilox4_32_10_t rng;
  init_rng(rng, a, ant, lane);
  const int start = random_city(__shfl_sync(kFullMask, curand(&rng), 0), n);
  if (lane == 0) visited.set(start);
  __syncwarp();

  OrderWriter order{a.tours + static_cast<size_t>(ant) * n};
  order.record(0, start, lane);
  int remaining = 0;
  const int switch_step = index_array_step<kMethod>(a);
  SummaryPrefetch prefetch;
  int current = start;
  for (int p = 1; p < n; ++p) {
    if (p == switch_step) remaining = warp_collect_unvisited(visited, n, unvisited, lane);
    const float u = uniform01(rng);  // lane t's uniform serves trial t
    const Choice choice = warp_select_next<kMethod, kG>(src, current, p < switch_step, visited, unvisited, remaining,
                                                        u, lane, &prefetch);
    if (p >= switch_step) remaining = warp_remove_slot(unvisited, remaining, choice.slot, lane);
    if (lane == 0) visited.set(choice.city);
    __syncwarp();
    order.record(p, choice.city, lane);
    current = choice.city;
  }
  order.flush(n, lane);
}

template <Selection kMethod, int kThreads>
__global__ void __launch_bounds__(kThreads) construct_block_per_ant(ConstructionArgs a, RowSource src) {
  using Select = BlockSelection<kThreads>;
  __shared__ typename Select::Shared shared;
  extern __shared__ uint32_t dynamic_shared[];
  const int n = a.n, ld = a.ld;
  const int ant = static_cast<int>(blockIdx.x);
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % kWarpSize;
  VisitedBits visited{dynamic_shared};
  float* prefix = reinterpret_cast<float*>(dynamic_shared + ld / 32);
  int32_t* unvisited = reinterpret_cast<int32_t*>(prefix + ld);
  for (int w = tid; w < ld / 32; w += kThreads) visited.words[w] = 0;

  curandStatePhilox4_32_10_t rng;  // warp 0 draws: lane t for trial t
  if (tid < kWarpSize) init_rng(rng, a, ant, lane);
  if (tid == 0) shared.choice = random_city(curand(&rng), n);
  __syncthreads();
  const int start = shared.choice;
  if (tid == 0) {
    visited.set(start);
    a.tours[static_cast<size_t>(ant) * n] = start;
  }
  __syncthreads();
  const int switch_step = index_array_step<kMethod>(a);
  const int shared_lane = kMethod == Selection::Roulette || kMethod == Selection::Compression ? 0 : a.trials;
  int remaining = 0;
  int current = start;
  for (int p = 1; p < n; ++p) {
    float u_lane = 0.f;
    if (tid < kWarpSize) {
      if (p == switch_step) remaining = warp_collect_unvisited(visited, n, unvisited, lane);
      u_lane = uniform01(rng);
      if (lane == shared_lane) shared.r = u_lane;
      if (lane == 0 && p == switch_step) shared.slot = remaining;
    }
    __syncthreads();  // publishes shared.r and, at the switch, the index array and its size
    if (p == switch_step) remaining = shared.slot;
    const int next = Select::template select_next<kMethod>(src, current, p < switch_step, visited, prefix, unvisited,
                                                           remaining, u_lane, shared.r, shared);
    if (tid == 0) {
      if (p >= switch_step) unvisited[shared.slot] = unvisited[remaining - 1];  // Figure 7
      visited.set(next);
      a.tours[static_cast<size_t>(ant) * n + p] = next;
    }
    if (p >= switch_step) --remaining;
    __syncthreads();
    current = next;
  }
}

template <int kThreads, Selection kMethod>
void launch_block(const ConstructionArgs& args, cudaStream_t stream) {
  const size_t bytes = block_per_ant_shared_bytes(kMethod, args.n, args.ld);
  auto kernel = construct_block_per_ant<kMethod, kThreads>;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  kernel<<<args.m, kThreads, bytes, stream>>>(args, row_source(args));
  CUDA_CHECK_LAUNCH();
}

template <Selection kMethod, int kG>
void launch_warp(const ConstructionArgs& args, cudaStream_t stream) {
  const int blocks = (args.m + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const size_t bytes = static_cast<size_t>(kWarpsPerBlock) * args.shared_words_per_warp * sizeof(uint32_t);
  auto kernel = construct_warp_per_ant<kMethod, kG>;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  kernel<<<blocks, kWarpsPerBlock * kWarpSize, bytes, stream>>>(args, row_source(args));
  CUDA_CHECK_LAUNCH();
}

template <Selection kMethod>
void launch(Construction construction, const ConstructionArgs& args, cudaStream_t stream) {
  if (construction == Construction::WarpPerAnt) {
    switch (groups_per_lane(args.ld)) {
      case 2: return launch_warp<kMethod, 2>(args, stream);
      case 8: return launch_warp<kMethod, 8>(args, stream);
      case 16: return launch_warp<kMethod, 16>(args, stream);
      default: return launch_warp<kMethod, 0>(args, stream);
    }
  }
  if (args.n <= 512) return launch_block<128, kMethod>(args, stream);
  launch_block<256, kMethod>(args, stream);
}

}  // namespace

void plan_warp_memory(Selection selection, ConstructionArgs& args, size_t shared_limit) {
  const bool index_array = selection == Selection::Compression || selection == Selection::Hybrid;
  const int capacity = selection == Selection::Hybrid ? args.n - std::max(args.switch_count, 1) + 1 : args.n;
  const size_t words_with_index = static_cast<size_t>(args.ld / 32) + (capacity + 3) / 4 * 4;
  args.index_in_shared = index_array && kWarpsPerBlock * words_with_index * sizeof(uint32_t) <= shared_limit;
  args.shared_words_per_warp = static_cast<int>(args.index_in_shared ? words_with_index : args.ld / 32);
}

size_t construction_scratch_ints(Construction construction, Selection selection, int n, int m) {
  const bool needs = construction == Construction::WarpPerAnt &&
                     (selection == Selection::Compression || selection == Selection::Hybrid);
  return needs ? static_cast<size_t>(n) * static_cast<size_t>(m) : 0;
}

size_t block_per_ant_shared_bytes(Selection selection, int n, int ld) {
  (void)n;
  const bool index_array = selection == Selection::Compression || selection == Selection::Hybrid;
  return static_cast<size_t>(ld / 32) * sizeof(uint32_t) + static_cast<size_t>(ld) * sizeof(float) +
         (index_array ? static_cast<size_t>(ld) * sizeof(int32_t) : 0);
}

void launch_construction(Construction construction, Selection selection, const ConstructionArgs& args,
                         cudaStream_t stream) {
  switch (selection) {
    case Selection::Roulette: return launch<Selection::Roulette>(construction, args, stream);
    case Selection::Compression: return launch<Selection::Compression>(construction, args, stream);
    case Selection::StochasticTrial: return launch<Selection::StochasticTrial>(construction, args, stream);
    case Selection::Hybrid: return launch<Selection::Hybrid>(construction, args, stream);
  }
}

}  // namespace formica::aco::cuda
