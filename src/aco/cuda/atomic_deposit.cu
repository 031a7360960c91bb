// SPDX-License-Identifier: MIT
// Pheromone deposit with atomic instructions (Cecilia et al. Figure 4 and Table 4 versions 1-2;
// Zhou et al. Algorithm B3): one thread per edge of every ant's tour adds the ant's deposit to
// both directions of its edge. The adds are 64-bit integer atomics on a fixed-point accumulator,
// so their order does not matter; an evaporation kernel then forms (1 - rho) tau + sum / scale
// and clears the accumulator (the paper's evaporation pass, taking the sums along).
#include <algorithm>

#include "aco/cuda/fixed_point_deposit.cuh"
#include "aco/cuda/pheromone_designs.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ void deposit_edge(unsigned long long* accumulator, int ld, int a, int b,
                                             unsigned long long amount) {
  atomicAdd(accumulator + static_cast<size_t>(a) * ld + b, amount);
  atomicAdd(accumulator + static_cast<size_t>(b) * ld + a, amount);
}

/// Version 2: edge e = k * n + p reads both its cities from the tours in global memory.
__global__ void __launch_bounds__(kThreads) atomic_deposit_kernel(PheromoneArgs a) {
  const size_t edges = static_cast<size_t>(a.m) * a.n;
  for (size_t e = blockIdx.x * static_cast<size_t>(kThreads) + threadIdx.x; e < edges;
       e += static_cast<size_t>(gridDim.x) * kThreads) {
    const size_t k = e / a.n, p = e % a.n;
    const int from = a.tours[e], to = a.tours[k * a.n + (p + 1 == static_cast<size_t>(a.n) ? 0 : p + 1)];
    deposit_edge(a.accumulator, a.ld, from, to, a.deposits[k]);
  }
}

/// Version 1: block b = k * tiles + x stages positions [x T, x T + T] of ant k's tour in shared
/// memory with one coalesced load, and each thread takes its edge's two cities from there.
__global__ void __launch_bounds__(kThreads) atomic_deposit_tiled_kernel(PheromoneArgs a, int tiles) {
  __shared__ int32_t city[kThreads + 1];
  const int k = static_cast<int>(blockIdx.x) / tiles, t = static_cast<int>(threadIdx.x);
  const int32_t* tour = a.tours + static_cast<size_t>(k) * a.n;
  const int origin = static_cast<int>(blockIdx.x) % tiles * kThreads;
  // Position n is position 0 again: the edge that closes the tour.
  const auto load = [&](int position) { return position < a.n ? tour[position] : tour[0]; };
  if (origin + t <= a.n) city[t] = load(origin + t);
  if (t == 0 && origin + kThreads <= a.n) city[kThreads] = load(origin + kThreads);
  __syncthreads();
  if (origin + t < a.n) deposit_edge(a.accumulator, a.ld, city[t], city[t + 1], a.deposits[k]);
}

__global__ void __launch_bounds__(kThreads) evaporate_and_apply_kernel(float* tau, unsigned long long* accumulator,
                                                                       size_t cells, float keep, double inverse_scale) {
  for (size_t c = blockIdx.x * static_cast<size_t>(kThreads) + threadIdx.x; c < cells;
       c += static_cast<size_t>(gridDim.x) * kThreads) {
    tau[c] = apply_deposits(tau[c], accumulator[c], keep, inverse_scale);
    accumulator[c] = 0;
  }
}

int grid_for(size_t items) { return static_cast<int>(std::min<size_t>((items + kThreads - 1) / kThreads, 65536)); }

}  // namespace

void launch_atomic_deposits(const PheromoneArgs& args, bool tiled, cudaStream_t stream) {
  if (tiled) {
    const int tiles = (args.n + kThreads - 1) / kThreads;
    atomic_deposit_tiled_kernel<<<tiles * args.m, kThreads, 0, stream>>>(args, tiles);
  } else {
    atomic_deposit_kernel<<<grid_for(static_cast<size_t>(args.m) * args.n), kThreads, 0, stream>>>(args);
  }
  CUDA_CHECK_LAUNCH();
}

void launch_evaporate_and_apply(const PheromoneArgs& args, cudaStream_t stream) {
  const size_t cells = static_cast<size_t>(args.ld) * args.ld;
  evaporate_and_apply_kernel<<<grid_for(cells), kThreads, 0, stream>>>(
      args.tau, args.accumulator, cells, static_cast<float>(1.0 - args.rho), 1.0 / args.scale);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
