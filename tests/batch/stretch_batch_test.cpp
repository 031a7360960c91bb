// SPDX-License-Identifier: MIT
// A tour's stretches solved as one batch: start tours given to the batch, rounds that keep the tour
// a tour with each stretch's cities in its own positions and its ends fixed, the exact gain, and
// the rounds running beside another search (StretchBatchSearch).
#include "batch/stretch_batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "batch_support.h"
#include "core/error.h"
#include "core/nearest_neighbour.h"
#include "core/rng.h"
#include "core/tour.h"
#include "decomposition/stretch_lin_kernighan.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica::batch {
namespace {

using test::uniform_batch;

BatchConfig cpu_config() {
  BatchConfig config;
  config.backend = Backend::Cpu;
  config.threads = 2;
  config.walks = 1;
  return config;
}

TEST(BatchStartTours, EveryWalkStartsFromTheGivenTour) {
  const std::vector<Instance> instances = uniform_batch({60, 200});
  BatchConfig config = cpu_config();
  config.kicks = 2000;
  const Batch long_run = solve_batch(instances, config);
  // From the long run's tours, no kicks: the climb keeps them (they are local optima already).
  std::vector<InstanceLimits> limits(2);
  for (int i = 0; i < 2; ++i) limits[i].start.assign(long_run.results[i].tour.order().begin(), long_run.results[i].tour.order().end());
  config.kicks = 0;
  const Batch warm = solve_batch(instances, config, limits);
  const Batch cold = solve_batch(instances, config);
  for (int i = 0; i < 2; ++i) {
    EXPECT_LE(warm.results[i].tour.length(), long_run.results[i].tour.length()) << "instance " << i;
    EXPECT_GT(cold.results[i].tour.length(), long_run.results[i].tour.length())
        << "instance " << i << ": a nearest-neighbour start climbed without kicks should be longer";
  }
}

TEST(BatchStartTours, AStartThatIsNoTourIsRefusedNamingItsInstance) {
  const std::vector<Instance> instances = uniform_batch({20, 30});
  std::vector<InstanceLimits> limits(2);
  limits[1].start = std::vector<int32_t>(29, 0);
  EXPECT_THROW(
      {
        try {
          solve_batch(instances, cpu_config(), limits);
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("instance 1: the start tour has 29 cities"), std::string::npos) << e.what();
          throw;
        }
      },
      InputError);
  limits[1].start = formica::test::random_tour(30, 1);
  limits[1].start[3] = limits[1].start[4];
  EXPECT_THROW(solve_batch(instances, cpu_config(), limits), InputError);
  limits[1].start[3] = 30;
  EXPECT_THROW(solve_batch(instances, cpu_config(), limits), InputError);
}

TEST(StretchBatch, ARoundShortensEveryStretchInPlaceWithItsEndsFixed) {
  const Instance instance = io::generate_instance(2500, io::InstanceKind::Uniform, 3);
  const std::vector<int32_t> before = formica::test::random_tour(instance.n(), 2);
  std::vector<int32_t> tour = before;
  BatchConfig config = cpu_config();
  config.kicks = 50;
  const int stretch = 400, offset = 137;
  const StretchRound round = improve_stretches(instance, tour, stretch, offset, config);
  validate_permutation(tour, instance.n());
  EXPECT_EQ(round.stretches, 6);
  EXPECT_EQ(round.improved, 6) << "a random order is far from a good path in every stretch";
  EXPECT_EQ(round.walks, 1);
  EXPECT_EQ(round.kicks, 6 * 50);
  EXPECT_GT(round.gain, 0);
  EXPECT_EQ(tour_length(instance, before) - tour_length(instance, tour), round.gain);
  const int n = instance.n();
  for (int s = 0; s < round.stretches; ++s) {
    const decomposition::StretchCut cut = decomposition::stretch_cut(n, stretch, offset, s);
    std::multiset<int32_t> was, is;
    for (int i = 0; i < cut.cities; ++i) {
      was.insert(before[(cut.first + i) % n]);
      is.insert(tour[(cut.first + i) % n]);
    }
    EXPECT_EQ(was, is) << "stretch " << s << " keeps its cities in its positions";
    EXPECT_EQ(tour[cut.first % n], before[cut.first % n]) << "stretch " << s << "'s first city stays";
    EXPECT_EQ(tour[(cut.first + cut.cities - 1) % n], before[(cut.first + cut.cities - 1) % n])
        << "stretch " << s << "'s last city stays";
  }
  // A second round on the improved tour, cut elsewhere, gains again and never loses.
  const int64_t length = tour_length(instance, tour);
  const StretchRound again = improve_stretches(instance, tour, stretch, 11, config);
  EXPECT_GE(again.gain, 0);
  EXPECT_EQ(tour_length(instance, tour), length - again.gain);
}

TEST(StretchBatch, ATourOfFewerThanTwoStretchesIsLeftAsItIs) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 4);
  std::vector<int32_t> tour = formica::test::random_tour(instance.n(), 5);
  const std::vector<int32_t> before = tour;
  BatchConfig config = cpu_config();
  config.kicks = 10;
  const StretchRound round = improve_stretches(instance, tour, 200, 0, config);
  EXPECT_EQ(round.stretches, 0);
  EXPECT_EQ(round.gain, 0);
  EXPECT_EQ(tour, before);
}

TEST(StretchBatch, TheSearchImprovesAnOfferedTourAndPublishesItWithItsExactLength) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 6);
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  const int64_t start_length = tour_length(instance, start);
  StretchBatchSearch search(instance, cpu_config(), 500, 0.3);
  std::vector<int32_t> out;
  EXPECT_EQ(search.best(out), -1) << "nothing published before the first offer";
  search.offer(start, start_length);
  // Until a round has shortened the tour and one has kicked: on a busy machine the first round's
  // time can go on its climbs alone (set-up included), and the kicks come in the rounds after it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  const auto done = [&] { return search.best_length() >= 0 && search.best_length() < start_length && search.kicks() > 0; };
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  search.stop();
  EXPECT_FALSE(search.failure());
  const int64_t length = search.best(out);
  EXPECT_LT(length, start_length) << "rounds of kicked stretches should shorten a nearest-neighbour tour";
  validate_permutation(out, instance.n());
  EXPECT_EQ(tour_length(instance, out), length);
  EXPECT_GE(search.rounds(), 1);
  EXPECT_GT(search.kicks(), 0);
  // A longer offer is not taken; stop() is idempotent.
  search.offer(start, start_length);
  search.stop();
  EXPECT_EQ(search.best_length(), length);
}

TEST(StretchBatch, RoundsTooShortForTheirClimbsGrowUntilTheyKick) {
  // 5 ms is less than the set-up and climbs of six 500-city stretches take: the first rounds end
  // without a kick, and each gives the next twice the time until one kicks.
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 7);
  const std::vector<int32_t> start = nearest_neighbour_tour(instance, 0);
  StretchBatchSearch search(instance, cpu_config(), 500, 0.005);
  search.offer(start, tour_length(instance, start));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (search.kicks() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  search.stop();
  EXPECT_FALSE(search.failure());
  EXPECT_GT(search.kicks(), 0) << "after " << search.rounds() << " rounds";
  EXPECT_GE(search.rounds(), 2) << "the first round had no time for a kick";
}

TEST(StretchBatch, TheSearchRefusesATourTooShortForItsStretches) {
  const Instance instance = io::generate_instance(900, io::InstanceKind::Uniform, 8);
  EXPECT_THROW(StretchBatchSearch(instance, cpu_config(), 500, 1.0), InputError);
  EXPECT_THROW(StretchBatchSearch(instance, cpu_config(), 100, 0.0), InputError);
}

}  // namespace
}  // namespace formica::batch
