// SPDX-License-Identifier: MIT
// QuickSearch: what a run does when its time limit comes before the search it asked for is set up
// (its candidate lists, host threads' lists and tables: solve() gives them half the time left, see
// preparation_stop in core/search.h). It needs no set-up of its own: a nearest-neighbour tour (a
// space-filling-curve tour from 100,000 cities on), then rounds of Lin-Kernighan walks over
// stretches of the tour on every thread (decomposition/stretch_lin_kernighan.h), each round cut at
// a new offset, with kicks once a round finds nothing. On a million cities the tour is there in a
// fifth of a second and every round improves it at once, where the colonies' lists alone take
// seconds.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"
#include "core/search.h"

namespace formica {

class QuickSearch final : public Search {
 public:
  /// Starts from `start` (a permutation) when given, else from the file comment's tour.
  QuickSearch(const Instance& instance, int threads, uint64_t seed, std::vector<int32_t> start = {});

  /// One round over every stretch; false when `stop` came first (the round's finished stretches
  /// are kept: the tour stays a tour).
  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return length_; }
  std::vector<int32_t> best_tour() const override { return tour_; }
  int64_t iteration_best_length() const override { return length_; }
  StepTimes last_step_times() const override { return {}; }
  Backend backend() const override { return Backend::Cpu; }
  /// Too few cities for two stretches: the start tour is all it has.
  bool finished() const override { return stretch_ == 0; }
  /// Every gain is the walks' own, from the start tour on.
  const Credits* credits() const override { return &credits_; }

 private:
  const Instance& instance_;
  int threads_;
  uint64_t seed_;
  int stretch_ = 0;  // cities per stretch, 0 when the tour has too few
  int kicks_ = 0;    // per stretch and round: 0 until a round finds nothing
  int64_t round_ = 0;
  std::vector<int32_t> tour_;
  int64_t length_ = 0;
  Credits credits_;
};

}  // namespace formica
