// Candidate lists: the k nearest neighbours of every city, nearest first.
//
// Built in O(n log n) with a k-d tree for coordinate instances (100,000 cities in well under a
// second) and by partial sorting of each matrix row for EXPLICIT ones. Ant construction, 2-opt and
// Or-opt read these lists so that a step costs O(k) rather than O(n).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"

namespace formica {

class CandidateLists {
 public:
  CandidateLists() = default;
  CandidateLists(int n, int k, std::vector<int32_t> ids);

  int n() const { return n_; }
  int k() const { return k_; }
  /// The k nearest other cities of `city`, nearest first.
  std::span<const int32_t> of(int city) const {
    return {ids_.data() + static_cast<size_t>(city) * k_, static_cast<size_t>(k_)};
  }
  /// All lists, row-major n x k (what the GPU kernels copy).
  std::span<const int32_t> data() const { return ids_; }

 private:
  int n_ = 0, k_ = 0;
  std::vector<int32_t> ids_;
};

/// The k nearest neighbours of every city (k is clamped to n - 1). Ties break by city index.
/// `threads` > 1 builds rows in parallel; the result does not depend on it.
CandidateLists build_candidate_lists(const Instance& instance, int k, int threads = 1);

}  // namespace formica
