// SPDX-License-Identifier: MIT
// The 3-opt step of Lin-Kernighan against brute force on small tours: every move it returns is a
// valid sequential 3-opt (or 2-opt) move with the exact gain it states, it finds a shorter closed
// tour whenever one exists, its best open move is the best there is, applying a move changes
// exactly the edges it names (every case, both directions of the tour) and undoing restores the tour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "core/candidates.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/sequential_three_opt.h"
#include "localsearch/edge_set_check.h"

namespace formica::localsearch::cpu {
namespace {

using test_edges::EdgeSet, test_edges::edge, test_edges::hamiltonian, test_edges::tour_edges;

struct Fixture {
  Instance instance;
  CandidateLists lists;
  std::vector<int32_t> tour, pos;

  /// A random tour, or with `curve` the space-filling-curve tour (few shorter closed tours from it).
  Fixture(int n, uint64_t seed, bool curve = false)
      : instance(io::generate_instance(n, io::InstanceKind::Uniform, seed)),
        lists(build_candidate_lists(instance, n - 1)),
        tour(static_cast<size_t>(n)),
        pos(static_cast<size_t>(n)) {
    std::iota(tour.begin(), tour.end(), 0);
    RandomStream rng(seed, 9);
    for (int i = n - 1; i > 0; --i) std::swap(tour[i], tour[rng.below(static_cast<uint32_t>(i + 1))]);
    if (curve) tour = space_filling_curve_tour(instance);
    for (int p = 0; p < n; ++p) pos[tour[p]] = p;
  }
  int64_t d(int a, int b) const { return instance.distance(a, b); }
  int succ(int c) const { return tour[(pos[c] + 1) % tour.size()]; }
  int pred(int c) const { return tour[(pos[c] + tour.size() - 1) % tour.size()]; }
  bool neighbours(int a, int b) const { return succ(a) == b || pred(a) == b; }

  /// The tour's edges after the move: (t1, t2), (t3, t4), (t5, t6) out, (t2, t3), (t4, t5),
  /// (t6, t1) in (2-opt: t5 < 0); empty when that is not a move (an edge out not in the tour, an
  /// edge in already there, two alike, or no single cycle).
  EdgeSet after(const SequentialMove& m) const {
    EdgeSet edges = tour_edges(tour);
    std::vector<std::pair<int, int>> out{edge(m.t1, m.t2), edge(m.t3, m.t4)}, in{edge(m.t2, m.t3)};
    if (m.t5 >= 0) {
      out.push_back(edge(m.t5, m.t6));
      in.push_back(edge(m.t4, m.t5));
      in.push_back(edge(m.t6, m.t1));
    } else {
      in.push_back(edge(m.t4, m.t1));
    }
    for (const auto& e : out) {
      const auto at = edges.find(e);
      if (at == edges.end()) return {};
      edges.erase(at);
    }
    for (const auto& e : in) {
      if (edges.count(e) != 0 || std::count(out.begin(), out.end(), e) != 0) return {};
      edges.insert(e);
    }
    if (!hamiltonian(edges, static_cast<int>(tour.size()))) return {};
    return edges;
  }
};

/// Every move from (t1, t2) with chain gain g that the step's rules allow (g1 > 0, g3 > 0),
/// found by trying every t3..t6 and keeping the valid ones.
std::vector<SequentialMove> all_moves(const Fixture& f, int t1, int t2, int64_t g) {
  std::vector<SequentialMove> moves;
  const int n = static_cast<int>(f.tour.size());
  for (int t3 = 0; t3 < n; ++t3) {
    if (t3 == t2 || f.neighbours(t2, t3) || g - f.d(t2, t3) <= 0) continue;
    for (const int t4 : {f.succ(t3), f.pred(t3)}) {
      const int64_t g2 = g - f.d(t2, t3) + f.d(t3, t4);
      SequentialMove two{t1, t2, t3, t4, -1, -1, g2 - f.d(t4, t1)};
      if (!f.after(two).empty()) moves.push_back(two);
      for (int t5 = 0; t5 < n; ++t5) {
        if (t5 == t4 || f.neighbours(t4, t5) || g2 - f.d(t4, t5) <= 0) continue;
        for (const int t6 : {f.succ(t5), f.pred(t5)}) {
          SequentialMove m{t1, t2, t3, t4, t5, t6, g2 - f.d(t4, t5) + f.d(t5, t6)};
          if (!f.after(m).empty()) moves.push_back(m);
        }
      }
    }
  }
  return moves;
}

TEST(SequentialThreeOpt, ApplyChangesExactlyTheNamedEdgesAndUndoRestores) {
  for (const int n : {8, 9, 12}) {
    const Fixture f(n, 3 + n);
    int two_opt = 0, three_opt = 0;
    for (int t1 = 0; t1 < n; ++t1)
      for (const int t2 : {f.succ(t1), f.pred(t1)})
        for (const SequentialMove& m : all_moves(f, t1, t2, 1'000'000)) {
          std::vector<int32_t> tour = f.tour, pos = f.pos;
          ArrayTour t(tour, pos);
          std::vector<Exchange> log;
          apply_sequential_three_opt(t, m, log);
          ASSERT_EQ(tour_edges(tour), f.after(m)) << n << ": " << m.t1 << " " << m.t2 << " " << m.t3 << " "
                                                  << m.t4 << " " << m.t5 << " " << m.t6;
          for (int p = 0; p < n; ++p) ASSERT_EQ(pos[tour[p]], p);
          undo_exchanges(t, log, 0);
          EXPECT_TRUE(log.empty());
          ASSERT_EQ(tour_edges(tour), tour_edges(f.tour));
          (m.t5 < 0 ? two_opt : three_opt) += 1;
        }
    // Both kinds of 3-opt move (t4 before and after t3), in both directions, were among them.
    EXPECT_GT(two_opt, 0);
    EXPECT_GT(three_opt, 4 * two_opt);
  }
}

bool same_move(const SequentialMove& a, const SequentialMove& b) {
  return a.t1 == b.t1 && a.t2 == b.t2 && a.t3 == b.t3 && a.t4 == b.t4 && a.t5 == b.t5 && a.t6 == b.t6 &&
         a.gain == b.gain;
}

TEST(SequentialThreeOpt, ListDistancesAreTheListedCitiesDistances) {
  const Fixture f(30, 7);
  const CandidateLists lists = build_candidate_lists(f.instance, 6);
  const std::vector<int32_t> table = list_distances(f.instance, lists);
  ASSERT_EQ(table.size(), 30u * 6u);
  for (int c = 0; c < 30; ++c)
    for (int i = 0; i < 6; ++i) EXPECT_EQ(table[static_cast<size_t>(c) * 6 + i], f.d(c, lists.of(c)[i]));
}

TEST(SequentialThreeOpt, SearchMatchesBruteForce) {
  int closed = 0, opened = 0;
  for (const uint64_t seed : {1, 2, 3, 4})
    for (const int n : {8, 11, 14, 20}) {
      const Fixture f(n, seed, n >= 14);
      const std::vector<int32_t> table = list_distances(f.instance, f.lists);
      std::vector<int32_t> tour = f.tour, pos = f.pos;
      const ArrayTour t(tour, pos);
      for (int t1 = 0; t1 < n; ++t1)
        for (const int t2 : {f.succ(t1), f.pred(t1)})
          for (const int64_t g : {f.d(t1, t2), f.d(t1, t2) / 2}) {
            ChainEdges chain;  // as a chain starts: (t1, t2) removed
            chain.remove(t1, t2);
            const std::vector<SequentialMove> moves = all_moves(f, t1, t2, g);
            const bool improving = std::any_of(moves.begin(), moves.end(), [&](const SequentialMove& m) {
              return m.t5 < 0 ? m.gain > 0 : m.gain - f.d(m.t6, m.t1) > 0;
            });
            SequentialMove closing;
            std::vector<SequentialMove> open;
            const bool found = search_sequential_three_opt(t, f.instance, f.lists, chain, t1, t2, g, 3, closing, open);
            ASSERT_EQ(found, improving) << "n " << n << " t1 " << t1 << " t2 " << t2;
            // The table of list distances changes nothing: the same answer, move for move.
            SequentialMove closing_table;
            std::vector<SequentialMove> open_table;
            ASSERT_EQ(search_sequential_three_opt(t, f.instance, f.lists, chain, t1, t2, g, 3, closing_table,
                                                  open_table, table),
                      found);
            if (found) {
              EXPECT_TRUE(same_move(closing_table, closing));
            }
            ASSERT_EQ(open_table.size(), open.size());
            for (size_t i = 0; i < open.size(); ++i) EXPECT_TRUE(same_move(open_table[i], open[i]));
            if (found) {
              ++closed;
              ASSERT_FALSE(f.after(closing).empty());
              const int64_t g4 = g - f.d(t2, closing.t3) + f.d(closing.t3, closing.t4);
              const int64_t exact = closing.t5 < 0 ? g4 - f.d(closing.t4, t1)
                                                   : g4 - f.d(closing.t4, closing.t5) +
                                                         f.d(closing.t5, closing.t6) - f.d(closing.t6, t1);
              EXPECT_EQ(closing.gain, exact);
              continue;
            }
            int64_t best = 0;
            for (const SequentialMove& m : moves)
              if (m.t5 >= 0) best = std::max(best, m.gain);
            ASSERT_EQ(open.empty(), best == 0);
            if (open.empty()) continue;
            ++opened;
            EXPECT_EQ(open.front().gain, best);
            EXPECT_LE(open.size(), 3u);
            for (size_t i = 0; i < open.size(); ++i) {
              EXPECT_FALSE(f.after(open[i]).empty());
              EXPECT_EQ(open[i].gain, g - f.d(t2, open[i].t3) + f.d(open[i].t3, open[i].t4) -
                                          f.d(open[i].t4, open[i].t5) + f.d(open[i].t5, open[i].t6));
              if (i > 0) {
                EXPECT_LE(open[i].gain, open[i - 1].gain);
              }
            }
          }
    }
  EXPECT_GT(closed, 0);
  EXPECT_GT(opened, 0);
}

TEST(SequentialThreeOpt, ABoundedReversalKeepsEveryStepNearAlongTheTour) {
  const int n = 60, bound = 6;
  const Fixture f(n, 13);
  std::vector<int32_t> tour = f.tour, pos = f.pos;
  const ArrayTour t(tour, pos);
  const auto apart = [&](int a, int b) {
    const int d = std::abs(f.pos[a] - f.pos[b]);
    return std::min(d, n - d);
  };
  int near = 0, left_out = 0;
  for (int t1 = 0; t1 < n; ++t1)
    for (const int t2 : {f.succ(t1), f.pred(t1)}) {
      ChainEdges chain;
      chain.remove(t1, t2);
      const int64_t g = f.d(t1, t2);
      const auto search = [&](int max_reversal, std::vector<SequentialMove>& moves) {
        SequentialMove closing;
        const bool found = search_sequential_three_opt(t, f.instance, f.lists, chain, t1, t2, g, 8, closing,
                                                       moves, {}, max_reversal);
        if (found) moves.insert(moves.begin(), closing);
        return found;
      };
      std::vector<SequentialMove> bounded, unbounded, half;
      search(bound, bounded);
      for (const SequentialMove& m : bounded) {
        ASSERT_LE(apart(m.t2, m.t3), bound);
        if (m.t5 >= 0) {
          ASSERT_LE(apart(m.t4, m.t5), bound);
        }
        ASSERT_FALSE(f.after(m).empty());  // still a valid move
      }
      near += static_cast<int>(bounded.size());
      // A bound of half the tour or more is no bound: the same moves as without one.
      ASSERT_EQ(search(n / 2, half), search(0, unbounded));
      ASSERT_EQ(half.size(), unbounded.size());
      for (size_t i = 0; i < half.size(); ++i) ASSERT_TRUE(same_move(half[i], unbounded[i]));
      for (const SequentialMove& m : unbounded) left_out += apart(m.t2, m.t3) > bound;
    }
  EXPECT_GT(near, 0);
  EXPECT_GT(left_out, 0);  // the bound did leave moves out
}

TEST(SequentialThreeOpt, LargeToursBoundTheirReversalsAndNarrowTheirChainsByDefault) {
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt, kBoundedReversalCities - 1).max_reversal, 0);
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt, 200000).max_reversal, kMaxReversal);
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt, 1000000).max_reversal, kMaxReversal);
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::TwoOpt, 200000).max_reversal, 0);
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt).max_reversal, 0);
  // Narrower chains on large tours; 5, 3, 1 below, and 5-opt steps never backtrack.
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt, kNarrowBreadthCities - 1).breadth,
            (std::array<int, 3>{5, 3, 1}));
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::ThreeOpt, kNarrowBreadthCities).breadth,
            (std::array<int, 3>{3, 1, 1}));
  EXPECT_EQ(lin_kernighan_options(LinKernighanStep::FiveOpt, 200000).breadth, (std::array<int, 3>{1, 1, 1}));
}

TEST(SequentialThreeOpt, NeverUndoesTheChainsEdges) {
  const Fixture f(14, 5);
  std::vector<int32_t> tour = f.tour, pos = f.pos;
  const ArrayTour t(tour, pos);
  RandomStream rng(5, 1);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int t1 = static_cast<int>(rng.below(14)), t2 = trial % 2 ? f.succ(t1) : f.pred(t1);
    // Random edges the chain has added (may not be removed) and removed (may not be added).
    ChainEdges chain;
    chain.remove(t1, t2);
    std::set<std::pair<int, int>> added, removed{edge(t1, t2)};
    for (int e = 0; e < 6; ++e) {
      const int a = static_cast<int>(rng.below(14)), b = static_cast<int>(rng.below(14));
      if (a == b) continue;
      if (e % 2) chain.add(a, b), added.insert(edge(a, b));
      else chain.remove(a, b), removed.insert(edge(a, b));
    }
    SequentialMove closing;
    std::vector<SequentialMove> open;
    std::vector<SequentialMove> returned;
    if (search_sequential_three_opt(t, f.instance, f.lists, chain, t1, t2, 1'000'000, 4, closing, open))
      returned.push_back(closing);
    else
      returned = open;
    for (const SequentialMove& m : returned) {
      ++checked;
      EXPECT_FALSE(f.after(m).empty());
      EXPECT_EQ(added.count(edge(m.t3, m.t4)), 0u);
      EXPECT_EQ(removed.count(edge(m.t2, m.t3)), 0u);
      if (m.t5 < 0) {
        EXPECT_EQ(removed.count(edge(m.t4, m.t1)), 0u);
      } else {
        EXPECT_EQ(added.count(edge(m.t5, m.t6)), 0u);
        EXPECT_EQ(removed.count(edge(m.t4, m.t5)), 0u);
        EXPECT_EQ(removed.count(edge(m.t6, m.t1)), 0u);
      }
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace formica::localsearch::cpu
