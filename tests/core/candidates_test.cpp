// Candidate lists against brute force, for every coordinate metric and for matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "core/candidates.h"
#include "core/kd_tree.h"
#include "core/rng.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica {
namespace {

/// Brute force: every other city sorted by the tree's continuous key, then index.
std::vector<int32_t> brute_force(const KdTree& tree, int n, int city, int k) {
  std::vector<int32_t> others;
  for (int j = 0; j < n; ++j)
    if (j != city) others.push_back(j);
  std::sort(others.begin(), others.end(), [&](int a, int b) {
    const double da = tree.key_distance(city, a), db = tree.key_distance(city, b);
    return da != db ? da < db : a < b;
  });
  others.resize(k);
  return others;
}

class CandidatesByType : public ::testing::TestWithParam<EdgeWeightType> {};

TEST_P(CandidatesByType, MatchBruteForce) {
  for (int n : {3, 4, 17, 300}) {
    for (double side : {20.0, 1000.0}) {
      const Instance instance = test::random_instance(GetParam(), n, 11 * n, side);
      const KdTree tree(instance);
      const int k = std::min(10, n - 1);
      const CandidateLists lists = build_candidate_lists(instance, 10);
      ASSERT_EQ(lists.k(), k);
      for (int i = 0; i < n; ++i) {
        const auto got = lists.of(i);
        const auto want = brute_force(tree, n, i, k);
        ASSERT_EQ(std::vector<int32_t>(got.begin(), got.end()), want) << "city " << i << " n " << n;
        // The exact integer distance never decreases along a list.
        for (int p = 1; p < k; ++p) EXPECT_LE(instance.distance(i, got[p - 1]), instance.distance(i, got[p]));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllMetrics, CandidatesByType,
                         ::testing::Values(EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D, EdgeWeightType::Att,
                                           EdgeWeightType::Geo, EdgeWeightType::Man2D, EdgeWeightType::Max2D,
                                           EdgeWeightType::Euc3D));

TEST(Candidates, ExplicitMatrixByExactDistance) {
  const Instance instance = Instance::from_matrix("m", 4, {0, 5, 2, 9, 5, 0, 5, 1, 2, 5, 0, 7, 9, 1, 7, 0});
  const CandidateLists lists = build_candidate_lists(instance, 2);
  EXPECT_EQ(std::vector<int32_t>(lists.of(0).begin(), lists.of(0).end()), (std::vector<int32_t>{2, 1}));
  EXPECT_EQ(std::vector<int32_t>(lists.of(1).begin(), lists.of(1).end()), (std::vector<int32_t>{3, 0}));
  EXPECT_EQ(std::vector<int32_t>(lists.of(2).begin(), lists.of(2).end()), (std::vector<int32_t>{0, 1}));
}

TEST(Candidates, HundredThousandCitiesInSeconds) {
  const Instance instance = io::generate_instance(100'000, io::InstanceKind::Uniform, 5);
  const auto start = std::chrono::steady_clock::now();
  const CandidateLists lists = build_candidate_lists(instance, 16);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(lists.n(), 100'000);
  EXPECT_LT(seconds, 10.0) << "k-nearest lists for 100,000 cities took " << seconds << " s";
  // Spot-check a few rows against brute force.
  const KdTree tree(instance);
  for (int city : {0, 4242, 99'999}) {
    const auto got = lists.of(city);
    EXPECT_EQ(std::vector<int32_t>(got.begin(), got.end()), brute_force(tree, instance.n(), city, 16));
  }
}

}  // namespace
}  // namespace formica
