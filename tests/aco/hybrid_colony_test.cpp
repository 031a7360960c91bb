// SPDX-License-Identifier: MIT
// Ants with local search on the CPU: the focused walk (valid tours, exact length changes, at most
// 2 * edges edges changed, the changed ends reported, the source kept where the pheromone says so),
// and MMAS / ACS / GACO with local search and focused construction (valid tours with exact
// lengths, shorter tours, the same result whatever the thread count, stop requests).
#include <gtest/gtest.h>

#include <algorithm>

#include "aco/candidate_set.h"
#include "aco/colony_rules.h"
#include "aco/cpu/colony_search.h"
#include "aco/cpu/focused_construction.h"
#include "aco/focused_support.h"
#include "core/candidates.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica::aco {
namespace {

using localsearch::LocalSearchKind;

std::vector<int32_t> positions(std::span<const int32_t> tour) {
  std::vector<int32_t> pos(tour.size());
  for (size_t p = 0; p < tour.size(); ++p) pos[tour[p]] = static_cast<int32_t>(p);
  return pos;
}

TEST(FocusedWalk, ChangesAtMostTwoEdgesPerDecisionWithExactLengths) {
  for (const int n : {3, 4, 5, 9, 33, 300}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    const CandidateSet set = build_candidate_set(instance, 8, 0, 2.0, 1);
    const std::vector<float> fitness = set.eta_beta;  // tau = 1 everywhere
    WalkMarks walked(n);
    for (const int edges : {1, 3, 8, 1000})
      for (uint64_t seed = 0; seed < 8; ++seed) {
        const std::vector<int32_t> source = localsearch::random_start(n, seed, 0);
        std::vector<int32_t> tour = source, pos = positions(source), touched;
        localsearch::cpu::ArrayTour array(tour, pos);
        RandomStream rng(seed, 1);
        const FocusedWalk walk =
            focused_walk(instance, set, fitness, array, edges, 0.0, rng, walked, touched);
        const Tour after(instance, tour);  // a permutation
        EXPECT_EQ(walk.delta, after.length() - tour_length(instance, source));
        EXPECT_EQ(pos, positions(tour));
        EXPECT_LE(walk.changed, edges);
        EXPECT_EQ(touched.size(), 4u * static_cast<size_t>(walk.changed));
        // Every edge of the new tour not in the source has both ends among the touched cities.
        const auto old_edges = test::tour_edges(source), new_edges = test::tour_edges(tour);
        int different = 0;
        for (const auto& e : new_edges)
          if (!old_edges.count(e)) {
            ++different;
            EXPECT_NE(std::find(touched.begin(), touched.end(), e.first), touched.end());
            EXPECT_NE(std::find(touched.begin(), touched.end(), e.second), touched.end());
          }
        EXPECT_LE(different, 2 * walk.changed) << "n = " << n << " edges " << edges;
        if (edges >= 8 && n >= 33) {
          EXPECT_EQ(walk.changed, edges >= n ? walk.changed : edges)
              << "a random tour is not what the ants pick";
          EXPECT_GT(walk.changed, 0);
        }
      }
  }
}

TEST(FocusedWalk, FollowsTheSourceWhereThePheromoneFavoursIt) {
  // Fitness 1 on the source's edges and 1e-6 elsewhere, the source a 2-opt tour (nearly all its
  // edges are candidate edges): the walk re-decides an edge only where the source's edge is not a
  // candidate, so it walks far along the source before its 8 decisions are spent.
  const int n = 400;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 3);
  const CandidateSet set = build_candidate_set(instance, 10, 0, 2.0, 1);
  std::vector<int32_t> source = localsearch::random_start(n, 3, 0);
  localsearch::cpu::climb_neighbour_lists(instance, build_candidate_lists(instance, 10), source);
  std::vector<int32_t> next(n), previous(n);
  for (int p = 0; p < n; ++p)
    next[source[p]] = source[(p + 1) % n], previous[source[(p + 1) % n]] = source[p];
  std::vector<float> fitness(set.ids.size());
  for (int i = 0; i < n; ++i)
    for (int s = 0; s < set.width; ++s) {
      const int j = set.ids[static_cast<size_t>(i) * set.width + s];
      fitness[static_cast<size_t>(i) * set.width + s] = j == next[i] || j == previous[i] ? 1.0f : 1e-6f;
    }
  WalkMarks walked(n);
  int steps = 0, changed = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<int32_t> tour = source, pos = positions(source), touched;
    localsearch::cpu::ArrayTour array(tour, pos);
    RandomStream rng(seed, 2);
    const FocusedWalk walk = focused_walk(instance, set, fitness, array, 8, 0.0, rng, walked, touched);
    steps += walk.steps;
    changed += walk.changed;
  }
  EXPECT_LT(changed * 10, steps) << "fewer than one step in ten re-decides an edge";
}

ColonyConfig hybrid_config(ColonyVariant variant, LocalSearchKind local_search, int focused, int threads,
                           uint64_t seed = 1) {
  ColonyConfig config;
  config.variant = variant;
  config.ants = 6;
  config.local_search = local_search;
  config.focused_edges = focused;
  config.threads = threads;
  config.seed = seed;
  config.mmas_rho = variant == ColonyVariant::Acs ? 0.0 : 0.3;
  return config;
}

TEST(HybridColonyCpu, EveryAntHasAValidTourWithItsExactLength) {
  const Instance instance = io::generate_instance(250, io::InstanceKind::Clustered, 5);
  for (const ColonyVariant variant : {ColonyVariant::Mmas, ColonyVariant::Acs, ColonyVariant::Gaco})
    for (const LocalSearchKind ls : {LocalSearchKind::TwoOpt, LocalSearchKind::OrOpt})
      for (const int focused : {0, 6}) {
        if (focused > 0 && variant == ColonyVariant::Acs) continue;
        ColonySearchCpu colony(instance, hybrid_config(variant, ls, focused, 2));
        for (int it = 0; it < 4; ++it) ASSERT_TRUE(colony.step(StopFlag{}));
        const int ants = colony.layout().total_ants();
        for (int a = 0; a < ants; ++a) {
          const std::vector<int32_t> tour(colony.tours().begin() + static_cast<ptrdiff_t>(a) * 250,
                                          colony.tours().begin() + static_cast<ptrdiff_t>(a + 1) * 250);
          const Tour checked(instance, tour);
          EXPECT_EQ(checked.length(), colony.tour_lengths()[a]) << to_string(variant) << " ant " << a;
        }
        EXPECT_EQ(Tour(instance, colony.best_tour()).length(), colony.best_length());
        if (focused > 0) {
          for (int c = 0; c < colony.layout().colonies; ++c)
            EXPECT_EQ(Tour(instance,
                           std::vector<int32_t>(colony.source_tour(c).begin(), colony.source_tour(c).end()))
                          .length(),
                      colony.source_length(c));
        }
      }
}

TEST(HybridColonyCpu, AfterARestartTheFocusedAntsLeaveTheSourceTour) {
  using namespace focused;
  ColonyConfig config = converging(hybrid_config(ColonyVariant::Mmas, LocalSearchKind::None, kRestartEdges, 2));
  config.mmas_rho = 0.5;
  const Instance instance = restart_instance();
  ColonySearchCpu colony(instance, config);
  expect_restarts_widen_the_walks(colony, kRestartCities, kRestartEdges, 1, config.ants);
}

TEST(HybridColonyCpu, FocusedColoniesStartFromTheTourGiven) {
  // --initial-tour: an earlier run's best tour is where every colony starts.
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 21);
  ColonyConfig config = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8, 2);
  const auto [start, length] = focused::earlier_run(instance, config, 10);
  config.colonies = 2;
  config.seed = 4;
  ColonySearchCpu search(instance, config, start);
  focused::expect_starts_from(search, start, length, 2);
  for (int it = 0; it < 3; ++it) ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_LE(search.best_length(), length);
  EXPECT_EQ(Tour(instance, search.best_tour()).length(), search.best_length());

  std::vector<int32_t> repeated = start;
  repeated[1] = repeated[0];
  EXPECT_THROW(ColonySearchCpu(instance, config, repeated), InputError);
  EXPECT_THROW(ColonySearchCpu(instance, config, std::vector<int32_t>(start.begin(), start.end() - 1)), InputError);
  EXPECT_THROW(ColonySearchCpu(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 0, 2), start),
               InputError);
}

TEST(HybridColonyCpu, LocalSearchShortensTheTours) {
  const Instance instance = io::generate_instance(400, io::InstanceKind::Uniform, 8);
  ColonySearchCpu plain(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::None, 0, 2));
  ColonySearchCpu searched(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 0, 2));
  ColonySearchCpu focused(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 8, 2));
  for (int it = 0; it < 5; ++it) {
    ASSERT_TRUE(plain.step(StopFlag{}));
    ASSERT_TRUE(searched.step(StopFlag{}));
    ASSERT_TRUE(focused.step(StopFlag{}));
  }
  EXPECT_LT(searched.best_length(), 0.9 * plain.best_length());
  EXPECT_LT(focused.best_length(), 0.9 * plain.best_length());
}

TEST(HybridColonyCpu, SameSeedSameResultWhateverTheThreadCount) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 2);
  for (const int focused : {0, 5}) {
    ColonySearchCpu one(instance, hybrid_config(ColonyVariant::Gaco, LocalSearchKind::OrOpt, focused, 1, 9));
    ColonySearchCpu three(instance,
                          hybrid_config(ColonyVariant::Gaco, LocalSearchKind::OrOpt, focused, 3, 9));
    for (int it = 0; it < 6; ++it) {
      ASSERT_TRUE(one.step(StopFlag{}));
      ASSERT_TRUE(three.step(StopFlag{}));
    }
    EXPECT_EQ(one.best_tour(), three.best_tour());
    EXPECT_TRUE(std::equal(one.tours().begin(), one.tours().end(), three.tours().begin()));
  }
}

TEST(HybridColonyCpu, FocusedConstructionNeedsIndependentAnts) {
  const Instance instance = io::generate_instance(50, io::InstanceKind::Uniform, 1);
  EXPECT_THROW(ColonySearchCpu(instance, hybrid_config(ColonyVariant::Acs, LocalSearchKind::OrOpt, 4, 1)),
               InputError);
  ColonyConfig bad = hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 4, 1);
  bad.ls_neighbours = 0;
  EXPECT_THROW(bad.validate(), InputError);
  bad.ls_neighbours = 10;
  bad.focused_edges = -1;
  EXPECT_THROW(bad.validate(), InputError);
}

TEST(HybridColonyCpu, StopRequestAbandonsTheIteration) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 4);
  ColonySearchCpu colony(instance, hybrid_config(ColonyVariant::Mmas, LocalSearchKind::OrOpt, 6, 2));
  ASSERT_TRUE(colony.step(StopFlag{}));
  const int64_t best = colony.best_length();
  std::atomic<bool> interrupt{true};
  StopFlag stop;
  stop.interrupt = &interrupt;
  EXPECT_FALSE(colony.step(stop));
  EXPECT_EQ(colony.best_length(), best);
}

}  // namespace
}  // namespace formica::aco
