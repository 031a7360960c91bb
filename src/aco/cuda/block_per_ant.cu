// SPDX-License-Identifier: MIT
// Block per ant (Cecilia et al. 3.2.2, data parallelism; Zhou et al.'s ST-GROUP): a block is a
// queen ant, its threads are worker ants, each owning the cities t, t + threads, ... (tiles when n
// exceeds the block) with their visited flags as bits of one register. The block size is a
// runtime value (group_scan.cuh), so one compiled kernel per selection serves every size.
// KE-ALL builds whole tours in one launch; KE-ONE runs one launch per step (Zhou B.2), the ant's
// visited bitmask and index array waiting in global memory between launches.
#include "aco/cuda/block_selection.cuh"
#include "aco/cuda/construction_kernels.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kStartThreads = 128;

template <Selection kMethod>
__global__ void __launch_bounds__(kMaxThreads) construct_block_per_ant(ConstructionArgs a, RowSource src) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, a.layout);
  const ThreadGroup g{static_cast<int>(blockDim.x)};
  const int n = a.n, tid = static_cast<int>(threadIdx.x), ant = static_cast<int>(blockIdx.x);
  VisitedBits visited{mem.visited};
  for (int w = tid; w < a.ld / 32; w += g.threads) visited.words[w] = 0;
  const uint64_t key = key_of(a);
  const int start = start_city(a, key, ant);
  g.sync();  // the bitmask is clear before its first bit is set
  if (tid == 0) {
    visited.set(start);
    a.tours[static_cast<size_t>(ant) * n] = start;
  }
  uint32_t mine = start % g.threads == tid ? 1u << (start / g.threads) : 0u;
  g.sync();
  int32_t* unvisited = mem.list;  // the index array of compression and hybrid
  const int switch_step = index_array_step<kMethod>(a);
  int remaining = 0, current = start;
  for (int p = 1; p < n; ++p) {
    if (p == switch_step) remaining = collect_unvisited(visited, n, unvisited, g, shared);
    const StepRandom rnd{key, static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};
    const Choice c = block_select<kMethod>(src, current, p < switch_step, visited, mine, unvisited, remaining,
                                           {mem.prefix, mem.tiles}, rnd, g, shared);
    if (tid == 0) {
      visited.set(c.city);
      a.tours[static_cast<size_t>(ant) * n + p] = c.city;
      if (p >= switch_step) unvisited[c.slot] = unvisited[remaining - 1];  // Uchida Figure 7
    }
    if (c.city % g.threads == tid) mine |= 1u << (c.city / g.threads);
    if (p >= switch_step) --remaining;
    g.sync();
    current = c.city;
  }
}

/// KE-ONE, before the first step: each ant's visited words cleared but for its start city.
__global__ void __launch_bounds__(kStartThreads) block_per_ant_start(ConstructionArgs a) {
  const int ant = static_cast<int>(blockIdx.x), words = a.ld / 32;
  uint32_t* visited = a.visited + static_cast<size_t>(ant) * words;
  const int start = start_city(a, key_of(a), ant);
  for (int w = static_cast<int>(threadIdx.x); w < words; w += kStartThreads)
    visited[w] = w == start >> 5 ? 1u << (start & 31) : 0u;
  if (threadIdx.x == 0) a.tours[static_cast<size_t>(ant) * a.n] = start;
}

/// KE-ONE, step p: the ant's state comes from global memory, one city is chosen exactly as
/// construct_block_per_ant chooses it, and the state goes back.
template <Selection kMethod>
__global__ void __launch_bounds__(kMaxThreads) block_per_ant_step(ConstructionArgs a, RowSource src, int p) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, a.layout);
  const ThreadGroup g{static_cast<int>(blockDim.x)};
  const int n = a.n, tid = static_cast<int>(threadIdx.x), ant = static_cast<int>(blockIdx.x), words = a.ld / 32;
  uint32_t* stored = a.visited + static_cast<size_t>(ant) * words;
  VisitedBits visited{mem.visited};
  for (int w = tid; w < words; w += g.threads) visited.words[w] = stored[w];
  int32_t* tour = a.tours + static_cast<size_t>(ant) * n;
  const int current = tour[p - 1];
  int32_t* unvisited = a.scratch + static_cast<size_t>(ant) * n;  // compression and hybrid only
  const int switch_step = index_array_step<kMethod>(a);
  const int remaining = n - p;
  g.sync();
  const uint32_t mine = own_visited_bits(visited, n, g.threads);
  if (p == switch_step) collect_unvisited(visited, n, unvisited, g, shared);
  const StepRandom rnd{key_of(a), static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};
  const Choice c = block_select<kMethod>(src, current, p < switch_step, visited, mine, unvisited, remaining,
                                         {mem.prefix, mem.tiles}, rnd, g, shared);
  if (tid == 0) {
    tour[p] = c.city;
    stored[c.city >> 5] = visited.words[c.city >> 5] | 1u << (c.city & 31);
    if (p >= switch_step) unvisited[c.slot] = unvisited[remaining - 1];
  }
}

template <typename Kernel>
Kernel by_selection(Selection selection, Kernel roulette, Kernel compression, Kernel trial, Kernel hybrid,
                    Kernel i_roulette, Kernel tile_roulette) {
  switch (selection) {
    case Selection::Roulette: return roulette;
    case Selection::Compression: return compression;
    case Selection::StochasticTrial: return trial;
    case Selection::Hybrid: return hybrid;
    case Selection::IRoulette: return i_roulette;
    case Selection::TileRoulette: return tile_roulette;
  }
  return roulette;
}

auto whole_tour_kernel(Selection s) {
  return by_selection(s, construct_block_per_ant<Selection::Roulette>, construct_block_per_ant<Selection::Compression>,
                      construct_block_per_ant<Selection::StochasticTrial>, construct_block_per_ant<Selection::Hybrid>,
                      construct_block_per_ant<Selection::IRoulette>, construct_block_per_ant<Selection::TileRoulette>);
}

auto step_kernel(Selection s) {
  return by_selection(s, block_per_ant_step<Selection::Roulette>, block_per_ant_step<Selection::Compression>,
                      block_per_ant_step<Selection::StochasticTrial>, block_per_ant_step<Selection::Hybrid>,
                      block_per_ant_step<Selection::IRoulette>, block_per_ant_step<Selection::TileRoulette>);
}

}  // namespace

void launch_block_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream) {
  const auto kernel = whole_tour_kernel(selection);
  const size_t bytes = args.layout.bytes();
  allow_shared(kernel, bytes);
  kernel<<<args.m, args.block_size, bytes, stream>>>(args, row_source(args));
  CUDA_CHECK_LAUNCH();
}

void prepare_block_per_ant_steps(Selection selection, const ConstructionArgs& args) {
  allow_shared(step_kernel(selection), args.layout.bytes());
}

void launch_block_per_ant_start(const ConstructionArgs& args, cudaStream_t stream) {
  block_per_ant_start<<<args.m, kStartThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

void launch_block_per_ant_step(Selection selection, const ConstructionArgs& args, int step, cudaStream_t stream) {
  step_kernel(selection)<<<args.m, args.block_size, args.layout.bytes(), stream>>>(args, row_source(args), step);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
