// SPDX-License-Identifier: MIT
// Lin-Kernighan chains and the iterated Lin-Kernighan threads: tours stay permutations, the gains
// reported are the exact length differences, the chains find what 3-opt cannot, and the threads
// publish only shorter tours, exactly measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>
#include <utility>

#include "core/candidates.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"
#include "localsearch/cpu/kicked_tour.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/cpu/two_level_tour.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica::localsearch::cpu {
namespace {

std::vector<int32_t> random_tour(int n, uint64_t seed) { return test::random_tour(n, seed, 3); }

/// The space-filling-curve tour climbed to the 2-opt + Or-opt + 3-opt local optimum over `lists`.
std::vector<int32_t> three_opt_tour(const Instance& instance, const CandidateLists& lists) {
  std::vector<int32_t> tour = space_filling_curve_tour(instance);
  NeighbourClimber(instance, lists, climb_options(LocalSearchKind::ThreeOpt, true)).climb(tour);
  return tour;
}

/// Stops `search` and checks its published tour: a permutation of the length it states (returned).
int64_t stopped_best(IteratedLinKernighan& search, const Instance& instance) {
  search.stop();
  std::vector<int32_t> best;
  const int64_t length = search.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));
  return length;
}

constexpr LinKernighanStep kSteps[] = {LinKernighanStep::TwoOpt, LinKernighanStep::ThreeOpt, LinKernighanStep::FiveOpt};

TEST(LinKernighan, GainsAreExactAndToursStayPermutations) {
  for (const LinKernighanStep step : kSteps)
  for (const auto kind : {io::InstanceKind::Uniform, io::InstanceKind::Clustered})
    for (const int n : {8, 9, 60, 700}) {
      const Instance instance = io::generate_instance(n, kind, 5);
      const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
      LinKernighan lk(instance, lists, lin_kernighan_options(step));
      for (const uint64_t seed : {1, 2, 3}) {
        std::vector<int32_t> tour = random_tour(n, seed);
        const int64_t before = tour_length(instance, tour);
        const NeighbourClimbCounts counts = lk.improve(tour);
        validate_permutation(tour, n);
        EXPECT_EQ(before - counts.gain, tour_length(instance, tour)) << n << " seed " << seed;
        EXPECT_GT(counts.gain, 0) << n;
        EXPECT_TRUE(counts.completed);
      }
    }
}

TEST(LinKernighan, ImprovesTheThreeOptLocalOptimum) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 4);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = three_opt_tour(instance, lists);
  const int64_t three_opt = tour_length(instance, tour);
  const NeighbourClimbCounts counts = LinKernighan(instance, lists).improve(tour);
  EXPECT_GT(counts.moves, 0);
  EXPECT_LT(tour_length(instance, tour), three_opt);
  EXPECT_EQ(three_opt - counts.gain, tour_length(instance, tour));
  // Depth is what finds them: chains of at most three 2-opt moves leave more behind.
  std::vector<int32_t> shallow = three_opt_tour(instance, lists);
  const NeighbourClimbCounts short_chains =
      LinKernighan(instance, lists, LinKernighanOptions{.max_depth = 3}).improve(shallow);
  EXPECT_LT(short_chains.gain, counts.gain);
}

TEST(LinKernighan, ThreeOptStepsImproveTheThreeOptLocalOptimum) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 4);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = three_opt_tour(instance, lists);
  const int64_t three_opt = tour_length(instance, tour);
  LinKernighan lk(instance, lists, LinKernighanOptions{.step = LinKernighanStep::ThreeOpt});
  const NeighbourClimbCounts counts = lk.improve(tour);
  validate_permutation(tour, instance.n());
  EXPECT_GT(counts.moves, 0);
  EXPECT_EQ(three_opt - counts.gain, tour_length(instance, tour));
  EXPECT_LT(tour_length(instance, tour), three_opt);
  // And deep chains find more than single steps.
  std::vector<int32_t> shallow = three_opt_tour(instance, lists);
  const NeighbourClimbCounts one_step =
      LinKernighan(instance, lists, LinKernighanOptions{.max_depth = 1, .step = LinKernighanStep::ThreeOpt})
          .improve(shallow);
  EXPECT_LT(one_step.gain, counts.gain);
}

TEST(LinKernighan, StartsOnlyFromTheActiveCities) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Uniform, 8);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = random_tour(500, 4);
  std::vector<int32_t> pos(tour.size());
  for (int p = 0; p < 500; ++p) pos[tour[p]] = p;
  LinKernighan lk(instance, lists);
  const NeighbourClimbCounts none = lk.improve(tour, pos, {}, nullptr);
  EXPECT_EQ(none.moves, 0);
  EXPECT_EQ(none.evaluated, 0);
  const int32_t one[] = {tour[0]};
  const NeighbourClimbCounts some = lk.improve(tour, pos, one, nullptr);
  EXPECT_GT(some.moves, 0);
  for (int p = 0; p < 500; ++p) ASSERT_EQ(pos[tour[p]], p);
}

TEST(LinKernighan, StopsWhenAsked) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 3);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = random_tour(2000, 1);
  const int64_t before = tour_length(instance, tour);
  StopFlag stop;
  stop.deadline = std::chrono::steady_clock::now();
  const NeighbourClimbCounts counts = LinKernighan(instance, lists).improve(tour, &stop);
  EXPECT_FALSE(counts.completed);
  EXPECT_EQ(before - counts.gain, tour_length(instance, tour));
}

TEST(IteratedLinKernighan, IdleUntilOfferedAndStopsWithoutOne) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 2);
  IteratedLinKernighan threads(instance, build_candidate_lists(instance, 10), 3, 1);
  std::vector<int32_t> out{7};
  EXPECT_EQ(threads.best(out), -1);
  EXPECT_EQ(out, std::vector<int32_t>{7});
  EXPECT_EQ(threads.best_length(), -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(threads.kicks(), 0);
}

TEST(IteratedLinKernighan, PublishesOnlyShorterToursExactlyMeasured) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Clustered, 9);
  CandidateLists lists = build_candidate_lists(instance, 10);
  const std::vector<int32_t> start = three_opt_tour(instance, lists);
  const int64_t start_length = tour_length(instance, start);
  IteratedLinKernighan threads(instance, std::move(lists), 2, 7);
  threads.offer(start, start_length);
  ASSERT_TRUE(test::wait_for([&] { return threads.best_length() < start_length; }, 20.0))
      << "no shorter tour after " << threads.kicks() << " kicks";
  std::vector<int32_t> best;
  const int64_t length = threads.best(best);
  validate_permutation(best, instance.n());
  EXPECT_EQ(length, tour_length(instance, best));
  EXPECT_LT(length, start_length);
  EXPECT_GT(threads.kicks(), 0);
  // A longer tour is not taken; the published one only ever gets shorter.
  threads.offer(start, start_length);
  EXPECT_LE(threads.best_length(), length);
  const int64_t later = threads.best(best);
  EXPECT_EQ(later, tour_length(instance, best));
}

/// Lists handed over while the workers walk: every worker takes them at its next kick (on arrays
/// and on two-level lists, 2-opt and 3-opt steps), the tours stay exact permutations, and lists
/// for another instance size are refused.
TEST(IteratedLinKernighan, WorkersTakeListsHandedOverWhileTheyWalk) {
  for (const int n : {1500, kTwoLevelCities + 500})
    for (const LinKernighanStep step : {LinKernighanStep::TwoOpt, LinKernighanStep::ThreeOpt}) {
      const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 4);
      CandidateLists lists = build_candidate_lists(instance, 10);
      const std::vector<int32_t> start = three_opt_tour(instance, lists);
      const int64_t start_length = tour_length(instance, start);
      const int threads = 2;
      IteratedLinKernighan search(instance, std::move(lists), threads, 7, false,
                                  lin_kernighan_options(step, n));
      search.offer(start, start_length);
      ASSERT_TRUE(test::wait_for([&] { return search.kicks() > 0; }, 20.0));
      EXPECT_EQ(search.list_changes(), 0);
      search.use_lists(build_candidate_lists(instance, 5, 1, NeighbourShape::Quadrant));
      ASSERT_TRUE(test::wait_for([&] { return search.list_changes() == threads; }, 20.0))
          << "n " << n << ": " << search.list_changes() << " of " << threads << " workers took the lists";
      const int64_t kicks = search.kicks();
      ASSERT_TRUE(test::wait_for([&] { return search.kicks() > kicks + 10; }, 20.0));
      EXPECT_LE(stopped_best(search, instance), start_length);
      const Instance other = io::generate_instance(n - 1, io::InstanceKind::Uniform, 4);
      EXPECT_THROW(search.use_lists(build_candidate_lists(other, 5)), InputError);
    }
}

/// With replay, shared walks from kTwoLevelCities cities hand their gains to the shared tour, which
/// replays their moves: it gets shorter by exactly what was replayed (the published length is the
/// tour's), and most hand-overs are replayed rather than refused.
TEST(IteratedLinKernighan, SharedWalksOnListsReplayTheirKicksOnTheSharedTour) {
  const int n = kTwoLevelCities + 2000;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 5);
  CandidateLists lists = build_candidate_lists(instance, 8);
  const std::vector<int32_t> start = three_opt_tour(instance, lists);
  const int64_t start_length = tour_length(instance, start);
  IteratedLinKernighan threads(instance, lists, 3, 7, false,
                               lin_kernighan_options(LinKernighanStep::ThreeOpt, n), false, true);
  threads.offer(start, start_length);
  ASSERT_TRUE(test::wait_for([&] { return threads.replayed() >= 200; }, 60.0))
      << threads.replayed() << " replayed, " << threads.refused() << " refused";
  EXPECT_LT(stopped_best(threads, instance), start_length);
  // Most hand-overs are replayed (about three in four on the H200 host and on 2 loaded cores; how
  // many are refused depends on how the threads interleave).
  EXPECT_GT(threads.replayed(), threads.refused());
  // Without replay the shared walks adopt: nothing replayed. Walks that cannot replay (independent,
  // or on arrays: 5-opt steps, or fewer than kTwoLevelCities cities) are refused with an InputError.
  IteratedLinKernighan adopting(instance, lists, 2, 7, false,
                                lin_kernighan_options(LinKernighanStep::ThreeOpt, n));
  adopting.offer(start, start_length);
  ASSERT_TRUE(test::wait_for([&] { return adopting.best_length() < start_length; }, 60.0));
  adopting.stop();
  EXPECT_EQ(adopting.replayed() + adopting.refused(), 0);
  EXPECT_THROW(IteratedLinKernighan(instance, lists, 2, 7, true,
                                    lin_kernighan_options(LinKernighanStep::ThreeOpt, n), false, true),
               InputError);
  EXPECT_THROW(IteratedLinKernighan(instance, lists, 2, 7, false,
                                    lin_kernighan_options(LinKernighanStep::FiveOpt, n), false, true),
               InputError);
  const Instance small = io::generate_instance(kTwoLevelCities - 1, io::InstanceKind::Uniform, 5);
  EXPECT_THROW(
      IteratedLinKernighan(small, build_candidate_lists(small, 8), 2, 7, false,
                           lin_kernighan_options(LinKernighanStep::ThreeOpt, small.n()), false, true),
      InputError);
}

TEST(IteratedLinKernighan, IndependentWalksKeepTheirOwnShortestTours) {
  const Instance instance = io::generate_instance(1200, io::InstanceKind::Uniform, 12);
  CandidateLists lists = build_candidate_lists(instance, 10);
  const std::vector<int32_t> start = three_opt_tour(instance, lists);
  const int64_t start_length = tour_length(instance, start);
  IteratedLinKernighan shared(instance, lists, 2, 7);
  IteratedLinKernighan independent(instance, std::move(lists), 3, 7, true);
  shared.offer(start, start_length);
  independent.offer(start, start_length);
  std::vector<IteratedLinKernighan::Walk> walks;
  ASSERT_TRUE(test::wait_for(
      [&] {
        independent.walks(walks);
        return walks.size() == 3;
      },
      20.0));
  independent.stop();
  shared.stop();
  independent.walks(walks);
  int64_t shortest = start_length;
  for (const IteratedLinKernighan::Walk& walk : walks) {
    validate_permutation(walk.tour, instance.n());
    EXPECT_EQ(walk.length, tour_length(instance, walk.tour));
    EXPECT_LT(walk.length, start_length);
    shortest = std::min(shortest, walk.length);
  }
  EXPECT_EQ(independent.best_length(), shortest);  // the published tour is the shortest walk's
  shared.walks(walks);
  EXPECT_TRUE(walks.empty());
}

/// Independent walks that adopt offers take an offered tour shorter than their own shortest (the
/// colonies' merge of all the walks) and walk on from it; without adopt_offers they never do.
TEST(IteratedLinKernighan, WalksThatAdoptOffersTakeAShorterMergedTour) {
  const Instance instance = io::generate_instance(1200, io::InstanceKind::Uniform, 12);
  CandidateLists lists = build_candidate_lists(instance, 10);
  const std::vector<int32_t> start = random_tour(1200, 3);
  const int64_t start_length = tour_length(instance, start);
  // A far shorter tour than the walks from a random one have when they first publish theirs.
  std::vector<int32_t> good = three_opt_tour(instance, lists);
  LinKernighan lk(instance, lists, lin_kernighan_options(LinKernighanStep::ThreeOpt));
  lk.improve(good);
  KickedTour kicked;
  kicked.reset(good, tour_length(instance, good));
  RandomStream random(1, 2);
  for (int k = 0; k < 3000; ++k) kicked.kick(instance, lk, random, nullptr, kMaxKickSegment);
  good.assign(kicked.tour().begin(), kicked.tour().end());
  const int64_t good_length = kicked.length();
  for (const bool adopt : {false, true}) {
    IteratedLinKernighan threads(instance, lists, 2, 7, true,
                                 lin_kernighan_options(LinKernighanStep::ThreeOpt), adopt);
    threads.offer(start, start_length);
    std::vector<IteratedLinKernighan::Walk> walks;
    ASSERT_TRUE(test::wait_for(
        [&] {
          threads.walks(walks);
          return walks.size() == 2;
        },
        20.0));
    threads.offer(good, good_length);
    if (adopt) {
      // Each walk takes it, and publishes once it walks below it.
      ASSERT_TRUE(test::wait_for(
          [&] {
            threads.walks(walks);
            return threads.adoptions() == 2 && walks[0].length < good_length && walks[1].length < good_length;
          },
          20.0))
          << threads.adoptions() << " adoptions " << walks[0].length << " " << walks[1].length << " good "
          << good_length << " start " << start_length;
    }
    threads.stop();
    threads.walks(walks);
    for (const IteratedLinKernighan::Walk& walk : walks) {
      validate_permutation(walk.tour, instance.n());
      EXPECT_EQ(walk.length, tour_length(instance, walk.tour));
    }
    if (!adopt) {
      EXPECT_EQ(threads.adoptions(), 0);
    }
  }
}

TEST(IteratedLinKernighan, KicksStayPermutationsOnTinyTours) {
  // With 8 cities each double-bridge stretch is 1 or 2 long and the kick spans the whole tour.
  for (const int n : {8, 9, 13}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 6);
    IteratedLinKernighan threads(instance, build_candidate_lists(instance, std::min(10, n - 1)), 1, 3);
    const std::vector<int32_t> start = random_tour(n, 5);
    threads.offer(start, tour_length(instance, start));
    // Past several stalls, so that the walks also leave their basins (kStallKicks).
    ASSERT_TRUE(test::wait_for([&] { return threads.kicks() > 3 * kStallKicks + 500; }, 20.0)) << n;
    threads.stop();
    std::vector<int32_t> best;
    const int64_t length = threads.best(best);
    validate_permutation(best, n);
    EXPECT_EQ(length, tour_length(instance, best)) << n;
    EXPECT_LE(length, tour_length(instance, start)) << n;
  }
}

/// A walk leaving its basin (KickedTour::perturb) keeps a permutation of exact length, changes the
/// tour, and its kicks go on measuring exactly from there.
TEST(KickedTour, PerturbKeepsAPermutationOfExactLength) {
  for (const int n : {8, 60, 700}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 11);
    const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
    LinKernighan lk(instance, lists);
    std::vector<int32_t> start = three_opt_tour(instance, lists);
    lk.improve(start);
    KickedTour walk;
    walk.reset(start, tour_length(instance, start));
    RandomStream random(7, static_cast<uint64_t>(n));
    walk.perturb(instance, lk, random, nullptr, kMaxKickSegment, kEscapeBridges);
    std::vector<int32_t> tour(walk.tour().begin(), walk.tour().end());
    validate_permutation(tour, n);
    EXPECT_EQ(walk.length(), tour_length(instance, tour)) << n;
    // On 700 cities the walk is elsewhere afterwards (deterministic for this seed); on small tours
    // the repairs can lead back to the start, as they do on 60 cities here.
    if (n == 700) {
      EXPECT_NE(tour, start);
    }
    for (int k = 0; k < 200; ++k) walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
    tour.assign(walk.tour().begin(), walk.tour().end());
    validate_permutation(tour, n);
    EXPECT_EQ(walk.length(), tour_length(instance, tour)) << n;
  }
}

/// Whether a and b are neighbours on `tour`.
bool adjacent(std::span<const int32_t> tour, int a, int b) {
  const int n = static_cast<int>(tour.size());
  for (int p = 0; p < n; ++p)
    if (tour[p] == a) return tour[(p + 1) % n] == b || tour[(p + n - 1) % n] == b;
  return false;
}

/// The position p of `tour`'s longest edge (tour[p], tour[p + 1]).
int longest_edge(const Instance& instance, std::span<const int32_t> tour) {
  const int n = static_cast<int>(tour.size());
  const auto length = [&](int p) { return instance.distance(tour[p], tour[(p + 1) % n]); };
  int longest = 0;
  for (int p = 1; p < n; ++p)
    if (length(p) > length(longest)) longest = p;
  return longest;
}

/// The options' fixed edge (a stretch's closing edge) stays in the tour through every step kind's
/// chains and through kicks and perturbations, even where removing it would pay: here it is the
/// longest edge of a random tour, which every chain from its ends would take out first.
TEST(LinKernighan, NoChainNorKickRemovesTheFixedEdge) {
  for (const LinKernighanStep step : kSteps)
    for (const int n : {9, 60, 700}) {
      const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 13);
      const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
      std::vector<int32_t> tour = random_tour(n, 4);
      const int longest = longest_edge(instance, tour);
      const int a = tour[longest], b = tour[(longest + 1) % n];
      LinKernighanOptions options = lin_kernighan_options(step, n);
      options.fixed_edge = {b, a};
      LinKernighan lk(instance, lists, options);
      EXPECT_FALSE(lk.removable(a, b));
      EXPECT_TRUE(lk.removable(a, tour[(longest + 2) % n]) || n < 3);
      const int64_t before = tour_length(instance, tour);
      const NeighbourClimbCounts counts = lk.improve(tour);
      validate_permutation(tour, n);
      EXPECT_EQ(before - counts.gain, tour_length(instance, tour));
      EXPECT_GT(counts.gain, 0) << n;
      EXPECT_TRUE(adjacent(tour, a, b)) << to_string(step) << " " << n << ": a chain removed the fixed edge";
      KickedTour walk;
      walk.reset(tour, tour_length(instance, tour));
      RandomStream random(3, static_cast<uint64_t>(n));
      walk.perturb(instance, lk, random, nullptr, kMaxKickSegment, kEscapeBridges);
      for (int k = 0; k < 300; ++k) walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
      tour.assign(walk.tour().begin(), walk.tour().end());
      validate_permutation(tour, n);
      EXPECT_EQ(walk.length(), tour_length(instance, tour));
      EXPECT_TRUE(adjacent(tour, a, b)) << to_string(step) << " " << n << ": a kick removed the fixed edge";
      if (step == LinKernighanStep::FiveOpt) continue;
      walk.reset(tour, tour_length(instance, tour), true);  // the same on a two-level list
      walk.perturb(instance, lk, random, nullptr, kMaxKickSegment, kEscapeBridges);
      for (int k = 0; k < 300; ++k) walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
      tour.assign(walk.tour().begin(), walk.tour().end());
      validate_permutation(tour, n);
      EXPECT_EQ(walk.length(), tour_length(instance, tour));
      EXPECT_TRUE(adjacent(tour, a, b))
          << to_string(step) << " " << n << ": a list's kick removed the fixed edge";
    }
  // Without a fixed edge the same longest edge goes.
  const Instance instance = io::generate_instance(60, io::InstanceKind::Uniform, 13);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = random_tour(60, 4);
  const int longest = longest_edge(instance, tour);
  const int a = tour[longest], b = tour[(longest + 1) % 60];
  LinKernighan(instance, lists, lin_kernighan_options(LinKernighanStep::ThreeOpt)).improve(tour);
  EXPECT_FALSE(adjacent(tour, a, b));
}

/// The blocks of 64 positions a tour's moves rewrote: each once, wrapping round the tour's end,
/// none after clear().
TEST(TouchedBlocks, MarksEachBlockOnceAndWrapsRoundTheTour) {
  TouchedBlocks touched;
  touched.reset(200);  // blocks 0..3, the last of 8 positions
  touched.mark(10, 5);
  touched.mark(60, 10);   // blocks 0 and 1
  touched.mark(195, 10);  // 195..199 and 0..4: blocks 3 and 0
  std::vector<int32_t> blocks(touched.blocks().begin(), touched.blocks().end());
  std::sort(blocks.begin(), blocks.end());
  EXPECT_EQ(blocks, (std::vector<int32_t>{0, 1, 3}));
  int positions = 0, largest = -1;
  touched.for_each_position([&](int p) { ++positions, largest = std::max(largest, p); });
  EXPECT_EQ(positions, 64 + 64 + 8);
  EXPECT_EQ(largest, 199);
  touched.clear();
  EXPECT_TRUE(touched.blocks().empty());
  touched.mark(0, 200);
  EXPECT_EQ(touched.blocks().size(), 4u);
}

/// Kicks that are kept and kicks that are undone (only the rewritten positions copied either way)
/// leave a permutation of exact length after every kick, with every step kind.
TEST(KickedTour, EveryKickKeepsAPermutationOfExactLength) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Clustered, 21);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  for (const LinKernighanStep step : kSteps)
    for (const bool two_level : {false, true}) {
      if (two_level && step == LinKernighanStep::FiveOpt) continue;
      LinKernighan lk(instance, lists, lin_kernighan_options(step, 2000));
      std::vector<int32_t> tour = three_opt_tour(instance, lists);
      lk.improve(tour);
      KickedTour walk;
      walk.reset(tour, tour_length(instance, tour), two_level);
      EXPECT_EQ(walk.two_level(), two_level);
      RandomStream random(5, 6);
      int64_t kept = 0, previous = walk.length();
      for (int k = 0; k < 600; ++k) {
        walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
        tour.assign(walk.tour().begin(), walk.tour().end());
        validate_permutation(tour, 2000);
        ASSERT_EQ(walk.length(), tour_length(instance, tour)) << to_string(step) << " kick " << k;
        EXPECT_LE(walk.length(), previous);
        kept += walk.length() < previous;
        previous = walk.length();
      }
      EXPECT_GT(kept, 0) << to_string(step);
    }
}

/// A walk on a two-level list that logs its moves: the log played on a copy of the tour it started
/// from (TwoLevelTour::replay) gives the walk's tour, through kept, equal and undone kicks and
/// escapes alike; after clear_log() the log starts from the walk's tour of then.
TEST(KickedTour, LoggedMovesReplayedOnTheStartGiveTheWalksTour) {
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Clustered, 21);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  LinKernighan lk(instance, lists, lin_kernighan_options(LinKernighanStep::ThreeOpt, 1000));
  std::vector<int32_t> tour = three_opt_tour(instance, lists);
  KickedTour walk;
  walk.reset(tour, tour_length(instance, tour), true);
  walk.log_moves(true);
  RandomStream random(5, 7);
  const auto cycle = [](std::span<const int32_t> order) {  // each city's two neighbours, sorted
    std::vector<std::pair<int, int>> neighbours(order.size());
    const size_t n = order.size();
    for (size_t p = 0; p < n; ++p) {
      const int a = order[(p + n - 1) % n], b = order[(p + 1) % n];
      neighbours[order[p]] = {std::min(a, b), std::max(a, b)};
    }
    return neighbours;
  };
  for (int round = 0; round < 3; ++round) {
    TwoLevelTour copy(walk.tour());
    for (int k = 0; k < 150; ++k) {
      walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
      if (k % 50 == 49) walk.perturb(instance, lk, random, nullptr, kMaxKickSegment, kEscapeBridges);
    }
    EXPECT_FALSE(walk.logged().empty());
    ASSERT_TRUE(copy.replay(walk.logged())) << "round " << round;
    std::vector<int32_t> replayed(1000);
    copy.write(replayed);
    EXPECT_EQ(cycle(replayed), cycle(walk.tour())) << "round " << round;
    EXPECT_EQ(tour_length(instance, replayed), walk.length());
    walk.clear_log();
  }
  walk.reset(tour, tour_length(instance, tour), true);
  EXPECT_TRUE(walk.logged().empty());
  walk.log_moves(false);
  for (int k = 0; k < 50; ++k) walk.kick(instance, lk, random, nullptr, kMaxKickSegment);
  EXPECT_TRUE(walk.logged().empty());
}

/// Chains on a two-level list: the exact gain, and a tour as short as the arrays' chains leave
/// from the same start (the chains' search does not depend on which way round a tour is held, but
/// which way round it is decides which of t1's edges a chain tries first).
TEST(LinKernighan, ChainsOnATwoLevelListShortenAsMuchAsOnArrays) {
  const int n = 3000;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 17);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  for (const LinKernighanStep step : {LinKernighanStep::TwoOpt, LinKernighanStep::ThreeOpt}) {
    std::vector<int32_t> tour = random_tour(n, 8), array_tour = tour, all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    const int64_t before = tour_length(instance, tour);
    TwoLevelTour list(tour);
    LinKernighan lk(instance, lists, lin_kernighan_options(step, n));
    const NeighbourClimbCounts counts = lk.improve(list, all);
    list.write(tour);
    validate_permutation(tour, n);
    EXPECT_EQ(before - counts.gain, tour_length(instance, tour)) << to_string(step);
    const int64_t on_arrays = before - lk.improve(array_tour).gain;
    EXPECT_LT(std::abs(before - counts.gain - on_arrays), on_arrays / 100) << to_string(step);
  }
}

}  // namespace
}  // namespace formica::localsearch::cpu
