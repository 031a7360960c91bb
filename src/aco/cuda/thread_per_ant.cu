// SPDX-License-Identifier: MIT
// Thread per ant (Cecilia et al. 3.1.2): the task-parallel baseline. Each thread builds one ant's
// whole tour with the sequential selection of thread_selection.cuh; ants are spread over blocks of
// `block_size` threads (Cecilia's 16 by default), each ant's visited bitmask in shared memory.
#include "aco/cuda/construction_kernels.cuh"
#include "aco/cuda/thread_selection.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

template <Selection kMethod>
__global__ void __launch_bounds__(1024) construct_thread_per_ant(ConstructionArgs a, RowSource src) {
  extern __shared__ uint32_t dynamic_shared[];
  const int words = a.ld / 32;
  const int ant = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (ant >= a.m) return;  // no barriers below
  const int n = a.n;
  VisitedBits visited{dynamic_shared + static_cast<size_t>(threadIdx.x) * words};
  for (int w = 0; w < words; ++w) visited.words[w] = 0;
  const uint64_t key = key_of(a);
  int current = start_city(a, key, ant);
  visited.set(current);
  int32_t* tour = a.tours + static_cast<size_t>(ant) * n;
  tour[0] = current;
  for (int p = 1; p < n; ++p) {
    const StepRandom rnd{key, static_cast<uint32_t>(ant), static_cast<uint32_t>(p)};
    current = thread_select<kMethod>(src.fitness + static_cast<size_t>(current) * src.ld, n, visited, rnd);
    visited.set(current);
    tour[p] = current;
  }
}

}  // namespace

void launch_thread_per_ant(Selection selection, const ConstructionArgs& args, cudaStream_t stream) {
  const auto kernel = selection == Selection::IRoulette ? construct_thread_per_ant<Selection::IRoulette>
                                                        : construct_thread_per_ant<Selection::Roulette>;
  FORMICA_EXPECTS(selection == Selection::IRoulette || selection == Selection::Roulette, "thread-per-ant has no ",
                  to_string(selection), " selection");
  const size_t bytes = args.layout.bytes();
  allow_shared(kernel, bytes);
  const int blocks = (args.m + args.block_size - 1) / args.block_size;
  kernel<<<blocks, args.block_size, bytes, stream>>>(args, row_source(args));
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
