// SPDX-License-Identifier: MIT
// The pair crossover over flat arrays (population/eax_pair.h), run on the host: child for child
// what EdgeAssembly makes of the same parents with the same random stream (the same best child,
// its gain and its edges in the same order), by gain and by GA-EAX's entropy score, and every
// child one tour of the length its gain says.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "core/candidates.h"
#include "core/rng.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "population/eax_pair_host.h"
#include "population/edge_assembly.h"

namespace formica::population {
namespace {

/// A 2-opt + Or-opt local optimum from random start `restart`, or the random permutation itself.
std::vector<int32_t> climbed_tour(const Instance& instance, const CandidateLists& lists, int restart,
                                  bool climbed) {
  std::vector<int32_t> tour = localsearch::random_start(instance.n(), 17, restart);
  if (climbed)
    localsearch::cpu::NeighbourClimber(instance, lists, localsearch::cpu::ClimbOptions{.or_opt = true})
        .climb(tour);
  return tour;
}

std::vector<Edge> edge_list(const int32_t* edges, int count) {
  std::vector<Edge> list;
  for (int e = 0; e < count; ++e) list.push_back(Edge{edges[2 * e], edges[2 * e + 1]});
  return list;
}

/// The population's tours' links, one after another (PopulationScore::links).
std::vector<int32_t> population_links(const std::vector<std::vector<int32_t>>& tours) {
  const size_t n = tours[0].size();
  std::vector<int32_t> links(2 * n * tours.size()), pos(n);
  for (size_t t = 0; t < tours.size(); ++t) eax::parent_arrays(tours[t], pos.data(), links.data() + 2 * n * t);
  return links;
}

/// For every instance size and pair, the flat crossover's best child is EdgeAssembly's.
void expect_edge_assemblys_children(bool entropy) {
  int compared = 0, made_any = 0;
  for (const int n : {8, 50, 301, 1200}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n + 4);
    const CandidateLists lists = build_candidate_lists(instance, std::min(10, n - 1));
    EdgeAssembly assembly(instance, lists);
    eax::HostPairWork work(n);
    const auto distance = [&instance](int32_t u, int32_t v) { return instance.distance(u, v); };
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<std::vector<int32_t>> population;
      for (int t = 0; t < 6; ++t) population.push_back(climbed_tour(instance, lists, 6 * trial + t, trial % 4 != 0));
      const std::vector<int32_t>& a = population[0];
      const std::vector<int32_t>& b = population[1 + trial % 5];
      const std::vector<int32_t> links = population_links(population);
      const std::vector<double> h = eax::entropy_terms(6);
      eax::PopulationScore flat_score{links.data(), 6, n, entropy ? h.data() : nullptr};
      std::vector<std::set<Edge>> edges(population.size());
      for (size_t t = 0; t < population.size(); ++t)
        for (int p = 0; p < n; ++p) edges[t].insert(make_edge(population[t][p], population[t][(p + 1) % n]));
      const auto count = [&edges](const Edge& e) {
        return static_cast<int>(std::count_if(edges.begin(), edges.end(), [&e](const auto& s) { return s.count(e) > 0; }));
      };
      EdgeAssembly::ChildScore score;
      if (entropy)
        score = [&](const AssembledChild& child) {
          double sum = 0;
          for (const Edge& e : child.removed) sum += h[count(e) - 1] - h[count(e)];
          for (const Edge& e : child.added) sum += h[count(e) + 1] - h[count(e)];
          const double gain = static_cast<double>(child.gain);
          return sum < -1e-9 ? gain / -sum : gain / 1e-9;
        };
      for (const int children : {1, 5, 30}) {
        const int64_t length = tour_length(instance, a);
        const MergeBase base(instance, a, length);
        RandomStream host_rng(3, static_cast<uint64_t>(100 * trial + children));
        RandomStream flat_rng(3, static_cast<uint64_t>(100 * trial + children));
        AssembledChild best;
        const int made = assembly.best_child(base, b, children, host_rng, best, score);
        const eax::HostParent parent(a);
        const eax::PairResult flat = eax::best_child(parent.view(), b.data(), distance, lists.data().data(), lists.k(),
                                                     std::min(10, lists.k()), children, flat_rng, flat_score, work.work());
        ASSERT_EQ(work.work().fault, eax::PairFault::None);
        ASSERT_EQ(flat.made, made) << "n " << n << " trial " << trial << " children " << children;
        ++compared;
        if (made == 0) continue;
        ++made_any;
        EXPECT_EQ(flat.gain, best.gain) << "n " << n << " trial " << trial;
        EXPECT_EQ(edge_list(work.work().best_removed, work.work().best_removed_edges), best.removed);
        EXPECT_EQ(edge_list(work.work().best_added, work.work().best_added_edges), best.added);
        // The draws after the crossover are the same too: both streams are where they were.
        EXPECT_EQ(flat_rng.next_u32(), host_rng.next_u32());
        std::vector<int32_t> tour = a;
        if (best.removed.empty()) continue;  // a join undid the cycle
        ASSERT_TRUE(base.exchange_is_a_tour(edge_list(work.work().best_removed, work.work().best_removed_edges),
                                            edge_list(work.work().best_added, work.work().best_added_edges), &tour));
        EXPECT_EQ(tour_length(instance, tour), length - flat.gain);
      }
    }
  }
  EXPECT_EQ(compared, 4 * 8 * 3);
  EXPECT_GT(made_any, 60);
}

TEST(EaxPair, TheFlatCrossoverMakesEdgeAssemblysBestChildByGain) { expect_edge_assemblys_children(false); }

TEST(EaxPair, TheFlatCrossoverMakesEdgeAssemblysBestChildByEntropy) { expect_edge_assemblys_children(true); }

TEST(EaxPair, TheSameTourTwiceHasNoChild) {
  const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 2);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  const std::vector<int32_t> a = climbed_tour(instance, lists, 1, true);
  eax::HostPairWork work(40);
  RandomStream rng(1, 1);
  const eax::HostParent parent(a);
  const auto distance = [&instance](int32_t u, int32_t v) { return instance.distance(u, v); };
  const eax::PairResult result = eax::best_child(parent.view(), a.data(), distance, lists.data().data(), lists.k(), 10,
                                                 30, rng, eax::PopulationScore{}, work.work());
  EXPECT_EQ(result.made, 0);
  EXPECT_EQ(work.work().fault, eax::PairFault::None);
}

}  // namespace
}  // namespace formica::population
