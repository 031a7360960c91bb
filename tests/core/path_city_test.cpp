// SPDX-License-Identifier: MIT
// The path city (Instance::with_path_city) against the dense (n + 1)^2 transform it replaces: the
// same distances for every TSPLIB type and every kind of ends, lists that hold the k nearest by
// exact distance, tours that visit it once, and k-d tree 1-trees equal to dense Prim's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "bounds/complete_graph.h"
#include "core/candidates.h"
#include "core/nearest_neighbour.h"
#include "core/path_city.h"
#include "core/path_transform.h"
#include "core/rng.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "decomposition/stretch_lin_kernighan.h"
#include "test_support.h"

namespace formica {
namespace {

constexpr EdgeWeightType kTypes[] = {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                     EdgeWeightType::Man2D, EdgeWeightType::Max2D,  EdgeWeightType::Euc3D,
                                     EdgeWeightType::Geo};

/// Free ends, a fixed start, a fixed end, both.
std::vector<PathEnds> path_kinds() {
  return {PathEnds{true, {}, {}}, PathEnds{false, 1, {}}, PathEnds{false, {}, 3}, PathEnds{false, 1, 3}};
}

/// The instance's distances as a matrix instance (EXPLICIT).
Instance as_matrix(const Instance& instance) {
  const int n = instance.n();
  std::vector<int32_t> weights(static_cast<size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) weights[static_cast<size_t>(i) * n + j] = static_cast<int32_t>(instance.distance(i, j));
  return Instance::from_matrix("matrix", n, std::move(weights));
}

/// Every type, and the Euclidean instance's matrix.
std::vector<Instance> instances(int n, uint64_t seed) {
  std::vector<Instance> out;
  for (const EdgeWeightType type : kTypes) out.push_back(test::random_instance(type, n, seed, 1000.0));
  out.push_back(as_matrix(out.front()));
  return out;
}

int64_t longest_edge(const Instance& instance) {
  int64_t longest = 0;
  for (int i = 0; i < instance.n(); ++i)
    for (int j = 0; j < instance.n(); ++j) longest = std::max(longest, instance.distance(i, j));
  return longest;
}

std::vector<int64_t> sorted_distances(const Instance& instance, int city, std::span<const int32_t> list) {
  std::vector<int64_t> d;
  for (const int32_t c : list) d.push_back(instance.distance(city, c));
  std::sort(d.begin(), d.end());
  return d;
}

TEST(PathCity, DistancesAgreeWithTheDenseTransform) {
  for (const Instance& instance : instances(40, 7))
    for (const PathEnds& ends : path_kinds()) {
      SCOPED_TRACE(concat(to_string(instance.type()), " open=", ends.open, " start=", ends.start.value_or(-1),
                          " end=", ends.end.value_or(-1)));
      const PathTransform implicit(instance, ends), dense(instance, ends, {}, PathForm::Dense);
      const Instance& a = implicit.instance();
      const Instance& b = dense.instance();
      ASSERT_TRUE(a.has_path_city());
      EXPECT_EQ(a.type(), instance.type());
      EXPECT_EQ(a.x().size(), instance.x().size());  // the coordinates kept, none for the path city
      EXPECT_EQ(b.type(), EdgeWeightType::Explicit);
      ASSERT_EQ(a.n(), instance.n() + 1);
      ASSERT_EQ(b.n(), a.n());
      EXPECT_EQ(implicit.penalty(), dense.penalty());
      EXPECT_EQ(implicit.offset(), dense.offset());
      EXPECT_GT(implicit.penalty(), longest_edge(instance));  // what keeps the ends honoured
      const int n = instance.n();
      for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) {
          // The transform's definition: the instance's distances, 0 or the penalty to the dummy.
          const int other = i == n ? j : i;
          const bool may_end = (!ends.start && !ends.end) || other == ends.start || other == ends.end;
          const int64_t expected = i == j ? 0 : i < n && j < n ? instance.distance(i, j) : may_end ? 0 : implicit.penalty();
          ASSERT_EQ(a.distance(i, j), expected) << i << " " << j;
          ASSERT_EQ(b.distance(i, j), expected) << i << " " << j;
        }
    }
}

TEST(PathCity, ListsHoldTheNearestByExactDistance) {
  for (const Instance& instance : instances(100, 3)) {
    if (!instance.has_coordinates()) continue;  // EXPLICIT lists are the dense transform's own
    for (const PathEnds& ends : path_kinds()) {
      SCOPED_TRACE(concat(to_string(instance.type()), " open=", ends.open, " start=", ends.start.value_or(-1)));
      const PathTransform implicit(instance, ends), dense(instance, ends, {}, PathForm::Dense);
      const Instance& a = implicit.instance();
      const int n = a.n(), path_city = n - 1;
      for (const int k : {10, n - 1}) {
        const CandidateLists lists = build_candidate_lists(a, k, 2);
        const CandidateLists reference = build_candidate_lists(dense.instance(), k);
        ASSERT_EQ(lists.k(), reference.k());
        for (int i = 0; i < n; ++i) {
          const auto row = lists.of(i);
          std::vector<int32_t> distinct(row.begin(), row.end());
          std::sort(distinct.begin(), distinct.end());
          ASSERT_EQ(std::adjacent_find(distinct.begin(), distinct.end()), distinct.end()) << i;
          ASSERT_EQ(std::count(row.begin(), row.end(), i), 0) << i;
          // The same k distances as the k nearest of the dense matrix's row (ties may differ).
          ASSERT_EQ(sorted_distances(a, i, row), sorted_distances(a, i, reference.of(i))) << i;
        }
        for (const auto& end : {ends.start, ends.end})
          if (end) {
            EXPECT_EQ(lists.of(static_cast<int>(*end))[0], path_city);
            EXPECT_NE(std::count(lists.of(path_city).begin(), lists.of(path_city).end(), *end), 0);
          }
      }
      // Quadrant lists: the path city first wherever a path may end, never twice.
      const CandidateLists quadrant = build_candidate_lists(a, 10, 1, NeighbourShape::Quadrant);
      for (int i = 0; i < path_city; ++i) {
        const auto row = quadrant.of(i);
        EXPECT_EQ(row[0] == path_city, a.path_may_end_at(i)) << i;
        EXPECT_LE(std::count(row.begin(), row.end(), path_city), 1) << i;
      }
    }
  }
}

TEST(PathCity, ToursVisitItOnce) {
  for (const Instance& instance : instances(300, 5)) {
    if (!instance.has_coordinates()) continue;
    for (const PathEnds& ends : path_kinds()) {
      const PathTransform implicit(instance, ends);
      const Instance& a = implicit.instance();
      for (const int start : {0, 17, a.n() - 1}) {
        const std::vector<int32_t> tour = nearest_neighbour_tour(a, start);
        validate_permutation(tour, a.n());
        EXPECT_EQ(tour.front(), start);
      }
      validate_permutation(space_filling_curve_tour(a), a.n());
      if (ends.open) {
        // Free ends: the path city takes the place of the tour's longest edge.
        std::vector<int32_t> tour(static_cast<size_t>(instance.n()));
        std::iota(tour.begin(), tour.end(), 0);
        int64_t longest = 0;
        for (int i = 0; i < instance.n(); ++i) longest = std::max(longest, instance.distance(i, (i + 1) % instance.n()));
        const int64_t closed = tour_length(instance, tour);
        insert_path_city(a, tour);
        EXPECT_EQ(tour_length(a, tour), closed - longest);
      }
    }
  }
}

TEST(PathCity, StretchesAreWalkedEitherSideOfIt) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 3000, 2, 10000.0);
  for (const PathEnds& ends : {PathEnds{true, {}, {}}, PathEnds{false, 1, 3}}) {
    const PathTransform implicit(instance, ends);
    const Instance& a = implicit.instance();
    std::vector<int32_t> tour = space_filling_curve_tour(a);
    const int64_t before = tour_length(a, tour);
    const auto at = std::find(tour.begin(), tour.end(), a.n() - 1) - tour.begin();
    // Three stretches of 1,000 cities cover the tour, the path city's too: walked either side of
    // it (no stretch matrix), it stays where it was.
    const int64_t gain = decomposition::walk_stretches(a, tour, 1000, 0, 0, 2, 1, nullptr);
    validate_permutation(tour, a.n());
    EXPECT_EQ(tour[static_cast<size_t>(at)], a.n() - 1);
    EXPECT_GT(gain, 0);
    EXPECT_EQ(tour_length(a, tour), before - gain);
  }
}

TEST(PathCity, KdTreeOneTreesEqualDensePrims) {
  const Instance instance = test::random_instance(EdgeWeightType::Euc2D, 250, 9, 1000.0);
  for (const PathEnds& ends : path_kinds()) {
    const PathTransform implicit(instance, ends);
    const Instance& a = implicit.instance();
    RandomStream rng(4, 0);
    for (int round = 0; round < 2; ++round) {
      std::vector<int64_t> pi(static_cast<size_t>(a.n()), 0);
      if (round > 0)
        for (int64_t& p : pi) p = static_cast<int64_t>(rng.below(5000)) - 2500;
      bounds::CompleteGraph kd(a, 0), dense(a, 1 << 30);
      ASSERT_EQ(kd.method(), "k-d tree Boruvka");
      ASSERT_EQ(dense.method(), "dense Prim");
      const bounds::OneTree x = kd.one_tree(pi, 2), y = dense.one_tree(pi, 1);
      EXPECT_EQ(x.weight(), y.weight());
      EXPECT_EQ(x.special, y.special);
      EXPECT_EQ(x.extra, y.extra);
      auto ex = x.tree, ey = y.tree;
      std::sort(ex.begin(), ex.end(), bounds::lighter);
      std::sort(ey.begin(), ey.end(), bounds::lighter);
      EXPECT_EQ(ex, ey);
    }
  }
}

}  // namespace
}  // namespace formica
