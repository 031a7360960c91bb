// SPDX-License-Identifier: MIT
// k-swap (Robinson et al. section 3.4): the selection keeps moves best first and skips every move
// that overlaps one kept before; the kept moves applied together shorten the tour by exactly the
// sum of their gains.
#include <gtest/gtest.h>

#include <numeric>

#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/k_swap.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica::localsearch {
namespace {

std::vector<Move> moves_of(const std::vector<Candidate>& candidates) {
  std::vector<Move> out;
  for (const Candidate& c : candidates) out.push_back(c.move);
  return out;
}

TEST(KSwap, OverlapMeansTheEdgeIntervalsMeet) {
  EXPECT_TRUE(overlap({2, 5}, {5, 8}));    // share edge 5
  EXPECT_TRUE(overlap({2, 9}, {4, 6}));    // nested
  EXPECT_TRUE(overlap({2, 6}, {4, 9}));    // crossing
  EXPECT_FALSE(overlap({2, 5}, {6, 9}));   // adjacent intervals: disjoint edges and positions
  EXPECT_FALSE(overlap({6, 9}, {0, 2}));
  EXPECT_TRUE(is_move(10, 0, 2));
  EXPECT_FALSE(is_move(10, 0, 9));         // edges 9 and 0 share city t[0]
  EXPECT_FALSE(is_move(10, 3, 4));         // adjacent edges
  EXPECT_TRUE(is_move(10, 1, 9));
  EXPECT_EQ(moves_per_pass(3), 0);
  EXPECT_EQ(moves_per_pass(4), 2);
  EXPECT_EQ(moves_per_pass(4461), 4461LL * 4458 / 2);
}

TEST(KSwap, SelectionSkipsOverlapsBestFirst) {
  const std::vector<Candidate> sorted = {
      {50, {10, 20}}, {40, {20, 30}},  // shares edge 20 with the first: skipped
      {30, {21, 25}},                  // after the first: kept
      {20, {12, 14}},                  // inside the first: skipped
      {15, {0, 40}},                   // contains everything: skipped
      {10, {2, 8}},                    // kept
      {5, {9, 9 + 2}},                 // crosses into the first: skipped
      {4, {26, 28}}};                  // kept
  EXPECT_EQ(moves_of(select_disjoint(sorted, 0)), (std::vector<Move>{{10, 20}, {21, 25}, {2, 8}, {26, 28}}));
  EXPECT_EQ(moves_of(select_disjoint(sorted, 1)), (std::vector<Move>{{10, 20}}));
  EXPECT_EQ(moves_of(select_disjoint(sorted, 3)), (std::vector<Move>{{10, 20}, {21, 25}, {2, 8}}));
  EXPECT_TRUE(select_disjoint({}, 0).empty());
}

TEST(KSwap, SortIsBestFirstThenByPosition) {
  std::vector<Candidate> c = {{3, {5, 9}}, {7, {4, 8}}, {7, {1, 9}}, {3, {5, 7}}};
  sort_candidates(c);
  EXPECT_EQ(moves_of(c), (std::vector<Move>{{1, 9}, {4, 8}, {5, 7}, {5, 9}}));
}

/// Every improving move of a random tour (they overlap heavily), sorted best first.
std::vector<Candidate> all_improving(const Instance& instance, const std::vector<int32_t>& tour) {
  const int n = instance.n();
  std::vector<Candidate> all;
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j)
      if (is_move(n, i, j))
        if (const int64_t g = two_opt_gain(instance, tour, {i, j}); g > 0) all.push_back({g, {i, j}});
  sort_candidates(all);
  return all;
}

TEST(KSwap, AppliedMovesShortenTheTourByTheirSummedGains) {
  for (int n : {5, 6, 17, 200, 1000}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    for (int k : {1, 2, 7, kUnlimitedSwaps}) {
      std::vector<int32_t> tour = random_start(n, 5, n + k);
      const int64_t before = tour_length(instance, tour);
      const std::vector<Candidate> candidates = all_improving(instance, tour);
      const std::vector<Candidate> kept = select_disjoint(candidates, k);
      if (n < 17 && candidates.empty()) continue;  // a tiny random tour may have no improving move
      ASSERT_FALSE(kept.empty()) << n;
      if (k != kUnlimitedSwaps) {
        EXPECT_LE(static_cast<int>(kept.size()), k);
      }
      EXPECT_EQ(kept.front().move, candidates.front().move);  // the best move is always applied
      for (size_t a = 0; a < kept.size(); ++a)
        for (size_t b = a + 1; b < kept.size(); ++b) EXPECT_FALSE(overlap(kept[a].move, kept[b].move));
      apply_moves(tour, kept);
      const Tour after(instance, tour);  // still a permutation
      const int64_t gained = std::accumulate(kept.begin(), kept.end(), int64_t{0},
                                             [](int64_t s, const Candidate& c) { return s + c.gain; });
      EXPECT_EQ(before - after.length(), gained) << "n = " << n << ", k = " << k;
      if (n >= 200 && k == kUnlimitedSwaps) {
        EXPECT_GT(kept.size(), 1u);
      }
    }
  }
}

}  // namespace
}  // namespace formica::localsearch
