// SPDX-License-Identifier: MIT
// The two-level list against the array tour: the same random 2-opt moves (far apart, close
// together, and within one stretch of the tour) applied to both leave the same cycle of cities,
// succ, pred and between agree with the array's positions, a rollback restores the cycle, a move
// that takes back the last one empties the journal, and writing the tour gives a permutation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/two_level_tour.h"

namespace formica::localsearch::cpu {
namespace {

std::vector<int32_t> shuffled(int n, uint64_t seed) {
  std::vector<int32_t> tour(static_cast<size_t>(n));
  std::iota(tour.begin(), tour.end(), 0);
  RandomStream rng(seed, 3);
  for (int i = n - 1; i > 0; --i) std::swap(tour[i], tour[rng.below(static_cast<uint32_t>(i + 1))]);
  return tour;
}

/// The same cycle: every city has the same two neighbours (either way round).
void expect_same_cycle(const TwoLevelTour& list, const ArrayTour& array) {
  for (int c = 0; c < array.n(); ++c) {
    const int s = list.succ(c), p = list.pred(c);
    ASSERT_EQ(list.pred(s), c);
    ASSERT_EQ(list.succ(p), c);
    const bool same = s == array.succ(c) && p == array.pred(c);
    const bool mirrored = s == array.pred(c) && p == array.succ(c);
    ASSERT_TRUE(same || mirrored) << "city " << c;
  }
}

/// A random 2-opt move as exchange() names it: v1 at most `reach` positions after u1 (0: anywhere).
std::array<int, 4> random_move(const ArrayTour& t, RandomStream& rng, int reach) {
  const int n = t.n();
  const int p = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
  const int limit = reach > 0 ? std::min(reach, n - 3) : n - 3;
  const int q = p + 2 + static_cast<int>(rng.below(static_cast<uint32_t>(limit)));
  const int u1 = t.at(p), v1 = t.at(q);
  if (rng.below(2) == 0) return {u1, t.succ(u1), v1, t.succ(v1)};
  return {u1, t.pred(u1), v1, t.pred(v1)};
}

TEST(TwoLevelTour, RandomMovesKeepTheArraysCycle) {
  for (const int n : {3, 4, 5, 8, 17, 64, 101, 1000, 4099}) {
    for (const int reach : {0, 3, 40}) {
      std::vector<int32_t> tour = shuffled(n, static_cast<uint64_t>(n + reach)), pos(tour.size());
      for (int p = 0; p < n; ++p) pos[tour[p]] = p;
      TwoLevelTour list(tour);
      ArrayTour array(tour, pos);
      RandomStream rng(static_cast<uint64_t>(n), static_cast<uint64_t>(reach));
      const int moves = n < 4 ? 0 : 3000;
      for (int m = 0; m < moves; ++m) {
        auto [u1, u2, v1, v2] = random_move(array, rng, reach);
        if (u2 == v1 || v2 == u1) continue;  // adjacent edges: no 2-opt move
        // The list may hold the tour the other way round: name the move its way.
        if (list.succ(u1) != u2 && list.pred(u1) != u2) FAIL() << "lost edge";
        array.exchange(u1, u2, v1, v2);
        list.exchange(u1, u2, v1, v2);
        if (m % 97 == 0 || n < 200) expect_same_cycle(list, array);
      }
      expect_same_cycle(list, array);
      // between() along the list's own direction.
      std::vector<int32_t> order(tour.size()), at(tour.size());
      list.write(order);
      for (int i = 0; i < n; ++i) at[order[i]] = i;
      for (int k = 0; k < 300; ++k) {
        const int a = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
        const int b = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
        const int c = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
        const int ab = (at[b] - at[a] + n) % n, ac = (at[c] - at[a] + n) % n;
        ASSERT_EQ(list.between(a, b, c), ab <= ac) << n << " " << a << " " << b << " " << c;
      }
      std::vector<int32_t> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
      if (n >= 1000) {
        EXPECT_LE(list.rebuilds(), moves / 100) << n << " " << reach;
      }
    }
  }
}

TEST(TwoLevelTour, RollbackRestoresTheCycleAndUndoingMovesEmptiesTheJournal) {
  for (const int n : {10, 300, 5000}) {
    std::vector<int32_t> tour = shuffled(n, 7), pos(tour.size()), copy(tour.size()), copy_pos(tour.size());
    for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    TwoLevelTour list(tour);
    ArrayTour array(tour, pos);
    RandomStream rng(11, static_cast<uint64_t>(n));
    for (int round = 0; round < 50; ++round) {
      copy = tour, copy_pos = pos;
      list.journal(true);
      std::vector<std::array<int, 4>> done;
      const int moves = 1 + static_cast<int>(rng.below(20));
      for (int m = 0; m < moves; ++m) {
        auto [u1, u2, v1, v2] = random_move(array, rng, round % 2 == 0 ? 0 : 30);
        if (u2 == v1 || v2 == u1) continue;
        array.exchange(u1, u2, v1, v2);
        list.exchange(u1, u2, v1, v2);
        done.push_back({u1, u2, v1, v2});
      }
      if (round % 3 == 0) {
        // Taking each move back by hand, last first, leaves nothing to roll back.
        for (auto e = done.rbegin(); e != done.rend(); ++e) {
          array.exchange((*e)[0], (*e)[2], (*e)[1], (*e)[3]);
          list.exchange((*e)[0], (*e)[2], (*e)[1], (*e)[3]);
        }
        expect_same_cycle(list, array);
        list.rollback();
        expect_same_cycle(list, array);
      } else if (round % 3 == 1) {
        list.rollback();
        tour = copy, pos = copy_pos;
        expect_same_cycle(list, ArrayTour(tour, pos));
      } else {
        list.forget();  // kept
        expect_same_cycle(list, array);
      }
      list.journal(false);
    }
  }
}

/// The edges of the list's cycle, each (smaller city, larger city), sorted.
std::vector<std::pair<int, int>> cycle_edges(const TwoLevelTour& list) {
  std::vector<std::pair<int, int>> edges;
  for (int c = 0; c < list.n(); ++c) edges.emplace_back(std::min(c, list.succ(c)), std::max(c, list.succ(c)));
  std::sort(edges.begin(), edges.end());
  return edges;
}

/// A walk's journal replayed on another copy of the tour (the shared tour of iterated_lin_kernighan.h):
/// on the same tour it gives the walk's cycle; on one that other moves changed elsewhere it adds
/// the walk's exchange to theirs; where another move took an edge the journal removes, it is
/// refused and the copy is left as it was.
TEST(TwoLevelTour, ReplayAddsAJournalsExchangeOrRefusesIt) {
  for (const int n : {40, 1000, 5000}) {
    const std::vector<int32_t> tour = shuffled(n, 19);
    std::vector<int32_t> pos(tour.size());
    for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    RandomStream rng(23, static_cast<uint64_t>(n));
    int replayed = 0, refused = 0;
    for (int round = 0; round < 60; ++round) {
      TwoLevelTour walk(tour), shared(tour);
      std::vector<int32_t> walk_tour = tour, walk_pos = pos, other_tour = tour, other_pos = pos;
      ArrayTour array(walk_tour, walk_pos);
      // The walk's moves, a few positions apart as a kick's repair makes them.
      walk.journal(true);
      for (int m = 0; m < 6; ++m) {
        auto [u1, u2, v1, v2] = random_move(array, rng, 12);
        if (u2 == v1 || v2 == u1) continue;
        array.exchange(u1, u2, v1, v2);
        walk.exchange(u1, u2, v1, v2);
      }
      const std::vector<std::array<int32_t, 4>> moves(walk.journal().begin(), walk.journal().end());
      if (round % 3 == 0) {  // the same tour
        ASSERT_TRUE(shared.replay(moves));
        EXPECT_EQ(cycle_edges(shared), cycle_edges(walk));
        ++replayed;
        continue;
      }
      // Another walk's move on the shared tour first: anywhere (round % 3 == 1), or one that
      // removes an edge the journal removes (round % 3 == 2).
      const std::vector<std::pair<int, int>> start = cycle_edges(TwoLevelTour(tour)),
                                             mine = cycle_edges(walk);
      std::vector<std::pair<int, int>> removed;  // by the journal
      std::set_difference(start.begin(), start.end(), mine.begin(), mine.end(), std::back_inserter(removed));
      ArrayTour other(other_tour, other_pos);
      std::array<int, 4> move{};
      do {
        move = random_move(other, rng, 0);
        if (round % 3 == 2 && !removed.empty()) {
          const auto [a, b] = removed[rng.below(static_cast<uint32_t>(removed.size()))];
          const int far = other.at((pos[a] + n / 2) % n);
          move = other.succ(a) == b ? std::array<int, 4>{a, b, far, other.succ(far)}
                                    : std::array<int, 4>{a, b, far, other.pred(far)};
        }
      } while (move[1] == move[2] || move[3] == move[0] || move[0] == move[2]);
      shared.exchange(move[0], move[1], move[2], move[3]);
      const std::vector<std::pair<int, int>> before = cycle_edges(shared);
      if (!shared.replay(moves)) {
        EXPECT_EQ(cycle_edges(shared), before) << "a refused replay changed the tour";
        ++refused;
        continue;
      }
      ASSERT_NE(round % 3, 2) << "replayed moves whose edge another move had taken";
      // The shared tour is one cycle holding both exchanges: the other move's and the journal's.
      std::vector<int32_t> order(static_cast<size_t>(n));
      shared.write(order);
      std::vector<int32_t> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
      std::vector<std::pair<int, int>> expected, added;
      std::set_difference(mine.begin(), mine.end(), start.begin(), start.end(), std::back_inserter(added));
      std::set_difference(before.begin(), before.end(), removed.begin(), removed.end(),
                          std::back_inserter(expected));
      expected.insert(expected.end(), added.begin(), added.end());
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(cycle_edges(shared), expected);
      ++replayed;
    }
    EXPECT_GE(replayed, 20) << n;
    EXPECT_GE(refused, 10) << n;
  }
}

}  // namespace
}  // namespace formica::localsearch::cpu
