// SPDX-License-Identifier: MIT
// The distributed layer (src/distributed/) and the island model (solver/islands.h). Run alone, the
// tests of one rank run and those of several skip; ctest also runs this binary under
// `mpirun -np 2` (tests/CMakeLists.txt, where MPI is found), where the MPI tests check the
// collectives and the islands' exchange and failure handling between two processes. The NCCL
// communicator's test is nccl_test.cpp, in this binary where NCCL is built.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/tour.h"
#include "distributed/single_rank.h"
#include "distributed/start_ranks.h"
#include "io/generator.h"
#include "solver/islands.h"
#include "solver/solver.h"
#include "test_support.h"

namespace formica::distributed {

/// The process's ranks, made by main() below.
Communicator* world = nullptr;

namespace {

#define FORMICA_REQUIRE_RANKS(count)                                                                     \
  do {                                                                                                   \
    if (world->size() != (count))                                                                        \
      GTEST_SKIP() << "skipped: needs " << (count) << " ranks (mpirun -np " << (count) << "), this run has " \
                   << world->size();                                                                     \
  } while (false)

TEST(SingleRank, AllgatherAndGatherReturnTheRanksOwnValues) {
  SingleRank one;
  const std::vector<int32_t> mine = {3, 1, 2};
  std::vector<int32_t> all(3), gathered(3);
  one.allgather(mine, all);
  one.gather(mine, gathered, 0);
  EXPECT_EQ(all, mine);
  EXPECT_EQ(gathered, mine);
  const std::vector<int64_t> lengths = {1LL << 40};
  std::vector<int64_t> all_lengths(1);
  one.allgather(std::span<const int64_t>(lengths), all_lengths);
  EXPECT_EQ(all_lengths, lengths);
  EXPECT_EQ(one.size(), 1);
  EXPECT_EQ(one.rank(), 0);
}

TEST(SingleRank, RefusesABufferOfTheWrongSize) {
  SingleRank one;
  const std::vector<int32_t> mine = {0, 1};
  std::vector<int32_t> all(3);
  EXPECT_THROW(one.allgather(mine, all), std::invalid_argument);
  EXPECT_THROW(one.gather(mine, all, 1), std::invalid_argument);
}

TEST(Ranks, ALaunchOfOneProcessIsASingleRankWithoutMpi) {
  if (world->size() > 1) GTEST_SKIP() << "skipped: run under mpirun";
  EXPECT_EQ(world->transport(), "single rank");
}

TEST(Mpi, AllgatherAndGatherPutEveryRanksToursInRankOrder) {
  FORMICA_REQUIRE_RANKS(2);
  const int n = 1001, me = world->rank();
  std::vector<int32_t> mine(n);
  for (int i = 0; i < n; ++i) mine[i] = me * 100000 + i;
  std::vector<int32_t> all(static_cast<size_t>(2) * n, -1), gathered(me == 0 ? 2 * n : 0, -1);
  world->allgather(mine, all);
  world->gather(mine, gathered, 0);
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(all[static_cast<size_t>(r) * n + i], r * 100000 + i);
      if (me == 0) {
        ASSERT_EQ(gathered[static_cast<size_t>(r) * n + i], r * 100000 + i);
      }
    }
  const std::vector<int64_t> length = {(int64_t{1} << 40) + me};
  std::vector<int64_t> lengths(2);
  world->allgather(std::span<const int64_t>(length), lengths);
  EXPECT_EQ(lengths, (std::vector<int64_t>{int64_t{1} << 40, (int64_t{1} << 40) + 1}));
}

/// A search whose tours are given: it "improves" by taking the next of `tours` at each step,
/// adopts what it is offered by keeping the shortest, and throws at step `fail_at` (0: never).
class ScriptedSearch final : public Search {
 public:
  ScriptedSearch(const Instance& instance, std::vector<std::vector<int32_t>> tours, int fail_at)
      : instance_(instance), tours_(std::move(tours)), fail_at_(fail_at) {}
  bool step(const StopFlag&) override {
    ++steps_;
    if (steps_ == fail_at_) throw std::runtime_error("scripted failure");
    const auto& tour = tours_[static_cast<size_t>(steps_ - 1) % tours_.size()];
    take(tour, tour_length(instance_, tour));
    return true;
  }
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override { return best_; }
  int64_t iteration_best_length() const override { return best_length_; }
  StepTimes last_step_times() const override { return {}; }
  Backend backend() const override { return Backend::Cpu; }
  bool supports_adoption() const override { return true; }
  bool adopt(std::span<const int32_t> tour, int64_t length) override {
    ++adopted;
    EXPECT_EQ(length, tour_length(instance_, tour));
    return take(tour, length);
  }
  int adopted = 0;

 private:
  bool take(std::span<const int32_t> tour, int64_t length) {
    if (best_length_ != 0 && length >= best_length_) return false;
    best_.assign(tour.begin(), tour.end());
    best_length_ = length;
    return true;
  }
  const Instance& instance_;
  std::vector<std::vector<int32_t>> tours_;
  int fail_at_, steps_ = 0;
  std::vector<int32_t> best_;
  int64_t best_length_ = 0;
};

/// Runs the islands' loop as solve() does, for `seconds`, on `search`.
Result run_islands(Islands& islands, Search& search, double seconds) {
  Result result;
  const Stopwatch clock;
  const auto advance = [&] {
    if (clock.seconds() >= seconds) {
      result.stop_reason = "time limit";
      return false;
    }
    search.step(StopFlag{});
    ++result.iterations;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return true;
  };
  islands.run(search, advance, result, clock, SolveOptions{});
  return result;
}

TEST(Islands, RanksExchangeTheirBestToursAndRankZeroGathersTheShortest) {
  FORMICA_REQUIRE_RANKS(2);
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 60, 7, 1000);
  std::vector<int32_t> identity(60);
  std::iota(identity.begin(), identity.end(), 0);
  // Rank 1 holds a much shorter tour (nearest neighbour order) than rank 0 (the identity).
  std::vector<int32_t> good = identity;
  for (int p = 1; p < 60; ++p) {
    auto nearest = std::min_element(good.begin() + p, good.end(), [&](int a, int b) {
      return instance.distance(good[p - 1], a) < instance.distance(good[p - 1], b);
    });
    std::iter_swap(good.begin() + p, nearest);
  }
  ScriptedSearch search(instance, {world->rank() == 1 ? good : identity}, 0);
  Islands islands(*world, instance, 0.05, false);
  const Result result = run_islands(islands, search, 0.5);
  EXPECT_GE(islands.exchanges(), 2);
  EXPECT_GE(search.adopted, 1);
  EXPECT_EQ(search.best_length(), tour_length(instance, good));  // rank 0 adopted rank 1's tour
  EXPECT_EQ(result.failure, nullptr);
  std::vector<int32_t> tour = search.best_tour();
  int64_t length = search.best_length();
  islands.gather_best(false, tour, length);
  EXPECT_EQ(length, tour_length(instance, tour));
  EXPECT_LE(length, tour_length(instance, good));
}

TEST(Islands, RanksSplitTheStretchesOfAVeryLargeTourByRegion) {
  // The whole solver under mpirun: each rank's stretch threads walk the stretches that start in its
  // region of the plane (decomposition/stretch_lin_kernighan.h), the exchange merges the two.
  FORMICA_REQUIRE_RANKS(2);
  const Instance instance = io::generate_instance(4000, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.threads = 1;
  config.time_limit = 6;  // two exchanges after the set-up even under ASan on a busy 2-core machine
  // (4 s and 0.4 s gave one exchange there, the set-up taking most of the budget)
  config.island_interval = 0.3;
  config.colony.merge_tours = true;
  config.colony.lk_threads = 1;
  config.colony.lk_stretch = 400;
  SolveOptions options;
  options.ranks = world;
  const Result result = solve(instance, config, options);
  EXPECT_EQ(result.ranks, 2);
  EXPECT_EQ(result.transport, world->transport());
  EXPECT_GE(result.exchanges, 2);
  EXPECT_EQ(result.config.colony.lk_regions, 2);
  EXPECT_EQ(result.tour.order().size(), 4000u);
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
}

TEST(Islands, ARankThatFailsStopsEveryRankAndRankZeroStillHasTheBestTour) {
  FORMICA_REQUIRE_RANKS(2);
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 40, 9, 1000);
  std::vector<int32_t> identity(40);
  std::iota(identity.begin(), identity.end(), 0);
  // Rank 1 fails at its 5th step; without the islands' care, rank 0 would wait for it forever.
  ScriptedSearch search(instance, {identity}, world->rank() == 1 ? 5 : 0);
  Islands islands(*world, instance, 0.05, false);
  const auto start = std::chrono::steady_clock::now();
  Result result = run_islands(islands, search, 30.0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  std::vector<int32_t> tour = world->rank() == 1 ? std::vector<int32_t>{} : search.best_tour();
  int64_t length = search.best_length();
  islands.gather_best(result.failure != nullptr, tour, length);
  if (world->rank() == 1) {
    EXPECT_NE(result.failure, nullptr);
    EXPECT_EQ(result.stop_reason, "failed");
  } else {
    EXPECT_EQ(result.failure, nullptr);
    EXPECT_EQ(result.stop_reason, "rank 1: failed");
    EXPECT_EQ(tour, identity);
    EXPECT_EQ(length, tour_length(instance, identity));
  }
}

}  // namespace
}  // namespace formica::distributed

int main(int argc, char** argv) {
  std::unique_ptr<formica::distributed::Communicator> ranks = formica::distributed::start_ranks(argc, argv);
  formica::distributed::world = ranks.get();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
