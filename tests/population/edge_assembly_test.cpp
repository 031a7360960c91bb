// SPDX-License-Identifier: MIT
// Edge assembly crossover: the AB-cycles alternate between the parents' edges and use each edge of
// their difference once, every child is one tour of exactly the length its gain says, and GA-EAX
// improves on its population, depends on the seed and not on the threads, and stops when asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <numeric>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "core/candidates.h"
#include "core/error.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "population/eax_companion.h"
#include "population/edge_assembly.h"
#include "population/edge_assembly_search.h"
#include "test_support.h"

namespace formica::population {
namespace {

using localsearch::random_start, localsearch::start_tour, localsearch::StartKind;

std::set<Edge> edges_of(std::span<const int32_t> tour) {
  std::set<Edge> edges;
  for (size_t p = 0; p < tour.size(); ++p) edges.insert(make_edge(tour[p], tour[(p + 1) % tour.size()]));
  return edges;
}

/// A 2-opt + Or-opt local optimum from random start `restart`, or the random permutation itself.
std::vector<int32_t> parent(const Instance& instance, const CandidateLists& lists, int restart,
                            bool climbed) {
  std::vector<int32_t> tour = random_start(instance.n(), 11, restart);
  if (climbed)
    localsearch::cpu::NeighbourClimber(instance, lists, localsearch::cpu::ClimbOptions{.or_opt = true})
        .climb(tour);
  return tour;
}

TEST(EdgeAssembly, AbCyclesAlternateAndUseEveryEdgeOfTheDifferenceOnce) {
  for (const int n : {5, 8, 50, 301}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
    EdgeAssembly assembly(instance, lists);
    for (int trial = 0; trial < 12; ++trial) {
      const bool climbed = trial % 2 == 1 && n >= 8;
      const std::vector<int32_t> a = parent(instance, lists, 2 * trial, climbed);
      const std::vector<int32_t> b = parent(instance, lists, 2 * trial + 1, climbed);
      const MergeBase base(instance, a, tour_length(instance, a));
      RandomStream rng(5, static_cast<uint64_t>(trial));
      std::vector<std::vector<int32_t>> cycles;
      assembly.ab_cycles(base, b, rng, cycles);
      const std::set<Edge> in_a = edges_of(a), in_b = edges_of(b);
      std::multiset<Edge> traced_a, traced_b;
      for (const auto& cycle : cycles) {
        ASSERT_GE(cycle.size(), 4u);
        ASSERT_EQ(cycle.size() % 2, 0u);
        for (size_t i = 0; i < cycle.size(); ++i) {
          const Edge e = make_edge(cycle[i], cycle[(i + 1) % cycle.size()]);
          if (i % 2 == 0) {
            EXPECT_TRUE(in_a.count(e) && !in_b.count(e)) << "n " << n << " trial " << trial;
            traced_a.insert(e);
          } else {
            EXPECT_TRUE(in_b.count(e) && !in_a.count(e)) << "n " << n << " trial " << trial;
            traced_b.insert(e);
          }
        }
      }
      std::multiset<Edge> only_a, only_b;
      for (const Edge& e : in_a)
        if (!in_b.count(e)) only_a.insert(e);
      for (const Edge& e : in_b)
        if (!in_a.count(e)) only_b.insert(e);
      EXPECT_EQ(traced_a, only_a) << "n " << n << " trial " << trial;
      EXPECT_EQ(traced_b, only_b) << "n " << n << " trial " << trial;
    }
  }
}

TEST(EdgeAssembly, EveryChildIsOneTourOfTheLengthItsGainSays) {
  int children = 0, joined = 0;
  for (const int n : {8, 60, 500}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 3 * n);
    const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
    EdgeAssembly assembly(instance, lists);
    for (int trial = 0; trial < 10; ++trial) {
      const std::vector<int32_t> a = parent(instance, lists, 2 * trial, trial % 3 != 0);
      const std::vector<int32_t> b = parent(instance, lists, 2 * trial + 1, trial % 3 != 0);
      const int64_t length = tour_length(instance, a);
      const MergeBase base(instance, a, length);
      RandomStream rng(9, static_cast<uint64_t>(trial));
      std::vector<std::vector<int32_t>> cycles;
      assembly.ab_cycles(base, b, rng, cycles);
      int64_t best_gain = std::numeric_limits<int64_t>::min();
      for (const auto& cycle : cycles) {
        AssembledChild child;
        if (!assembly.child(base, cycle, child)) continue;
        ++children;
        if (child.removed.size() * 2 > cycle.size()) ++joined;  // subtours were joined
        std::vector<int32_t> tour;
        if (child.removed.empty()) {
          tour = a;  // a join undid the cycle
        } else {
          ASSERT_TRUE(base.exchange_is_a_tour(child.removed, child.added, &tour));
        }
        validate_permutation(tour, n);
        EXPECT_EQ(tour_length(instance, tour), length - child.gain);
        best_gain = std::max(best_gain, child.gain);
      }
      // best_child over every cycle finds the largest gain of them all (same cycles: same stream).
      AssembledChild best;
      RandomStream again(9, static_cast<uint64_t>(trial));
      const int made = assembly.best_child(base, b, 1000, again, best);
      if (made > 0) {
        EXPECT_EQ(best.gain, best_gain);
      }
    }
  }
  EXPECT_GT(children, 100);
  EXPECT_GT(joined, 10);
}

/// `child` of base `a` is one tour of the length its gain says.
void expect_a_tour(const Instance& instance, const MergeBase& base, std::span<const int32_t> a,
                   const AssembledChild& child) {
  std::vector<int32_t> tour(a.begin(), a.end());
  if (!child.removed.empty()) {
    ASSERT_TRUE(base.exchange_is_a_tour(child.removed, child.added, &tour));
  }
  validate_permutation(tour, instance.n());
  EXPECT_EQ(tour_length(instance, tour), tour_length(instance, a) - child.gain);
}

/// The subtours that applying `set` (indices into `cycles`) to the base leaves.
int subtours_of(const MergeBase& base, const std::vector<std::vector<int32_t>>& cycles,
                std::span<const int> set) {
  std::vector<Edge> removed, added;
  for (const int c : set)
    for (size_t i = 0; i < cycles[c].size(); ++i)
      (i % 2 == 0 ? removed : added)
          .push_back(make_edge(cycles[c][i], cycles[c][(i + 1) % cycles[c].size()]));
  return base.exchange_cycles(removed, added);
}

TEST(EdgeAssembly, BlockSetsLeaveNoMoreSubtoursThanTheirCentreAndTheirChildrenAreTours) {
  // Close parents (two climbs of the same kind on 400 cities): many small AB-cycles, as late in a run.
  const int n = 400;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 17);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  EdgeAssembly assembly(instance, lists);
  int sets = 0, fewer = 0, several = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::vector<int32_t> a = parent(instance, lists, 2 * trial, true);
    const std::vector<int32_t> b = parent(instance, lists, 2 * trial + 1, true);
    const MergeBase base(instance, a, tour_length(instance, a));
    RandomStream rng(21, static_cast<uint64_t>(trial));
    std::vector<std::vector<int32_t>> cycles;
    assembly.ab_cycles(base, b, rng, cycles);
    for (int centre = 0; centre < static_cast<int>(cycles.size()); ++centre) {
      std::vector<int> set;
      assembly.block_set(base, centre, rng, set);
      ASSERT_FALSE(set.empty());
      EXPECT_EQ(set.front(), centre);
      std::vector<int> sorted = set;
      std::ranges::sort(sorted);
      EXPECT_EQ(std::ranges::adjacent_find(sorted), sorted.end()) << "a cycle twice in a set";
      EXPECT_TRUE(sorted.front() >= 0 && sorted.back() < static_cast<int>(cycles.size()));
      const int alone = subtours_of(base, cycles, std::span<const int>(&centre, 1));
      const int together = subtours_of(base, cycles, set);
      ASSERT_GT(together, 0);
      EXPECT_LE(together, alone) << "trial " << trial << " centre " << centre;
      ++sets;
      if (together < alone) ++fewer;
      if (set.size() > 1) ++several;
      AssembledChild child;
      if (assembly.block_child(base, set, child)) expect_a_tour(instance, base, a, child);
    }
    // best_child's block children: the centres in a random order.
    AssembledChild best;
    ASSERT_GT(assembly.best_child(base, b, 30, rng, best, {}, true), 0);
    expect_a_tour(instance, base, a, best);
  }
  EXPECT_GT(sets, 100);
  EXPECT_GT(fewer, 10) << "block sets never removed a subtour";
  EXPECT_GT(several, 10);
}

TEST(EdgeAssembly, TheSameTourTwiceHasNoChild) {
  const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 2);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  const std::vector<int32_t> a = parent(instance, lists, 0, true);
  std::vector<int32_t> reversed(a.rbegin(), a.rend());
  const MergeBase base(instance, a, tour_length(instance, a));
  EdgeAssembly assembly(instance, lists);
  RandomStream rng(1, 0);
  AssembledChild child;
  EXPECT_EQ(assembly.best_child(base, reversed, 30, rng, child), 0);
}

std::unique_ptr<EdgeAssemblySearch> run_to_the_end(const Instance& instance, EdgeAssemblyConfig config) {
  auto search = std::make_unique<EdgeAssemblySearch>(instance, config);
  while (!search->finished() && search->step(StopFlag{})) {
  }
  return search;
}

TEST(EdgeAssemblySearch, ImprovesOnItsPopulationWithExactLengths) {
  const Instance instance = io::generate_instance(400, io::InstanceKind::Uniform, 4);
  EdgeAssemblySearch search(instance, {.population = 24, .growth = 0, .threads = 2, .seed = 3});
  ASSERT_TRUE(search.step(StopFlag{}));  // the population
  const int64_t first = *std::min_element(search.lengths().begin(), search.lengths().end());
  EXPECT_EQ(search.best_length(), first);
  for (size_t i = 0; i < search.population().size(); ++i)
    EXPECT_EQ(tour_length(instance, search.population()[i]), search.lengths()[i]);
  while (!search.finished() && search.step(StopFlag{})) {
  }
  EXPECT_TRUE(search.finished());
  EXPECT_GT(search.generations(), 3);
  // Well below the best 2-opt + Or-opt optimum of 24 starts (about 5 % above the optimum here).
  EXPECT_LT(search.best_length(), first * 0.97);
  const std::vector<int32_t> tour = search.best_tour();
  validate_permutation(tour, instance.n());
  EXPECT_EQ(tour_length(instance, tour), search.best_length());
  for (size_t i = 0; i < search.population().size(); ++i) {
    validate_permutation(search.population()[i], instance.n());
    EXPECT_EQ(tour_length(instance, search.population()[i]), search.lengths()[i]);
  }
}

TEST(EdgeAssemblySearch, EveryStartKindGivesAPopulationOfLocalOptimaToImprove) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 2);
  for (const StartKind start :
       {StartKind::Random, StartKind::NearestNeighbour, StartKind::SpaceFillingCurve}) {
    EdgeAssemblySearch search(instance, {.population = 16, .growth = 0, .start = start, .seed = 7});
    ASSERT_TRUE(search.step(StopFlag{}));
    const int64_t first = search.best_length();
    // Distinct tours (a start city or curve variant per tour), each a local optimum of exact length.
    std::set<std::vector<int32_t>> distinct(search.population().begin(), search.population().end());
    EXPECT_GT(distinct.size(), 12u) << to_string(start);
    while (!search.finished() && search.step(StopFlag{})) {
    }
    EXPECT_LT(search.best_length(), first) << to_string(start);
    validate_permutation(search.best_tour(), instance.n());
    EXPECT_EQ(tour_length(instance, search.best_tour()), search.best_length());
  }
}

TEST(EdgeAssemblySearch, LinKernighanClimbsShortenEveryStartTour) {
  // 400 cities climb on arrays, 12,000 on two-level lists (kicked_tour.h's walks_two_level); the
  // chains of random starts search their own quadrant lists (10 or 5 a city) or, with 0, the
  // search's nearest, as those of nearest-neighbour starts do.
  const std::tuple<int, StartKind, int> cases[] = {{400, StartKind::NearestNeighbour, 10},
                                                   {12'000, StartKind::NearestNeighbour, 10},
                                                   {400, StartKind::Random, 10},
                                                   {3'000, StartKind::Random, 10},
                                                   {400, StartKind::Random, 5},
                                                   {400, StartKind::Random, 0}};
  for (const auto& [n, start, chain_neighbours] : cases) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 3);
    const EdgeAssemblyConfig or_opt{.population = 6, .growth = 0, .start = start,
                                    .chain_neighbours = chain_neighbours, .threads = 1, .seed = 4};
    EdgeAssemblyConfig chains = or_opt;
    chains.climb = EaxClimb::LinKernighan;
    EdgeAssemblyConfig threads = chains;
    threads.threads = 3;
    EdgeAssemblySearch plain(instance, or_opt), climbed(instance, chains), shared(instance, threads);
    for (EdgeAssemblySearch* search : {&plain, &climbed, &shared}) ASSERT_TRUE(search->step(StopFlag{}));
    int64_t plain_total = 0, climbed_total = 0;
    // Member 0 is the search's first tour in both; the others the same start tours, climbed further.
    for (size_t i = 0; i < climbed.population().size(); ++i) {
      validate_permutation(climbed.population()[i], n);
      EXPECT_EQ(tour_length(instance, climbed.population()[i]), climbed.lengths()[i]);
      EXPECT_LE(climbed.lengths()[i], plain.lengths()[i])
          << n << " cities, " << to_string(start) << ", " << chain_neighbours << ", member " << i;
      EXPECT_EQ(shared.population()[i], climbed.population()[i]) << "the threads change no tour";
      plain_total += plain.lengths()[i];
      climbed_total += climbed.lengths()[i];
    }
    EXPECT_LT(climbed_total, plain_total - plain_total / 200)
        << n << " cities, " << to_string(start) << ", " << chain_neighbours << ": at least 0.5 % shorter";
  }
  EXPECT_NE(EdgeAssemblyConfig{.climb = EaxClimb::LinKernighan}.describe().find("Lin-Kernighan"),
            std::string::npos);
}

TEST(EdgeAssemblySearch, TheSeedDecidesTheTourNotTheThreads) {
  const Instance instance = io::generate_instance(250, io::InstanceKind::Clustered, 8);
  const EdgeAssemblyConfig one{.population = 16, .growth = 0, .threads = 1, .seed = 5};
  EdgeAssemblyConfig three = one;
  three.threads = 3;
  EdgeAssemblyConfig other = one;
  other.seed = 6;
  const auto a = run_to_the_end(instance, one), b = run_to_the_end(instance, three),
             c = run_to_the_end(instance, other);
  EXPECT_EQ(a->best_tour(), b->best_tour());
  EXPECT_EQ(a->generations(), b->generations());
  EXPECT_EQ(a->children(), b->children());
  EXPECT_NE(a->best_tour(), c->best_tour());
}

TEST(EdgeAssemblySearch, ReachesTheOptimumOfSmallInstances) {
  for (const int n : {3, 4, 5, 6, 7, 8, 9, 10}) {
    const uint64_t seed = static_cast<uint64_t>(n);
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, seed);
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    int64_t optimum = tour_length(instance, order);
    while (std::next_permutation(order.begin() + 1, order.end()))
      optimum = std::min(optimum, tour_length(instance, order));
    EXPECT_EQ(run_to_the_end(instance, {.population = 8, .growth = 0, .seed = seed})->best_length(), optimum)
        << n << " cities";
  }
  const auto dir = test::tsplib_dir();
  if (!dir) GTEST_SKIP() << "TSPLIB folder absent: berlin52 and kroA100 not tried";
  EXPECT_EQ(run_to_the_end(test::tsplib_instance("berlin52"), {.population = 50, .growth = 0, .threads = 2})
                ->best_length(),
            7542);
  EXPECT_EQ(run_to_the_end(test::tsplib_instance("kroA100"), {.population = 100, .growth = 0, .threads = 2})
                ->best_length(),
            21282);
}

TEST(EdgeAssemblySearch, AConvergedPopulationGivesWayToOneTwiceAsLarge) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 9);
  EdgeAssemblySearch search(instance, {.population = 6, .threads = 2, .seed = 4});
  int64_t last = search.best_length();
  std::vector<int> sizes;
  while (search.restarts() < 3) {
    ASSERT_TRUE(search.step(StopFlag{}));
    EXPECT_LE(search.best_length(), last);
    last = search.best_length();
    if (sizes.empty() || sizes.back() != search.population_size()) sizes.push_back(search.population_size());
  }
  EXPECT_EQ(sizes, (std::vector<int>{6, 12, 24, 48}));
  EXPECT_FALSE(search.finished());
  // The next population holds the best tour so far and new climbs.
  ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_EQ(search.population().size(), 48u);
  EXPECT_EQ(*std::min_element(search.lengths().begin(), search.lengths().end()), search.best_length());
  EXPECT_EQ(std::count(search.population().begin(), search.population().end(), search.best_tour()), 1);
  // Other growths: as large again, or half as large again (rounded up).
  for (const auto& [growth, expected] :
       {std::pair{1.0, std::vector<int>{6, 6, 6, 6}}, std::pair{1.5, std::vector<int>{6, 9, 14, 21}}}) {
    EdgeAssemblySearch other(instance, {.population = 6, .growth = growth, .threads = 2, .seed = 4});
    std::vector<int> seen{other.population_size()};
    while (other.restarts() < 3) {
      ASSERT_TRUE(other.step(StopFlag{}));
      if (other.restarts() + 1 > static_cast<int>(seen.size())) seen.push_back(other.population_size());
    }
    EXPECT_EQ(seen, expected) << "growth " << growth;
  }
}

TEST(EdgeAssemblySearch, AStopRequestChangesNothing) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 6);
  EdgeAssemblySearch search(instance, {.population = 30, .seed = 2});
  const int64_t first = search.best_length();
  EXPECT_GT(first, 0);  // a tour before the first step
  StopFlag now;
  now.deadline = std::chrono::steady_clock::now();
  EXPECT_FALSE(search.step(now));
  EXPECT_EQ(search.best_length(), first);
  ASSERT_TRUE(search.step(StopFlag{}));
  const int64_t built = search.best_length();
  EXPECT_FALSE(search.step(now));
  EXPECT_EQ(search.best_length(), built);
  EXPECT_EQ(search.generations(), 0);
}

TEST(EdgeAssemblySearch, AdoptedToursShareOneSlotOfThePopulation) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 9);
  // Two tours well below the population's: other searches', run to their end; `good` the longer.
  const auto finished_tour = [&](int population, uint64_t seed) {
    EdgeAssemblySearch other(instance, {.population = population, .growth = 0, .threads = 2, .seed = seed});
    while (!other.finished() && other.step(StopFlag{})) {
    }
    return std::make_pair(other.best_tour(), other.best_length());
  };
  auto [good, good_length] = finished_tour(30, 8);
  auto [better, better_length] = finished_tour(60, 11);
  if (better_length > good_length) std::swap(good, better), std::swap(good_length, better_length);
  ASSERT_LT(better_length, good_length);

  EdgeAssemblySearch search(instance, {.population = 12, .growth = 0, .threads = 2, .seed = 5});
  EXPECT_TRUE(search.supports_adoption());
  ASSERT_TRUE(search.step(StopFlag{}));
  ASSERT_LT(good_length, search.best_length());
  const std::vector<int64_t> before = search.lengths();
  const size_t longest = std::max_element(before.begin(), before.end()) - before.begin();
  EXPECT_TRUE(search.adopt(good, good_length));
  EXPECT_EQ(search.best_length(), good_length);
  EXPECT_EQ(search.best_tour(), good);
  EXPECT_EQ(search.population()[longest], good);
  EXPECT_EQ(search.lengths()[longest], good_length);
  // Again, or a tour no shorter than the longest: nothing changes.
  EXPECT_FALSE(search.adopt(good, good_length));
  std::vector<int32_t> identity(instance.n());
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_FALSE(search.adopt(identity, tour_length(instance, identity)));
  EXPECT_EQ(std::count(search.population().begin(), search.population().end(), good), 1);
  EXPECT_EQ(std::count(search.population().begin(), search.population().end(), identity), 0);
  // A wrong length is the caller's bug.
  EXPECT_THROW(search.adopt(good, good_length + 1), std::logic_error);
  // A shorter tour offered next takes the first one's slot, not the longest tour's.
  const std::vector<int64_t> with_guest = search.lengths();
  EXPECT_TRUE(search.adopt(better, better_length));
  EXPECT_EQ(search.population()[longest], better);
  EXPECT_EQ(std::count(search.population().begin(), search.population().end(), good), 0);
  for (size_t i = 0; i < with_guest.size(); ++i)
    if (i != longest) {
      EXPECT_EQ(search.lengths()[i], with_guest[i]) << i;
    }
  // The crossover goes on from it: every tour stays one of its exact length.
  while (!search.finished() && search.step(StopFlag{})) {
  }
  EXPECT_LE(search.best_length(), better_length);
  for (size_t i = 0; i < search.population().size(); ++i) {
    validate_permutation(search.population()[i], instance.n());
    EXPECT_EQ(tour_length(instance, search.population()[i]), search.lengths()[i]);
  }
}

TEST(EdgeAssemblySearch, ATourAdoptedBeforeThePopulationIsItsFirst) {
  const Instance instance = io::generate_instance(200, io::InstanceKind::Uniform, 3);
  EdgeAssemblySearch other(instance, {.population = 20, .growth = 0, .seed = 2});
  while (!other.finished() && other.step(StopFlag{})) {
  }
  EdgeAssemblySearch search(instance, {.population = 10, .seed = 7});
  ASSERT_LT(other.best_length(), search.best_length());
  EXPECT_TRUE(search.adopt(other.best_tour(), other.best_length()));
  ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_EQ(search.population().front(), other.best_tour());
  EXPECT_EQ(search.best_length(), other.best_length());
}

TEST(EaxCompanion, ImprovesTheOfferedTourOnItsThreadsUntilStopped) {
  const Instance instance = io::generate_instance(400, io::InstanceKind::Uniform, 12);
  EaxCompanion companion(instance, {.population = 20, .threads = 2, .seed = 4});
  std::vector<int32_t> out;
  EXPECT_EQ(companion.best_length(), -1);  // idle until the first offer
  EXPECT_EQ(companion.best(out), -1);
  EXPECT_TRUE(out.empty());
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  const int64_t start_length = tour_length(instance, start);
  companion.offer(start, start_length);
  EXPECT_EQ(companion.best_length(), start_length);  // published at once
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(static_cast<int>(60 * test::time_scale()));
  // The population's climbs alone may get below 90 % of it: a generation as well.
  while ((companion.best_length() > 0.9 * start_length || companion.generations() == 0) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_LT(companion.best_length(), 0.9 * start_length);
  EXPECT_GT(companion.generations(), 0);
  const int64_t length = companion.best(out);
  validate_permutation(out, instance.n());
  EXPECT_EQ(tour_length(instance, out), length);
  EXPECT_EQ(companion.kicks(), 0);
  std::vector<localsearch::cpu::TourCompanion::Walk> walks(1);
  companion.walks(walks);
  EXPECT_TRUE(walks.empty());
  companion.stop();
  companion.stop();  // idempotent
  const int64_t final_length = companion.best(out);
  EXPECT_LE(final_length, length);
  EXPECT_EQ(tour_length(instance, out), final_length);
  // An offer after the stop, longer than the best, changes nothing.
  companion.offer(start, start_length);
  EXPECT_EQ(companion.best_length(), final_length);
}

/// Whether `done()` holds by `deadline`, polled every 2 ms.
template <class Done>
bool wait_until(std::chrono::steady_clock::time_point deadline, const Done& done) {
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return done();
}

/// The companion's best tour, checked: a permutation of exactly its length.
int64_t checked_best(const EaxCompanion& companion, const Instance& instance) {
  std::vector<int32_t> out;
  const int64_t length = companion.best(out);
  validate_permutation(out, instance.n());
  EXPECT_EQ(tour_length(instance, out), length);
  return length;
}

TEST(EaxCompanion, ItsBridgeImprovesTheOfferedTourAndHandsTheThreadsBackOnceCaughtUp) {
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Clustered, 3);
  EaxCompanion companion(instance, {.population = 30, .bridge_threads = 1, .threads = 3, .seed = 2});
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  const int64_t start_length = tour_length(instance, start);
  companion.offer(start, start_length);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(static_cast<int>(120 * test::time_scale()));
  const auto wait_for = [&](const auto& done) { return wait_until(deadline, done); };
  // The bridge's Lin-Kernighan takes the offered tour below the nearest-neighbour tour's length.
  ASSERT_TRUE(wait_for([&] { return companion.best_length() < start_length; }));
  // The population's own shortest catches up: the bridge ends, the generations go on on all threads.
  ASSERT_TRUE(wait_for([&] { return !companion.bridging() && companion.generations() > 0; }));
  const int64_t length = checked_best(companion, instance);
  const int64_t generations = companion.generations();
  ASSERT_TRUE(wait_for([&] { return companion.generations() > generations; }));
  companion.stop();
  EXPECT_LE(checked_best(companion, instance), length);
}

TEST(EaxCompanion, AStopWhileBridgingKeepsTheBridgesBestTour) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 8);
  EaxCompanion companion(instance, {.population = 200, .bridge_threads = 1, .threads = 2, .seed = 5});
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  companion.offer(start, tour_length(instance, start));
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(static_cast<int>(60 * test::time_scale()));
  ASSERT_TRUE(wait_until(deadline, [&] { return companion.best_length() < tour_length(instance, start); }));
  EXPECT_TRUE(companion.bridging());  // 200 climbs of 3,000 cities on one thread: not built yet
  const int64_t seen = companion.best_length();
  companion.stop();
  EXPECT_FALSE(companion.bridging());
  EXPECT_LE(checked_best(companion, instance), seen);
}

TEST(EdgeAssemblySearch, FewerThreadsLentAwayGiveTheSameTours) {
  const Instance instance = io::generate_instance(600, io::InstanceKind::Uniform, 4);
  EdgeAssemblySearch all(instance, {.population = 20, .threads = 3, .seed = 6});
  EdgeAssemblySearch lent(instance, {.population = 20, .threads = 3, .seed = 6});
  lent.use_threads(1);
  for (int step = 0; step < 6; ++step) {
    ASSERT_TRUE(all.step(StopFlag{}));
    ASSERT_TRUE(lent.step(StopFlag{}));
    if (step == 2) lent.use_threads(3);
    EXPECT_EQ(all.lengths(), lent.lengths()) << step;
  }
  EXPECT_THROW(lent.use_threads(4), InputError);
  EXPECT_THROW(lent.use_threads(0), InputError);
}

TEST(EaxCompanion, StopsBeforeAnyOffer) {
  const Instance instance = io::generate_instance(100, io::InstanceKind::Uniform, 1);
  EaxCompanion companion(instance, {.population = 10, .threads = 1});
  companion.stop();
  EXPECT_EQ(companion.best_length(), -1);
}

TEST(EdgeAssemblySearch, BlockESetsFollowTheSingleCyclesBeforeTheSearchEnds) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Clustered, 6);
  for (const int stages : {1, 2}) {
    EdgeAssemblySearch search(instance,
                              {.population = 30, .growth = 0, .stages = stages, .threads = 2, .seed = 8});
    std::vector<int> seen;
    int64_t last = search.best_length();
    while (!search.finished() && search.step(StopFlag{})) {
      if (seen.empty() || seen.back() != search.stage()) seen.push_back(search.stage());
      EXPECT_LE(search.best_length(), last);
      last = search.best_length();
    }
    const std::vector<int> expected = stages == 1 ? std::vector<int>{1} : std::vector<int>{1, 2};
    EXPECT_EQ(seen, expected);
    for (size_t i = 0; i < search.population().size(); ++i) {
      validate_permutation(search.population()[i], instance.n());
      EXPECT_EQ(tour_length(instance, search.population()[i]), search.lengths()[i]);
    }
    EXPECT_EQ(tour_length(instance, search.best_tour()), search.best_length());
  }
  // A new population starts with single AB-cycles again.
  EdgeAssemblySearch search(instance, {.population = 8, .threads = 2, .seed = 3});
  bool second = false;
  while (search.restarts() < 1) {
    ASSERT_TRUE(search.step(StopFlag{}));
    second = second || search.stage() == 2;
  }
  EXPECT_TRUE(second);
  ASSERT_TRUE(search.step(StopFlag{}));
  EXPECT_EQ(search.stage(), 1);
}

// The stall that ends the single AB-cycles is measured on the search's own tours: a shorter tour
// adopted from elsewhere that the population has not yet caught up with is not a stall. With 1,000
// children per pair one generation without a shorter tour of its own is a stall.
TEST(EdgeAssemblySearch, AnAdoptedShorterTourIsNotAStall) {
  const Instance instance = io::generate_instance(500, io::InstanceKind::Clustered, 6);
  EdgeAssemblySearch donor(instance, {.population = 30, .growth = 0, .stages = 1, .threads = 2, .seed = 4});
  while (!donor.finished() && donor.step(StopFlag{})) {
  }
  const std::vector<int32_t> guest = donor.best_tour();
  EdgeAssemblySearch search(
      instance, {.population = 30, .growth = 0, .children = 1000, .stages = 2, .threads = 2, .seed = 8});
  ASSERT_TRUE(search.step(StopFlag{}));  // the population
  ASSERT_LT(donor.best_length(), *std::ranges::min_element(search.lengths()));
  search.adopt(guest, donor.best_length());
  const auto slot =
      static_cast<size_t>(std::ranges::find(search.population(), guest) - search.population().begin());
  ASSERT_LT(slot, search.population().size());
  const auto own_shortest = [&] {
    int64_t shortest = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < search.lengths().size(); ++i)
      if (i != slot) shortest = std::min(shortest, search.lengths()[i]);
    return shortest;
  };
  int stage_one_behind_the_guest = 0;
  while (!search.finished() && search.stage() == 1) {
    const int64_t before = own_shortest();
    ASSERT_TRUE(search.step(StopFlag{}));
    const bool guest_shortest = *std::ranges::min_element(search.lengths()) == search.lengths()[slot];
    if (search.stage() == 1) {
      if (guest_shortest) ++stage_one_behind_the_guest;
    } else {
      EXPECT_GE(own_shortest(), before);  // stage 2 only once its own tours stopped falling
    }
  }
  EXPECT_GT(stage_one_behind_the_guest, 0);
}

// The populations after the first: with restart kicks, the best tour so far with a few double
// bridges, each repaired, so every tour keeps nearly all of the best tour's edges; climbed from
// random starts (--eax-restart-kicks 0), far fewer.
TEST(EdgeAssemblySearch, RestartKicksSpreadTheNextPopulationAroundTheBestTour) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 12);
  double shared_least[2] = {1, 1};
  for (const int kicks : {0, 2}) {
    EdgeAssemblySearch search(
        instance, {.population = 8, .growth = 1, .restart_kicks = kicks, .threads = 2, .seed = 5});
    while (search.restarts() < 1) ASSERT_TRUE(search.step(StopFlag{}));
    const std::vector<int32_t> best = search.best_tour();  // what the next population holds
    ASSERT_TRUE(search.step(StopFlag{}));                  // the next population
    ASSERT_EQ(search.population().size(), 8u);
    EXPECT_EQ(search.population()[0], best);  // (a repaired kick may be shorter: then best_tour() is that)
    const std::set<Edge> best_edges = edges_of(best);
    int moved = 0;  // tours other than the best (a repair may find its way back to it)
    for (size_t i = 0; i < search.population().size(); ++i) {
      const auto& tour = search.population()[i];
      validate_permutation(tour, instance.n());
      EXPECT_EQ(tour_length(instance, tour), search.lengths()[i]);
      if (i == 0) continue;
      moved += tour != best ? 1 : 0;
      int shared = 0;
      for (const Edge& e : edges_of(tour)) shared += best_edges.count(e) > 0 ? 1 : 0;
      shared_least[kicks > 0] = std::min(shared_least[kicks > 0], shared / 300.0);
    }
    EXPECT_GE(moved, 4) << kicks;
  }
  EXPECT_GT(shared_least[1], 0.9);
  EXPECT_LT(shared_least[0], 0.9);
}

// --eax-restart-apart: the population after a convergence climbs without the best tour, converges
// on its own (both stages), and only then gets the best tour in place of its longest.
TEST(EdgeAssemblySearch, RestartsApartConvergeOnTheirOwnBeforeTheBestTourJoins) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 12);
  EdgeAssemblySearch search(instance,
                            {.population = 8, .growth = 1, .restart_apart = true, .threads = 2, .seed = 5});
  while (search.restarts() < 1) ASSERT_TRUE(search.step(StopFlag{}));
  const std::vector<int32_t> best = search.best_tour();
  const int64_t best_length = search.best_length();
  const auto holds_best = [&] {
    return std::ranges::find(search.population(), best) != search.population().end();
  };
  ASSERT_TRUE(search.step(StopFlag{}));  // the next population
  ASSERT_EQ(search.population().size(), 8u);
  EXPECT_FALSE(holds_best());
  EXPECT_EQ(search.best_length(), best_length);   // kept aside
  EXPECT_FALSE(search.adopt(best, best_length));  // an offer too: not shorter, and no guest slot now
  EXPECT_FALSE(holds_best());
  int joined_from_stage = 0;
  while (search.restarts() < 2) {
    const int stage = search.stage();
    ASSERT_TRUE(search.step(StopFlag{}));
    EXPECT_LE(search.best_length(), best_length);
    for (size_t i = 0; i < search.population().size(); ++i)
      ASSERT_EQ(tour_length(instance, search.population()[i]), search.lengths()[i]);
    if (joined_from_stage == 0 && holds_best()) {
      joined_from_stage = stage;
      EXPECT_EQ(search.stage(), 1);  // the stages again, with the best tour
    }
  }
  EXPECT_EQ(joined_from_stage, 2);
  validate_permutation(search.best_tour(), instance.n());
  EXPECT_EQ(tour_length(instance, search.best_tour()), search.best_length());
}

// --eax-first-kicks: the first population is the first tour (the nearest-neighbour tour's climb)
// and that tour kicked, each kick repaired, so every tour keeps nearly all of its edges; without,
// climbed from random starts, far fewer. The crossover then improves it as any population.
TEST(EdgeAssemblySearch, FirstKicksSpreadTheFirstPopulationAroundTheFirstTour) {
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Uniform, 12);
  double shared_least[2] = {1, 1};
  for (const int kicks : {0, 2}) {
    const EdgeAssemblyConfig config{
        .population = 8, .growth = 0, .first_kicks = kicks, .threads = 2, .seed = 5};
    EdgeAssemblySearch search(instance, config);
    const std::vector<int32_t> first = search.best_tour();
    const int64_t first_length = search.best_length();
    ASSERT_TRUE(search.step(StopFlag{}));  // the first population
    ASSERT_EQ(search.population().size(), 8u);
    EXPECT_EQ(search.population()[0], first);
    const std::set<Edge> first_edges = edges_of(first);
    int moved = 0;
    for (size_t i = 1; i < search.population().size(); ++i) {
      const auto& tour = search.population()[i];
      validate_permutation(tour, instance.n());
      EXPECT_EQ(tour_length(instance, tour), search.lengths()[i]);
      moved += tour != first ? 1 : 0;
      int shared = 0;
      for (const Edge& e : edges_of(tour)) shared += first_edges.count(e) > 0 ? 1 : 0;
      shared_least[kicks > 0] = std::min(shared_least[kicks > 0], shared / 1000.0);
    }
    EXPECT_GE(moved, 4) << kicks;
    while (!search.finished()) ASSERT_TRUE(search.step(StopFlag{}));
    EXPECT_LT(search.best_length(), first_length) << kicks;
    validate_permutation(search.best_tour(), instance.n());
    EXPECT_EQ(tour_length(instance, search.best_tour()), search.best_length());
  }
  EXPECT_GT(shared_least[1], 0.9);
  EXPECT_LT(shared_least[0], 0.9);
}

// The population grows only as far as the memory allows (FORMICA_MEMORY_LIMIT_MB caps what formica
// believes it has): at 1 MiB, new members may take 512 KiB, two tours of 300 cities (2,400 bytes)
// each, so 218 members; a first population that does not fit is refused before anything is built.
TEST(EdgeAssemblySearch, GrowthStopsWhereTheMemoryEnds) {
  struct MemoryLimit {  // the variable set for this test only, however it ends
    MemoryLimit() { ::setenv("FORMICA_MEMORY_LIMIT_MB", "1", 1); }
    ~MemoryLimit() { ::unsetenv("FORMICA_MEMORY_LIMIT_MB"); }
  } limit;
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 3);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.population = 1000}), OutOfMemoryError);
  EdgeAssemblySearch search(instance, {.population = 100, .children = 10, .threads = 2, .seed = 2});
  std::vector<int> sizes;
  while (search.restarts() < 3) {
    ASSERT_TRUE(search.step(StopFlag{}));
    if (sizes.empty() || sizes.back() != search.population_size()) sizes.push_back(search.population_size());
  }
  EXPECT_EQ(sizes, (std::vector<int>{100, 200, 218}));
}

TEST(EdgeAssemblySearch, RejectsBadSettings) {
  const Instance instance = io::generate_instance(20, io::InstanceKind::Uniform, 1);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.population = 1}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.children = 0}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.growth = 0.5}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.neighbours = 0}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.stages = 0}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.stages = 3}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.restart_kicks = -1}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.first_kicks = -1}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.chain_neighbours = -1}), InputError);
  EXPECT_THROW(EdgeAssemblySearch(instance, {.chain_neighbours = 51}), InputError);
}

}  // namespace
}  // namespace formica::population
