// SPDX-License-Identifier: MIT
// The GPU construction kernels' fallback rule, callable from the host so that tests can hold it
// against the CPU's select_fallback (aco/cpu/candidate_selection.h). Host header: no CUDA types.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "aco/candidate_set.h"
#include "core/instance.h"

namespace formica::aco::cuda {

/// The next city of an ant that no candidate can take, as the warp kernels choose it, one warp per
/// query: query q's ant stands at from[q] and has visited the cities whose flags in
/// visited[q n .. q n + n) are nonzero (at least one city is unvisited). The first unvisited city
/// of `set`'s fallback list, else the nearest unvisited city by exact distance, lowest index on ties.
std::vector<int32_t> device_fallback_cities(const Instance& instance, const CandidateSet& set,
                                            std::span<const int32_t> from, std::span<const uint8_t> visited);

}  // namespace formica::aco::cuda
