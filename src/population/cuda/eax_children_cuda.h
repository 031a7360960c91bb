// SPDX-License-Identifier: MIT
// GA-EAX's children on the GPU: the population's tours and their links in device memory, and a
// generation's pair crossovers (population/eax_pair.h: difference, AB-cycles, single-cycle
// children, subtours joined, the best by the entropy score) run there all at once, a block per
// pair: its threads find the difference, one traces the AB-cycles, and several warps make the
// children at once. The host keeps the selection's bookkeeping: it takes the children back as edge
// exchanges of A and builds the tours it keeps. The kernel runs the very code the host's tests
// check against EdgeAssembly, so a pair's child on the GPU is the host's, edge for edge
// (`EaxChildrenCuda.*` checks it on the device). Host header: no CUDA types.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "population/config.h"          // kMaxGpuMakers
#include "population/partition_merge.h"  // Edge

namespace formica::population::cuda {

/// What one pair's crossover on the GPU gave: the children made (0: the parents are the same
/// tour) and the best one, an exchange of A's edges with its gain.
struct PairChild {
  int made = 0;
  int64_t gain = 0;
  std::vector<Edge> removed, added;
};

/// One pair of a generation: the population's slots of A and B, and the random stream of the
/// pair's draws (RandomStream(seed, stream)).
struct PairJob {
  int a = 0, b = 0;
  uint64_t stream = 0;
};

class EaxChildrenCuda {
 public:
  /// Warps of a pair's block that make children at once, at most.
  static constexpr int kMaxMakers = kMaxGpuMakers;
  /// The subtours are joined over the first `merge_neighbours` cities of each list, as
  /// EdgeAssembly joins them; a pair's children are made `makers` at a time (1 to kMaxMakers: the
  /// same children, sooner), each with a workspace of its own; the pairs of one launch take at most
  /// a quarter of the device memory free when the object is made (more pairs: more launches). The
  /// instance must not hold an implicit path city.
  EaxChildrenCuda(const Instance& instance, const CandidateLists& lists, int merge_neighbours,
                  int makers = EdgeAssemblyConfig{}.gpu_makers);
  ~EaxChildrenCuda();
  EaxChildrenCuda(const EaxChildrenCuda&) = delete;
  EaxChildrenCuda& operator=(const EaxChildrenCuda&) = delete;

  /// The population: every tour a permutation of the n cities, uploaded with its links.
  void set_population(std::span<const std::vector<int32_t>> tours);
  /// Every tour of `slots` replaced by the population's `tours[slot]`, in one copy.
  void set_tours(std::span<const int> slots, std::span<const std::vector<int32_t>> tours);

  /// Every pair's best of up to `children` single-AB-cycle children, scored by GA-EAX's
  /// entropy-preserving score over the population as uploaded (by the gain without `entropy`),
  /// written to `out` (one per job). `stop` (when given) is watched while the kernel runs and cuts
  /// it off between two rounds of children: then false, and `out` holds nothing to take. Throws
  /// std::logic_error when a crossover breaks its own invariants.
  bool best_children(std::span<const PairJob> jobs, uint64_t seed, int children, bool entropy,
                     std::vector<PairChild>& out, const StopFlag* stop = nullptr);

  /// The seconds the crossover kernels have run so far (CUDA events).
  double kernel_seconds() const;
  /// The shares of the pair blocks' time spent finding the difference, tracing the AB-cycles and
  /// making the children (clock cycles summed over the blocks).
  std::array<double, 3> phase_shares() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace formica::population::cuda
