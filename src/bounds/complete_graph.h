// SPDX-License-Identifier: MIT
// Minimum 1-trees of the complete graph: what makes a Held-Karp bound proven. Dense Prim looks at
// every pair; Boruvka over a k-d tree skips only pairs it proves too heavy (kd_boruvka.h). Both
// give the unique minimum spanning tree under `lighter`, so the choice changes the time only.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "bounds/kd_boruvka.h"
#include "bounds/one_tree.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::bounds {

/// Up to this many cities dense Prim is used whatever the type (n^2 / 2 distances are cheap).
inline constexpr int kDensePrimUpTo = 3000;

class CompleteGraph {
 public:
  /// Builds the k-d tree when the type allows it and n > dense_up_to.
  explicit CompleteGraph(const Instance& instance, int dense_up_to = kDensePrimUpTo);

  /// The minimum 1-tree of the complete graph under pi, on `threads` threads. Throws
  /// std::invalid_argument unless pi has n penalties within +-kMaxPenalty (exact weights), and
  /// TreeAbandoned once `abandon` (null: never) asks.
  OneTree one_tree(std::span<const int64_t> pi, int threads, const StopFlag* abandon = nullptr);
  /// "dense Prim" or "k-d tree Boruvka".
  std::string_view method() const { return boruvka_ ? "k-d tree Boruvka" : "dense Prim"; }

 private:
  const Instance& instance_;
  std::optional<KdBoruvka> boruvka_;
};

}  // namespace formica::bounds
