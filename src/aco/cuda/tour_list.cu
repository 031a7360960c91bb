// SPDX-License-Identifier: MIT
// STC and ST-DYNAMIC (Zhou et al. B.4.2, Figure B2 and Algorithm B4): a block per ant keeps a
// tour list and a cursor instead of a tabu list. Positions [0, p) hold the tour so far, [p, n)
// the unvisited cities; a step selects among list[p, n) only and swaps the chosen city into
// position p (the node swap), so the work shrinks as the tour grows and the finished list is the
// tour. ST-DYNAMIC also shrinks the group: a step with c candidates uses the power of two that
// covers c (at least a warp, at most the block); in KE-ALL the warps it no longer needs leave and
// a named barrier waits for the rest, in KE-ONE each step's launch has that many threads.
#include "aco/cuda/block_selection.cuh"
#include "aco/cuda/construction_kernels.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kStartThreads = 128;

/// The identity order with the start city swapped into position 0.
__device__ __forceinline__ int32_t initial_entry(int k, int start) { return k == 0 ? start : k == start ? 0 : k; }

template <Selection kMethod>
__global__ void __launch_bounds__(kMaxThreads) construct_tour_list(ConstructionArgs a, RowSource src, bool dynamic) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, a.layout);
  int32_t* list = mem.list;
  const int n = a.n, tid = static_cast<int>(threadIdx.x), ant = static_cast<int>(blockIdx.x);
  const int block = static_cast<int>(blockDim.x);
  const uint64_t key = key_of(a);
  const int start = start_city(a, key, ant);
  for (int k = tid; k < n; k += block) list[k] = initial_entry(k, start);
  ThreadGroup{block}.sync();
  int current = start;
  for (int p = 1; p < n; ++p) {
    const int count = n - p;
    const ThreadGroup g{dynamic ? dynamic_threads(count, block) : block};
    if (tid >= g.threads) break;  // ST-DYNAMIC: the group only shrinks, so these warps are done
    const ListView candidates{src.fitness + static_cast<size_t>(current) * src.ld, list + p, count};
    const StepRandom rnd{key, static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};
    const int k = list_select<kMethod>(candidates, {mem.prefix, mem.tiles}, rnd, g, shared);
    const int city = shared.city;
    if (tid == 0) {  // the node swap: the chosen city moves to the cursor
      list[p + k] = list[p];
      list[p] = city;
    }
    g.sync();
    current = city;
  }
  // Warp 0 belongs to every group, so it has seen the final list.
  if (tid < kWarpSize)
    for (int k = tid; k < n; k += kWarpSize) a.tours[static_cast<size_t>(ant) * n + k] = list[k];
}

/// KE-ONE, before the first step: each ant's tour list in global memory (the tours array).
__global__ void __launch_bounds__(kStartThreads) tour_list_start(ConstructionArgs a) {
  const int ant = static_cast<int>(blockIdx.x);
  const int start = start_city(a, key_of(a), ant);
  int32_t* list = a.tours + static_cast<size_t>(ant) * a.n;
  for (int k = static_cast<int>(threadIdx.x); k < a.n; k += kStartThreads) list[k] = initial_entry(k, start);
}

/// KE-ONE, step p: the block copies the unvisited part of the ant's list into shared memory
/// (Zhou's readTourListOfAnt), selects as construct_tour_list does, and swaps in global memory.
template <Selection kMethod>
__global__ void __launch_bounds__(kMaxThreads) tour_list_step(ConstructionArgs a, RowSource src, int p) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, a.layout);
  const ThreadGroup g{static_cast<int>(blockDim.x)};
  const int n = a.n, tid = static_cast<int>(threadIdx.x), ant = static_cast<int>(blockIdx.x), count = n - p;
  int32_t* tour = a.tours + static_cast<size_t>(ant) * n;
  for (int k = tid; k < count; k += g.threads) mem.list[k] = tour[p + k];
  const int current = tour[p - 1];
  g.sync();
  const ListView candidates{src.fitness + static_cast<size_t>(current) * src.ld, mem.list, count};
  const StepRandom rnd{key_of(a), static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};
  const int k = list_select<kMethod>(candidates, {mem.prefix, mem.tiles}, rnd, g, shared);
  if (tid == 0) {
    tour[p + k] = mem.list[0];
    tour[p] = shared.city;
  }
}

template <typename Kernel>
Kernel by_selection(Selection selection, Kernel roulette, Kernel i_roulette, Kernel tile_roulette) {
  switch (selection) {
    case Selection::IRoulette: return i_roulette;
    case Selection::TileRoulette: return tile_roulette;
    case Selection::Roulette: return roulette;
    default: break;
  }
  throw InputError(concat("stc and st-dynamic have no ", to_string(selection), " selection"));
}

auto whole_tour_kernel(Selection s) {
  return by_selection(s, construct_tour_list<Selection::Roulette>, construct_tour_list<Selection::IRoulette>,
                      construct_tour_list<Selection::TileRoulette>);
}

auto step_kernel(Selection s) {
  return by_selection(s, tour_list_step<Selection::Roulette>, tour_list_step<Selection::IRoulette>,
                      tour_list_step<Selection::TileRoulette>);
}

}  // namespace

void launch_tour_list(Selection selection, bool dynamic, const ConstructionArgs& args, cudaStream_t stream) {
  const auto kernel = whole_tour_kernel(selection);
  const size_t bytes = args.layout.bytes();
  allow_shared(kernel, bytes);
  kernel<<<args.m, args.block_size, bytes, stream>>>(args, row_source(args), dynamic);
  CUDA_CHECK_LAUNCH();
}

void prepare_tour_list_steps(Selection selection, const ConstructionArgs& args) {
  allow_shared(step_kernel(selection), args.layout.bytes());
}

void launch_tour_list_start(const ConstructionArgs& args, cudaStream_t stream) {
  tour_list_start<<<args.m, kStartThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

void launch_tour_list_step(Selection selection, bool dynamic, const ConstructionArgs& args, int step,
                           cudaStream_t stream) {
  const int threads = dynamic ? dynamic_threads(args.n - step, args.block_size) : args.block_size;
  step_kernel(selection)<<<args.m, threads, args.layout.bytes(), stream>>>(args, row_source(args), step);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
