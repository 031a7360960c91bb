// SPDX-License-Identifier: MIT
// Global update over candidate entries (see candidate_pheromone.cuh).
#include "aco/cuda/candidate_pheromone.cuh"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void candidate_update_kernel(CandidateUpdateArgs a) {
  const size_t cells = static_cast<size_t>(a.n) * a.width;
  const int matrix = static_cast<int>(blockIdx.y);
  const size_t local = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (local >= cells) return;
  const size_t e = static_cast<size_t>(matrix) * cells + local;
  const int i = static_cast<int>(local / a.width);
  const Bounds b = matrix_bounds(a.kind, group_best_length(a.records, matrix, a.group, a.nn_length), a.rho,
                                 a.min_factor, a.tau0);
  if (local == 0) a.bounds_out[matrix] = b;
  const int j = a.ids[e];
  float tau = a.tau[e];
  if (a.crossings != nullptr) tau = local_update(tau, b.tau_min, a.local_keep, a.crossings[e]);
  tau *= static_cast<float>(1.0 - a.rho);
  for (int g = 0; g < a.group && j >= 0; ++g) {
    const int colony = matrix * a.group + g;
    const size_t at = static_cast<size_t>(colony) * a.n + i;
    if (a.next[at] != j && a.previous[at] != j) continue;
    const Deposit d = colony_deposit(a.records[colony], a.colony_acs[colony] != 0, a.acs_rho);
    tau = d.keep * tau + d.add;
  }
  tau = clamp_pheromone(tau, b);
  a.tau[e] = tau;
  a.fitness[e] = entry_fitness(tau, a.eta_beta[e], a.alpha);
}

__global__ void fill_kernel(float* tau, float* fitness, const float* eta_beta, size_t cells, float value, float alpha) {
  const size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= cells) return;
  tau[e] = value;
  fitness[e] = entry_fitness(value, eta_beta[e], alpha);
}

}  // namespace

void launch_candidate_update(const CandidateUpdateArgs& args, cudaStream_t stream) {
  const size_t cells = static_cast<size_t>(args.n) * args.width;
  const dim3 grid(static_cast<unsigned>((cells + kThreads - 1) / kThreads), static_cast<unsigned>(args.matrices));
  candidate_update_kernel<<<grid, kThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

void launch_fill_pheromone(float* tau, float* fitness, const float* eta_beta, size_t cells, float value, float alpha,
                           cudaStream_t stream) {
  fill_kernel<<<static_cast<unsigned>((cells + kThreads - 1) / kThreads), kThreads, 0, stream>>>(tau, fitness, eta_beta,
                                                                                               cells, value, alpha);
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
