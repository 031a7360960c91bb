// GPU selection sampler (see selection_sampler.h): the construction kernels' own selection
// functions, called repeatedly on one row without committing the choice.
#include <curand_kernel.h>

#include "aco/cuda/block_selection.cuh"
#include "aco/cuda/selection_sampler.h"
#include "aco/cuda/warp_selection.cuh"
#include "core/error.h"
#include "cuda/buffer.cuh"

namespace formica::aco::cuda {
namespace {

using ::formica::cuda::DeviceBuffer;

constexpr int kSamplerWarps = 256;
constexpr int kSamplerBlocks = 64;
constexpr int kBlockThreads = 128;

__device__ void load_visited(VisitedBits visited, const uint8_t* flags, int n, int ld, int tid, int threads) {
  for (int w = tid; w < ld / 32; w += threads) {
    uint32_t word = 0;
    for (int b = 0; b < 32; ++b)
      if (w * 32 + b < n && flags[w * 32 + b]) word |= 1u << b;
    visited.words[w] = word;
  }
}

template <Selection kMethod, int kG>
__global__ void sample_warp(RowSource src, const uint8_t* flags, bool trial_phase, long draws_per_warp,
                            unsigned long long seed, int32_t* scratch, unsigned long long* counts) {
  extern __shared__ uint32_t words[];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int global_warp = static_cast<int>(blockIdx.x) * (blockDim.x / kWarpSize) + warp;
  VisitedBits visited{words + warp * (src.ld / 32)};
  load_visited(visited, flags, src.n, src.ld, lane, kWarpSize);
  __syncwarp();
  int32_t* unvisited = scratch + static_cast<size_t>(global_warp) * src.n;
  const int remaining = warp_collect_unvisited(visited, src.n, unvisited, lane);
  curandStatePhilox4_32_10_t rng;
  curand_init(seed, static_cast<unsigned long long>(global_warp) * kWarpSize + lane, 0, &rng);
  for (long d = 0; d < draws_per_warp; ++d) {
    const float u = 1.0f - curand_uniform(&rng);
    const Choice c = warp_select_next<kMethod, kG>(src, 0, trial_phase, visited, unvisited, remaining, u, lane);
    if (lane == 0) atomicAdd(counts + c.city, 1ull);
  }
}

template <Selection kMethod>
__global__ void sample_block(RowSource src, const uint8_t* flags, bool trial_phase, long draws_per_block,
                             unsigned long long seed, unsigned long long* counts) {
  using Select = BlockSelection<kBlockThreads>;
  __shared__ typename Select::Shared shared;
  extern __shared__ uint32_t words[];
  const int tid = static_cast<int>(threadIdx.x);
  VisitedBits visited{words};
  float* prefix = reinterpret_cast<float*>(words + src.ld / 32);
  int32_t* unvisited = reinterpret_cast<int32_t*>(prefix + src.ld);
  load_visited(visited, flags, src.n, src.ld, tid, kBlockThreads);
  __syncthreads();
  int remaining = 0;
  if (tid < kWarpSize) remaining = warp_collect_unvisited(visited, src.n, unvisited, tid);
  if (tid == 0) shared.slot = remaining;
  __syncthreads();
  remaining = shared.slot;
  curandStatePhilox4_32_10_t rng;
  if (tid < kWarpSize) curand_init(seed, static_cast<unsigned long long>(blockIdx.x) * kWarpSize + tid, 0, &rng);
  const int shared_lane = kMethod == Selection::Roulette || kMethod == Selection::Compression ? 0 : src.trials;
  for (long d = 0; d < draws_per_block; ++d) {
    float u_lane = 0.f;
    if (tid < kWarpSize) {
      u_lane = 1.0f - curand_uniform(&rng);
      if (tid == shared_lane) shared.r = u_lane;
    }
    __syncthreads();
    const int city = Select::template select_next<kMethod>(src, 0, trial_phase, visited, prefix, unvisited, remaining,
                                                           u_lane, shared.r, shared);
    if (tid == 0) atomicAdd(counts + city, 1ull);
    __syncthreads();
  }
}

template <Selection kMethod>
void launch(const SamplerRequest& q, const RowSource& src, const uint8_t* flags, int32_t* scratch,
            unsigned long long* counts) {
  if (q.construction == Construction::WarpPerAnt) {
    const int warps_per_block = 4;
    const size_t bytes = static_cast<size_t>(warps_per_block) * (src.ld / 32) * sizeof(uint32_t);
    const dim3 grid(kSamplerWarps / warps_per_block), block(warps_per_block * kWarpSize);
    const long draws = q.draws / kSamplerWarps;
    switch (groups_per_lane(src.ld)) {
      case 2: sample_warp<kMethod, 2><<<grid, block, bytes>>>(src, flags, q.trial_phase, draws, q.seed, scratch, counts); break;
      case 8: sample_warp<kMethod, 8><<<grid, block, bytes>>>(src, flags, q.trial_phase, draws, q.seed, scratch, counts); break;
      case 16: sample_warp<kMethod, 16><<<grid, block, bytes>>>(src, flags, q.trial_phase, draws, q.seed, scratch, counts); break;
      default: sample_warp<kMethod, 0><<<grid, block, bytes>>>(src, flags, q.trial_phase, draws, q.seed, scratch, counts); break;
    }
  } else {
    const size_t bytes = static_cast<size_t>(src.ld / 32) * sizeof(uint32_t) + static_cast<size_t>(src.ld) * 8;
    sample_block<kMethod><<<kSamplerBlocks, kBlockThreads, bytes>>>(src, flags, q.trial_phase,
                                                                     q.draws / kSamplerBlocks, q.seed, counts);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::vector<long> sample_selection(const SamplerRequest& q, std::span<const float> fitness_row,
                                   std::span<const uint8_t> visited) {
  const int n = static_cast<int>(fitness_row.size());
  FORMICA_EXPECTS(n >= 2 && visited.size() == fitness_row.size(), "sampler needs a row and a visited flag per city");
  FORMICA_EXPECTS(q.trials >= 1 && q.trials <= 31, "trials must be in [1, 31]");
  const int ld = (n + 31) / 32 * 32;
  std::vector<float> row(static_cast<size_t>(ld), 0.f), prefix(static_cast<size_t>(ld), 0.f);
  float running = 0.f;
  for (int j = 0; j < ld; ++j) {
    if (j < n) row[j] = fitness_row[j];
    running += row[j];
    prefix[j] = running;  // float inclusive sums, as the fitness kernel forms them
  }
  std::vector<float> summary(static_cast<size_t>(summary_stride(ld)), running);
  for (int k = 0; k < ld / 32; ++k) summary[k] = prefix[32 * k + 31];
  DeviceBuffer<float> d_row{std::span<const float>(row)}, d_prefix{std::span<const float>(prefix)};
  DeviceBuffer<float> d_summary{std::span<const float>(summary)};
  DeviceBuffer<uint8_t> d_flags(visited);
  DeviceBuffer<int32_t> scratch(static_cast<size_t>(kSamplerWarps) * n);
  DeviceBuffer<unsigned long long> counts(static_cast<size_t>(n));
  CUDA_CHECK(cudaMemset(counts.data(), 0, counts.size() * sizeof(unsigned long long)));
  const RowSource src{d_row.data(), d_prefix.data(), d_summary.data(), n, ld, search_top_stride(n), q.trials};
  switch (q.selection) {
    case Selection::Roulette: launch<Selection::Roulette>(q, src, d_flags.data(), scratch.data(), counts.data()); break;
    case Selection::Compression:
      launch<Selection::Compression>(q, src, d_flags.data(), scratch.data(), counts.data());
      break;
    case Selection::StochasticTrial:
      launch<Selection::StochasticTrial>(q, src, d_flags.data(), scratch.data(), counts.data());
      break;
    case Selection::Hybrid: launch<Selection::Hybrid>(q, src, d_flags.data(), scratch.data(), counts.data()); break;
  }
  const auto host = counts.download();
  return std::vector<long>(host.begin(), host.end());
}

}  // namespace formica::aco::cuda
