// Start tours for the restarts (see start_tour.h).
#include "localsearch/start_tour.h"

#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"

namespace formica::localsearch {
namespace {

constexpr uint64_t kRandomStartTag = 0x32524e44;        // "2RND"
constexpr uint64_t kNearestNeighbourTag = 0x324e4e53;  // "2NNS"

}  // namespace

uint64_t random_start_key(uint64_t seed, int64_t restart) {
  return derive_seed(derive_seed(seed, kRandomStartTag), static_cast<uint64_t>(restart));
}

std::vector<int32_t> random_start(int n, uint64_t seed, int64_t restart) {
  const RandomPermutation permutation(static_cast<uint32_t>(n), random_start_key(seed, restart));
  std::vector<int32_t> tour(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) tour[p] = static_cast<int32_t>(permutation(static_cast<uint32_t>(p)));
  return tour;
}

std::vector<int32_t> start_tour(const Instance& instance, StartKind kind, uint64_t seed, int64_t restart) {
  switch (kind) {
    case StartKind::Random: return random_start(instance.n(), seed, restart);
    case StartKind::NearestNeighbour: {
      int first = 0;
      if (restart > 0) {
        RandomStream rng(derive_seed(seed, kNearestNeighbourTag), static_cast<uint64_t>(restart));
        first = static_cast<int>(rng.below(static_cast<uint32_t>(instance.n())));
      }
      return nearest_neighbour_tour(instance, first);
    }
    case StartKind::SpaceFillingCurve:
      return space_filling_curve_tour(instance, static_cast<uint64_t>(restart), seed);
  }
  return {};
}

}  // namespace formica::localsearch
