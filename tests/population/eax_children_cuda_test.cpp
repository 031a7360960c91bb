// SPDX-License-Identifier: MIT
// GA-EAX's children on the GPU (population/cuda/eax_children_cuda.h): every pair's best child is
// the one the host's flat crossover makes of the same parents with the same stream, edge for edge,
// by gain and by the entropy score, on every metric, made one or several at a time; a replaced tour is the one the next
// crossovers read; each child is one tour of the length its gain says.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/candidates.h"
#include "core/error.h"
#include "core/path_transform.h"
#include "core/rng.h"
#include "core/tour.h"
#include "cuda/device.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "localsearch/two_opt_check.h"
#include "population/eax_pair_host.h"
#include "population/edge_assembly_search.h"
#include "population/partition_merge.h"
#include "test_support.h"
#if FORMICA_HAVE_CUDA
#include "population/cuda/eax_children_cuda.h"
#endif

namespace formica::population {
namespace {

#if FORMICA_HAVE_CUDA
std::vector<std::vector<int32_t>> climbed_population(const Instance& instance, const CandidateLists& lists, int size,
                                                     int seed) {
  std::vector<std::vector<int32_t>> tours;
  for (int t = 0; t < size; ++t) {
    tours.push_back(localsearch::random_start(instance.n(), static_cast<uint64_t>(seed), t));
    localsearch::cpu::NeighbourClimber(instance, lists, localsearch::cpu::ClimbOptions{.or_opt = true}).climb(tours.back());
  }
  return tours;
}

/// The GPU's children of `jobs` against the host's flat crossover over the same population.
void expect_the_hosts_children(const Instance& instance, const CandidateLists& lists,
                               const std::vector<std::vector<int32_t>>& population, cuda::EaxChildrenCuda& gpu,
                               const std::vector<cuda::PairJob>& jobs, bool entropy, const std::string& what,
                               int& made) {
  const int n = instance.n(), size = static_cast<int>(population.size());
  std::vector<int32_t> links(2 * static_cast<size_t>(n) * population.size()), pos(static_cast<size_t>(n));
  for (int t = 0; t < size; ++t) eax::parent_arrays(population[t], pos.data(), links.data() + 2 * static_cast<size_t>(n) * t);
  const std::vector<double> h = eax::entropy_terms(size);
  const eax::PopulationScore score{links.data(), size, n, entropy ? h.data() : nullptr};
  const auto distance = [&instance](int32_t u, int32_t v) { return instance.distance(u, v); };
  constexpr uint64_t kSeed = 77;
  std::vector<cuda::PairChild> children;
  gpu.best_children(jobs, kSeed, 30, entropy, children);
  ASSERT_EQ(children.size(), jobs.size());
  eax::HostPairWork work(n);
  for (size_t j = 0; j < jobs.size(); ++j) {
    const eax::HostParent a(population[jobs[j].a]);
    RandomStream rng(kSeed, jobs[j].stream);
    const eax::PairResult host = eax::best_child(a.view(), population[jobs[j].b].data(), distance, lists.data().data(),
                                                 lists.k(), std::min(10, lists.k()), 30, rng, score, work.work());
    ASSERT_EQ(work.work().fault, eax::PairFault::None) << what;
    ASSERT_EQ(children[j].made, host.made) << what << ", pair " << j;
    if (host.made == 0) continue;
    ++made;
    EXPECT_EQ(children[j].gain, host.gain) << what << ", pair " << j;
    std::vector<Edge> removed, added;
    for (int e = 0; e < work.work().best_removed_edges; ++e)
      removed.push_back(Edge{work.work().best_removed[2 * e], work.work().best_removed[2 * e + 1]});
    for (int e = 0; e < work.work().best_added_edges; ++e)
      added.push_back(Edge{work.work().best_added[2 * e], work.work().best_added[2 * e + 1]});
    EXPECT_EQ(children[j].removed, removed) << what << ", pair " << j;
    EXPECT_EQ(children[j].added, added) << what << ", pair " << j;
    if (removed.empty()) continue;  // a join undid the cycle
    const int64_t length = tour_length(instance, population[jobs[j].a]);
    const MergeBase base(instance, population[jobs[j].a], length);
    std::vector<int32_t> tour;
    ASSERT_TRUE(base.exchange_is_a_tour(children[j].removed, children[j].added, &tour)) << what;
    EXPECT_EQ(tour_length(instance, tour), length - children[j].gain) << what;
  }
}

std::vector<cuda::PairJob> ring_of_pairs(int size, uint64_t first_stream) {
  std::vector<cuda::PairJob> jobs;
  for (int i = 0; i < size; ++i) jobs.push_back({i, (i + 1) % size, first_stream + static_cast<uint64_t>(i)});
  jobs.push_back({2, 2, first_stream + 99});  // the same tour twice: no child
  return jobs;
}
#endif

TEST(EaxChildrenCuda, EveryPairsChildIsTheHostsEdgeForEdge) {
  FORMICA_REQUIRE_CUDA();
#if FORMICA_HAVE_CUDA
  int made = 0;
  for (const int n : {60, 1'001, 6'003}) {  // odd sizes too: the workspaces' alignment
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 5 + n);
    const CandidateLists lists = build_candidate_lists(instance, 10);
    // Children made one at a time and several at once (blocks of 256 and 1,024 threads): the same children.
    for (const int makers : {1, 3, 8, 9, cuda::EaxChildrenCuda::kMaxMakers}) {
      std::vector<std::vector<int32_t>> population = climbed_population(instance, lists, 8, n);
      cuda::EaxChildrenCuda gpu(instance, lists, 10, makers);
      gpu.set_population(population);
      for (const bool entropy : {false, true})
        expect_the_hosts_children(instance, lists, population, gpu, ring_of_pairs(8, 10 * n), entropy,
                                  concat(n, " cities, ", makers, " makers, entropy ", entropy), made);
      // A replaced tour: the next crossovers read it (and the workspaces' stamps carry on).
      population[3] = population[5];
      std::reverse(population[3].begin(), population[3].end());
      if (makers == 1) {
        gpu.set_tours(std::vector<int>{3}, population);
      } else {  // several at once
        population[6] = population[0];
        std::rotate(population[6].begin(), population[6].begin() + n / 3, population[6].end());
        gpu.set_tours(std::vector<int>{3, 6}, population);
      }
      expect_the_hosts_children(instance, lists, population, gpu, ring_of_pairs(8, 20 * n), true,
                                concat(n, " cities, ", makers, " makers, tour 3 replaced"), made);
    }
  }
  for (const EdgeWeightType type : test::all_metrics()) {
    const Instance instance = test::metric_instance(type, 300, 31, 1000);
    const CandidateLists lists = build_candidate_lists(instance, 10);
    const std::vector<std::vector<int32_t>> population = climbed_population(instance, lists, 6, 3);
    cuda::EaxChildrenCuda gpu(instance, lists, 10);
    gpu.set_population(population);
    expect_the_hosts_children(instance, lists, population, gpu, ring_of_pairs(6, 1), true,
                              std::string(to_string(type)), made);
  }
  EXPECT_GT(made, 120);
#endif
}

TEST(EaxChildrenCuda, AStopCutsTheCrossoversOffAndTheNextOnesAreStillTheHosts) {
  FORMICA_REQUIRE_CUDA();
#if FORMICA_HAVE_CUDA
  // Random permutations of 20,000 cities differ in nearly every edge: their crossovers take far
  // longer than the stop that is already due.
  const Instance instance = io::generate_instance(20'000, io::InstanceKind::Uniform, 4);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<std::vector<int32_t>> population;
  for (int t = 0; t < 8; ++t) population.push_back(localsearch::random_start(instance.n(), 5, t));
  cuda::EaxChildrenCuda gpu(instance, lists, 10);
  gpu.set_population(population);
  StopFlag due;
  due.deadline = std::chrono::steady_clock::now();
  std::vector<cuda::PairChild> children;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(gpu.best_children(ring_of_pairs(8, 1), 3, 30, true, children, &due));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  const Instance small = io::generate_instance(1'500, io::InstanceKind::Clustered, 4);
  const CandidateLists small_lists = build_candidate_lists(small, 10);
  const std::vector<std::vector<int32_t>> climbed = climbed_population(small, small_lists, 8, 4);
  cuda::EaxChildrenCuda again(small, small_lists, 10);
  again.set_population(climbed);
  // A call that the stop may cut off anywhere (or not at all, if it is done first) ...
  static_cast<void>(again.best_children(ring_of_pairs(8, 1), 3, 30, true, children, &due));
  // ... leaves the workspaces whole: the next crossovers are the host's.
  int made = 0;
  expect_the_hosts_children(small, small_lists, climbed, again, ring_of_pairs(8, 7), true, "after a stop", made);
  EXPECT_GT(made, 4);
#endif
}

TEST(EaxChildrenCuda, TheSearchWithItsChildrenOnTheGpuIsTheHostsGenerationForGeneration) {
  FORMICA_REQUIRE_CUDA();
  // Both stages (the block E-sets on the host), entropy and greedy selection, a tour adopted
  // between generations (its slot replaced on the GPU too), a population that grows.
  for (const EaxSelection selection : {EaxSelection::Entropy, EaxSelection::Greedy}) {
    const Instance instance = io::generate_instance(2'000, io::InstanceKind::Clustered, 8);
    EdgeAssemblyConfig config{.population = 12, .growth = 2, .threads = 2, .seed = 6};
    config.selection = selection;
    EdgeAssemblySearch host(instance, config);
    config.gpu_children = true;
    EdgeAssemblySearch gpu(instance, config);
    for (int step = 0; step < 60; ++step) {
      ASSERT_TRUE(host.step(StopFlag{}));
      ASSERT_TRUE(gpu.step(StopFlag{}));
      ASSERT_EQ(gpu.population(), host.population()) << "step " << step;
      ASSERT_EQ(gpu.lengths(), host.lengths()) << "step " << step;
      if (step == 20) {  // a tour from elsewhere: the population's shortest, reversed
        std::vector<int32_t> tour = host.best_tour();
        std::reverse(tour.begin(), tour.end());
        const int64_t length = tour_length(instance, tour);
        EXPECT_EQ(host.adopt(tour, length), gpu.adopt(tour, length));
      }
    }
    EXPECT_EQ(gpu.best_length(), host.best_length());
    EXPECT_EQ(gpu.children(), host.children());
    EXPECT_GT(gpu.gpu_pairs(), 0);
    EXPECT_EQ(host.gpu_pairs(), 0);
  }
}

TEST(EaxChildrenCuda, ItsSettingIsRefusedWhereItCannotRun) {
  const Instance instance = io::generate_instance(100, io::InstanceKind::Uniform, 1);
  // A path's implicit city has no distances on the GPU: refused with a device or without one.
  PathEnds ends;
  ends.open = true;
  const PathTransform open_path(instance, ends);
  EXPECT_THROW(EdgeAssemblySearch(open_path.instance(), {.gpu_children = true}), InputError);
  // Without a device (or a CUDA build), any instance.
  if (!formica::cuda::built_with_cuda() || !formica::cuda::find_device()) {
    EXPECT_THROW(EdgeAssemblySearch(instance, {.gpu_children = true}), InputError);
  }
}

}  // namespace
}  // namespace formica::population
