// SPDX-License-Identifier: MIT
// Start tours for the restarts (see start_tour.h).
#include "localsearch/start_tour.h"

#include <algorithm>
#include <numeric>

#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/search.h"
#include "core/space_filling_curve.h"

namespace formica::localsearch {
namespace {

constexpr uint64_t kNearestNeighbourTag = 0x324e4e53;  // "2NNS"

}  // namespace

std::vector<int32_t> random_start(int n, uint64_t seed, int64_t restart) {
  const RandomPermutation permutation(static_cast<uint32_t>(n), random_start_key(seed, restart));
  std::vector<int32_t> tour(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) tour[p] = static_cast<int32_t>(permutation(static_cast<uint32_t>(p)));
  return tour;
}

std::vector<int32_t> start_tour(const Instance& instance, StartKind kind, uint64_t seed, int64_t restart,
                                const StopFlag* stop) {
  switch (kind) {
    case StartKind::Random: return random_start(instance.n(), seed, restart);
    case StartKind::NearestNeighbour: {
      int first = 0;
      if (restart > 0) {
        RandomStream rng(derive_seed(seed, kNearestNeighbourTag), static_cast<uint64_t>(restart));
        first = static_cast<int>(rng.below(static_cast<uint32_t>(instance.n())));
      }
      return nearest_neighbour_tour(instance, first, stop);
    }
    case StartKind::SpaceFillingCurve:
      return space_filling_curve_tour(instance, static_cast<uint64_t>(restart), seed);
  }
  return {};
}

std::vector<int32_t> start_tour_in_time(const Instance& instance, uint64_t seed, int64_t restart,
                                        const StopFlag* stop) {
  try {
    if (stop != nullptr && stop->requested()) throw SetupStopped();  // before the k-d tree
    return start_tour(instance, StartKind::NearestNeighbour, seed, restart, stop);
  } catch (const SetupStopped&) {
    if (instance.has_display_coordinates()) return space_filling_curve_tour(instance);
    std::vector<int32_t> order(static_cast<size_t>(instance.n()));
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
}

std::vector<int32_t> start_tours(const Instance& instance, StartKind kind, uint64_t seed, int64_t first,
                                 int64_t count, int threads) {
  const size_t n = static_cast<size_t>(instance.n());
  std::vector<int32_t> tours(static_cast<size_t>(count) * n);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
  for (int64_t r = 0; r < count; ++r) {
    const std::vector<int32_t> tour = start_tour(instance, kind, seed, first + r);
    std::copy(tour.begin(), tour.end(), tours.begin() + static_cast<ptrdiff_t>(r * static_cast<int64_t>(n)));
  }
  return tours;
}

}  // namespace formica::localsearch
