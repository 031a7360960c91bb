// SPDX-License-Identifier: MIT
// Minimum spanning trees of the complete graph by Prim's O(n^2) algorithm: every pair is looked
// at, so the tree is minimal over the complete graph by construction. For EXPLICIT and GEO
// instances, and for moderate n of any type.
#pragma once

#include <span>
#include <vector>

#include "bounds/one_tree.h"
#include "bounds/penalised_edge.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::bounds {

/// The minimum spanning tree of the complete graph under penalised weights (the unique one under
/// `lighter`), on `threads` threads; the result does not depend on the thread count. Throws
/// TreeAbandoned (one_tree.h) once `abandon` (null: never) asks, looked at every step.
std::vector<Edge> dense_spanning_tree(const Instance& instance, std::span<const int64_t> pi, int threads,
                                      const StopFlag* abandon = nullptr);

/// The lightest edge (city, v) over every v other than city and `excluded`, O(n).
Edge dense_lightest_edge(const Instance& instance, std::span<const int64_t> pi, int city, int excluded);

}  // namespace formica::bounds
