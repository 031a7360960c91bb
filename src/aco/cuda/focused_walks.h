// SPDX-License-Identifier: MIT
// Host entry to the GPU's focused walks (focused_construction.cuh) for tests: no CUDA types, so
// CPU-only builds compile the files that include it (the function exists only in CUDA builds).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/candidate_set.h"
#include "core/instance.h"

namespace formica::aco::cuda {

struct GpuWalks {
  std::vector<int32_t> tours;                ///< one tour of n cities per seed
  std::vector<int64_t> deltas;               ///< exact length change of each walk
  std::vector<std::vector<int32_t>> queued;  ///< the cities each walk queued, in order, no repeats
};

/// One focused walk per seed from `source` on the GPU, as aco::focused_walk walks on the CPU with
/// RandomStream(seed, 0, substream): `fitness` is n x set.width, `q0` > 0 the pseudo-random rule.
GpuWalks focused_walks_on_gpu(const Instance& instance, const CandidateSet& set,
                              std::span<const float> fitness, std::span<const int32_t> source,
                              std::span<const uint64_t> seeds, uint32_t substream, int edges, double q0);

}  // namespace formica::aco::cuda
