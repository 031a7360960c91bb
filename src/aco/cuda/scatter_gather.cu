// SPDX-License-Identifier: MIT
// Pheromone update by scatter-to-gather (Cecilia et al. 3.3, Figure 5; Table 4 versions 3-5): one
// thread per pheromone cell (i, j) checks every edge of every tour for (i, j) or (j, i) and sums
// the matching ants' deposits, then applies evaporation and the sum to its own cell. No atomics,
// at the price of n^2 threads each reading all m n edges: O(n^2 m n) work, which is why
// plan_gpu() refuses sizes past kScatterGatherMaxChecks. Version 5 reads the edges from global
// memory; version 4 stages them tile by tile in shared memory; version 3 ("reduction") also uses
// the symmetry: threads only for i <= j, each writing tau_ij and tau_ji.
#include "aco/cuda/fixed_point_deposit.cuh"
#include "aco/cuda/pheromone_designs.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ bool same_edge(int a, int b, int i, int j) { return (a == i && b == j) || (a == j && b == i); }

/// Version 5: thread (i, j) walks every tour in global memory (all threads of a warp read the same
/// entry, so each read is one broadcast).
__global__ void __launch_bounds__(kThreads) scatter_gather_kernel(PheromoneArgs a, float keep, double inverse_scale) {
  const int i = static_cast<int>(blockIdx.y), j = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  if (j >= a.n) return;
  unsigned long long sum = 0;
  for (int k = 0; k < a.m; ++k) {
    const int32_t* tour = a.tours + static_cast<size_t>(k) * a.n;
    const unsigned long long amount = a.deposits[k];
    int previous = tour[a.n - 1];
    for (int p = 0; p < a.n; ++p) {
      const int city = tour[p];
      if (same_edge(previous, city, i, j)) sum += amount;
      previous = city;
    }
  }
  float* cell = a.tau + static_cast<size_t>(i) * a.ld + j;
  *cell = apply_deposits(*cell, sum, keep, inverse_scale);
}

/// Versions 4 and 3: the block loads kThreads edges (both cities and the deposit) into shared
/// memory with coalesced reads, every thread checks them there, and so on tile by tile. With
/// `upper`, only cells i <= j have a thread, which writes both halves.
__global__ void __launch_bounds__(kThreads) scatter_gather_tiled_kernel(PheromoneArgs a, float keep,
                                                                         double inverse_scale, bool upper) {
  __shared__ int32_t from[kThreads], to[kThreads];
  __shared__ unsigned long long amount[kThreads];
  const int i = static_cast<int>(blockIdx.y), first = static_cast<int>(blockIdx.x) * kThreads;
  const int t = static_cast<int>(threadIdx.x), j = first + t;
  if (upper && first + kThreads - 1 < i) return;  // the whole block lies below the diagonal
  const bool mine = j < a.n && (!upper || j >= i);
  const size_t edges = static_cast<size_t>(a.m) * a.n;
  unsigned long long sum = 0;
  for (size_t base = 0; base < edges; base += kThreads) {
    const size_t e = base + t;
    if (e < edges) {
      const size_t k = e / a.n, p = e % a.n;
      from[t] = a.tours[e];
      to[t] = a.tours[k * a.n + (p + 1 == static_cast<size_t>(a.n) ? 0 : p + 1)];
      amount[t] = a.deposits[k];
    }
    __syncthreads();
    const int count = static_cast<int>(edges - base < kThreads ? edges - base : kThreads);
    if (mine)
      for (int x = 0; x < count; ++x)
        if (same_edge(from[x], to[x], i, j)) sum += amount[x];
    __syncthreads();
  }
  if (!mine) return;
  const size_t ij = static_cast<size_t>(i) * a.ld + j;
  const float value = apply_deposits(a.tau[ij], sum, keep, inverse_scale);
  a.tau[ij] = value;
  if (upper && j != i) a.tau[static_cast<size_t>(j) * a.ld + i] = value;  // tau_ji == tau_ij before, too
}

}  // namespace

void launch_scatter_gather(PheromoneUpdate version, const PheromoneArgs& args, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((args.n + kThreads - 1) / kThreads), static_cast<unsigned>(args.n));
  const float keep = static_cast<float>(1.0 - args.rho);
  const double inverse_scale = 1.0 / args.scale;
  if (version == PheromoneUpdate::ScatterGather)
    scatter_gather_kernel<<<grid, kThreads, 0, stream>>>(args, keep, inverse_scale);
  else
    scatter_gather_tiled_kernel<<<grid, kThreads, 0, stream>>>(args, keep, inverse_scale,
                                                                version == PheromoneUpdate::ScatterGatherReduction);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
