// SPDX-License-Identifier: MIT
// SymmetrizeKernel (Uchida et al. 4.3): tau_ij = tau'_ij + tau'_ji. One block per pair of
// mirrored 32 x 32 tiles; both tiles pass through shared memory with one padding column, so the
// transposed reads hit 32 different banks and every global read and write is coalesced.
#include "aco/cuda/pheromone_update.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // a 32 x 8 block covers a tile in 4 passes

__global__ void __launch_bounds__(kTile * kRowsPerPass) symmetrize_kernel(float* tau, int ld) {
  __shared__ float a[kTile][kTile + 1];
  __shared__ float b[kTile][kTile + 1];
  // Block k covers the tile pair (row tile ty, column tile tx) with tx <= ty, in triangle order.
  const long long k = blockIdx.x;
  int ty = static_cast<int>((sqrt(8.0 * static_cast<double>(k) + 1.0) - 1.0) / 2.0);
  while (static_cast<long long>(ty) * (ty + 1) / 2 > k) --ty;
  while (static_cast<long long>(ty + 1) * (ty + 2) / 2 <= k) ++ty;
  const int tx = static_cast<int>(k - static_cast<long long>(ty) * (ty + 1) / 2);
  const int c = static_cast<int>(threadIdx.x);
  const size_t a_origin = static_cast<size_t>(ty) * kTile * ld + static_cast<size_t>(tx) * kTile;
  const size_t b_origin = static_cast<size_t>(tx) * kTile * ld + static_cast<size_t>(ty) * kTile;
  for (int r = static_cast<int>(threadIdx.y); r < kTile; r += kRowsPerPass) {
    a[r][c] = tau[a_origin + static_cast<size_t>(r) * ld + c];
    b[r][c] = tau[b_origin + static_cast<size_t>(r) * ld + c];
  }
  __syncthreads();
  for (int r = static_cast<int>(threadIdx.y); r < kTile; r += kRowsPerPass) {
    tau[a_origin + static_cast<size_t>(r) * ld + c] = a[r][c] + b[c][r];
    if (tx != ty) tau[b_origin + static_cast<size_t>(r) * ld + c] = b[r][c] + a[c][r];
  }
}

}  // namespace

void launch_symmetrize(float* tau, int ld, cudaStream_t stream) {
  const long long tiles = ld / kTile;
  const long long pairs = tiles * (tiles + 1) / 2;
  symmetrize_kernel<<<static_cast<unsigned>(pairs), dim3(kTile, kRowsPerPass), 0, stream>>>(tau, ld);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
