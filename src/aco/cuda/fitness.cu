// SPDX-License-Identifier: MIT
// Fitness, heuristic and fill kernels (see fitness.cuh).
#include <cub/block/block_scan.cuh>

#include "aco/cuda/fitness.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void heuristic_kernel(const int32_t* distances, float* eta_beta, int n, int ld, double beta) {
  const size_t cells = static_cast<size_t>(ld) * ld;
  for (size_t c = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; c < cells;
       c += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(c / ld), j = static_cast<int>(c % ld);
    float value = 0.f;
    if (i < n && j < n && i != j) {
      const int32_t d = distances[c];
      value = static_cast<float>(pow(1.0 / (d > 0 ? static_cast<double>(d) : 0.5), beta));
    }
    eta_beta[c] = value;
  }
}

template <bool kPlainAlpha, bool kPrefix>
__global__ void __launch_bounds__(kThreads) fitness_kernel(const float* tau, const float* eta_beta, float* fitness,
                                                           float* prefix, int n, int ld, float alpha) {
  using Scan = cub::BlockScan<float, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ float tile_end;
  const size_t row = static_cast<size_t>(blockIdx.x) * ld;
  float running = 0.f;
  for (int base = 0; base < ld; base += kThreads) {
    const int j = base + static_cast<int>(threadIdx.x);
    float f = 0.f;
    if (j < n) {
      const float t = tau[row + j];
      f = (kPlainAlpha ? t : __powf(t, alpha)) * eta_beta[row + j];
    }
    if (j < ld) fitness[row + j] = f;
    if (kPrefix) {
      // Continue from the previous tile's last stored sum so the row never decreases (the scan's
      // block aggregate may round differently from its last inclusive sum).
      float inclusive;
      Scan(scan).InclusiveSum(f, inclusive);
      const float sum = running + inclusive;
      if (j < ld) prefix[row + j] = sum;
      if (threadIdx.x == kThreads - 1) tile_end = sum;
      __syncthreads();
      running = tile_end;
      __syncthreads();  // tile_end and the scan storage are reused by the next tile
    }
  }
}

__global__ void fill_kernel(float* matrix, size_t cells, float value) {
  for (size_t c = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; c < cells;
       c += static_cast<size_t>(gridDim.x) * blockDim.x)
    matrix[c] = value;
}

int grid_for(size_t cells) { return static_cast<int>(std::min<size_t>((cells + kThreads - 1) / kThreads, 65536)); }

}  // namespace

void launch_heuristic(const int32_t* distances, float* eta_beta, int n, int ld, double beta, cudaStream_t stream) {
  heuristic_kernel<<<grid_for(static_cast<size_t>(ld) * ld), kThreads, 0, stream>>>(distances, eta_beta, n, ld, beta);
  CUDA_CHECK_LAUNCH();
}

void launch_fitness(const float* tau, const float* eta_beta, float* fitness, float* prefix, int n, int ld,
                    double alpha, cudaStream_t stream) {
  const float a = static_cast<float>(alpha);
  const bool plain = alpha == 1.0;
  if (plain && prefix)
    fitness_kernel<true, true><<<n, kThreads, 0, stream>>>(tau, eta_beta, fitness, prefix, n, ld, a);
  else if (plain)
    fitness_kernel<true, false><<<n, kThreads, 0, stream>>>(tau, eta_beta, fitness, prefix, n, ld, a);
  else if (prefix)
    fitness_kernel<false, true><<<n, kThreads, 0, stream>>>(tau, eta_beta, fitness, prefix, n, ld, a);
  else
    fitness_kernel<false, false><<<n, kThreads, 0, stream>>>(tau, eta_beta, fitness, prefix, n, ld, a);
  CUDA_CHECK_LAUNCH();
}

void launch_fill(float* matrix, int ld, float value, cudaStream_t stream) {
  const size_t cells = static_cast<size_t>(ld) * ld;
  fill_kernel<<<grid_for(cells), kThreads, 0, stream>>>(matrix, cells, value);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
