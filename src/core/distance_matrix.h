// SPDX-License-Identifier: MIT
// The full matrix of exact distances, for the dense algorithms (O(n^2) memory: small n only).
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

/// Row-major n x ld matrix (ld >= n; columns n..ld-1 and rows n..ld-1 are zero) of exact
/// distances as int32 (TSPLIB distances fit). Rows are filled by `threads` OpenMP threads.
std::vector<int32_t> dense_distance_matrix(const Instance& instance, int ld, int threads);

}  // namespace formica
