// SPDX-License-Identifier: MIT
// Per-colony best tours and GACO's dynamic neighbours (see colonies.cuh).
#include <cub/block/block_reduce.cuh>

#include "aco/cuda/colonies.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

struct Smaller {
  __device__ long long operator()(long long a, long long b) const { return b < a ? b : a; }
};

__global__ void __launch_bounds__(kThreads) colony_best_kernel(ColonyBestArgs a) {
  using Reduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ long long shared_best;
  __shared__ int shared_ant, shared_improved;
  const int colony = static_cast<int>(blockIdx.x), n = a.n;
  const int first = a.first_ant[colony], end = a.first_ant[colony + 1];
  long long best = kNoLength;
  for (int ant = first + static_cast<int>(threadIdx.x); ant < end; ant += kThreads)
    best = a.lengths[ant] < best ? a.lengths[ant] : best;
  best = Reduce(storage).Reduce(best, Smaller());
  if (threadIdx.x == 0) shared_best = best;
  __syncthreads();
  long long index = kNoLength;  // the lowest ant reaching the best length
  for (int ant = first + static_cast<int>(threadIdx.x); ant < end; ant += kThreads)
    if (a.lengths[ant] == shared_best && ant < index) index = ant;
  index = Reduce(storage).Reduce(index, Smaller());
  if (threadIdx.x == 0) {
    shared_ant = static_cast<int>(index);
    shared_improved = record_iteration(a.records[colony], shared_best, shared_ant - first, a.iteration,
                                       a.colony_acs[colony] != 0, a.increasing, a.best_every);
  }
  __syncthreads();
  const int32_t* tour = a.tours + static_cast<size_t>(shared_ant) * n;
  int32_t* best_tour = a.best_tours + static_cast<size_t>(colony) * n;
  int32_t* restart_tour = a.restart_tours + static_cast<size_t>(colony) * n;
  for (int p = static_cast<int>(threadIdx.x); p < n; p += kThreads) {
    if (shared_improved & 1) best_tour[p] = tour[p];
    if (shared_improved & 2) restart_tour[p] = tour[p];
  }
  __syncthreads();
  const ColonyRecord r = a.records[colony];
  const auto depositor = static_cast<Depositor>(r.depositor);
  const int32_t* source = depositor == Depositor::IterationBest
                              ? a.tours + static_cast<size_t>(first + r.iteration_ant) * n
                              : (depositor == Depositor::RestartBest ? restart_tour : best_tour);
  int32_t* next = a.next + static_cast<size_t>(colony) * n;
  int32_t* previous = a.previous + static_cast<size_t>(colony) * n;
  for (int p = static_cast<int>(threadIdx.x); p < n; p += kThreads) {
    const int from = source[p], to = source[p + 1 < n ? p + 1 : 0];
    next[from] = to;
    previous[to] = from;
  }
}

/// The iteration-best tour of matrix group `matrix` (lowest colony on ties).
__device__ const int32_t* group_iteration_best(const DynamicArgs& a, int matrix) {
  int source = matrix * a.group;
  for (int c = source + 1; c < (matrix + 1) * a.group; ++c)
    if (a.records[c].iteration_length < a.records[source].iteration_length) source = c;
  return a.tours + static_cast<size_t>(a.first_ant[source] + a.records[source].iteration_ant) * a.n;
}

__global__ void dynamic_adjacency_kernel(DynamicArgs a) {
  const int matrix = static_cast<int>(blockIdx.y);
  const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= a.n) return;
  const int32_t* tour = group_iteration_best(a, matrix);
  const int from = tour[p], to = tour[p + 1 < a.n ? p + 1 : 0];
  a.scratch_next[static_cast<size_t>(matrix) * a.n + from] = to;
  a.scratch_previous[static_cast<size_t>(matrix) * a.n + to] = from;
}

__global__ void dynamic_install_kernel(DynamicArgs a) {
  const int matrix = static_cast<int>(blockIdx.y);
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= a.n) return;
  const size_t row = (static_cast<size_t>(matrix) * a.n + i) * a.width;
  int32_t* ids = a.ids + row;
  float* tau = a.tau + row;
  const Bounds b = matrix_bounds(a.kind, group_best_length(a.records, matrix, a.group, a.nn_length), a.rho,
                                 a.min_factor, a.tau0);
  const int32_t old_ids[2] = {ids[a.k], ids[a.k + 1]};
  const float old_tau[2] = {tau[a.k], tau[a.k + 1]};
  const int32_t wanted[2] = {a.scratch_next[static_cast<size_t>(matrix) * a.n + i],
                             a.scratch_previous[static_cast<size_t>(matrix) * a.n + i]};
  for (int d = 0; d < 2; ++d) {
    bool is_static = false;
    for (int s = 0; s < a.k; ++s) is_static |= ids[s] == wanted[d];
    const int32_t j = is_static || (d == 1 && wanted[1] == wanted[0]) ? -1 : wanted[d];
    ids[a.k + d] = j;
    if (j < 0) {
      tau[a.k + d] = b.tau_min;
      a.eta_beta[row + a.k + d] = 0.f;
      a.distances[row + a.k + d] = 0;
      continue;
    }
    tau[a.k + d] = old_ids[0] == j ? old_tau[0] : (old_ids[1] == j ? old_tau[1] : b.tau_min);
    const long long distance = a.distance(i, j);
    a.distances[row + a.k + d] = static_cast<int32_t>(distance);
    // aco::heuristic: coincident cities count as a distance of 0.5
    a.eta_beta[row + a.k + d] = static_cast<float>(pow(1.0 / (distance > 0 ? static_cast<double>(distance) : 0.5), a.beta));
  }
}

}  // namespace

void launch_colony_best(const ColonyBestArgs& args, cudaStream_t stream) {
  colony_best_kernel<<<args.colonies, kThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

void launch_dynamic_neighbours(const DynamicArgs& args, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((args.n + kThreads - 1) / kThreads), static_cast<unsigned>(args.matrices));
  dynamic_adjacency_kernel<<<grid, kThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
  dynamic_install_kernel<<<grid, kThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
