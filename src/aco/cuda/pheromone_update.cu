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
  extern __shared__ unsigned long long shared_words[];
  unsigned long long* added = shared_words;                 // ld fixed-point sums
  float* row = reinterpret_cast<float*>(shared_words + ld);  // ld pheromone values
  const size_t offset = static_cast<size_t>(blockIdx.x) * ld;
  for (int j = static_cast<int>(threadIdx.x); j < ld; j += kThreads) {
    row[j] = tau[offset + j] * keep_half;  // halved: SymmetrizeKernel adds the two halves back
    added[j] = 0;
  }
  __syncthreads();
  const int32_t* next = successors + static_cast<size_t>(blockIdx.x) * m;
  for (int k = static_cast<int>(threadIdx.x); k < m; k += kThreads) atomicAdd(&added[next[k]], deposits[k]);
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < ld; j += kThreads)
    tau[offset + j] = row[j] + static_cast<float>(static_cast<double>(added[j]) * inverse_scale);
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
