// The neighbour-list climb with don't-look bits: it ends with no improving move among those it
// searches (checked by brute force over each city's list), and it shortens a tour a lot.
#include <gtest/gtest.h>

#include "core/candidates.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/k_swap.h"
#include "localsearch/start_tour.h"
#include "two_opt_check.h"

namespace formica::localsearch::cpu {
namespace {

TEST(NeighbourListClimb, EndsWithNoImprovingListedMove) {
  for (int n : {3, 4, 5, 17, 200, 2000}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Clustered, n);
    const CandidateLists lists = build_candidate_lists(instance, 8);
    for (const bool from_curve : {false, true}) {
      std::vector<int32_t> tour = from_curve ? space_filling_curve_tour(instance) : random_start(n, 1, 0);
      const int64_t before = tour_length(instance, tour);
      const NeighbourClimbCounts counts = climb_neighbour_lists(instance, lists, tour);
      EXPECT_TRUE(counts.completed);
      const Tour after(instance, tour);
      const std::vector<int64_t> gains = test::listed_move_gains(instance, lists, tour);
      EXPECT_EQ(*std::max_element(gains.begin(), gains.end()), 0) << "n = " << n;
      if (n >= 200) {
        EXPECT_GT(counts.moves, 0);
        EXPECT_LT(after.length(), before);
      }
    }
  }
}

TEST(NeighbourListClimb, GetsCloseToTheFullLocalOptimum) {
  // From a random start, the list climb leaves few improving 2-opt moves for the full passes.
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Uniform, 2);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  std::vector<int32_t> tour = random_start(1500, 2, 0);
  climb_neighbour_lists(instance, lists, tour);
  const Tour listed(instance, tour);
  // A 2-opt local optimum of a uniform instance is about 5% above optimal; the random tour is
  // about 20 times longer. The list climb must land within a few percent of a full climb.
  const double optimum_estimate = 0.7124 * std::sqrt(1500.0 * 1e12);
  EXPECT_LT(static_cast<double>(listed.length()), 1.15 * optimum_estimate);
}

}  // namespace
}  // namespace formica::localsearch::cpu
