// SPDX-License-Identifier: MIT
// Partition merge: the O(k log k) cycle test agrees with rebuilding the edge set and walking it,
// the difference of two tours splits into exchanges whatever the input order, and merging tours
// that each improve a different stretch of the base keeps every improvement, with exact lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/candidates.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "population/partition_merge.h"
#include "test_support.h"

namespace formica::population {
namespace {

using localsearch::random_start, localsearch::start_tour, localsearch::StartKind;

/// The reference: base edges minus `removed` plus `added`, then a walk. True when every city keeps
/// two edges and the walk from city 0 meets all n cities.
bool one_cycle_by_walking(std::span<const int32_t> base, std::span<const Edge> removed,
                          std::span<const Edge> added) {
  const int n = static_cast<int>(base.size());
  std::vector<std::vector<int32_t>> next(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    next[base[p]].push_back(base[(p + 1) % n]);
    next[base[(p + 1) % n]].push_back(base[p]);
  }
  const auto drop = [&](int u, int v) {
    const auto it = std::find(next[u].begin(), next[u].end(), v);
    if (it == next[u].end()) return false;
    next[u].erase(it);
    return true;
  };
  for (const Edge& e : removed)
    if (!drop(e.a, e.b) || !drop(e.b, e.a)) return false;
  for (const Edge& e : added) {
    next[e.a].push_back(e.b);
    next[e.b].push_back(e.a);
  }
  if (std::any_of(next.begin(), next.end(), [](const auto& v) { return v.size() != 2; })) return false;
  int previous = -1, city = 0, seen = 0;
  do {
    const int to = next[city][0] != previous ? next[city][0] : next[city][1];
    previous = city;
    city = to;
    ++seen;
  } while (city != 0 && seen <= n);
  return city == 0 && seen == n;
}

/// `base` with `moves` random 2-opt moves, each between positions at most `reach` apart.
std::vector<int32_t> perturbed(std::vector<int32_t> base, int moves, int reach, RandomStream& rng) {
  const int n = static_cast<int>(base.size());
  std::vector<int32_t> pos(base.size());
  for (int p = 0; p < n; ++p) pos[base[p]] = p;
  localsearch::cpu::ArrayTour tour(base, pos);
  for (int m = 0; m < moves; ++m) {
    const int i = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
    const int j = (i + 2 + static_cast<int>(rng.below(static_cast<uint32_t>(reach)))) % n;
    if (i != j && (j + 1) % n != i && (i + 1) % n != j) tour.two_opt(i, j);
  }
  return base;
}

TEST(PartitionMerge, AResetBaseIsTheBaseOfItsNewTour) {
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 8);
  const std::vector<int32_t> first = start_tour(instance, StartKind::Random, 1, 0);
  const std::vector<int32_t> second = start_tour(instance, StartKind::Random, 1, 1);
  const std::vector<int32_t> third = start_tour(instance, StartKind::Random, 1, 2);
  MergeBase reused(instance, first, tour_length(instance, first));
  reused.reset(second, tour_length(instance, second));
  const MergeBase fresh(instance, second, tour_length(instance, second));
  EXPECT_EQ(reused.length(), fresh.length());
  EXPECT_TRUE(std::ranges::equal(reused.tour(), fresh.tour()));
  for (int city = 0; city < instance.n(); ++city) {
    EXPECT_EQ(reused.succ(city), fresh.succ(city));
    EXPECT_EQ(reused.pred(city), fresh.pred(city));
    EXPECT_EQ(reused.position(city), fresh.position(city));
  }
  std::vector<Edge> added, removed, fresh_added, fresh_removed;
  reused.difference(third, added, removed);
  fresh.difference(third, fresh_added, fresh_removed);
  EXPECT_EQ(added, fresh_added);
  EXPECT_EQ(removed, fresh_removed);
  // Not a permutation: the same error as the constructor's.
  std::vector<int32_t> twice = second;
  twice[1] = twice[0];
  EXPECT_THROW(reused.reset(twice, 0), InputError);
}

TEST(PartitionMerge, CycleTestAgreesWithWalkingTheEdges) {
  // Differences of random tours and of near copies; every component alone, and random unions.
  RandomStream rng(7, 0);
  int valid = 0, invalid = 0;
  for (int n : {5, 6, 9, 16, 40, 301}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    for (int trial = 0; trial < 40; ++trial) {
      const std::vector<int32_t> base = random_start(n, 3, trial);
      const MergeBase merge_base(instance, base, tour_length(instance, base));
      const std::vector<int32_t> other = trial % 2 == 0
                                             ? random_start(n, 4, trial)
                                             : perturbed(base, 1 + trial % 7, std::max(3, n / 6), rng);
      std::vector<Edge> added, removed;
      merge_base.difference(other, added, removed);
      EXPECT_EQ(added.size(), removed.size());
      EXPECT_EQ(test::edges_outside(other, test::tour_edges(base)), static_cast<int>(added.size()));
      // The whole difference gives back the other tour.
      std::vector<int32_t> rebuilt;
      if (!removed.empty()) {
        ASSERT_TRUE(merge_base.exchange_is_a_tour(removed, added, &rebuilt));
        EXPECT_EQ(test::tour_edges(rebuilt), test::tour_edges(other));
      }
      // Random halves of the difference: mostly inconsistent or several cycles, some tours.
      for (int draw = 0; draw < 20; ++draw) {
        std::vector<Edge> r, a;
        for (const Edge& e : removed)
          if (rng.below(2) == 0) r.push_back(e);
        for (const Edge& e : added)
          if (rng.below(2) == 0) a.push_back(e);
        const bool walked = r.size() >= 2 && one_cycle_by_walking(base, r, a);
        const bool tested = merge_base.exchange_is_a_tour(r, a, &rebuilt);
        EXPECT_EQ(tested, walked) << "n = " << n;
        // The pieces of a consistent exchange cover every city once, cycle by cycle.
        MergeBase::Pieces pieces;
        const int cycles = merge_base.exchange_pieces(r, a, pieces);
        EXPECT_EQ(cycles, merge_base.exchange_cycles(r, a));
        EXPECT_EQ(cycles == 1, tested) << "n = " << n;
        if (cycles > 0) {
          EXPECT_EQ(std::accumulate(pieces.size.begin(), pieces.size.end(), 0), n);
          for (size_t i = 0; i < pieces.cut.size(); ++i) {
            EXPECT_EQ(pieces.piece_at(pieces.cut[i]),
                      static_cast<int>((i + pieces.cut.size() - 1) % pieces.cut.size()));
            EXPECT_EQ(pieces.piece_at((pieces.cut[i] + 1) % n), static_cast<int>(i));
          }
        }
        if (tested) {
          validate_permutation(rebuilt, n);
          EXPECT_EQ(
              tour_length(instance, rebuilt), tour_length(instance, base) - [&] {
                int64_t g = 0;
                for (const Edge& e : r) g += instance.distance(e.a, e.b);
                for (const Edge& e : a) g -= instance.distance(e.a, e.b);
                return g;
              }());
        }
        (tested ? valid : invalid) += 1;
      }
    }
  }
  EXPECT_GT(valid, 40);
  EXPECT_GT(invalid, 1000);
}

TEST(PartitionMerge, ExchangesAreTheImprovingComponentsWhateverTheOrder) {
  const int n = 500;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 11);
  const std::vector<int32_t> base = random_start(n, 1, 0);
  const MergeBase merge_base(instance, base, tour_length(instance, base));
  RandomStream rng(3, 0);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<int32_t> other = perturbed(base, 12, 20, rng);
    std::vector<Edge> added, removed;
    merge_base.difference(other, added, removed);
    const std::vector<Exchange> exchanges = merge_base.improving_exchanges(added, removed);
    for (const Exchange& x : exchanges) {
      EXPECT_GT(x.gain, 0);
      EXPECT_TRUE(one_cycle_by_walking(base, x.removed, x.added));
      EXPECT_TRUE(std::is_sorted(x.removed.begin(), x.removed.end()));
    }
    std::reverse(added.begin(), added.end());
    std::rotate(removed.begin(), removed.begin() + static_cast<ptrdiff_t>(removed.size() / 3), removed.end());
    const std::vector<Exchange> again = merge_base.improving_exchanges(added, removed);
    ASSERT_EQ(again.size(), exchanges.size());
    for (size_t i = 0; i < again.size(); ++i) {
      EXPECT_EQ(again[i].gain, exchanges[i].gain);
      EXPECT_EQ(again[i].removed, exchanges[i].removed);
      EXPECT_EQ(again[i].added, exchanges[i].added);
    }
  }
}

TEST(PartitionMerge, KeepsTheImprovementOfEveryTourOnDisjointStretches) {
  // "worse" is a climbed tour with one move made inside each of `windows` disjoint stretches (a
  // 2-opt move or an Or-opt move of two cities); tour w is "worse" with window w's move undone.
  // Merging all of them must take every undo that shortens the tour: the merged length is worse's
  // minus the sum of the positive gains, and with every gain positive it is the climbed tour.
  const int n = 2000, windows = 8, window = n / windows;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 5);
  std::vector<int32_t> base = random_start(n, 9, 0);
  const CandidateLists lists = build_candidate_lists(instance, 8);
  localsearch::cpu::climb_neighbour_lists(instance, lists, base);
  std::vector<int32_t> pos(base.size());
  for (int p = 0; p < n; ++p) pos[base[p]] = p;
  RandomStream rng(17, 0);
  // Window w's move, by cities: 2-opt {a, b} (removes a's and b's edges ahead), Or-opt {x, y, c, d}.
  std::vector<std::vector<int32_t>> moves(windows);
  for (int w = 0; w < windows; ++w) {
    const int i = w * window + 2 + static_cast<int>(rng.below(static_cast<uint32_t>(window / 2)));
    const int j = i + 4 + static_cast<int>(rng.below(static_cast<uint32_t>(window / 2 - 10)));
    if (w % 2 == 0)
      moves[w] = {base[i], base[j]};
    else
      moves[w] = {base[i], base[i + 1], base[j], base[j + 1]};
  }
  const auto with_moves_except = [&](int skipped) {
    std::vector<int32_t> tour = base, tour_pos = pos;
    localsearch::cpu::ArrayTour t(tour, tour_pos);
    for (int w = 0; w < windows; ++w) {
      if (w == skipped) continue;
      const std::vector<int32_t>& m = moves[w];
      if (m.size() == 2)
        t.two_opt(t.pos(m[0]), t.pos(m[1]));
      else
        t.or_opt(m[0], m[1], m[2], m[3]);
    }
    validate_permutation(tour, n);
    return tour;
  };
  const std::vector<int32_t> worse = with_moves_except(-1);
  const int64_t worse_length = tour_length(instance, worse);
  const MergeBase merge_base(instance, worse, worse_length);
  std::vector<Exchange> candidates;
  int64_t total = 0;
  int improving = 0;
  for (int w = 0; w < windows; ++w) {
    const std::vector<int32_t> undone = with_moves_except(w);
    const int64_t gain = worse_length - tour_length(instance, undone);
    total += std::max<int64_t>(gain, 0);
    improving += gain > 0 ? 1 : 0;
    std::vector<Edge> added, removed;
    merge_base.difference(undone, added, removed);
    EXPECT_EQ(added.size(), w % 2 == 0 ? 2u : 3u);
    for (Exchange& x : merge_base.improving_exchanges(added, removed)) candidates.push_back(std::move(x));
  }
  ASSERT_GT(improving, windows / 2);
  const MergedTour merged = merge_base.merge(candidates);
  validate_permutation(merged.tour, n);
  EXPECT_EQ(merged.exchanges, improving);
  EXPECT_EQ(merged.length, tour_length(instance, merged.tour));
  EXPECT_EQ(merged.length, worse_length - total);
  if (improving == windows) {
    EXPECT_EQ(test::tour_edges(merged.tour), test::tour_edges(base));
  }
}

TEST(PartitionMerge, MergedLengthIsExactAndNoWorseThanTheBestCandidate) {
  const int n = 1000;
  const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 2);
  const CandidateLists lists = build_candidate_lists(instance, 8);
  std::vector<int32_t> base = random_start(n, 2, 0);
  localsearch::cpu::climb_neighbour_lists(instance, lists, base);
  const MergeBase merge_base(instance, base, tour_length(instance, base));
  RandomStream rng(5, 0);
  std::vector<Exchange> candidates;
  for (int t = 0; t < 64; ++t) {
    std::vector<int32_t> ant = perturbed(base, 4, 30, rng);
    localsearch::cpu::climb_neighbour_lists(instance, lists, ant);
    std::vector<Edge> added, removed;
    merge_base.difference(ant, added, removed);
    for (Exchange& x : merge_base.improving_exchanges(added, removed)) candidates.push_back(std::move(x));
  }
  int64_t best_gain = 0;
  for (const Exchange& x : candidates) best_gain = std::max(best_gain, x.gain);
  const MergedTour merged = merge_base.merge(candidates);
  if (best_gain == 0) {
    EXPECT_TRUE(merged.tour.empty());
    return;
  }
  validate_permutation(merged.tour, n);
  EXPECT_EQ(merged.length, tour_length(instance, merged.tour));
  EXPECT_LE(merged.length, merge_base.length() - best_gain);
  EXPECT_GE(merged.exchanges, 1);
}

TEST(PartitionMerge, AComponentThatSplitsTheTourAloneIsTakenWithTheOneThatClosesIt) {
  // Base 0..15; the other tour is the base after three 2-opt moves: positions 2..7 reversed
  // (component X1: cities 1, 2, 7, 8), then, on that tour, edges (5, 4) and (9, 10) exchanged for
  // (5, 9) and (4, 10) (X2), and cities 13, 14 swapped (X3). X2 alone splits the base into two
  // cycles. On instances where X1 and X3 lengthen the base, X1 + X2 shortens it and the whole other
  // tour does not, the only exchange is X1 + X2.
  std::vector<int32_t> base(16);
  std::iota(base.begin(), base.end(), 0);
  const std::vector<int32_t> other{0, 1, 7, 6, 5, 9, 8, 2, 3, 4, 10, 11, 12, 14, 13, 15};
  const std::vector<Edge> x2_removed{{4, 5}, {9, 10}}, x2_added{{5, 9}, {4, 10}};
  int found = 0;
  for (uint64_t seed = 1; seed <= 2000 && found < 3; ++seed) {
    const Instance instance = io::generate_instance(16, io::InstanceKind::Uniform, seed);
    const MergeBase merge_base(instance, base, tour_length(instance, base));
    ASSERT_EQ(merge_base.exchange_cycles(x2_removed, x2_added), 2);
    const auto d = [&](int a, int b) { return instance.distance(a, b); };
    const int64_t whole = tour_length(instance, base) - tour_length(instance, other);
    const int64_t x1 = d(1, 2) + d(7, 8) - d(1, 7) - d(2, 8),
                  x3 = d(12, 13) + d(14, 15) - d(12, 14) - d(13, 15);
    if (!(x1 < 0 && x3 < 0 && whole - x3 > 0 && whole <= 0)) continue;
    ++found;
    std::vector<Edge> added, removed;
    merge_base.difference(other, added, removed);
    const std::vector<Exchange> exchanges = merge_base.improving_exchanges(added, removed);
    ASSERT_EQ(exchanges.size(), 1u) << "seed " << seed;
    EXPECT_EQ(exchanges[0].gain, whole - x3);
    EXPECT_EQ(exchanges[0].removed.size(), 4u);
    const MergedTour merged = merge_base.merge(exchanges);
    validate_permutation(merged.tour, 16);
    EXPECT_EQ(merged.length, tour_length(instance, merged.tour));
    EXPECT_EQ(merged.length, tour_length(instance, base) - (whole - x3));
  }
  EXPECT_EQ(found, 3);
}

TEST(PartitionMerge, RejectsEdgesThatAreNotTheBases) {
  const Instance instance = io::generate_instance(10, io::InstanceKind::Uniform, 1);
  std::vector<int32_t> base(10);
  std::iota(base.begin(), base.end(), 0);
  const MergeBase merge_base(instance, base, tour_length(instance, base));
  // 2-opt on edges (1,2) and (5,6): adds (1,5) and (2,6).
  const std::vector<Edge> removed{{1, 2}, {5, 6}}, added{{1, 5}, {2, 6}};
  EXPECT_TRUE(merge_base.exchange_is_a_tour(removed, added));
  // The other way of reconnecting makes two cycles.
  EXPECT_FALSE(merge_base.exchange_is_a_tour(removed, std::vector<Edge>{{1, 6}, {2, 5}}));
  EXPECT_FALSE(merge_base.exchange_is_a_tour(std::vector<Edge>{{1, 3}, {5, 6}}, added));
  EXPECT_FALSE(merge_base.exchange_is_a_tour(removed, std::vector<Edge>{{1, 5}}));
  EXPECT_FALSE(merge_base.exchange_is_a_tour({}, {}));
}

/// `tour` with positions first..last climbed by first-improvement 2-opt inside them (both ends
/// stay): a shorter path through the same cities.
void climb_inside(const Instance& instance, std::vector<int32_t>& tour, int first, int last) {
  for (bool better = true; better;) {
    better = false;
    for (int i = first; i < last; ++i)
      for (int j = i + 2; j < last; ++j) {
        const int64_t delta =
            instance.distance(tour[i], tour[j]) + instance.distance(tour[i + 1], tour[j + 1]) -
            instance.distance(tour[i], tour[i + 1]) - instance.distance(tour[j], tour[j + 1]);
        if (delta < 0) {
          std::reverse(tour.begin() + i + 1, tour.begin() + j + 1);
          better = true;
        }
      }
  }
}

TEST(SegmentMerge, TakesEveryShorterStretchOfTheOtherTourAndStaysExact) {
  const Instance instance = io::generate_instance(400, io::InstanceKind::Uniform, 12);
  std::vector<int32_t> base(400);
  std::iota(base.begin(), base.end(), 0);
  RandomStream rng(3, 0);
  for (int i = 399; i > 1; --i) std::swap(base[i], base[1 + rng.below(static_cast<uint32_t>(i))]);
  const int64_t base_length = tour_length(instance, base);
  // Two tours that each improved their own stretches: together they are shorter than either.
  std::vector<int32_t> left = base, right = base;
  climb_inside(instance, left, 20, 120);
  climb_inside(instance, right, 200, 330);
  climb_inside(instance, right, 340, 399);
  const int64_t left_length = tour_length(instance, left), right_length = tour_length(instance, right);
  ASSERT_LT(left_length, base_length);
  ASSERT_LT(right_length, base_length);
  const MergedTour merged = segment_merge(instance, left, left_length, right);
  ASSERT_FALSE(merged.tour.empty());
  validate_permutation(merged.tour, 400);
  EXPECT_EQ(merged.length, tour_length(instance, merged.tour));
  // At least both gains: a piece of the other's stretch that is longer in its order is left out.
  EXPECT_LE(merged.length, base_length - (base_length - left_length) - (base_length - right_length));
  EXPECT_GE(merged.exchanges, 2);
  // From a tour that holds no shorter piece of the other: nothing.
  EXPECT_TRUE(segment_merge(instance, merged.tour, merged.length, base).tour.empty());
}

TEST(SegmentMerge, TheSameTourRotatedOrReversedAndToursWithoutACommonPathGiveNothing) {
  const Instance instance = io::generate_instance(10, io::InstanceKind::Uniform, 1);
  std::vector<int32_t> base(10);
  std::iota(base.begin(), base.end(), 0);
  const int64_t length = tour_length(instance, base);
  std::vector<int32_t> turned = base;
  std::rotate(turned.begin(), turned.begin() + 4, turned.end());
  std::reverse(turned.begin(), turned.end());
  EXPECT_TRUE(segment_merge(instance, base, length, turned).tour.empty());
  // No city has both its base edges in the other tour: no place to read the two from.
  const std::vector<int32_t> apart{0, 2, 4, 6, 8, 1, 3, 5, 7, 9};
  EXPECT_TRUE(segment_merge(instance, base, length, apart).tour.empty());
  EXPECT_THROW(segment_merge(instance, base, length, std::vector<int32_t>(9)), InputError);
}

}  // namespace
}  // namespace formica::population
