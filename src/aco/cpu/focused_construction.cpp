// SPDX-License-Identifier: MIT
// Focused construction on the CPU (see focused_construction.h).
#include "aco/cpu/focused_construction.h"

#include <algorithm>

#include "aco/cpu/candidate_selection.h"
#include "core/nearest_neighbour.h"
#include "core/space_filling_curve.h"
#include "decomposition/stretch_lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"

namespace formica::aco {

std::vector<int32_t> focused_start_tour(const Instance& instance, const ColonyConfig& config,
                                        const CandidateLists* lists, const StopFlag* stop) {
  if (lists != nullptr && instance.n() >= kStretchStartCities && instance.has_coordinates()) {
    // Very large tours: a nearest-neighbour tour's first climb reverses up to n / 2 cities a move
    // on one thread (97 s at a million cities on the H100's host); a space-filling-curve tour's
    // stretches are compact regions that the stretch walks climb on every thread, and the whole
    // tour's climb after them has only the seams left.
    std::vector<int32_t> tour = space_filling_curve_tour(instance);
    const int stretch = decomposition::kDefaultStretchCities;
    for (const int offset : {0, stretch / 2})
      decomposition::walk_stretches(instance, tour, stretch, offset, 0, config.threads, config.seed, stop);
    localsearch::cpu::NeighbourClimber(instance, *lists, localsearch::cpu::climb_options(config.local_search, true))
        .climb(tour, stop);
    return tour;
  }
  std::vector<int32_t> tour = nearest_neighbour_tour(instance, 0);
  if (lists != nullptr) {
    localsearch::cpu::NeighbourClimber(instance, *lists,
                                       localsearch::cpu::climb_options(config.local_search, true))
        .climb(tour, stop);
  }
  return tour;
}

void WalkMarks::next_walk() {
  if (++epoch_ == 0) {  // the counter wrapped: forget every old mark once
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    epoch_ = 1;
  }
}

FocusedWalk focused_walk(const Instance& instance, const CandidateSet& set, std::span<const float> fitness,
                         localsearch::cpu::ArrayTour& tour, int edges, double q0, RandomStream& rng,
                         WalkMarks& walked, std::vector<int32_t>& touched) {
  FocusedWalk walk;
  const int n = tour.n();
  walked.next_walk();
  const int start = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
  walked.mark(start);
  int current = start, behind = -1;  // behind: the city the walk came from (none at the start)
  while (walk.changed < edges && walk.steps < n - 1) {
    const int succ = tour.succ(current), pred = tour.pred(current);
    const int ahead = succ == behind ? pred : succ;
    const std::span<const float> f =
        fitness.subspan(static_cast<size_t>(current) * set.width, static_cast<size_t>(set.width));
    const double u_greedy = q0 > 0.0 ? rng.next_double() : 1.0;
    const double u_pick = rng.next_double();
    const CandidateChoice choice = u_greedy < q0 ? select_greedy(set.row(current), f, walked)
                                                 : select_proportional(set.row(current), f, walked, u_pick);
    // Nothing to choose among the candidates: the tour goes on as it was.
    const int next = choice.city < 0 ? ahead : choice.city;
    if (next != succ && next != pred) {
      // z: next's neighbour on the side away from the walk, as ahead is to current.
      const int z = ahead == succ ? tour.succ(next) : tour.pred(next);
      walk.delta += instance.distance(current, next) + instance.distance(ahead, z) -
                    instance.distance(current, ahead) - instance.distance(next, z);
      tour.exchange(current, ahead, next, z);
      touched.insert(touched.end(), {current, ahead, next, z});
      ++walk.changed;
    }
    behind = current;
    current = next;
    walked.mark(current);
    ++walk.steps;
  }
  return walk;
}

}  // namespace formica::aco
