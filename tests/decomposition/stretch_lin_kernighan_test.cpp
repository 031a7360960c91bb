// SPDX-License-Identifier: MIT
// The stretch Lin-Kernighan threads (decomposition/stretch_lin_kernighan.h): valid tours with
// exact lengths on coordinate and matrix instances, rounds that shorten the tour, offers adopted
// between rounds, rounds that stall, and what they refuse; the hand-over to the whole-tour
// threads (stretch_hand_over.h).
#include "decomposition/stretch_lin_kernighan.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>

#include "core/candidates.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "decomposition/stretch_hand_over.h"
#include "io/generator.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "population/partition_merge.h"
#include "test_support.h"

namespace formica::decomposition {
namespace {

using localsearch::LinKernighanStep, localsearch::LocalSearchKind;
using localsearch::cpu::climb_options, localsearch::cpu::IteratedLinKernighan,
    localsearch::cpu::NeighbourClimber, localsearch::cpu::TourCompanion;

/// A random symmetric matrix instance of n cities (weights 1..1000).
Instance matrix_instance(int n, uint64_t seed) {
  RandomStream rng(seed, 1);
  std::vector<int32_t> weights(static_cast<size_t>(n) * n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      weights[i * n + j] = weights[j * n + i] = 1 + static_cast<int32_t>(rng.below(1000));
  return Instance::from_matrix("matrix", n, std::move(weights));
}

/// Runs the threads from `start` until `rounds` rounds are done, stops them, checks the published
/// tour and returns its length.
int64_t walk_rounds(const Instance& instance, std::span<const int32_t> start, int stretch, int rounds) {
  const int64_t start_length = tour_length(instance, start);
  StretchLinKernighan threads(instance, 2, 5, stretch, 50);
  std::vector<int32_t> out{7};
  EXPECT_EQ(threads.best(out), -1) << "nothing published before the first offer";
  threads.offer(start, start_length);
  EXPECT_TRUE(test::wait_for([&] { return threads.rounds() >= rounds; }, 60.0))
      << threads.rounds() << " rounds";
  threads.stop();
  std::vector<int32_t> best;
  const int64_t length = threads.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));
  EXPECT_LE(length, start_length);
  EXPECT_GT(threads.kicks(), 0);
  std::vector<TourCompanion::Walk> walks{{1, {}}};
  threads.walks(walks);
  EXPECT_TRUE(walks.empty()) << "one shared walk";
  return length;
}

TEST(StretchLinKernighan, RoundsShortenACoordinateTourAndKeepItATour) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 4);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  EXPECT_LT(walk_rounds(instance, start, 400, 3), tour_length(instance, start));
}

/// Stretches of n / threads cities with 3-opt steps (what auto runs on very large tours), over
/// nearest or quadrant lists (--lk-lists quadrant): every round keeps a tour, its published length
/// exact, and the seams between stretches (the edges no stretch holds) stay where the round cut them.
TEST(StretchLinKernighan, LargeStretchesWithThreeOptStepsKeepTheirEnds) {
  const Instance instance = io::generate_instance(4000, io::InstanceKind::Uniform, 12);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  const int64_t start_length = tour_length(instance, start);
  for (const NeighbourShape shape : {NeighbourShape::Nearest, NeighbourShape::Quadrant}) {
    SCOPED_TRACE(to_string(shape));
    StretchLinKernighan threads(instance, 2, 3, 2000, 300, 0, {}, LinKernighanStep::ThreeOpt, shape);
    threads.offer(start, start_length);
    ASSERT_TRUE(test::wait_for([&] { return threads.rounds() >= 3; }, 60.0)) << threads.rounds() << " rounds";
    threads.stop();
    std::vector<int32_t> best;
    const int64_t length = threads.best(best);
    validate_permutation(best, instance.n());
    EXPECT_EQ(length, tour_length(instance, best));
    EXPECT_LT(length, start_length * 0.97) << "the curve tour climbed by Lin-Kernighan";
  }
  // One round of walk_stretches (2-opt steps) from a cut at 123: the cities at each stretch's
  // first and last positions stay there, whatever the walk did in between.
  std::vector<int32_t> tour = start;
  EXPECT_GT(walk_stretches(instance, tour, 1000, 123, 50, 2, 7), 0);
  validate_permutation(tour, instance.n());
  for (int s = 0; s < 4; ++s) {
    const StretchCut cut = stretch_cut(instance.n(), 1000, 123, s);
    const int first = cut.first % instance.n(), last = (cut.first + cut.cities - 1) % instance.n();
    EXPECT_EQ(tour[first], start[first]) << s;
    EXPECT_EQ(tour[last], start[last]) << s;
  }
}

TEST(StretchLinKernighan, MatrixInstancesAndAShortLastStretch) {
  const Instance instance = matrix_instance(230, 8);  // 230 = 4 x 50 + 30: the last stretch is 80
  std::vector<int32_t> start(230);
  std::iota(start.begin(), start.end(), 0);
  EXPECT_LT(walk_rounds(instance, start, 50, 4), tour_length(instance, start));
}

TEST(StretchLinKernighan, AdoptsAShorterOfferBetweenRounds) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Clustered, 3);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> worse(2000), better = space_filling_curve_tour(instance);
  std::iota(worse.begin(), worse.end(), 0);
  NeighbourClimber(instance, lists, climb_options(LocalSearchKind::ThreeOpt, true)).climb(better);
  const int64_t better_length = tour_length(instance, better);
  StretchLinKernighan threads(instance, 2, 9, 250, 20);
  threads.offer(worse, tour_length(instance, worse));
  threads.offer(better, better_length);
  ASSERT_TRUE(test::wait_for([&] { return threads.rounds() >= 3; }, 60.0));
  threads.stop();
  std::vector<int32_t> best;
  EXPECT_LE(threads.best(best), better_length) << "the climbed tour was adopted after the first round";
  EXPECT_EQ(threads.best_length(), tour_length(instance, best));
}

TEST(StretchLinKernighan, OneRoundIsExactAndTheSameOnAnyThreadCount) {
  const Instance instance = io::generate_instance(2500, io::InstanceKind::Uniform, 6);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  std::vector<int32_t> one = start, three = start;
  const int64_t gain = walk_stretches(instance, one, 300, 77, 20, 1, 4);
  EXPECT_EQ(walk_stretches(instance, three, 300, 77, 20, 3, 4), gain);
  EXPECT_EQ(one, three);
  validate_permutation(one, instance.n());
  EXPECT_GT(gain, 0);
  EXPECT_EQ(tour_length(instance, start) - gain, tour_length(instance, one));
  const Instance few = io::generate_instance(500, io::InstanceKind::Uniform, 6);
  std::vector<int32_t> small(500);
  std::iota(small.begin(), small.end(), 0);
  EXPECT_EQ(walk_stretches(few, small, 300, 0, 20, 2, 4), 0) << "fewer than two stretches: left as it is";
  EXPECT_EQ(small[499], 499);
}

TEST(StretchLinKernighan, RoundsEndForGoodAfterARoundThatGainsLessThanTheStallGain) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 5);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  // Every round gains less than the whole tour's length: the first one stalls.
  StretchLinKernighan stalling(instance, 2, 3, 250, 20, 1.0);
  stalling.offer(start, tour_length(instance, start));
  ASSERT_TRUE(stalling.wait_until_stalled());
  EXPECT_EQ(stalling.rounds(), 1);
  const int64_t kicks = stalling.kicks();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(stalling.rounds(), 1) << "no round after the stall";
  EXPECT_EQ(stalling.kicks(), kicks);
  std::vector<int32_t> best;
  EXPECT_LT(stalling.best(best), tour_length(instance, start));
  EXPECT_EQ(stalling.best_length(), tour_length(instance, best));
  // Without a stall gain the rounds go on; stop() ends the wait.
  StretchLinKernighan going(instance, 2, 3, 250, 20);
  going.offer(start, tour_length(instance, start));
  ASSERT_TRUE(test::wait_for([&] { return going.rounds() >= 3; }, 60.0));
  EXPECT_FALSE(going.stalled());
  std::thread stopper([&] { going.stop(); });
  EXPECT_FALSE(going.wait_until_stalled());
  stopper.join();
}

/// The whole-tour threads the hand-over starts: iterated Lin-Kernighan on 2 threads.
StretchHandOver::WholeTour whole_tour_threads(const Instance& instance, std::atomic<int>& made) {
  return [&instance, &made] {
    ++made;
    return std::make_unique<IteratedLinKernighan>(instance, build_candidate_lists(instance, 10), 2, 7);
  };
}

TEST(StretchHandOver, TheWholeTourThreadsTakeOverFromTheStretchesBestWhenTheyStall) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 8);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  const int64_t start_length = tour_length(instance, start);
  std::atomic<int> made = 0;
  StretchHandOver threads(instance, 2, 3, 250, 1.0, whole_tour_threads(instance, made));
  std::vector<int32_t> best{7};
  EXPECT_EQ(threads.best(best), -1) << "nothing published before the first offer";
  threads.offer(start, start_length);
  ASSERT_TRUE(test::wait_for([&] { return threads.handed_over(); }, 60.0));
  EXPECT_EQ(made.load(), 1);
  const int64_t at_hand_over = threads.best_length();
  EXPECT_LT(at_hand_over, start_length) << "the stretches' round shortened the tour first";
  const int64_t kicks = threads.kicks();
  ASSERT_TRUE(test::wait_for([&] { return threads.kicks() > kicks + 100; }, 60.0))
      << "the whole-tour threads kick";
  threads.stop();
  const int64_t length = threads.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));
  EXPECT_LE(length, at_hand_over);
  EXPECT_EQ(made.load(), 1);
}

TEST(StretchHandOver, NoHandOverWhileTheStretchesGainAndAStopBeforeOneMakesNoWholeTourThreads) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Clustered, 9);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  std::atomic<int> made = 0;
  StretchHandOver threads(instance, 2, 3, 250, 0.0, whole_tour_threads(instance, made));
  threads.offer(start, tour_length(instance, start));
  ASSERT_TRUE(test::wait_for([&] { return threads.kicks() > 2000; }, 60.0));
  EXPECT_FALSE(threads.handed_over());
  threads.stop();
  EXPECT_EQ(made.load(), 0);
  std::vector<int32_t> best;
  const int64_t length = threads.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));
}

TEST(StretchLinKernighan, NeedsTwoStretchesAndARegionThatIsThere) {
  const Instance instance = io::generate_instance(150, io::InstanceKind::Uniform, 1);
  EXPECT_THROW(StretchLinKernighan(instance, 1, 1, 100), InputError);
  const Instance larger = io::generate_instance(300, io::InstanceKind::Uniform, 1);
  EXPECT_THROW(StretchLinKernighan(larger, 1, 1, 100, 0, 0, {2, 2}), InputError);
  EXPECT_THROW(StretchLinKernighan(larger, 1, 1, 100, 0, 0, {0, 0}), InputError);
}

TEST(CityRegions, HalvesThePlaneIntoRegionsOfEqualSize) {
  const Instance instance = io::generate_instance(1001, io::InstanceKind::Clustered, 2);
  for (const int parts : {1, 2, 3, 4, 7}) {
    const std::vector<int32_t> region = city_regions(instance, parts);
    EXPECT_EQ(region, city_regions(instance, parts)) << "the same on every rank";
    std::vector<int> size(static_cast<size_t>(parts));
    for (const int32_t r : region) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, parts);
      ++size[r];
    }
    for (const int s : size) EXPECT_LE(std::abs(s * parts - 1001), parts) << parts << " regions";
  }
  // Two regions: one side of a line through the median of the longer side.
  const Instance wide("wide", EdgeWeightType::Euc2D, {0, 10, 20, 30, 40, 50}, {0, 1, 0, 1, 0, 1});
  EXPECT_EQ(city_regions(wide, 2), (std::vector<int32_t>{0, 0, 0, 1, 1, 1}));
  const Instance tall("tall", EdgeWeightType::Euc2D, {0, 1, 0, 1}, {30, 20, 10, 0});
  EXPECT_EQ(city_regions(tall, 2), (std::vector<int32_t>{1, 1, 0, 0}));
  // Without coordinates, by index.
  EXPECT_EQ(city_regions(matrix_instance(6, 1), 3), (std::vector<int32_t>{0, 0, 1, 1, 2, 2}));
}

TEST(StretchLinKernighan, IslandsWalkTheStretchesOfTheirOwnRegionsOnly) {
  // Two islands from the same tour, one round each (a stall gain of the whole tour stalls it):
  // each walks the stretches that start in its region, so together they walk every stretch once,
  // their tours differ from the start in disjoint stretches, and both changes together are a tour
  // shorter by both gains.
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 8);
  const std::vector<int32_t> start = space_filling_curve_tour(instance);
  const int64_t start_length = tour_length(instance, start);
  const std::vector<int32_t> region = city_regions(instance, 2);
  constexpr int kStretch = 250;
  std::vector<int32_t> tours[2];
  int64_t walked = 0;
  for (int part = 0; part < 2; ++part) {
    StretchLinKernighan island(instance, 2, 40 + part, kStretch, 20, 1.0, {part, 2});
    island.offer(start, start_length);
    ASSERT_TRUE(island.wait_until_stalled());
    EXPECT_EQ(island.rounds(), 1);
    walked += island.stretches_walked();
    EXPECT_LT(island.stretches_walked(), 3000 / kStretch);
    const int64_t length = island.best(tours[part]);
    EXPECT_EQ(length, tour_length(instance, tours[part]));
    EXPECT_LT(island.best_length(), start_length);
    // Every position it changed lies in a stretch (cut from 0 in the first round) whose first city
    // is in its region.
    for (int i = 0; i < 3000; ++i)
      if (tours[part][i] != start[i]) {
        const int first = std::min(i / kStretch, 3000 / kStretch - 1) * kStretch;
        ASSERT_EQ(region[start[first]], part) << "position " << i;
      }
  }
  EXPECT_EQ(walked, 3000 / kStretch) << "every stretch walked once, by one island";
  std::vector<int32_t> both = start;
  for (int i = 0; i < 3000; ++i) {
    ASSERT_FALSE(tours[0][i] != start[i] && tours[1][i] != start[i]) << "position " << i << " changed twice";
    if (tours[0][i] != start[i]) both[i] = tours[0][i];
    if (tours[1][i] != start[i]) both[i] = tours[1][i];
  }
  validate_permutation(both, 3000);
  const int64_t both_length = tour_length(instance, both);
  EXPECT_EQ(both_length, start_length - (start_length - tour_length(instance, tours[0])) -
                             (start_length - tour_length(instance, tours[1])));
  // The islands' exchange (partition merge, then segment merge) puts the two together: within 1 %
  // of both gains (the partition merge's first choices can cost a little of them).
  std::vector<population::LengthTour> donors{{tour_length(instance, tours[0]), tours[0]},
                                             {tour_length(instance, tours[1]), tours[1]}};
  std::vector<int32_t> merged;
  const int64_t merged_length = population::merge_tours(instance, donors, merged);
  EXPECT_EQ(merged_length, tour_length(instance, merged));
  EXPECT_LE(merged_length, both_length + (start_length - both_length) / 100);
}

}  // namespace
}  // namespace formica::decomposition
