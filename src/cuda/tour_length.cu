// SPDX-License-Identifier: MIT
// Tour length on the device (see tour_length.h).
#include <cub/block/block_reduce.cuh>

#include "core/error.h"
#include "cuda/buffer.cuh"
#include "cuda/tour_length.h"

namespace formica::cuda {
namespace {

constexpr int kThreads = 256;

__device__ int64_t edge_length(EdgeWeightType type, const double* x, const double* y,
                               const double* z, int a, int b) {
  const double dx = x[a] - x[b], dy = y[a] - y[b];
  switch (type) {
    case EdgeWeightType::Ceil2D: return tsplib::ceil_2d(dx, dy);
    case EdgeWeightType::Att: return tsplib::att(dx, dy);
    case EdgeWeightType::Man2D: return tsplib::man_2d(dx, dy);
    case EdgeWeightType::Max2D: return tsplib::max_2d(dx, dy);
    case EdgeWeightType::Euc3D: return tsplib::euc_3d(dx, dy, z[a] - z[b]);
    default: return tsplib::euc_2d(dx, dy);
  }
}

__global__ void tour_length_kernel(EdgeWeightType type, const double* x, const double* y,
                                   const double* z, const int32_t* order, int n,
                                   unsigned long long* total) {
  using Reduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  long long length = 0;
  if (p < n) length = edge_length(type, x, y, z, order[p], order[(p + 1) % n]);
  const long long block_sum = Reduce(storage).Sum(length);
  if (threadIdx.x == 0) atomicAdd(total, static_cast<unsigned long long>(block_sum));
}

}  // namespace

int64_t device_tour_length(const Instance& instance, std::span<const int32_t> order) {
  FORMICA_EXPECTS(instance.has_coordinates() && instance.type() != EdgeWeightType::Geo,
                  "device_tour_length needs a planar or 3D coordinate instance");
  const int n = instance.n();
  DeviceBuffer<double> x(instance.x()), y(instance.y());
  DeviceBuffer<double> z(instance.z().empty() ? instance.x() : instance.z());
  DeviceBuffer<int32_t> tour(order);
  DeviceBuffer<unsigned long long> total(1);
  CUDA_CHECK(cudaMemset(total.data(), 0, sizeof(unsigned long long)));
  tour_length_kernel<<<(n + kThreads - 1) / kThreads, kThreads>>>(
      instance.type(), x.data(), y.data(), z.data(), tour.data(), n, total.data());
  CUDA_CHECK_LAUNCH();
  return static_cast<int64_t>(total.download()[0]);
}

}  // namespace formica::cuda
