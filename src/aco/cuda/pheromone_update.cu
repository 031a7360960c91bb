// SPDX-License-Identifier: MIT
// PheromoneUpdateKernel (Uchida et al. 4.3), see pheromone_update.cuh.
#include "aco/cuda/pheromone_update.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) pheromone_update_kernel(float* tau, int ld, int m,
                                                                    const int32_t* successors,
                                                                    const unsigned long long* deposits,
                                                                    float keep_half, double inverse_scale) {
  // The 64-bit fixed-point sums as two 32-bit halves: a shared-memory 64-bit add is a
  // compare-and-swap loop, which the many ants that share a successor serialise, while 32-bit adds
  // are native. The low half's carry goes to the high half, so every sum stays exact and
  // independent of the order of the adds.
  extern __shared__ unsigned int shared_words[];
  unsigned int* low = shared_words;                       // ld low halves
  unsigned int* high = shared_words + ld;                 // ld high halves
  float* row = reinterpret_cast<float*>(shared_words + 2 * ld);  // ld pheromone values
  const size_t offset = static_cast<size_t>(blockIdx.x) * ld;
  for (int j = static_cast<int>(threadIdx.x); j < ld; j += kThreads) {
    row[j] = tau[offset + j] * keep_half;  // halved: SymmetrizeKernel adds the two halves back
    low[j] = high[j] = 0u;
  }
  __syncthreads();
  const int32_t* next = successors + static_cast<size_t>(blockIdx.x) * m;
  for (int k = static_cast<int>(threadIdx.x); k < m; k += kThreads) {
    const unsigned long long deposit = deposits[k];
    const int j = next[k];
    const unsigned int part = static_cast<unsigned int>(deposit);
    const unsigned int before = atomicAdd(&low[j], part);
    const unsigned int carry_and_high =
        static_cast<unsigned int>(deposit >> 32) + (before + part < before ? 1u : 0u);
    if (carry_and_high != 0u) atomicAdd(&high[j], carry_and_high);
  }
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < ld; j += kThreads) {
    const unsigned long long added = (static_cast<unsigned long long>(high[j]) << 32) | low[j];
    tau[offset + j] = row[j] + static_cast<float>(static_cast<double>(added) * inverse_scale);
  }
}

}  // namespace

size_t pheromone_update_shared_bytes(int ld) {
  const size_t bytes = static_cast<size_t>(ld) * (sizeof(unsigned long long) + sizeof(float));
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return bytes <= static_cast<size_t>(limit) ? bytes : 0;
}

void launch_pheromone_update(float* tau, int n, int ld, int m, const int32_t* successors,
                             const unsigned long long* deposits, double rho, double scale, cudaStream_t stream) {
  const size_t bytes = static_cast<size_t>(ld) * (sizeof(unsigned long long) + sizeof(float));
  CUDA_CHECK(cudaFuncSetAttribute(pheromone_update_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(bytes)));
  pheromone_update_kernel<<<n, kThreads, bytes, stream>>>(tau, ld, m, successors, deposits,
                                                          static_cast<float>(0.5 * (1.0 - rho)), 1.0 / scale);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
