// SPDX-License-Identifier: MIT
// Checks shared by the CPU and GPU focused-colony tests (hybrid_colony_test.cpp and
// hybrid_colony_cuda_test.cpp): an MMAS restart widens the next iteration's walks; a search given a
// start tour starts every colony from it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "aco/cpu/colony_search.h"
#include "aco/cpu/focused_construction.h"
#include "core/search.h"
#include "io/generator.h"
#include "test_support.h"

namespace formica::aco::focused {

/// The restart check's case: 200 uniform cities, 3 edges re-decided per ant, and `config` (focused
/// MMAS without local search) made to converge fast: the restart-best deposits every iteration and
/// a colony restarts after 20 iterations without improvement.
constexpr int kRestartCities = 200, kRestartEdges = 3;
inline Instance restart_instance() { return io::generate_instance(kRestartCities, io::InstanceKind::Uniform, 12); }
inline ColonyConfig converging(ColonyConfig config) {
  config.best_every = 1;
  config.restart_after = 20;
  return config;
}

/// Steps `search` (focused MMAS colonies without local search, `ants` per colony, colonies
/// 0..colonies-1) until it has restarted twice, at most 600 iterations. Without local search a walk
/// changes at most 2 * edges edges of its colony's source; in the iteration after a restart some
/// ant must change more (the pheromone reset alone would leave the walks as narrow), at most
/// 2 * restart_walk_edges.
template <typename Search>
void expect_restarts_widen_the_walks(Search& search, int n, int edges, int colonies, int ants) {
  int restarts = 0, widened = 0;
  for (int it = 0; it < 600 && widened < 2; ++it) {
    std::vector<std::set<std::pair<int, int>>> sources;
    for (int c = 0; c < colonies; ++c) sources.push_back(test::tour_edges(search.source_tour(c)));
    const bool after_restart = search.restarts() > restarts;
    restarts = search.restarts();
    ASSERT_TRUE(search.step(StopFlag{}));
    const auto last = search.tours();  // a span on the CPU, a copy from the device on the GPU
    const std::span<const int32_t> tours(last);
    int most = 0;
    for (int a = 0; a < colonies * ants; ++a)
      most = std::max(most, test::edges_outside(tours.subspan(static_cast<size_t>(a) * n, n), sources[a / ants]));
    if (after_restart) {
      EXPECT_GT(most, 2 * edges) << "iteration " << it;
      EXPECT_LE(most, 2 * restart_walk_edges(n, edges)) << "iteration " << it;
      ++widened;
    } else {
      ASSERT_LE(most, 2 * edges) << "iteration " << it;
    }
  }
  EXPECT_EQ(widened, 2) << "two restarts within 600 iterations";
}

/// An earlier run's best tour (a CPU colony after `iterations` iterations) and its length: a start
/// tour better than the one a colony builds itself.
inline std::pair<std::vector<int32_t>, int64_t> earlier_run(const Instance& instance, const ColonyConfig& config,
                                                            int iterations) {
  ColonySearchCpu earlier(instance, config);
  for (int it = 0; it < iterations; ++it) earlier.step(StopFlag{});
  return {earlier.best_tour(), earlier.best_length()};
}

/// Before its first step, a search given `start` (of exact length `length`) as its start tour has
/// it as every colony's source and as its best tour.
template <typename Search>
void expect_starts_from(const Search& search, const std::vector<int32_t>& start, int64_t length, int colonies) {
  for (int c = 0; c < colonies; ++c) {
    const auto source = search.source_tour(c);  // a span on the CPU, a copy from the device on the GPU
    EXPECT_TRUE(std::equal(source.begin(), source.end(), start.begin(), start.end())) << "colony " << c;
  }
  EXPECT_EQ(search.best_length(), length);
  EXPECT_EQ(search.best_tour(), start);
}

}  // namespace formica::aco::focused
