// SPDX-License-Identifier: MIT
// Ant tour lengths and the iteration-best ant (see ant_lengths.cuh).
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>

#include "aco/cuda/ant_lengths.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) ant_lengths_kernel(const int32_t* distances, int ld, const int32_t* tours,
                                                               int n, int m, long long* lengths,
                                                               unsigned long long* deposits, int32_t* successors,
                                                               double scale) {
  using Reduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const int32_t* tour = tours + static_cast<size_t>(blockIdx.x) * n;
  long long sum = 0;
  for (int p = static_cast<int>(threadIdx.x); p < n; p += kThreads) {
    const int a = tour[p], b = tour[p + 1 < n ? p + 1 : 0];
    sum += distances[static_cast<size_t>(a) * ld + b];
    successors[static_cast<size_t>(a) * m + blockIdx.x] = b;
  }
  const long long length = Reduce(storage).Sum(sum);
  if (threadIdx.x == 0) {
    lengths[blockIdx.x] = length;
    deposits[blockIdx.x] = static_cast<unsigned long long>(llrint(scale / static_cast<double>(length > 0 ? length : 1)));
  }
}

}  // namespace

void launch_ant_lengths(const int32_t* distances, int ld, const int32_t* tours, int n, int m, long long* lengths,
                        unsigned long long* deposits, int32_t* successors, double scale, cudaStream_t stream) {
  ant_lengths_kernel<<<m, kThreads, 0, stream>>>(distances, ld, tours, n, m, lengths, deposits, successors, scale);
  CUDA_CHECK_LAUNCH();
}

size_t best_ant_temp_bytes(int m) {
  size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::ArgMin(nullptr, bytes, static_cast<const long long*>(nullptr),
                                       static_cast<long long*>(nullptr), static_cast<int*>(nullptr), m));
  return bytes;
}

void launch_best_ant(const long long* lengths, int m, long long* best_length, int* best_index, void* temp,
                     size_t temp_bytes, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceReduce::ArgMin(temp, temp_bytes, lengths, best_length, best_index, m, stream));
}

}  // namespace formica::aco::cuda
