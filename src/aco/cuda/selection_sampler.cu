// SPDX-License-Identifier: MIT
// GPU selection sampler (see selection_sampler.h): each strategy's own selection functions,
// called repeatedly on one row without committing the choice.
#include <curand_kernel.h>

#include <algorithm>

#include "aco/cuda/alias_table.cuh"
#include "aco/cuda/block_selection.cuh"
#include "aco/cuda/construction.cuh"
#include "aco/cuda/construction_kernels.cuh"
#include "aco/cuda/selection_sampler.h"
#include "aco/cuda/thread_selection.cuh"
#include "aco/cuda/warp_selection.cuh"
#include "core/error.h"
#include "core/rng.h"
#include "cuda/buffer.cuh"

namespace formica::aco::cuda {
namespace {

using ::formica::cuda::DeviceBuffer;

constexpr int kSamplerWarps = 256;
constexpr int kSamplerBlocks = 256;
constexpr int kSamplerThreads = 8192;  // thread-per-ant: one sampling ant per thread
constexpr int kThreadBlock = 128;

/// The draws of sampler `index` of `count`: the request's draws split evenly, the remainder one
/// each to the first samplers, so that every draw asked for is made (only a few per sampler when
/// the tests run under compute-sanitizer with FORMICA_TEST_DRAWS_PER_CITY = 8).
__device__ long draws_of(long draws, long index, long count) {
  return draws / count + (index < draws % count ? 1 : 0);
}

__device__ void load_visited(VisitedBits visited, const uint8_t* flags, int n, int ld, int tid, int threads) {
  for (int w = tid; w < ld / 32; w += threads) {
    uint32_t word = 0;
    for (int b = 0; b < 32; ++b)
      if (w * 32 + b < n && flags[w * 32 + b]) word |= 1u << b;
    visited.words[w] = word;
  }
}

template <Selection kMethod, int kG>
__global__ void sample_warp(RowSource src, const uint8_t* flags, bool trial_phase, long draws,
                            unsigned long long seed, unsigned long long key, int32_t* scratch,
                            unsigned long long* counts) {
  extern __shared__ uint32_t words[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int global_warp = static_cast<int>(blockIdx.x) * (blockDim.x / kWarpSize) + warp;
  VisitedBits visited{words + warp * (src.ld / 32)};
  load_visited(visited, flags, src.n, src.ld, lane, kWarpSize);
  __syncwarp();
  int32_t* unvisited = scratch + static_cast<size_t>(global_warp) * src.n;
  const int remaining = warp_collect_unvisited(visited, src.n, unvisited, lane);
  const auto mine = LaneVisited<kG>::from(visited, src.ld, lane);
  curandStatePhilox4_32_10_t rng;
  curand_init(seed, static_cast<unsigned long long>(global_warp) * kWarpSize + lane, 0, &rng);
  const long own = draws_of(draws, global_warp, static_cast<long>(gridDim.x) * (blockDim.x / kWarpSize));
  for (long d = 0; d < own; ++d) {
    const uint32_t draw = curand(&rng);
    const StepRandom rnd{key, static_cast<uint32_t>(global_warp), static_cast<uint32_t>(d)};
    const Choice c = warp_select_next<kMethod, kG>(src, 0, trial_phase, visited, mine, unvisited, remaining,
                                                   draw, uniform01(draw), rnd, lane);
    if (lane == 0) atomicAdd(counts + c.city, 1ull);
  }
}

/// Block per ant: the block_select of construct_block_per_ant, the visited bits in registers.
template <Selection kMethod>
__global__ void __launch_bounds__(1024) sample_block(RowSource src, const uint8_t* flags, bool trial_phase,
                                                     long draws, unsigned long long key, SharedLayout layout,
                                                     unsigned long long* counts) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, layout);
  const ThreadGroup g{static_cast<int>(blockDim.x)};
  const int tid = static_cast<int>(threadIdx.x);
  VisitedBits visited{mem.visited};
  load_visited(visited, flags, src.n, src.ld, tid, g.threads);
  g.sync();
  const uint32_t mine = own_visited_bits(visited, src.n, g.threads);
  const int remaining = layout.list > 0 ? collect_unvisited(visited, src.n, mem.list, g, shared) : 0;
  const long own = draws_of(draws, blockIdx.x, gridDim.x);
  for (long d = 0; d < own; ++d) {
    const StepRandom rnd{key, blockIdx.x, static_cast<uint32_t>(d)};
    const Choice c = block_select<kMethod>(src, 0, trial_phase, visited, mine, mem.list, remaining,
                                           {mem.prefix, mem.tiles}, rnd, g, shared);
    if (tid == 0) atomicAdd(counts + c.city, 1ull);
    g.sync();
  }
}

/// STC / ST-DYNAMIC: one step over list[p, n) of a tour list whose first p entries are visited.
template <Selection kMethod>
__global__ void __launch_bounds__(1024) sample_list(const float* row, const int32_t* list, int n, int p, bool dynamic,
                                                    long draws, unsigned long long key, SharedLayout layout,
                                                    unsigned long long* counts) {
  extern __shared__ uint32_t dynamic_shared[];
  __shared__ GroupShared shared;
  const SharedArrays mem = carve(dynamic_shared, layout);
  const int tid = static_cast<int>(threadIdx.x), block = static_cast<int>(blockDim.x), count = n - p;
  for (int k = tid; k < n; k += block) mem.list[k] = list[k];
  ThreadGroup{block}.sync();
  const ThreadGroup g{dynamic ? dynamic_threads(count, block) : block};
  if (tid >= g.threads) return;
  const ListView candidates{row, mem.list + p, count};
  const long own = draws_of(draws, blockIdx.x, gridDim.x);
  for (long d = 0; d < own; ++d) {
    const StepRandom rnd{key, blockIdx.x, static_cast<uint32_t>(d)};
    list_select<kMethod>(candidates, {mem.prefix, mem.tiles}, rnd, g, shared);
    if (tid == 0) atomicAdd(counts + shared.city, 1ull);
    g.sync();
  }
}

/// Thread per ant: every thread draws on its own, sharing one read-only bitmask.
template <Selection kMethod>
__global__ void sample_thread(const float* row, const uint8_t* flags, int n, int ld, long draws,
                              unsigned long long key, unsigned long long* counts) {
  extern __shared__ uint32_t words[];
  const VisitedBits visited{words};
  load_visited(visited, flags, n, ld, static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x));
  __syncthreads();
  const uint32_t sampler = blockIdx.x * blockDim.x + threadIdx.x;
  const long own = draws_of(draws, sampler, static_cast<long>(gridDim.x) * blockDim.x);
  for (long d = 0; d < own; ++d) {
    const int city = thread_select<kMethod>(row, n, visited, StepRandom{key, sampler, static_cast<uint32_t>(d)});
    atomicAdd(counts + city, 1ull);
  }
}

struct Inputs {
  RowSource src;
  const uint8_t* flags;
  int32_t* scratch;
  unsigned long long* counts;
};

template <Selection kMethod>
void launch_warp(const SamplerRequest& q, const Inputs& in, unsigned long long key) {
  const int warps_per_block = 4;
  const size_t bytes = static_cast<size_t>(warps_per_block) * (in.src.ld / 32) * sizeof(uint32_t);
  const dim3 grid(kSamplerWarps / warps_per_block), block(warps_per_block * kWarpSize);
  const auto run = [&](auto kernel) {
    kernel<<<grid, block, bytes>>>(in.src, in.flags, q.trial_phase, q.draws, q.seed, key, in.scratch, in.counts);
  };
  switch (groups_per_lane(in.src.ld)) {
    case 2: run(sample_warp<kMethod, 2>); break;
    case 8: run(sample_warp<kMethod, 8>); break;
    case 16: run(sample_warp<kMethod, 16>); break;
    default: run(sample_warp<kMethod, 0>); break;
  }
}

template <Selection kMethod>
void launch_block(const SamplerRequest& q, const Inputs& in, unsigned long long key, const GpuPlan& plan) {
  const SharedLayout layout = shared_layout(plan, in.src.ld);
  allow_shared(sample_block<kMethod>, layout.bytes());
  sample_block<kMethod><<<kSamplerBlocks, plan.block_size, layout.bytes()>>>(
      in.src, in.flags, q.trial_phase, q.draws, key, layout, in.counts);
}

template <Selection kMethod>
void launch_list(const SamplerRequest& q, const Inputs& in, unsigned long long key, const GpuPlan& plan,
                 const int32_t* list, int p) {
  const SharedLayout layout = shared_layout(plan, in.src.ld);
  allow_shared(sample_list<kMethod>, layout.bytes());
  sample_list<kMethod><<<kSamplerBlocks, plan.block_size, layout.bytes()>>>(
      in.src.fitness, list, in.src.n, p, plan.construction == Construction::StDynamic, q.draws, key,
      layout, in.counts);
}

template <Selection kMethod>
void launch_thread(const SamplerRequest& q, const Inputs& in, unsigned long long key) {
  const size_t bytes = static_cast<size_t>(in.src.ld / 32) * sizeof(uint32_t);
  sample_thread<kMethod><<<kSamplerThreads / kThreadBlock, kThreadBlock, bytes>>>(
      in.src.fitness, in.flags, in.src.n, in.src.ld, q.draws, key, in.counts);
}

template <Selection kMethod>
void launch(const SamplerRequest& q, const Inputs& in, const GpuPlan& plan, const int32_t* list, int p) {
  const unsigned long long key = step_key(q.seed, 0);
  switch (plan.construction) {
    case Construction::WarpPerAnt:
      if constexpr (kMethod != Selection::TileRoulette) launch_warp<kMethod>(q, in, key);
      break;
    case Construction::BlockPerAnt: launch_block<kMethod>(q, in, key, plan); break;
    case Construction::ThreadPerAnt:
      if constexpr (kMethod == Selection::Roulette || kMethod == Selection::IRoulette) launch_thread<kMethod>(q, in, key);
      break;
    case Construction::Stc:
    case Construction::StDynamic:
      if constexpr (kMethod == Selection::Roulette || kMethod == Selection::IRoulette ||
                    kMethod == Selection::TileRoulette)
        launch_list<kMethod>(q, in, key, plan, list, p);
      break;
    case Construction::Auto: break;
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::vector<long> sample_selection(const SamplerRequest& q, std::span<const float> fitness_row,
                                   std::span<const uint8_t> visited) {
  const int n = static_cast<int>(fitness_row.size());
  FORMICA_EXPECTS(n >= 2 && visited.size() == fitness_row.size(), "sampler needs a row and a visited flag per city");
  FORMICA_EXPECTS(q.trials >= 1 && q.trials <= 31, "trials must be in [1, 31]");
  FORMICA_EXPECTS(q.construction != Construction::Auto && supports(q.construction, q.selection), "sampler: ",
                  to_string(q.construction), " does not take ", to_string(q.selection));
  const int ld = (n + 31) / 32 * 32;
  AntSystemConfig config;
  config.construction = q.construction;
  config.selection = q.selection;
  config.block_size = q.block_size;
  const GpuPlan plan = plan_gpu(config, n, 1);

  std::vector<float> row(static_cast<size_t>(ld), 0.f), prefix(static_cast<size_t>(ld), 0.f);
  float running = 0.f;
  for (int j = 0; j < ld; ++j) {
    if (j < n) row[j] = fitness_row[j];
    running += row[j];
    prefix[j] = running;  // float inclusive sums, as the fitness kernel forms them
  }
  // STC's tour list: the visited cities first, then the unvisited ones in a scrambled order (the
  // list order after node swaps is arbitrary, and the distribution must not depend on it).
  std::vector<int32_t> list;
  for (int j = 0; j < n; ++j)
    if (visited[j]) list.push_back(j);
  const int p = static_cast<int>(list.size());
  FORMICA_EXPECTS(p >= 1 && p < n, "sampler needs at least one visited and one unvisited city");
  for (int j = 0; j < n; ++j)
    if (!visited[j]) list.push_back(j);
  RandomStream shuffle(q.seed, 7);
  for (int k = n - 1; k > p; --k) std::swap(list[k], list[p + static_cast<int>(shuffle.below(k - p + 1))]);

  DeviceBuffer<float> d_row{std::span<const float>(row)}, d_prefix{std::span<const float>(prefix)};
  // Warp-per-ant trials draw from the row's alias table as the Ant System builds it, unless the
  // request asks for the prefix sums (the path of rows longer than kAliasRowLimit).
  const bool alias = uses_alias_tables(plan.construction, q.selection, n) && !q.prefix_sums;
  DeviceBuffer<uint32_t> d_alias(alias ? static_cast<size_t>(ld) : 0);
  if (alias) launch_alias_tables(d_row.data(), d_alias.data(), n, ld, 1, 0, nullptr);
  DeviceBuffer<uint8_t> d_flags(visited);
  DeviceBuffer<int32_t> d_list{std::span<const int32_t>(list)};
  DeviceBuffer<int32_t> scratch(static_cast<size_t>(kSamplerWarps) * n);
  DeviceBuffer<unsigned long long> counts(static_cast<size_t>(n));
  CUDA_CHECK(cudaMemset(counts.data(), 0, counts.size() * sizeof(unsigned long long)));
  const Inputs in{{d_row.data(), d_prefix.data(), n, ld, search_top_stride(n), q.trials,
                   alias ? d_alias.data() : nullptr, alias_index_bits(n)},
                  d_flags.data(),
                  scratch.data(),
                  counts.data()};
  switch (q.selection) {
    case Selection::Roulette: launch<Selection::Roulette>(q, in, plan, d_list.data(), p); break;
    case Selection::Compression: launch<Selection::Compression>(q, in, plan, d_list.data(), p); break;
    case Selection::StochasticTrial: launch<Selection::StochasticTrial>(q, in, plan, d_list.data(), p); break;
    case Selection::Hybrid: launch<Selection::Hybrid>(q, in, plan, d_list.data(), p); break;
    case Selection::IRoulette: launch<Selection::IRoulette>(q, in, plan, d_list.data(), p); break;
    case Selection::TileRoulette: launch<Selection::TileRoulette>(q, in, plan, d_list.data(), p); break;
  }
  const auto host = counts.download();
  return std::vector<long>(host.begin(), host.end());
}

AliasRow alias_table_of(std::span<const float> fitness_row) {
  const int n = static_cast<int>(fitness_row.size());
  const int ld = (n + 31) / 32 * 32;
  std::vector<float> row(static_cast<size_t>(ld), 0.f);
  std::copy(fitness_row.begin(), fitness_row.end(), row.begin());
  DeviceBuffer<float> d_row{std::span<const float>(row)};
  DeviceBuffer<uint32_t> d_alias(static_cast<size_t>(ld));
  launch_alias_tables(d_row.data(), d_alias.data(), n, ld, 1, 0, nullptr);
  std::vector<uint32_t> entries(static_cast<size_t>(n));  // the padding columns are never written
  CUDA_CHECK(cudaMemcpy(entries.data(), d_alias.data(), entries.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  return {alias_index_bits(n), std::move(entries)};
}

}  // namespace formica::aco::cuda
