// SPDX-License-Identifier: MIT
// How many lanes build one ant's tour on the GPU, and whether the candidate rows are staged in
// shared memory (aco/cuda/candidate_construction.cu): host functions, in a header without CUDA so
// that C++ tests can check the choice.
#pragma once

#include <cstddef>

#include "aco/colony_config.h"

namespace formica::aco::cuda {

/// Lanes that build one ant's tour for `construction` at this size: 32, 16 or 8 (a group of lanes
/// per ant), or 1 (thread per ant). Auto (measured on an H100, MMAS with m = n): a warp per ant
/// where the rows fit in shared memory (the step is then latency-bound: pr1002 0.38 ms against
/// 0.61 with half a warp); else half a warp (two ants per warp) while all the ants' warps are
/// resident on the `multiprocessors` SMs at once, a warp per ant beyond.
int construction_lanes(AntConstruction construction, int n, int width, int ants_per_matrix, int matrices,
                       int multiprocessors);

/// Bytes of shared memory a group-per-ant block uses with `warps` warps, staging the rows or not.
size_t construction_shared_bytes(int n, int width, int warps, int lanes, bool staged);

/// True if the group-per-ant kernel with `lanes` lanes per ant stages the matrix's rows in shared
/// memory at this size.
bool construction_stages(int n, int width, int lanes);

}  // namespace formica::aco::cuda
