// SPDX-License-Identifier: MIT
// The Lin-Kernighan threads of very large tours: stretches first, the whole tour once the
// stretches stall.
//
// Why: a round of stretches (stretch_lin_kernighan.h) reaches every part of a very large tour in
// the time the whole-tour threads (iterated_lin_kernighan.h) need for a few of its kicks, so it
// shortens a fresh tour far faster; but its kicks stay within a stretch with fixed ends and its
// moves within the stretch's own neighbour lists, so its gains per round fall off, while the
// whole-tour kicks keep finding what no stretch can. Measured on the H100 host with 14 threads
// (bench/large_tour_bench, uniform, seed 1): 200,000 cities, 1.51 % below the start tour at 10 s
// for the whole tour against 2.29 % for stretches, but 2.44 / 2.42 % at 30 s; a million cities,
// 0.47 / 2.22 % at 45 s with the stretches still gaining. So the stretch rounds run until one
// gains less than `stall_gain` of the tour's length, and then the same threads' worth of
// whole-tour Lin-Kernighan takes over from the stretches' best tour (or a shorter one offered
// meanwhile).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "decomposition/stretch_lin_kernighan.h"
#include "localsearch/cpu/tour_companion.h"

namespace formica::decomposition {

/// The round gain below which the stretches hand over, as a fraction of the tour's length: one
/// round of stretches at 200,000 cities takes about 0.65 s on 14 threads, so 1e-4 a round is
/// about 1.5e-4 of the tour a second, under what the whole-tour threads gain there at 10 to 30 s.
inline constexpr double kStretchStallGain = 1e-4;

class StretchHandOver final : public localsearch::cpu::TourCompanion {
 public:
  /// Makes the whole-tour threads (idle until their first offer). Called once, on a thread of this
  /// object's, when the stretches stall; it may take a while (candidate lists).
  using WholeTour = std::function<std::unique_ptr<TourCompanion>()>;

  /// Starts the stretch threads (StretchLinKernighan's arguments, its default kicks, the island's
  /// region of the stretches, their chains of `step`s over lists of `shape`) and a thread that waits
  /// for them to stall and then starts `whole_tour`'s.
  StretchHandOver(const Instance& instance, int threads, uint64_t seed, int stretch, double stall_gain,
                  WholeTour whole_tour, StretchRegion region = {},
                  localsearch::LinKernighanStep step = localsearch::LinKernighanStep::TwoOpt,
                  NeighbourShape shape = NeighbourShape::Nearest);
  ~StretchHandOver() override { stop(); }
  StretchHandOver(const StretchHandOver&) = delete;
  StretchHandOver& operator=(const StretchHandOver&) = delete;

  void offer(std::span<const int32_t> tour, int64_t length) override;
  int64_t best(std::vector<int32_t>& out) const override;
  int64_t best_length() const override;
  void stop() override;
  void walks(std::vector<Walk>& out) const override;
  int64_t kicks() const override;
  /// True once the whole-tour threads have taken over.
  bool handed_over() const;

 private:
  StretchLinKernighan stretches_;
  WholeTour make_whole_tour_;
  mutable std::mutex mutex_;
  // Guarded by mutex_: the whole-tour threads once started, and until then the shortest tour
  // offered (which they start from when shorter than the stretches' best).
  std::unique_ptr<TourCompanion> whole_tour_;
  std::vector<int32_t> offered_;
  int64_t offered_length_ = -1;
  bool stopping_ = false;
  std::thread hand_over_;
};

}  // namespace formica::decomposition
