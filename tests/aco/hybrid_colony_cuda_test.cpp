// SPDX-License-Identifier: MIT
// Ants with local search on the GPU: the focused walks against the CPU's (the same tours, length
// changes and queued cities for the same source, fitness and seeds, both decision rules, n = 3, 4,
// 33 and more cities than a block has threads); whole colonies (MMAS focused and whole tours, ACS)
// with valid tours and exact lengths, the first iteration equal to the CPU backend's, the same
// result for the same seed, the solver's auto portfolio on the GPU, and the memory check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "aco/candidate_set.h"
#include "aco/colony_merge.h"
#include "aco/cpu/colony_search.h"
#include "aco/cpu/focused_construction.h"
#include "core/candidates.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/tour.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "solver/solver.h"
#include "test_support.h"

#if FORMICA_HAVE_CUDA
#include "aco/cuda/colony_search_cuda.h"
#include "aco/cuda/focused_walks.h"
#include "aco/focused_support.h"
#endif

namespace formica::aco {
namespace {

#if FORMICA_HAVE_CUDA

using localsearch::LocalSearchKind;

TEST(FocusedWalksCuda, MatchTheCpuWalksStepForStep) {
  FORMICA_REQUIRE_CUDA();
  for (const int n : {3, 4, 33, 300, 2000})
    for (const double q0 : {0.0, 0.9})
      for (const bool good_source : {false, true}) {
        const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n);
        const CandidateSet set = build_candidate_set(instance, 12, 0, 2.0, 1);
        std::vector<int32_t> source = localsearch::random_start(n, 2, 0);
        if (good_source)
          localsearch::cpu::climb_neighbour_lists(instance, build_candidate_lists(instance, 8), source);
        // Pheromone that prefers the source's edges, with random noise everywhere.
        std::vector<int32_t> next(n), previous(n);
        for (int p = 0; p < n; ++p)
          next[source[p]] = source[(p + 1) % n], previous[source[(p + 1) % n]] = source[p];
        RandomStream noise(n, 9);
        std::vector<float> fitness(set.ids.size());
        for (size_t e = 0; e < fitness.size(); ++e) {
          const int i = static_cast<int>(e / set.width), j = set.ids[e];
          const float tau = j == next[i] || j == previous[i] ? 1.0f : 0.02f + 0.05f * noise.next_float();
          fitness[e] = tau * set.eta_beta[e];
        }
        const std::vector<uint64_t> seeds = {1, 2, 3, 0xdeadbeefcafeull, 5, 6, 7};
        const uint32_t substream = 4;
        const int edges = 8;
        const cuda::GpuWalks gpu =
            cuda::focused_walks_on_gpu(instance, set, fitness, source, seeds, substream, edges, q0);
        WalkMarks walked(n);
        for (size_t a = 0; a < seeds.size(); ++a) {
          std::vector<int32_t> tour = source, pos(n), touched;
          for (int p = 0; p < n; ++p) pos[source[p]] = p;
          localsearch::cpu::ArrayTour array(tour, pos);
          RandomStream rng(seeds[a], 0, substream);
          const FocusedWalk walk =
              focused_walk(instance, set, fitness, array, edges, q0, rng, walked, touched);
          const std::string what =
              concat("n = ", n, " q0 = ", q0, good_source ? " good source" : " random source", " ant ", a);
          const std::vector<int32_t> gpu_tour(gpu.tours.begin() + static_cast<ptrdiff_t>(a) * n,
                                              gpu.tours.begin() + static_cast<ptrdiff_t>(a + 1) * n);
          ASSERT_EQ(gpu_tour, tour) << what;
          EXPECT_EQ(gpu.deltas[a], walk.delta) << what;
          std::vector<int32_t> unique;
          for (const int32_t city : touched)
            if (std::find(unique.begin(), unique.end(), city) == unique.end()) unique.push_back(city);
          EXPECT_EQ(gpu.queued[a], unique) << what;
        }
      }
}

ColonyConfig hybrid_config(ColonyVariant variant, LocalSearchKind ls, int focused, uint64_t seed = 1) {
  ColonyConfig config;
  config.variant = variant;
  config.ants = 40;
  config.local_search = ls;
  config.focused_edges = focused;
  config.mmas_rho = variant == ColonyVariant::Acs ? 0.0 : 0.5;
  config.seed = seed;
  config.threads = 2;
  return config;
}

void check_tours(const Instance& instance, const ColonySearchCuda& search, const std::string& what) {
  const int n = instance.n();
  const std::vector<int32_t> tours = search.tours();
  const std::vector<int64_t> lengths = search.tour_lengths();
  for (int a = 0; a < search.total_ants(); ++a) {
    const std::vector<int32_t> tour(tours.begin() + static_cast<ptrdiff_t>(a) * n,
                                    tours.begin() + static_cast<ptrdiff_t>(a + 1) * n);
    ASSERT_EQ(Tour(instance, tour).length(), lengths[a]) << what << " ant " << a;
  }
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), search.best_length()) << what;
}

TEST(HybridColonyCuda, ToursAreValidWithExactLengths) {
  FORMICA_REQUIRE_CUDA();
  for (const int n : {3, 4, 33, 300})
    for (const auto& [variant, ls, focused] : {std::tuple{ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8},
                                               std::tuple{ColonyVariant::Mmas, LocalSearchKind::TwoOpt, 3},
                                               std::tuple{ColonyVariant::Mmas, LocalSearchKind::OrOpt, 0},
                                               std::tuple{ColonyVariant::Mmas, LocalSearchKind::None, 5},
                                               std::tuple{ColonyVariant::Acs, LocalSearchKind::OrOpt, 0}}) {
      const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n + 1);
      ColonyConfig config = hybrid_config(variant, ls, focused);
      if (variant == ColonyVariant::Acs) config.ants = 10;
      ColonySearchCuda search(instance, config);
      const std::string what =
          concat(to_string(variant), " ", localsearch::to_string(ls), " focused ", focused, " n = ", n);
      for (int it = 0; it < 5; ++it) {
        ASSERT_TRUE(search.step(StopFlag{})) << what;
        check_tours(instance, search, what);
      }
    }
}

TEST(HybridColonyCuda, SeveralFocusedColoniesOnQuadrantListsMatchTheCpu) {
  FORMICA_REQUIRE_CUDA();
  // What auto runs below 4,000 cities on the GPU: independent MMAS colonies of focused ants with
  // Or-opt over quadrant lists. The first iterations must give the CPU backend's tours exactly.
  const Instance instance = io::generate_instance(900, io::InstanceKind::Clustered, 6);
  ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 24, 9);
  config.colonies = 4;
  config.ants = 8;
  config.neighbour_lists = NeighbourShape::Quadrant;
  ColonySearchCpu cpu(instance, config);
  ColonySearchCuda gpu(instance, config);
  for (int it = 0; it < 3; ++it) {
    ASSERT_TRUE(cpu.step(StopFlag{}));
    ASSERT_TRUE(gpu.step(StopFlag{}));
    check_tours(instance, gpu, concat("iteration ", it));
    const std::vector<int32_t> gpu_tours = gpu.tours();
    ASSERT_TRUE(std::equal(gpu_tours.begin(), gpu_tours.end(), cpu.tours().begin())) << "iteration " << it;
    EXPECT_EQ(gpu.best_length(), cpu.best_length()) << "iteration " << it;
  }
}

TEST(HybridColonyCuda, FirstFocusedIterationEqualsTheCpuBackends) {
  FORMICA_REQUIRE_CUDA();
  // Same start tour, same initial pheromone (computed on the host), same seeds: the first
  // iteration's walks and local searches must give the CPU backend's tours exactly.
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Clustered, 4);
  for (const LocalSearchKind ls : {LocalSearchKind::TwoOpt, LocalSearchKind::OrOpt}) {
    const ColonyConfig config = hybrid_config(ColonyVariant::Mmas, ls, 8, 3);
    ColonySearchCpu cpu(instance, config);
    ColonySearchCuda gpu(instance, config);
    ASSERT_TRUE(cpu.step(StopFlag{}));
    ASSERT_TRUE(gpu.step(StopFlag{}));
    const std::vector<int32_t> gpu_tours = gpu.tours();
    EXPECT_TRUE(std::equal(gpu_tours.begin(), gpu_tours.end(), cpu.tours().begin()))
        << localsearch::to_string(ls);
    const std::vector<int64_t> gpu_lengths = gpu.tour_lengths();
    EXPECT_TRUE(std::equal(gpu_lengths.begin(), gpu_lengths.end(), cpu.tour_lengths().begin()));
    EXPECT_EQ(gpu.best_length(), cpu.best_length());
  }
}

TEST(HybridColonyCuda, FocusedColoniesStartFromTheTourGivenAsTheCpuDoes) {
  FORMICA_REQUIRE_CUDA();
  // --initial-tour: an earlier run's best tour is where the GPU's colonies start. Given the same
  // start tour, the GPU's first iteration must give the CPU backend's tours exactly.
  const Instance instance = io::generate_instance(800, io::InstanceKind::Uniform, 17);
  ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 16, 6);
  config.ants = 8;
  const auto [start, length] = focused::earlier_run(instance, config, 10);
  config.colonies = 3;
  config.seed = 7;
  ColonySearchCpu cpu(instance, config, start);
  ColonySearchCuda gpu(instance, config, start);
  focused::expect_starts_from(gpu, start, length, 3);
  ASSERT_TRUE(cpu.step(StopFlag{}));
  ASSERT_TRUE(gpu.step(StopFlag{}));
  check_tours(instance, gpu, "started from the CPU's tour");
  const std::vector<int32_t> gpu_tours = gpu.tours();
  EXPECT_TRUE(std::equal(gpu_tours.begin(), gpu_tours.end(), cpu.tours().begin()));
  EXPECT_EQ(gpu.best_length(), cpu.best_length());
  EXPECT_LE(gpu.best_length(), length);
  EXPECT_THROW(ColonySearchCuda(instance, config, std::vector<int32_t>(start.begin(), start.end() - 1)), InputError);
}

TEST(HybridColonyCuda, AfterARestartTheFocusedAntsLeaveTheSourceTour) {
  FORMICA_REQUIRE_CUDA();
  // As on the CPU (hybrid_colony_test.cpp), with two colonies.
  using namespace focused;
  ColonyConfig config = converging(hybrid_config(ColonyVariant::Mmas, LocalSearchKind::None, kRestartEdges, 3));
  config.colonies = 2;
  config.ants = 6;
  const Instance instance = restart_instance();
  ColonySearchCuda search(instance, config);
  expect_restarts_widen_the_walks(search, kRestartCities, kRestartEdges, 2, config.ants);
}

TEST(HybridColonyCuda, SameSeedSameResult) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(700, io::InstanceKind::Uniform, 8);
  const ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8, 5);
  ColonySearchCuda a(instance, config), b(instance, config);
  for (int it = 0; it < 20; ++it) {
    ASSERT_TRUE(a.step(StopFlag{}));
    ASSERT_TRUE(b.step(StopFlag{}));
  }
  EXPECT_EQ(a.best_tour(), b.best_tour());
  EXPECT_EQ(a.tours(), b.tours());
}

TEST(HybridColonyCuda, MergingColoniesKeepsValidExactTours) {
  FORMICA_REQUIRE_CUDA();
  // --merge-tours: the host merges the best tours read back from the device and writes the merged
  // tour into the best colony's best and restart-best tours, which the ants then follow.
  const Instance instance = io::generate_instance(800, io::InstanceKind::Clustered, 7);
  ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 16, 5);
  config.colonies = 6;
  config.ants = 4;
  config.merge_tours = true;
  ColonySearchCuda a(instance, config), b(instance, config);
  for (int it = 0; it < 6 * kMergeInterval; ++it) {
    ASSERT_TRUE(a.step(StopFlag{}));
    ASSERT_TRUE(b.step(StopFlag{}));
    check_tours(instance, a, concat("iteration ", it));
  }
  EXPECT_GT(a.merges(), 0);
  EXPECT_EQ(a.merges(), b.merges());
  EXPECT_EQ(a.best_tour(), b.best_tour());
  EXPECT_EQ(Tour(instance, a.best_tour()).length(), a.best_length());
  const std::vector<int64_t> groups = a.group_best_lengths();
  for (int m = 0; m < config.colonies; ++m)
    EXPECT_EQ(Tour(instance, a.group_best_tour(m)).length(), groups[m]);
}

TEST(HybridColonyCuda, LocalSearchShortensTheTours) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Uniform, 6);
  ColonySearchCuda plain(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::None, 0));
  ColonySearchCuda focused(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8));
  for (int it = 0; it < 30; ++it) {
    ASSERT_TRUE(plain.step(StopFlag{}));
    ASSERT_TRUE(focused.step(StopFlag{}));
  }
  EXPECT_LT(focused.best_length(), 0.9 * static_cast<double>(plain.best_length()));
  EXPECT_GT(focused.last_step_times().local_search_ms, 0.0);
}

TEST(HybridColonyCuda, GacoWithLocalSearchStaysOnTheCpu) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(50, io::InstanceKind::Uniform, 1);
  EXPECT_THROW(ColonySearchCuda(instance, hybrid_config(ColonyVariant::Gaco, LocalSearchKind::OrOpt, 0)),
               InputError);
}

TEST(HybridColonyCuda, TooLittleDeviceMemoryIsAnOutOfMemoryError) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(20'000, io::InstanceKind::Uniform, 1);
  ::setenv("FORMICA_MEMORY_LIMIT_MB", "16", 1);
  ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8);
  config.ants = 1024;  // 1024 tours of 20,000 cities are 80 MiB alone
  EXPECT_THROW(ColonySearchCuda(instance, config), OutOfMemoryError);
  ::unsetenv("FORMICA_MEMORY_LIMIT_MB");
}

TEST(HybridColonyCuda, AutoSolvesOnTheGpu) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.time_limit = 4.0 * test::time_scale();  // 2 ms per city: 8 colonies whose best tours are merged
  const Result result = solve(instance, config);
  EXPECT_EQ(result.backend, Backend::Cuda);
  EXPECT_EQ(result.config.algorithm, Algorithm::Mmas);
  EXPECT_TRUE(result.config.colony.merge_tours);
  EXPECT_GT(result.iterations, 1);
  // A uniform instance's optimum is near 0.7124 sqrt(n A): 4 s of the hybrid are within a few percent.
  EXPECT_LT(static_cast<double>(result.tour.length()), 1.05 * 0.7124 * std::sqrt(2000.0 * 1e12));
}

#else

TEST(FocusedWalksCuda, MatchTheCpuWalksStepForStep) { GTEST_SKIP() << "skipped: built without CUDA"; }

#endif

}  // namespace
}  // namespace formica::aco
