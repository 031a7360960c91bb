// SPDX-License-Identifier: MIT
// Neighbour-list 2-opt, Or-opt and 3-opt with don't-look bits on the CPU (see neighbour_list_climb.h).
#include "localsearch/cpu/neighbour_list_climb.h"

#include <algorithm>

#include "localsearch/cpu/array_tour.h"

namespace formica::localsearch::cpu {
namespace {

/// City a's best move (neighbour_moves.h), its neighbours tried nearest first: 2-opt until a
/// neighbour is no nearer than both tour neighbours, then the Or-opt moves of each of its six
/// segments until a neighbour is no nearer than the segment's removal gain, then the 3-opt moves
/// of either side until a neighbour is no nearer than the tour neighbour on that side.
LocalMove best_move(const Instance& instance, const CandidateLists& lists, const ArrayTour& t, int a,
                    ClimbOptions options) {
  const auto distance = [&](int i, int j) { return instance.distance(i, j); };
  const CityContext ctx = city_context(t, distance, a);
  const std::span<const int32_t> list = lists.of(a);
  const int k = static_cast<int>(list.size());
  LocalMove best;
  for (int index = 0; index < k; ++index) {
    const int c = list[index];
    const int64_t d_ac = distance(a, c);
    if (two_opt_exhausted(ctx, d_ac)) break;
    two_opt_moves(t, distance, ctx, c, d_ac, index, best);
  }
  for (int number = 0; options.or_opt && number < 6; ++number) {
    const int length = number % 3 + 1;
    if (length > t.n() - 3) continue;
    const Segment s = or_opt_segment(t, distance, ctx, number, k);
    if (s.g1 <= 0) continue;
    for (int index = 0; index < k; ++index) {
      const int c = list[index];
      const int64_t d_ac = distance(a, c);
      if (d_ac >= s.g1) break;  // nearest first: the partial gain g1 - d(a, c) only falls
      or_opt_moves(t, distance, ctx, s, c, d_ac, index, best);
    }
  }
  if (options.three_opt && t.n() >= kThreeOptMinCities)
    for (const int dir : {1, -1}) {
      const int64_t d_12 = dir > 0 ? ctx.d_pred : ctx.d_succ;
      for (int index = 0; index < k; ++index) {
        const int c = list[index];
        const int64_t d_ac = distance(a, c);
        if (d_ac >= d_12) break;  // nearest first: g1 = d(t1, a) - d(a, c) only falls
        three_opt_moves(t, distance, ctx, dir, c, d_ac, index, lists.data().data(), k, best);
      }
    }
  return best;
}

}  // namespace

ClimbOptions climb_options(LocalSearchKind kind, bool sweep) {
  return {.or_opt = searches_or_opt(kind), .three_opt = searches_three_opt(kind), .sweep = sweep};
}

NeighbourClimber::NeighbourClimber(const Instance& instance, const CandidateLists& lists,
                                   ClimbOptions options)
    : instance_(instance),
      lists_(lists),
      options_(options),
      pos_(static_cast<size_t>(instance.n())),
      queue_(instance.n()) {}

NeighbourClimbCounts NeighbourClimber::climb(std::span<int32_t> tour, const StopFlag* stop) {
  const int n = static_cast<int>(tour.size());
  for (int p = 0; p < n; ++p) pos_[tour[p]] = p;
  return climb(tour, pos_, tour, stop);
}

NeighbourClimbCounts NeighbourClimber::climb(std::span<int32_t> tour, std::span<int32_t> pos,
                                             std::span<const int32_t> active, const StopFlag* stop) {
  NeighbourClimbCounts counts;
  ArrayTour t(tour, pos);
  queue_.clear();
  for (const int32_t city : active) queue_.push(city);
  int64_t moves_at_sweep = 0;
  bool swept = false;
  for (;;) {
    if (queue_.empty()) {
      // Don't-look bits miss a move that became improving through a change at its far end; a
      // sweep over every city after the queue runs dry finds those, and one that finds nothing
      // proves the tour has no improving move left among those searched.
      if (!options_.sweep || (swept && counts.moves == moves_at_sweep)) break;
      swept = true;
      moves_at_sweep = counts.moves;
      for (const int32_t city : tour) queue_.push(city);
    }
    if ((++counts.evaluated & 1023) == 0 && stop != nullptr && stop->requested()) {
      queue_.clear();
      counts.completed = false;
      return counts;
    }
    const int a = queue_.pop();
    const LocalMove best = best_move(instance_, lists_, t, a, options_);
    if (best.gain <= 0) continue;
    ++counts.moves;
    counts.or_moves += best.kind == MoveKind::OrOpt ? 1 : 0;
    counts.three_opt_moves += best.kind == MoveKind::ThreeOpt ? 1 : 0;
    counts.gain += best.gain;
    int ends[6];
    const int count = apply_move(t, best, ends);
    for (int i = 0; i < count; ++i) queue_.push(ends[i]);
  }
  return counts;
}

NeighbourClimbCounts polish_tour(const Instance& instance, std::span<int32_t> tour, int threads,
                                 const StopFlag* stop, NeighbourShape shape) {
  // Past the time limit the lists are not even built: at 200,000 cities they take a good part of a second.
  if (tour.size() < 8 || (stop != nullptr && stop->requested())) return {};
  const CandidateLists lists = build_candidate_lists(instance, kPolishNeighbours, threads, shape);
  return NeighbourClimber(instance, lists, climb_options(LocalSearchKind::ThreeOpt, true)).climb(tour, stop);
}

NeighbourClimbCounts climb_neighbour_lists(const Instance& instance, const CandidateLists& lists,
                                           std::span<int32_t> tour, const StopFlag* stop) {
  NeighbourClimber climber(instance, lists, ClimbOptions{});
  return climber.climb(tour, stop);
}

}  // namespace formica::localsearch::cpu
