// SPDX-License-Identifier: MIT
// Sequential k-opt moves against brute force on small tours: feasibility is exactly "the edges
// after the move form one tour", applying a feasible move leaves exactly those edges, its inverse
// restores the tour, and for k = 3 the generic search agrees with the 3-opt step's own
// (sequential_three_opt.h, itself checked against brute force).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "core/candidates.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/k_opt_move.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/edge_set_check.h"
#include "test_support.h"

namespace formica::localsearch::cpu {
namespace {

using test_edges::EdgeSet, test_edges::edge, test_edges::hamiltonian, test_edges::tour_edges;

/// The edges after the move `t` (each (t[2i], t[2i+1]) a tour edge), as a multiset.
EdgeSet after(std::span<const int32_t> tour, std::span<const int32_t> t) {
  EdgeSet edges = tour_edges(tour);
  const size_t m = t.size();
  for (size_t i = 0; i < m; i += 2) edges.erase(edges.find(edge(t[i], t[i + 1])));
  for (size_t i = 1; i < m; i += 2) edges.insert(edge(t[i], t[(i + 1) % m]));
  return edges;
}

std::vector<int32_t> random_tour(int n, uint64_t seed) { return test::random_tour(n, seed, 4); }

/// A random sequential move of k exchanges on `tour`: distinct tour edges (t[2i], t[2i+1]), no
/// added edge a loop.
std::vector<int32_t> random_move(std::span<const int32_t> tour, int k, RandomStream& rng) {
  const int n = static_cast<int>(tour.size());
  for (;;) {
    std::vector<int32_t> t;
    std::set<std::pair<int, int>> removed;
    bool ok = true;
    for (int i = 0; i < k && ok; ++i) {
      const int p = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
      const bool forward = rng.below(2) == 0;
      const int a = tour[p], b = tour[(p + (forward ? 1 : n - 1)) % n];
      ok = removed.insert(edge(a, b)).second && (t.empty() || t.back() != a);
      t.push_back(a), t.push_back(b);
    }
    if (ok && t.back() != t.front()) return t;
  }
}

TEST(KOptMove, FeasibleExactlyWhenTheEdgesFormOneTourAndApplyLeavesThem) {
  int feasible = 0, infeasible = 0;
  for (const int n : {8, 9, 13, 40})
    for (const int k : {2, 3, 4, 5, 6}) {
      RandomStream rng(static_cast<uint64_t>(n * 10 + k), 2);
      for (int trial = 0; trial < 300; ++trial) {
        std::vector<int32_t> tour = random_tour(n, static_cast<uint64_t>(trial + 1)), pos(tour.size());
        for (int p = 0; p < n; ++p) pos[tour[p]] = p;
        ArrayTour t(tour, pos);
        const std::vector<int32_t> move = random_move(tour, k, rng);
        const EdgeSet expected = after(tour, move);
        const bool one_tour = hamiltonian(expected, n);
        ASSERT_EQ(feasible_k_opt(t, move), one_tour) << "n " << n << " k " << k << " trial " << trial;
        if (!one_tour) {
          ++infeasible;
          continue;
        }
        ++feasible;
        const EdgeSet before = tour_edges(tour);
        std::vector<int32_t> scratch;
        apply_k_opt(t, move, scratch);
        ASSERT_EQ(tour_edges(tour), expected) << "n " << n << " k " << k << " trial " << trial;
        for (int p = 0; p < n; ++p) ASSERT_EQ(pos[tour[p]], p);
        // The inverse: the same cities from t[1] on, t[0] last.
        std::vector<int32_t> inverse(move.begin() + 1, move.end());
        inverse.push_back(move.front());
        ASSERT_TRUE(feasible_k_opt(t, inverse));
        apply_k_opt(t, inverse, scratch);
        ASSERT_EQ(tour_edges(tour), before);
      }
    }
  EXPECT_GT(feasible, 500);
  EXPECT_GT(infeasible, 500);
}

TEST(KOptMove, SearchOfThreeExchangesAgreesWithTheThreeOptStep) {
  int closed = 0, opened = 0;
  for (const uint64_t seed : {1, 2, 3})
    for (const int n : {10, 16, 30}) {
      const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, seed);
      const CandidateLists lists = build_candidate_lists(instance, std::min(8, n - 1));
      std::vector<int32_t> tour = n >= 16 ? space_filling_curve_tour(instance) : random_tour(n, seed), pos(tour.size());
      for (int p = 0; p < n; ++p) pos[tour[p]] = p;
      const ArrayTour t(tour, pos);
      for (int t1 = 0; t1 < n; ++t1)
        for (const int t2 : {t.succ(t1), t.pred(t1)}) {
          ChainEdges chain;
          chain.remove(t1, t2);
          const int64_t g = instance.distance(t1, t2);
          SequentialMove closing3;
          std::vector<SequentialMove> open3;
          KOptMove closing;
          std::vector<KOptMove> open;
          const bool found3 = search_sequential_three_opt(t, instance, lists, chain, t1, t2, g, 4, closing3, open3);
          const bool found = search_sequential_k_opt(t, instance, lists, lists.k(), 3, chain, t1, t2, g, 4, closing, open);
          ASSERT_EQ(found, found3) << "n " << n << " t1 " << t1 << " t2 " << t2;
          if (found) {
            ++closed;
            ASSERT_TRUE(feasible_k_opt(t, closing.cities()));
            const EdgeSet edges = after(tour, closing.cities());
            ASSERT_TRUE(hamiltonian(edges, n));
            int64_t length = 0;
            for (const auto& [a, b] : edges) length += instance.distance(a, b);
            EXPECT_EQ(tour_length(instance, tour) - length, closing.gain);
            continue;
          }
          ASSERT_EQ(open.empty(), open3.empty());
          if (open.empty()) continue;
          ++opened;
          EXPECT_EQ(open.front().gain, open3.front().gain);
          for (const KOptMove& m : open) {
            EXPECT_EQ(m.size, 6);
            EXPECT_TRUE(hamiltonian(after(tour, m.cities()), n));
          }
        }
    }
  EXPECT_GT(closed, 0);
  EXPECT_GT(opened, 0);
}

TEST(KOptMove, FiveOptChainsKeepExactGainsAndImproveTheThreeOptSteps) {
  for (const int n : {9, 60, 700}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, 7);
    const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
    LinKernighan lk(instance, lists, LinKernighanOptions{.step = LinKernighanStep::FiveOpt, .breadth = {1, 1, 1}});
    for (const uint64_t seed : {1, 2}) {
      std::vector<int32_t> tour = random_tour(n, seed);
      const int64_t before = tour_length(instance, tour);
      const NeighbourClimbCounts counts = lk.improve(tour);
      validate_permutation(tour, n);
      EXPECT_EQ(before - counts.gain, tour_length(instance, tour)) << n;
      EXPECT_GT(counts.gain, 0);
      // From the local optimum of 3-opt steps, 5-opt steps still find moves on the larger tours.
      if (n < 700) continue;
      LinKernighan three(instance, lists, LinKernighanOptions{.step = LinKernighanStep::ThreeOpt});
      std::vector<int32_t> local = random_tour(n, seed + 10);
      three.improve(local);
      const int64_t three_length = tour_length(instance, local);
      const NeighbourClimbCounts more = lk.improve(local);
      EXPECT_GT(more.gain, 0);
      EXPECT_EQ(three_length - more.gain, tour_length(instance, local));
    }
  }
}

}  // namespace
}  // namespace formica::localsearch::cpu
