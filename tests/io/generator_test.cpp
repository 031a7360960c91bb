// SPDX-License-Identifier: MIT
// Seeded generators: same seed, same instance; different seeds, different instances.
#include <gtest/gtest.h>

#include "io/generator.h"

namespace formica {
namespace {

TEST(Generator, Deterministic) {
  for (auto kind : {io::InstanceKind::Uniform, io::InstanceKind::Clustered}) {
    const Instance a = io::generate_instance(500, kind, 42), b = io::generate_instance(500, kind, 42);
    const Instance c = io::generate_instance(500, kind, 43);
    EXPECT_EQ(a.name(), b.name());
    EXPECT_TRUE(std::equal(a.x().begin(), a.x().end(), b.x().begin()));
    EXPECT_TRUE(std::equal(a.y().begin(), a.y().end(), b.y().begin()));
    EXPECT_FALSE(std::equal(a.x().begin(), a.x().end(), c.x().begin()));
  }
}

TEST(Generator, UniformFillsTheSquare) {
  const Instance u = io::generate_instance(10000, io::InstanceKind::Uniform, 1);
  double sx = 0;
  for (double x : u.x()) {
    ASSERT_GE(x, 0);
    ASSERT_LT(x, 1e6);
    sx += x;
  }
  EXPECT_NEAR(sx / 10000, 5e5, 2e4);
  EXPECT_EQ(u.name(), "uniform10000-s1");
}

TEST(Generator, ClusteredIsMoreConcentratedThanUniform) {
  // Mean distance to the nearest other city is much smaller for clustered cities.
  const auto mean_nearest = [](const Instance& instance) {
    double sum = 0;
    for (int i = 0; i < 300; ++i) {
      int64_t best = INT64_MAX;
      for (int j = 0; j < instance.n(); ++j)
        if (j != i) best = std::min(best, instance.distance(i, j));
      sum += static_cast<double>(best);
    }
    return sum / 300;
  };
  const Instance u = io::generate_instance(3000, io::InstanceKind::Uniform, 2);
  const Instance c = io::generate_instance(3000, io::InstanceKind::Clustered, 2);
  EXPECT_LT(mean_nearest(c), 0.8 * mean_nearest(u));
}

TEST(Generator, RejectsTooFewCities) {
  EXPECT_THROW(io::generate_instance(2, io::InstanceKind::Uniform, 1), std::invalid_argument);
}

}  // namespace
}  // namespace formica
