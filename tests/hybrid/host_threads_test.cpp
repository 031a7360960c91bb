// SPDX-License-Identifier: MIT
// Merging the colonies' best tours (--merge-tours): the best colony receives a tour that is a
// valid permutation of the exact length its records state, shorter than its best; merges are due
// every kMergeInterval iterations only when a record changed; colonies that merge keep valid tours
// and the same result for the same seed whatever the thread count.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "aco/colony_merge.h"
#include "aco/cpu/colony_search.h"
#include "core/candidates.h"
#include "core/error.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "hybrid/host_threads.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica::aco {
namespace {

/// Colonies' records and best tours: 2-opt + Or-opt local optima from random starts (restart-best
/// equal to best).
struct Colonies {
  std::vector<ColonyRecord> records;
  std::vector<int32_t> tours;
};

Colonies climbed_colonies(const Instance& instance, int colonies) {
  const CandidateLists lists = build_candidate_lists(instance, 8);
  Colonies out;
  for (int c = 0; c < colonies; ++c) {
    std::vector<int32_t> tour = localsearch::random_start(instance.n(), 7, c);
    localsearch::cpu::climb_neighbour_lists(instance, lists, tour);
    ColonyRecord r = fresh_colony_record();
    r.best_length = r.restart_length = tour_length(instance, tour);
    out.records.push_back(r);
    out.tours.insert(out.tours.end(), tour.begin(), tour.end());
  }
  return out;
}

TEST(ColonyMerger, TheBestColonyReceivesAShorterTourOfTheLengthItsRecordsState) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Uniform, 3);
  Colonies colonies = climbed_colonies(instance, 6);
  int best = 0;
  for (int c = 1; c < 6; ++c)
    if (colonies.records[c].best_length < colonies.records[best].best_length) best = c;
  const long long before = colonies.records[best].best_length;
  ColonyMerger merger;
  ASSERT_TRUE(merger.due(colonies.records, kMergeInterval));
  std::vector<int32_t> merged;
  const int receiver =
      merger.merge(instance, colonies.records, kMergeInterval, colonies.tours, colonies.tours, merged);
  ASSERT_EQ(receiver, best);
  const Tour tour(instance, merged);
  const ColonyRecord& r = colonies.records[best];
  EXPECT_EQ(tour.length(), r.best_length);
  EXPECT_EQ(r.restart_length, r.best_length);
  EXPECT_EQ(r.restart_found, kMergeInterval);
  EXPECT_LT(r.best_length, before);
  // The other colonies keep their tours and records.
  for (int c = 0; c < 6; ++c) {
    const std::span<const int32_t> other = std::span<const int32_t>(colonies.tours).subspan(c * 1500, 1500);
    if (c == best) continue;
    EXPECT_EQ(colonies.records[c].best_length, tour_length(instance, other));
  }
}

TEST(ColonyMerger, IsDueEveryIntervalOnlyWhenARecordChanged) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 4);
  Colonies colonies = climbed_colonies(instance, 3);
  ColonyMerger merger;
  EXPECT_FALSE(merger.due(colonies.records, kMergeInterval - 1));
  EXPECT_TRUE(merger.due(colonies.records, kMergeInterval));
  std::vector<int32_t> merged;
  merger.merge(instance, colonies.records, kMergeInterval, colonies.tours, colonies.tours, merged);
  EXPECT_FALSE(merger.due(colonies.records, 2 * kMergeInterval));
  colonies.records[1].restart_length += 1;  // a restart-best that moved
  EXPECT_TRUE(merger.due(colonies.records, 2 * kMergeInterval));
  EXPECT_FALSE(merger.due(colonies.records, 2 * kMergeInterval + 1));
}

TEST(ColonyMerger, OneTourOrTinyInstancesGiveNothing) {
  const Instance tiny = io::generate_instance(4, io::InstanceKind::Uniform, 1);
  Colonies few = climbed_colonies(tiny, 3);
  ColonyMerger merger;
  std::vector<int32_t> merged;
  EXPECT_EQ(merger.merge(tiny, few.records, kMergeInterval, few.tours, few.tours, merged), -1);
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 2);
  Colonies one = climbed_colonies(instance, 1);
  EXPECT_EQ(merger.merge(instance, one.records, kMergeInterval, one.tours, one.tours, merged), -1);
  EXPECT_TRUE(merged.empty());
}

TEST(ColonyMerger, TakesTheLinKernighanThreadsTourAndHandsThemTheMerge) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Uniform, 6);
  // The threads' lists: the colonies' (here none given: built as theirs), or their own.
  for (const LkLists lists : {LkLists::Colonies, LkLists::Nearest, LkLists::Quadrant, LkLists::Alpha}) {
    SCOPED_TRACE(to_string(lists));
    Colonies colonies = climbed_colonies(instance, 2);
    const int best = colonies.records[1].best_length < colonies.records[0].best_length ? 1 : 0;
    const long long before = colonies.records[best].best_length;
    ColonyConfig config;
    config.merge_tours = true;
    config.lk_threads = 2;
    config.lk_lists = lists;
    ColonyMerger merger(hybrid::start_host_threads(instance, config, nullptr));
    merger.start(std::span<const int32_t>(colonies.tours).subspan(static_cast<size_t>(best) * 1500, 1500),
                 before);
    std::vector<int32_t> merged;
    // Due while the threads' best moves on, though no colony record changes.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int iteration = kMergeInterval, receiver = -1;
    while (receiver < 0 && std::chrono::steady_clock::now() < until) {
      if (merger.due(colonies.records, iteration))
        receiver =
            merger.merge(instance, colonies.records, iteration, colonies.tours, colonies.tours, merged);
      iteration += kMergeInterval;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_EQ(receiver, best) << "after " << merger.lk_kicks() << " kicks";
    // The threads' first better tour may come from their first climb, before a kick (in a slow,
    // sanitized build it does): the kicks follow.
    while (merger.lk_kicks() == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_GT(merger.lk_kicks(), 0);
    EXPECT_LT(colonies.records[best].best_length, before);
    EXPECT_EQ(Tour(instance, merged).length(), colonies.records[best].best_length);
  }
}

/// --lk-lists alpha: the ascent beside the threads hands them its lists, through a move of the
/// merger too, and the run's tour stays exact.
TEST(ColonyMerger, TheAscentHandsTheThreadsAlphaLists) {
  ColonyConfig config;
  config.merge_tours = true;
  config.lk_threads = 2;
  config.lk_lists = LkLists::Alpha;
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 3);
  Colonies colonies = climbed_colonies(instance, 1);
  ColonyMerger merger;
  merger = ColonyMerger(hybrid::start_host_threads(instance, config, nullptr));
  merger.start(colonies.tours, colonies.records[0].best_length);
  ASSERT_TRUE(test::wait_for([&] { return merger.alpha_lists(); }, 120.0));
  std::vector<int32_t> merged;
  if (merger.finish(instance, colonies.records, kMergeInterval, colonies.tours, colonies.tours, merged) >=
      0) {
    EXPECT_EQ(Tour(instance, merged).length(), colonies.records[0].best_length);
  }
  // The stretch threads take no alpha lists: asking for both is refused.
  config.lk_stretch = 500;
  EXPECT_THROW(config.validate(), InputError);
}

/// The ascent hands its lists to every worker; stopped before it ends (200,000 cities, whose whole
/// ascent takes over a minute on one core) it ends within seconds and hands over nothing.
TEST(ThreadListsAscent, HandsOverItsListsOrEndsWithTheRun) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Clustered, 5);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  localsearch::cpu::IteratedLinKernighan threads(instance, build_candidate_lists(instance, 10), 2, 3);
  threads.offer(start, tour_length(instance, start));
  hybrid::ThreadListsAscent ascent(instance, threads);
  ASSERT_TRUE(test::wait_for([&] { return ascent.handed_over() && threads.list_changes() == 2; }, 120.0));
  ascent.stop();
  threads.stop();
  std::vector<int32_t> best;
  const int64_t length = threads.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));

  const Instance large = io::generate_instance(200000, io::InstanceKind::Uniform, 3);
  localsearch::cpu::IteratedLinKernighan idle(large, build_candidate_lists(large, 5), 1, 3);
  hybrid::ThreadListsAscent ended(large, idle);
  const auto before = std::chrono::steady_clock::now();
  ended.stop();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count(), 30.0);
  EXPECT_FALSE(ended.handed_over());
  EXPECT_EQ(idle.list_changes(), 0);
}

TEST(ColonyMerger, LinKernighanThreadsNeedTheMerge) {
  ColonyConfig config;
  config.lk_threads = 2;
  EXPECT_THROW(config.validate(), InputError);
  config.merge_tours = true;
  EXPECT_NO_THROW(config.validate());
  config.lk_threads = -1;
  EXPECT_THROW(config.validate(), InputError);
  config.lk_threads = 0;
  config.lk_independent = true;  // independent walks need threads to walk
  EXPECT_THROW(config.validate(), InputError);
  config.lk_threads = 2;
  EXPECT_NO_THROW(config.validate());
  config.lk_replay = true;  // only shared walks replay
  EXPECT_THROW(config.validate(), InputError);
  config.lk_independent = false;
  EXPECT_NO_THROW(config.validate());
  config.lk_threads = 0;
  EXPECT_THROW(config.validate(), InputError);
}

TEST(ColonyMerger, MergesTheIndependentWalksToo) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Clustered, 4);
  Colonies colonies = climbed_colonies(instance, 1);
  const long long before = colonies.records[0].best_length;
  ColonyConfig config;
  config.merge_tours = true;
  config.lk_threads = 3;
  config.lk_independent = true;
  ColonyMerger merger(hybrid::start_host_threads(instance, config, nullptr));
  merger.start(std::span<const int32_t>(colonies.tours).first(1500), before);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<int32_t> merged;
  const int receiver =
      merger.finish(instance, colonies.records, kMergeInterval, colonies.tours, colonies.tours, merged);
  ASSERT_EQ(receiver, 0) << "after " << merger.lk_kicks() << " kicks";
  EXPECT_EQ(Tour(instance, merged).length(), colonies.records[0].best_length);
  EXPECT_LT(colonies.records[0].best_length, before);
}

ColonyConfig merging_config(int threads) {
  ColonyConfig config;
  config.local_search = localsearch::LocalSearchKind::OrOpt;
  config.focused_edges = 16;
  config.colonies = 6;
  config.ants = 4;
  config.mmas_rho = 0.5;
  config.merge_tours = true;
  config.threads = threads;
  config.seed = 5;
  return config;
}

TEST(ColonyMergeCpu, MergingColoniesKeepValidExactToursWhateverTheThreadCount) {
  const Instance instance = io::generate_instance(800, io::InstanceKind::Clustered, 7);
  ColonySearchCpu one(instance, merging_config(1)), three(instance, merging_config(3));
  for (int it = 0; it < 6 * kMergeInterval; ++it) {
    ASSERT_TRUE(one.step(StopFlag{}));
    ASSERT_TRUE(three.step(StopFlag{}));
  }
  EXPECT_GT(one.merges(), 0);
  EXPECT_EQ(one.merges(), three.merges());
  EXPECT_EQ(one.best_tour(), three.best_tour());
  EXPECT_EQ(Tour(instance, one.best_tour()).length(), one.best_length());
  const std::vector<int64_t> groups = one.group_best_lengths();
  for (int m = 0; m < one.layout().matrices; ++m)
    EXPECT_EQ(Tour(instance, one.group_best_tour(m)).length(), groups[m]);
}

}  // namespace
}  // namespace formica::aco
