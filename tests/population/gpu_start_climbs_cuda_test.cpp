// SPDX-License-Identifier: MIT
// GA-EAX's start tours climbed on the GPU (EdgeAssemblyConfig::gpu_climbs): the population is the
// host's own, tour for tour, on every metric, start kind and climb; a stop during the GPU's climbs
// changes nothing; without a device the setting is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <tuple>

#include "core/error.h"
#include "core/tour.h"
#include "cuda/device.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/start_tour.h"
#include "population/edge_assembly_search.h"
#include "localsearch/two_opt_check.h"
#include "test_support.h"

namespace formica::population {
namespace {

using localsearch::StartKind;

/// Builds the first population of `config` with the start climbs on the host and on the GPU.
void expect_the_hosts_population(const Instance& instance, EdgeAssemblyConfig config, const std::string& what) {
  config.gpu_climbs = false;
  EdgeAssemblySearch host(instance, config);
  config.gpu_climbs = true;
  EdgeAssemblySearch gpu(instance, config);
  ASSERT_TRUE(host.step(StopFlag{})) << what;
  ASSERT_TRUE(gpu.step(StopFlag{})) << what;
  EXPECT_EQ(gpu.gpu_climbed(), config.population - 1) << what << ": every start but the first tour";
  EXPECT_EQ(host.gpu_climbed(), 0) << what;
  ASSERT_EQ(gpu.population().size(), host.population().size()) << what;
  for (size_t i = 0; i < host.population().size(); ++i) {
    EXPECT_EQ(gpu.population()[i], host.population()[i]) << what << ", member " << i;
    EXPECT_EQ(gpu.lengths()[i], tour_length(instance, gpu.population()[i])) << what << ", member " << i;
  }
  EXPECT_EQ(gpu.best_length(), host.best_length()) << what;
}

TEST(EdgeAssemblySearchCuda, TheGpusStartClimbsGiveTheHostsPopulationTourForTour) {
  FORMICA_REQUIRE_CUDA();
  // Or-opt climbs and Lin-Kernighan climbs (2-opt on the GPU, the chains on the host: arrays below
  // 10,000 cities, two-level lists above), random and other starts, uniform and clustered cities.
  const std::tuple<int, io::InstanceKind, StartKind, EaxClimb> cases[] = {
      {500, io::InstanceKind::Uniform, StartKind::Random, EaxClimb::OrOpt},
      {3'000, io::InstanceKind::Clustered, StartKind::Random, EaxClimb::LinKernighan},
      {2'001, io::InstanceKind::Uniform, StartKind::NearestNeighbour, EaxClimb::LinKernighan},
      {1'000, io::InstanceKind::Uniform, StartKind::SpaceFillingCurve, EaxClimb::OrOpt},
      {12'000, io::InstanceKind::Uniform, StartKind::Random, EaxClimb::LinKernighan}};
  for (const auto& [n, kind, start, climb] : cases) {
    const Instance instance = io::generate_instance(n, kind, 9);
    expect_the_hosts_population(instance,
                                {.population = 8, .growth = 0, .start = start, .climb = climb, .threads = 2, .seed = 4},
                                concat(n, " cities, ", localsearch::to_string(start), ", ", to_string(climb)));
  }
  // Every metric, the distances on the device exact as on the host.
  for (const EdgeWeightType type : test::all_metrics()) {
    const Instance instance = test::metric_instance(type, 300, 31, 1000);
    expect_the_hosts_population(instance, {.population = 6, .growth = 0, .threads = 2, .seed = 2},
                                std::string(to_string(type)));
  }
}

TEST(EdgeAssemblySearchCuda, AStopDuringTheGpusClimbsChangesNothing) {
  FORMICA_REQUIRE_CUDA();
  // Random starts of 30,000 cities take far longer than 50 ms to climb by 2-opt: the step is cut
  // off, returns false, and the search keeps its first tour.
  const Instance instance = io::generate_instance(30'000, io::InstanceKind::Uniform, 5);
  EdgeAssemblySearch search(instance, {.population = 16, .growth = 0, .gpu_climbs = true, .threads = 2, .seed = 3});
  const int64_t first = search.best_length();
  StopFlag stop;
  stop.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(search.step(stop));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  EXPECT_EQ(search.best_length(), first);
  EXPECT_EQ(tour_length(instance, search.best_tour()), first);
  EXPECT_EQ(search.gpu_climbed(), 0);
}

TEST(EdgeAssemblySearch, GpuClimbsNeedACudaDevice) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 1);
  const EdgeAssemblyConfig config{.population = 4, .gpu_climbs = true};
  if (formica::cuda::find_device()) {
    EXPECT_NO_THROW(static_cast<void>(EdgeAssemblySearch(instance, config)));
  } else {
    EXPECT_THROW(static_cast<void>(EdgeAssemblySearch(instance, config)), InputError);
  }
  EXPECT_NE(config.describe().find("start climbs on the GPU"), std::string::npos);
}

}  // namespace
}  // namespace formica::population
