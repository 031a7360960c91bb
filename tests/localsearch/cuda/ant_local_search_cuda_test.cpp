// SPDX-License-Identifier: MIT
// The GPU's ant local search (a warp per tour) against the CPU's NeighbourClimber without the final
// sweep: the same tours and active cities give the same tours and the same exact gains, move for
// move, on every metric, at n = 3, 4, 5, a non-power-of-two n and n larger than a block's threads,
// with 2-opt alone, with Or-opt and with Or-opt and 3-opt, from every city or from a few; the gains
// are the true length changes (no false improvement), and a climb without the sweep followed by the
// CPU's sweep ends in the brute-force-checked local optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "core/candidates.h"
#include "core/error.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/or_opt_check.h"
#include "localsearch/start_tour.h"
#include "localsearch/three_opt_check.h"
#include "localsearch/two_opt_check.h"

#if FORMICA_HAVE_CUDA
#include "localsearch/cuda/ant_local_search.h"
#endif

namespace formica::localsearch::cuda {
namespace {

#if FORMICA_HAVE_CUDA

/// `count` start tours of the instance: random ones and, for n >= 8, the space-filling curve.
std::vector<int32_t> start_tours_of(const Instance& instance, int count, uint64_t seed) {
  std::vector<int32_t> tours;
  for (int t = 0; t < count; ++t) {
    const std::vector<int32_t> tour = t == 1 && instance.n() >= 8 && instance.has_coordinates()
                                          ? space_filling_curve_tour(instance)
                                          : random_start(instance.n(), seed, t);
    tours.insert(tours.end(), tour.begin(), tour.end());
  }
  return tours;
}

/// Climbs each tour on the CPU as the GPU should: returns the tours and gains.
std::vector<int64_t> climb_on_cpu(const Instance& instance, const CandidateLists& lists, LocalSearchKind kind,
                                  std::vector<int32_t>& tours, std::span<const std::vector<int32_t>> active) {
  const int n = instance.n();
  cpu::NeighbourClimber climber(instance, lists, cpu::climb_options(kind, false));
  std::vector<int64_t> gains;
  for (size_t t = 0; t * n < tours.size(); ++t) {
    const std::span<int32_t> tour(tours.data() + t * n, static_cast<size_t>(n));
    if (active.empty()) {
      gains.push_back(climber.climb(tour).gain);
      continue;
    }
    std::vector<int32_t> pos(static_cast<size_t>(n));
    for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    gains.push_back(climber.climb(tour, pos, active[t], nullptr).gain);
  }
  return gains;
}

void expect_same_climbs(const Instance& instance, int k, LocalSearchKind kind, bool from_all,
                        const std::string& what) {
  const int n = instance.n(), count = 5;
  const CandidateLists lists = build_candidate_lists(instance, k);
  std::vector<int32_t> cpu = start_tours_of(instance, count, 7), gpu = cpu;
  const std::vector<int32_t> before = cpu;
  std::vector<std::vector<int32_t>> active;
  if (!from_all) {
    RandomStream rng(n, 3);
    for (int t = 0; t < count; ++t) {
      std::vector<int32_t> cities;
      for (int i = 0; i < 6; ++i) cities.push_back(static_cast<int32_t>(rng.below(static_cast<uint32_t>(n))));
      active.push_back(cities);  // repeats included: the queue skips them on both sides
    }
  }
  const std::vector<int64_t> cpu_gains = climb_on_cpu(instance, lists, kind, cpu, active);
  const ClimbedOnGpu climbed_on_gpu = climb_tours_on_gpu(instance, lists, kind, gpu, active);
  ASSERT_TRUE(climbed_on_gpu.completed) << what;
  const std::vector<int64_t>& gpu_gains = climbed_on_gpu.gains;
  ASSERT_EQ(gpu_gains, cpu_gains) << what;
  ASSERT_EQ(gpu, cpu) << what;
  for (int t = 0; t < count; ++t) {
    const std::vector<int32_t> start(before.begin() + t * n, before.begin() + (t + 1) * n);
    const std::vector<int32_t> climbed(gpu.begin() + t * n, gpu.begin() + (t + 1) * n);
    EXPECT_EQ(gpu_gains[t], tour_length(instance, start) - Tour(instance, climbed).length())
        << what << " tour " << t;
    EXPECT_GE(gpu_gains[t], 0) << what;
  }
}

TEST(AntLocalSearchCuda, MatchesTheCpuClimberMoveForMoveOnEveryMetric) {
  FORMICA_REQUIRE_CUDA();
  for (const EdgeWeightType type : test::all_metrics())
    for (const int n : {3, 4, 5, 7, 33, 300})
      for (const LocalSearchKind kind :
           {LocalSearchKind::TwoOpt, LocalSearchKind::OrOpt, LocalSearchKind::ThreeOpt})
        for (const bool from_all : {true, false}) {
          const Instance instance = test::metric_instance(type, n, 40 + n, n < 20 ? 20 : 1000);
          expect_same_climbs(instance, 8, kind, from_all,
                             concat(to_string(type), " n = ", n, " ", to_string(kind),
                                    from_all ? " all active" : " few active"));
        }
}

TEST(AntLocalSearchCuda, MatchesTheCpuOnLargerToursAndLongerLists) {
  FORMICA_REQUIRE_CUDA();
  for (const int n : {1000, 5003}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n);
    for (const int k : {10, 32})
      for (const LocalSearchKind kind : {LocalSearchKind::OrOpt, LocalSearchKind::ThreeOpt})
        expect_same_climbs(instance, k, kind, true,
                           concat("clustered n = ", n, " k = ", k, " ", to_string(kind)));
  }
}

TEST(AntLocalSearchCuda, EndsInTheBruteForceLocalOptimumAfterTheSweep) {
  FORMICA_REQUIRE_CUDA();
  // The GPU climb has no final sweep; the CPU's sweep after it must find only what don't-look
  // bits leave, and end in the neighbourhood's local optimum (checked by brute force).
  const Instance instance = io::generate_instance(150, io::InstanceKind::Uniform, 3);
  const CandidateLists lists = build_candidate_lists(instance, 8);
  for (const LocalSearchKind kind : {LocalSearchKind::OrOpt, LocalSearchKind::ThreeOpt}) {
    std::vector<int32_t> tours = random_start(150, 5, 0);
    climb_tours_on_gpu(instance, lists, kind, tours, {});
    cpu::NeighbourClimber(instance, lists, cpu::climb_options(kind, true)).climb(tours);
    const std::vector<int64_t> gains = test::listed_move_gains(instance, lists, tours);
    EXPECT_EQ(*std::max_element(gains.begin(), gains.end()), 0) << to_string(kind);
    EXPECT_EQ(test::best_listed_or_opt_gain(instance, lists, tours, false), 0) << to_string(kind);
    if (kind == LocalSearchKind::ThreeOpt) {
      EXPECT_EQ(test::best_listed_three_opt_gain(instance, lists, tours), 0);
    }
  }
}

TEST(AntLocalSearchCuda, AStopCutsTheClimbsOffBetweenMovesAndLeavesPermutations) {
  FORMICA_REQUIRE_CUDA();
  // 64 random tours of 20,000 cities climb by 2-opt for far longer than the stop's 20 ms: every
  // tour comes back a permutation shortened by exactly its gain, and the call returns soon after
  // the stop, not once the climbs end.
  const int n = 20'000, count = 64;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 11);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tours;
  for (int t = 0; t < count; ++t) {
    const std::vector<int32_t> start = random_start(n, 5, t);
    tours.insert(tours.end(), start.begin(), start.end());
  }
  const std::vector<int32_t> before = tours;
  StopFlag stop;
  stop.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  const auto start = std::chrono::steady_clock::now();
  const ClimbedOnGpu climbed = climb_tours_on_gpu(instance, lists, LocalSearchKind::TwoOpt, tours, {}, &stop);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(climbed.completed);
  EXPECT_LT(seconds, 1.0) << "the climbs went on after the stop";
  int64_t gained = 0;
  for (int t = 0; t < count; ++t) {
    const std::vector<int32_t> first(before.begin() + t * n, before.begin() + (t + 1) * n);
    const std::vector<int32_t> last(tours.begin() + t * n, tours.begin() + (t + 1) * n);
    validate_permutation(last, n);
    EXPECT_EQ(climbed.gains[t], tour_length(instance, first) - tour_length(instance, last)) << t;
    gained += climbed.gains[t];
  }
  EXPECT_GT(gained, 0) << "no move in 20 ms";
}

#else

TEST(AntLocalSearchCuda, MatchesTheCpuClimberMoveForMoveOnEveryMetric) {
  GTEST_SKIP() << "skipped: built without CUDA";
}

#endif

}  // namespace
}  // namespace formica::localsearch::cuda
