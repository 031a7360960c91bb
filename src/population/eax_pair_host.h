// SPDX-License-Identifier: MIT
// The host's side of eax_pair.h: a parent's arrays from its tour, a pair's workspace in host
// memory, and the entropy terms of GA-EAX's score, shared by EdgeAssemblySearch and the GPU's
// children (population/cuda/eax_children_cuda.h) so that both score with the same doubles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "population/eax_pair.h"

namespace formica::population::eax {

/// Writes `tour`'s positions (city -> position, n words) and links (successor, predecessor: 2n
/// words), the arrays of a ParentView.
void parent_arrays(std::span<const int32_t> tour, int32_t* pos, int32_t* links);

/// A parent's arrays in host memory.
struct HostParent {
  std::vector<int32_t> tour, pos, links;
  explicit HostParent(std::span<const int32_t> cities);
  ParentView view() const { return {static_cast<int>(tour.size()), tour.data(), pos.data(), links.data()}; }
};

/// A pair's workspace in host memory, for n cities.
class HostPairWork {
 public:
  explicit HostPairWork(int n);
  PairWork& work() { return work_; }

 private:
  std::vector<int64_t> words_;  // int64: the bound words stay 8-byte aligned
  PairWork work_;
};

/// The entropy term -(c / p) log(c / p) (0 for c = 0) of every count c from 0 to p + 1 for a
/// population of p tours: PopulationScore::h and EdgeAssemblySearch's score.
std::vector<double> entropy_terms(int population);

}  // namespace formica::population::eax
