// SPDX-License-Identifier: MIT
// Tour construction: the warp-per-ant kernel (no block barriers inside a step), the layouts of
// the block strategies, and TourConstruction, which runs any plan as KE-ALL or as a KE-ONE graph.
#include <curand_kernel.h>

#include <algorithm>
#include <stdexcept>

#include "aco/cuda/construction.cuh"
#include "aco/cuda/construction_kernels.cuh"
#include "aco/cuda/tile_roulette.cuh"
#include "aco/cuda/warp_selection.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kWarpsPerBlock = 4;
/// Blocks per SM that the register allocation must allow for rows of kG float4 groups per lane
/// (0: the compiler's choice). Rows of ld <= 1024 entries come with at most 1,024 ants, a warp
/// each, which 2 blocks per SM hold in one wave on 132 SMs (H100, H200): saying so lets the
/// compiler keep all of a step's loads in flight instead of splitting them into rounds to save
/// registers. Rows too long for registers (kG = 0) get 6 blocks (80 registers), which hold up to
/// 3,168 ants in one wave; kG = 16 keeps the compiler's choice (128 registers would spill).
constexpr int min_blocks_per_sm(int kG) { return kG == 0 ? 6 : kG == 16 ? 0 : (128 * kG + 527) / 528; }

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

template <Selection kMethod, int kG>
__global__ void __launch_bounds__(kWarpsPerBlock * kWarpSize, min_blocks_per_sm(kG)) construct_warp_per_ant(ConstructionArgs a, RowSource src) {
  extern __shared__ uint32_t warp_shared[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int ant = static_cast<int>(blockIdx.x) * kWarpsPerBlock + warp;
  if (ant >= a.m) return;  // whole warps leave; nothing below waits on the block
  const int n = a.n;
  curandStatePhilox4_32_10_t rng;
  init_rng(rng, a, ant, lane);
  const int start = random_city(__shfl_sync(kFullMask, curand(&rng), 0), n);
  LaneVisited<kG> mine = LaneVisited<kG>::empty(a.ld, lane);  // the roulette's copy of this lane's bits
  if constexpr (kG > 0) mine.set(start, lane);

  OrderWriter order{a.tours + static_cast<size_t>(ant) * n};
  order.record(0, start, lane);
  if constexpr (kMethod == Selection::Roulette && kG > 0) {
    // The lane registers alone keep the visited set (the roulette's fallback reads them too; this
    // loop has no shared bitmask), and the next row's loads leave as soon as the city is known, so
    // that the step's bookkeeping and the next uniform draw run while they are in flight.
    // The fitness matrix has row_slack_floats(ld) floats after it, so the loads need no clamp.
    RowGroups<kG> row;
    row.load_unclamped(src.fitness + static_cast<size_t>(start) * src.ld, lane);
    for (int p = 1; p < n; ++p) {
      const float u = uniform01(curand(&rng));
      const int city = warp_roulette_loaded<kG>(row, mine, __shfl_sync(kFullMask, u, 0), lane);
      row.load_unclamped(src.fitness + static_cast<size_t>(city) * src.ld, lane);
      mine.set(city, lane);
      order.record(p, city, lane);
    }
    order.flush(n, lane);
    return;
  }
  // Per warp: the visited bitmask, then (when it fits) the unvisited index array.
  uint32_t* region = warp_shared + static_cast<size_t>(warp) * a.shared_words_per_warp;
  VisitedBits visited{region};
  warp_clear(visited, a.ld, lane);
  if (lane == 0) visited.set(start);
  __syncwarp();
  int32_t* unvisited = a.index_in_shared ? reinterpret_cast<int32_t*>(region + a.ld / 32)
                                         : a.scratch + static_cast<size_t>(ant) * n;
  if constexpr (kMethod == Selection::StochasticTrial) {
    if (src.alias != nullptr) {
      // Alias trials, then the roulette fallback; nothing else in the loop (no index array, no
      // I-Roulette numbers), so a step is one alias load and the bookkeeping.
      const float* fitness = src.fitness;
      const uint32_t* alias = src.alias;
      const size_t ld = static_cast<size_t>(src.ld);
      int current = start;
      for (int p = 1; p < n; ++p) {
        const uint32_t draw = curand(&rng);  // lane t's draw serves trial t
        const int city = warp_alias_select<kG>(alias + current * ld, fitness + current * ld, n, src.ld,
                                               src.alias_bits, visited, mine, draw, src.trials, lane);
        if (lane == 0) visited.set(city);
        if constexpr (kG > 0) mine.set(city, lane);
        __syncwarp();
        order.record(p, city, lane);
        current = city;
      }
      order.flush(n, lane);
      return;
    }
  }
  int remaining = 0;
  const int switch_step = index_array_step<kMethod>(a);
  int current = start;
  const uint64_t key = key_of(a);
  for (int p = 1; p < n; ++p) {
    if (p == switch_step) remaining = warp_collect_unvisited(visited, n, unvisited, lane);
    const uint32_t draw = curand(&rng);  // lane t's draw serves trial t
    const StepRandom rnd{key, static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};  // I-Roulette's numbers
    const Choice choice = warp_select_next<kMethod, kG>(
        src, current, p < switch_step, visited, mine, unvisited, remaining, draw, uniform01(draw), rnd, lane);
    if (p >= switch_step) remaining = warp_remove_slot(unvisited, remaining, choice.slot, lane);
    if (lane == 0) visited.set(choice.city);
    if constexpr (kG > 0) mine.set(choice.city, lane);
    __syncwarp();
    order.record(p, choice.city, lane);
    current = choice.city;
  }
  order.flush(n, lane);
}

template <Selection kMethod, int kG>
void launch_warp(const ConstructionArgs& args, cudaStream_t stream) {
  const int blocks = (args.m + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const size_t bytes = static_cast<size_t>(kWarpsPerBlock) * args.shared_words_per_warp * sizeof(uint32_t);
  auto kernel = construct_warp_per_ant<kMethod, kG>;
  allow_shared(kernel, bytes);
  kernel<<<blocks, kWarpsPerBlock * kWarpSize, bytes, stream>>>(args, row_source(args));
  CUDA_CHECK_LAUNCH();
}

template <Selection kMethod>
void launch_warp_groups(const ConstructionArgs& args, cudaStream_t stream) {
  switch (groups_per_lane(args.ld)) {
    case 2: return launch_warp<kMethod, 2>(args, stream);
    case 8: return launch_warp<kMethod, 8>(args, stream);
    case 16: return launch_warp<kMethod, 16>(args, stream);
    default: return launch_warp<kMethod, 0>(args, stream);
  }
}

}  // namespace

void launch_warp_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream) {
  switch (selection) {
    case Selection::Roulette: return launch_warp_groups<Selection::Roulette>(args, stream);
    case Selection::Compression: return launch_warp_groups<Selection::Compression>(args, stream);
    case Selection::StochasticTrial: return launch_warp_groups<Selection::StochasticTrial>(args, stream);
    case Selection::Hybrid: return launch_warp_groups<Selection::Hybrid>(args, stream);
    case Selection::IRoulette: return launch_warp_groups<Selection::IRoulette>(args, stream);
    case Selection::TileRoulette: break;
  }
  throw InputError(concat("warp-per-ant has no ", to_string(selection), " selection"));
}

void plan_warp_memory(Selection selection, ConstructionArgs& args, size_t shared_limit) {
  const bool index_array = selection == Selection::Compression || selection == Selection::Hybrid;
  const int capacity = selection == Selection::Hybrid ? args.n - std::max(args.switch_count, 1) + 1 : args.n;
  const size_t words_with_index = static_cast<size_t>(args.ld / 32) + (capacity + 3) / 4 * 4;
  args.index_in_shared = index_array && kWarpsPerBlock * words_with_index * sizeof(uint32_t) <= shared_limit;
  args.shared_words_per_warp = static_cast<int>(args.index_in_shared ? words_with_index : args.ld / 32);
}

SharedLayout shared_layout(const GpuPlan& plan, int ld) {
  SharedLayout layout;
  const bool index_array = plan.selection == Selection::Compression || plan.selection == Selection::Hybrid;
  switch (plan.construction) {
    case Construction::BlockPerAnt:
      layout.visited = ld / 32;
      layout.list = index_array && plan.launch == Launch::KeAll ? ld : 0;  // KE-ONE: global scratch
      break;
    case Construction::Stc:
    case Construction::StDynamic: layout.list = ld; break;
    case Construction::ThreadPerAnt: layout.visited = plan.block_size * (ld / 32); return layout;
    default: return layout;  // warp-per-ant lays out its own (plan_warp_memory)
  }
  if (plan.selection == Selection::TileRoulette) {
    layout.prefix = plan.block_size;
    layout.tiles = tile_scratch_floats(ld);
  } else if (plan.selection != Selection::IRoulette) {
    layout.prefix = ld;
  }
  return layout;
}

TourConstruction::TourConstruction(const GpuPlan& plan, int n, int ld, int m)
    : plan_(plan), n_(n), ld_(ld), m_(m), layout_(shared_layout(plan, ld)) {
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  constexpr size_t kStaticShared = 1024;  // GroupShared and the compiler's own
  const size_t bytes = layout_.bytes();
  FORMICA_EXPECTS(bytes + kStaticShared <= static_cast<size_t>(limit), "--construction ", to_string(plan.construction),
                  " needs ", bytes >> 10, " KiB of shared memory per block for n = ", n,
                  plan.construction == Construction::ThreadPerAnt ? concat(" and ", plan.block_size, " ants per block")
                                                                  : std::string(),
                  "; this GPU allows ", limit >> 10, " KiB",
                  plan.construction == Construction::ThreadPerAnt ? " (lower --block-size)"
                                                                  : " (use --construction warp-per-ant)");
}

TourConstruction::~TourConstruction() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  if (graph_ != nullptr) cudaGraphDestroy(graph_);
}

size_t TourConstruction::scratch_ints(const GpuPlan& plan, int n, int ld, int m) {
  const size_t cells = static_cast<size_t>(n) * static_cast<size_t>(m);
  const bool index_array = plan.selection == Selection::Compression || plan.selection == Selection::Hybrid;
  switch (plan.construction) {
    case Construction::WarpPerAnt: return index_array ? cells : 0;
    case Construction::BlockPerAnt:
      if (plan.launch != Launch::KeOne) return 0;
      return (index_array ? cells : 0) + static_cast<size_t>(m) * static_cast<size_t>(ld / 32);
    default: return 0;
  }
}

void TourConstruction::bind(ConstructionArgs& args, int32_t* scratch) const {
  const bool index_array = plan_.selection == Selection::Compression || plan_.selection == Selection::Hybrid;
  args.scratch = scratch;
  args.visited = nullptr;
  if (plan_.construction == Construction::BlockPerAnt && plan_.launch == Launch::KeOne)
    args.visited = reinterpret_cast<uint32_t*>(scratch + (index_array ? static_cast<size_t>(n_) * m_ : 0));
  args.block_size = plan_.block_size;
  args.layout = layout_;
}

void TourConstruction::launch_steps(const ConstructionArgs& args, cudaStream_t stream) const {
  const bool dynamic = plan_.construction == Construction::StDynamic;
  if (plan_.construction == Construction::BlockPerAnt) {
    launch_block_per_ant_start(args, stream);
    for (int p = 1; p < n_; ++p) launch_block_per_ant_step(plan_.selection, args, p, stream);
  } else {
    launch_tour_list_start(args, stream);
    for (int p = 1; p < n_; ++p) launch_tour_list_step(plan_.selection, dynamic, args, p, stream);
  }
}

void TourConstruction::launch(const ConstructionArgs& args, cudaStream_t stream) {
  switch (plan_.construction) {
    case Construction::WarpPerAnt: return launch_warp_per_ant(plan_.selection, args, stream);
    case Construction::ThreadPerAnt: return launch_thread_per_ant(plan_.selection, args, stream);
    default: break;
  }
  const bool dynamic = plan_.construction == Construction::StDynamic;
  if (plan_.launch == Launch::KeAll) {
    if (plan_.construction == Construction::BlockPerAnt) return launch_block_per_ant(plan_.selection, args, stream);
    return launch_tour_list(plan_.selection, dynamic, args, stream);
  }
  if (exec_ == nullptr) {
    if (args.step_key_d == nullptr) throw std::logic_error("KE-ONE construction needs the step key in device memory");
    if (plan_.construction == Construction::BlockPerAnt) prepare_block_per_ant_steps(plan_.selection, args);
    else prepare_tour_list_steps(plan_.selection, args);
    // Zhou's KE-ONE: the host loop of one launch per step, captured once as a graph.
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      launch_steps(args, stream);
    } catch (...) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(stream, &partial);
      if (partial != nullptr) cudaGraphDestroy(partial);
      throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
    CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  CUDA_CHECK(cudaGraphLaunch(exec_, stream));
}

}  // namespace formica::aco::cuda
