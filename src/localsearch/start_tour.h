// SPDX-License-Identifier: MIT
// The tour each restart climbs from (Robinson et al. section 2.2 for random restarts), shared by
// the CPU and CUDA backends and by any algorithm that wants a start tour.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"
#include "core/random_permutation.h"
#include "core/rng.h"
#include "localsearch/config.h"

namespace formica {
struct StopFlag;
}

namespace formica::localsearch {

/// Key of the random permutation restart `restart` starts from; the device uses the same key, so
/// CPU and GPU restart r start from the same tour.
FORMICA_HD inline uint64_t random_start_key(uint64_t seed, int64_t restart) {
  constexpr uint64_t kRandomStartTag = 0x32524e44;  // "2RND"
  return derive_seed(derive_seed(seed, kRandomStartTag), static_cast<uint64_t>(restart));
}

/// The random start of restart `restart`: city RandomPermutation(n, key)(p) at position p.
std::vector<int32_t> random_start(int n, uint64_t seed, int64_t restart);

/// The start tour of restart `restart` (0-based) for `kind`: see StartKind. The nearest-neighbour
/// start begins at city 0 for restart 0 and at a seeded random city afterwards; the
/// space-filling-curve start is the Hilbert-curve tour for restart 0 and a seeded variant after.
/// The nearest-neighbour start throws SetupStopped (core/search.h) when `stop` asks before it is done.
std::vector<int32_t> start_tour(const Instance& instance, StartKind kind, uint64_t seed, int64_t restart,
                                const StopFlag* stop = nullptr);

/// The nearest-neighbour start of restart `restart` while `stop` (null: never) allows it, else at
/// once a start that needs no k-d tree: the space-filling curve's tour where the cities have
/// coordinates, the identity otherwise. For a tour that must exist by a deadline.
std::vector<int32_t> start_tour_in_time(const Instance& instance, uint64_t seed, int64_t restart,
                                        const StopFlag* stop);

/// The start tours of restarts first .. first + count - 1, one after another (count x n cities),
/// built by `threads` threads.
std::vector<int32_t> start_tours(const Instance& instance, StartKind kind, uint64_t seed, int64_t first,
                                 int64_t count, int threads);

}  // namespace formica::localsearch
