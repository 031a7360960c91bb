// SPDX-License-Identifier: MIT
// RandomPermutation: a bijection for every size, fixed by its key, and uniform enough to pass a
// chi-square test on the first two elements.
#include <gtest/gtest.h>

#include <vector>

#include "core/random_permutation.h"
#include "test_support.h"

namespace formica {
namespace {

std::vector<uint32_t> elements(uint32_t n, uint64_t key) {
  const RandomPermutation permutation(n, key);
  std::vector<uint32_t> out(n);
  for (uint32_t i = 0; i < n; ++i) out[i] = permutation(i);
  return out;
}

TEST(RandomPermutation, IsABijectionForEverySize) {
  std::vector<uint32_t> sizes;
  for (uint32_t n = 1; n <= 70; ++n) sizes.push_back(n);
  for (uint32_t n : {127u, 128u, 129u, 1000u, 4097u, 65535u, 65536u, 65537u, 100'003u}) sizes.push_back(n);
  for (uint32_t n : sizes) {
    const auto p = elements(n, 0x1234 + n);
    std::vector<uint8_t> seen(n, 0);
    for (uint32_t v : p) {
      ASSERT_LT(v, n);
      ASSERT_EQ(seen[v], 0) << "n = " << n << " repeats " << v;
      seen[v] = 1;
    }
  }
}

TEST(RandomPermutation, TheKeyFixesThePermutation) {
  EXPECT_EQ(elements(1000, 7), elements(1000, 7));
  EXPECT_NE(elements(1000, 7), elements(1000, 8));
  int identity = 0;  // a random permutation of 1000 has about one fixed point
  const auto p = elements(1000, 9);
  for (uint32_t i = 0; i < 1000; ++i) identity += p[i] == i;
  EXPECT_LT(identity, 10);
}

TEST(RandomPermutation, FirstTwoElementsAreUniform) {
  // Over many keys, the ordered pair (p(0), p(1)) must hit each of the n(n - 1) possible pairs
  // equally often (four Feistel rounds fail this at every one of these sizes).
  for (uint32_t n : {3u, 6u, 17u, 100u}) {
    std::vector<long> counts(n * n, 0);
    for (uint64_t key = 0; key < (n < 50 ? 400 : 100) * n * n; ++key) {
      const RandomPermutation p(n, key);
      ++counts[p(0) * n + p(1)];
    }
    std::vector<double> probabilities(n * n, 0.0);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t b = 0; b < n; ++b)
        if (a != b) probabilities[a * n + b] = 1.0 / (n * (n - 1));
    EXPECT_GT(test::chi_square_test(counts, probabilities), 1e-4) << "n = " << n;
  }
}

}  // namespace
}  // namespace formica
