// SPDX-License-Identifier: MIT
// Philox4x32-10 against the Random123 known-answer vectors, derive_seed (SplitMix64) against
// its reference sequence, and stream independence.
#include <gtest/gtest.h>

#include <set>

#include "core/rng.h"

namespace formica {
namespace {

TEST(Philox, MatchesRandom123KnownAnswers) {
  const PhiloxBlock zero = philox4x32_10(PhiloxBlock{{0, 0, 0, 0}}, 0);
  EXPECT_EQ(zero.v[0], 0x6627e8d5u);
  EXPECT_EQ(zero.v[1], 0xe169c58du);
  EXPECT_EQ(zero.v[2], 0xbc57ac4cu);
  EXPECT_EQ(zero.v[3], 0x9b00dbd8u);
  const PhiloxBlock ones = philox4x32_10(PhiloxBlock{{~0u, ~0u, ~0u, ~0u}}, ~0ull);
  EXPECT_EQ(ones.v[0], 0x408f276du);
  EXPECT_EQ(ones.v[1], 0x41c83b0eu);
  EXPECT_EQ(ones.v[2], 0xa20bc7c6u);
  EXPECT_EQ(ones.v[3], 0x6d5451fdu);
}

TEST(DeriveSeed, IsSplitMix64AndMatchesTheReferenceSequence) {
  // Vigna's splitmix64.c from state 0: the first outputs of next().
  EXPECT_EQ(derive_seed(0, 0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(derive_seed(0, 1), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(derive_seed(0, 2), 0x06C45D188009454Full);
  // Position c of stream s is the output after s + c * gamma: streams are offsets of one sequence.
  EXPECT_EQ(derive_seed(0x9E3779B97F4A7C15ull, 1), derive_seed(0, 2));
}

TEST(RandomStream, SameSeedSameSequence) {
  RandomStream a(42, 7, 3), b(42, 7, 3);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next_u32(), b.next_u32());
}

TEST(RandomStream, StreamsDiffer) {
  RandomStream a(42, 7), b(42, 8), c(42, 7, 1);
  int same_ab = 0, same_ac = 0;
  for (int i = 0; i < 100; ++i) {
    const uint32_t x = a.next_u32();
    same_ab += x == b.next_u32();
    same_ac += x == c.next_u32();
  }
  EXPECT_LT(same_ab, 3);
  EXPECT_LT(same_ac, 3);
}

TEST(RandomStream, UniformsStayInRange) {
  RandomStream rng(1, 2);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double d = rng.next_double();
    const float f = rng.next_float();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
    ASSERT_GE(f, 0.0f);
    ASSERT_LT(f, 1.0f);
    sum += d;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
}

TEST(RandomStream, BelowCoversEveryValueAndNothingElse) {
  RandomStream rng(3, 4);
  std::set<uint32_t> seen;
  for (int i = 0; i < 10000; ++i) {
    const uint32_t v = rng.below(7);
    ASSERT_LT(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
}

}  // namespace
}  // namespace formica
