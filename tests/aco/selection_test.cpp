// SPDX-License-Identifier: MIT
// The CPU selection methods sample exactly f_ij / sum over unvisited f_il: chi-square tests on a
// fixed fitness row with a fixed visited set, for every exact method. I-Roulette is not exact: it
// is tested against its own closed-form distribution, and its distance from the exact one is
// measured and recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "aco/cpu/selection.h"
#include "aco/i_roulette_distribution.h"
#include "test_support.h"

namespace formica::aco {
namespace {

struct Row {
  std::vector<float> fitness;
  std::vector<double> prefix;
  std::vector<int> visited;
};

/// 40 cities with uneven fitness (a few large values, many small) and a third of them visited,
/// including some of the heaviest, so that stochastic trial often draws visited cities.
Row fixed_row() {
  Row row;
  for (int j = 0; j < 40; ++j) row.fitness.push_back(static_cast<float>(j % 7 == 0 ? 5.0 + j : 0.25 + 0.1 * (j % 5)));
  row.fitness[39] = 0.0f;  // an unreachable city: never drawn
  row.visited = {0, 3, 7, 8, 14, 15, 21, 22, 23, 30, 31, 35, 36};
  double q = 0;
  for (float f : row.fitness) row.prefix.push_back(q += f);
  return row;
}

void check_distribution(Selection selection, int visited_before, double hybrid_switch) {
  const Row row = fixed_row();
  const int n = static_cast<int>(row.fitness.size());
  AntPath path(n);
  path.reset(row.visited[0]);
  for (size_t v = 1; v < row.visited.size(); ++v) path.visit(row.visited[v]);
  ASSERT_EQ(path.visited_count(), visited_before);

  AntSystemConfig config;
  config.selection = selection;
  config.trials = 2;  // few trials so that the roulette fallback is exercised too
  config.hybrid_switch = hybrid_switch;

  std::vector<double> probability(n, 0.0);
  double total = 0;
  for (int j = 0; j < n; ++j)
    if (!path.visited(j)) total += row.fitness[j];
  for (int j = 0; j < n; ++j)
    if (!path.visited(j)) probability[j] = row.fitness[j] / total;

  std::vector<long> counts(n, 0);
  RandomStream rng(2024, static_cast<uint64_t>(selection));
  constexpr int kDraws = 400'000;
  for (int d = 0; d < kDraws; ++d) ++counts[select_next(config, row.fitness, row.prefix, path, rng)];
  const double p = test::chi_square_test(counts, probability);
  EXPECT_GT(p, 1e-3) << "method " << to_string(selection) << " does not sample f_ij / sum f_il";
}

TEST(Selection, RouletteIsExact) { check_distribution(Selection::Roulette, 13, 0.85); }
TEST(Selection, CompressionIsExact) { check_distribution(Selection::Compression, 13, 0.85); }
TEST(Selection, StochasticTrialIsExact) { check_distribution(Selection::StochasticTrial, 13, 0.85); }
TEST(Selection, HybridIsExactInItsTrialPhase) { check_distribution(Selection::Hybrid, 13, 0.85); }
TEST(Selection, HybridIsExactInItsCompressionPhase) { check_distribution(Selection::Hybrid, 13, 0.1); }

TEST(Selection, TileRouletteIsExact) { check_distribution(Selection::TileRoulette, 13, 0.85); }

/// n cities over several CPU tiles, uneven weights, a third visited (whole tiles among them), so
/// that the tile walk crosses empty and partly visited tiles.
struct WideRow {
  std::vector<float> fitness;
  AntPath path;
};

WideRow wide_row(int n) {
  WideRow row{{}, AntPath(n)};
  RandomStream rng(11, 3);
  for (int j = 0; j < n; ++j)
    row.fitness.push_back(static_cast<float>((j % 9 == 0 ? 8.0 : 1.0) * (0.1 + rng.next_double())));
  row.fitness[n - 2] = 0.0f;
  row.path.reset(0);
  for (int j = 1; j < n; ++j)
    if ((j / kCpuTile == 1) || rng.next_double() < 0.3) row.path.visit(j);  // tile 1 entirely visited
  return row;
}

/// The weights a selection sees: f_j for unvisited cities, 0 for visited ones.
std::vector<double> unvisited_weights(const std::vector<float>& fitness, const AntPath& path) {
  std::vector<double> weights(fitness.size(), 0.0);
  for (size_t j = 0; j < fitness.size(); ++j)
    if (!path.visited(static_cast<int>(j))) weights[j] = fitness[j];
  return weights;
}

std::vector<double> exact(const std::vector<float>& fitness, const AntPath& path) {
  return roulette_distribution(unvisited_weights(fitness, path));
}

TEST(Selection, TileRouletteIsExactAcrossTiles) {
  const WideRow row = wide_row(5 * kCpuTile + 37);
  std::vector<long> counts(row.fitness.size(), 0);
  RandomStream rng(5, 5);
  for (int d = 0; d < 600'000; ++d) ++counts[select_tile_roulette(row.fitness, row.path, rng)];
  EXPECT_GT(test::chi_square_test(counts, exact(row.fitness, row.path)), 1e-3);
}

TEST(Selection, IRouletteDistributionHasItsClosedForm) {
  // Two cities: the heavier (w = 3) wins unless its uniform is below 1/3 and the other's above
  // 3u: P = 1 - 1 / (2 * 3).
  const std::vector<double> two = i_roulette_distribution(std::vector<double>{1.0, 3.0});
  EXPECT_NEAR(two[1], 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(two[0], 1.0 / 6.0, 1e-12);
  const std::vector<double> equal = i_roulette_distribution(std::vector<double>{2.0, 0.0, 2.0, 2.0});
  EXPECT_NEAR(equal[0], 1.0 / 3.0, 1e-12);
  EXPECT_EQ(equal[1], 0.0);
  const WideRow row = wide_row(700);
  std::vector<double> weights(row.fitness.begin(), row.fitness.end());
  const auto p = i_roulette_distribution(weights);
  double total = 0.0;
  for (double x : p) total += x;
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_EQ(i_roulette_distribution(std::vector<double>{0.0, 0.0}), (std::vector<double>{0.0, 0.0}));
}

TEST(Selection, IRouletteSamplesItsOwnDistributionNotTheExactOne) {
  const WideRow row = wide_row(300);
  const std::vector<double> weights = unvisited_weights(row.fitness, row.path);
  const std::vector<double> own = i_roulette_distribution(weights), roulette = roulette_distribution(weights);
  std::vector<long> counts(row.fitness.size(), 0);
  RandomStream rng(8, 8);
  constexpr int kDraws = 400'000;
  for (int d = 0; d < kDraws; ++d) ++counts[select_i_roulette(row.fitness, row.path, rng)];
  EXPECT_GT(test::chi_square_test(counts, own), 1e-3);  // exactly the distribution derived for it
  EXPECT_LT(test::chi_square_test(counts, roulette), 1e-6);  // and measurably not roulette's
  std::vector<double> sampled(counts.size());
  for (size_t j = 0; j < counts.size(); ++j) sampled[j] = static_cast<double>(counts[j]) / kDraws;
  const double tvd = total_variation_distance(sampled, roulette);
  RecordProperty("i_roulette_total_variation_distance", std::to_string(tvd));
  RecordProperty("closed_form_distance", std::to_string(total_variation_distance(own, roulette)));
  EXPECT_NEAR(tvd, total_variation_distance(own, roulette), 0.02);  // sampling noise is below 0.01
  EXPECT_GT(tvd, 0.05);  // not a rounding effect: a different distribution
}

TEST(Selection, ChiSquareTestRejectsAWrongDistribution) {
  // The test itself must be able to fail: uniform draws against the uneven row.
  const Row row = fixed_row();
  std::vector<double> probability(row.fitness.size());
  double total = std::accumulate(row.fitness.begin(), row.fitness.end(), 0.0);
  for (size_t j = 0; j < row.fitness.size(); ++j) probability[j] = row.fitness[j] / total;
  std::vector<long> counts(row.fitness.size(), 0);
  RandomStream rng(1, 1);
  for (int d = 0; d < 100'000; ++d) ++counts[rng.below(39)];
  EXPECT_LT(test::chi_square_test(counts, probability), 1e-6);
}

TEST(Selection, ChiSquareTestPoolsSparseCellsAndStillRejects) {
  // 5,000 cells at 8 draws per cell (the sanitizer runs' FORMICA_TEST_DRAWS_PER_CITY=8), the light
  // cells expecting about 2: draws from the distribution itself pass, draws from one whose heavy
  // cells weigh 4 instead of 6 fail.
  const int n = 5000;
  const auto weights = [n](double heavy) {
    std::vector<double> w(n);
    RandomStream rng(3, 0);
    for (int j = 0; j < n; ++j) w[j] = (j % 7 == 0 ? heavy : 1.0) * (0.25 + rng.next_double());
    return w;
  };
  const auto probabilities = [](std::vector<double> w) {
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    for (double& x : w) x /= total;
    return w;
  };
  const auto draw = [n](const std::vector<double>& p, uint64_t seed) {
    std::vector<double> cumulative(p.size());
    std::partial_sum(p.begin(), p.end(), cumulative.begin());
    std::vector<long> counts(p.size(), 0);
    RandomStream rng(seed, 1);
    for (long d = 0; d < 8L * n; ++d) {
      const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), rng.next_double() * cumulative.back());
      ++counts[std::min<size_t>(static_cast<size_t>(at - cumulative.begin()), p.size() - 1)];
    }
    return counts;
  };
  const std::vector<double> exact = probabilities(weights(6.0)), lighter = probabilities(weights(4.0));
  EXPECT_LT(*std::min_element(exact.begin(), exact.end()) * 8 * n, 5.0);  // pooling has work to do
  EXPECT_GT(test::chi_square_test(draw(exact, 1), exact), 1e-3);
  EXPECT_GT(test::chi_square_test(draw(exact, 2), exact), 1e-3);
  EXPECT_LT(test::chi_square_test(draw(lighter, 1), exact), 1e-6);
}

TEST(Selection, ChiSquarePValueMatchesTables) {
  EXPECT_NEAR(test::chi_square_p_value(3.841, 1), 0.05, 1e-3);
  EXPECT_NEAR(test::chi_square_p_value(18.307, 10), 0.05, 1e-3);
  EXPECT_NEAR(test::chi_square_p_value(124.342, 100), 0.05, 1e-3);
}

}  // namespace
}  // namespace formica::aco
