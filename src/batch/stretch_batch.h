// SPDX-License-Identifier: MIT
// A very large tour improved a stretch at a time, every stretch at once, by the batch solver
// (batch_solver.h): the decomposition of decomposition/stretch_lin_kernighan.h with the batch's
// walks in place of host threads, so that on the GPU thousands of warps walk the stretches side by
// side while the host threads walk the whole tour.
//
// A round cuts the tour into stretches of `stretch` consecutive cities from a random offset (the
// last one takes the remainder) and makes each the path through its cities with both end cities
// fixed: the stretch's own instance closed by a dummy city joined to the two ends
// (core/path_transform.h). The batch solves all of them at once, every walk starting from the
// tour's own path and kicking it (double bridges repaired by 2-opt + Or-opt + 3-opt), and every
// path that came back shorter is written into the same positions, so the tour stays a tour. Each
// round cuts at a new offset, so no seam stays where it was.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "batch/batch_solver.h"
#include "core/instance.h"
#include "localsearch/cpu/published_tour.h"
#include "localsearch/cpu/tour_companion.h"

namespace formica::batch {

/// Cities per stretch unless told otherwise: the batch's walks keep a 1,000-city path's matrix
/// (4 MB) in global memory, and a million cities make a thousand instances.
inline constexpr int kDefaultBatchStretch = 1000;

/// What one round did.
struct StretchRound {
  int64_t gain = 0;    ///< exact: the tour's length before minus after
  int stretches = 0;   ///< instances in the batch
  int improved = 0;    ///< stretches written back
  int64_t kicks = 0;   ///< all walks together
  int walks = 0;       ///< per stretch
  double seconds = 0;  ///< the round's wall time, set-up included
};

/// One round (file comment) on `tour`: stretches of `stretch` cities cut from `offset`, solved by
/// the batch under `config` (its backend, walks, threads and seed; its time limit or kicks bound
/// the round); shorter paths written back. Tours of fewer than 2 x stretch cities are left as they
/// are. `interrupt` stops the round early, every stretch keeping what it found.
StretchRound improve_stretches(const Instance& instance, std::span<int32_t> tour, int stretch, int offset,
                               const BatchConfig& config, const std::atomic<bool>* interrupt = nullptr);

/// Rounds of improve_stretches on a thread of their own, one after another on the tour offered
/// last (when it is shorter than its own): the batch's walks beside the colonies' or the
/// Lin-Kernighan threads' search, its tour merged with theirs (aco/colony_merge.h).
class StretchBatchSearch final : public localsearch::cpu::TourCompanion {
 public:
  /// `config` gives the backend, walks, threads and seed; each round runs `round_seconds` (set-up
  /// included). A round whose time went on its set-up and climbs alone, with no kick (a busy
  /// machine), gives the next one twice the time, up to kMaxRoundGrowth times `round_seconds`;
  /// a round that kicks brings it back. `instance` must outlive this object and have at least
  /// 2 x stretch cities.
  StretchBatchSearch(const Instance& instance, BatchConfig config, int stretch = kDefaultBatchStretch,
                     double round_seconds = 2.0);
  ~StretchBatchSearch() override { stop(); }
  StretchBatchSearch(const StretchBatchSearch&) = delete;
  StretchBatchSearch& operator=(const StretchBatchSearch&) = delete;

  void offer(std::span<const int32_t> tour, int64_t length) override;
  int64_t best(std::vector<int32_t>& out) const override;
  int64_t best_length() const override { return published_.length(); }
  void stop() override;
  void walks(std::vector<Walk>& out) const override { out.clear(); }
  int64_t kicks() const override { return kicks_.load(std::memory_order_relaxed); }

  int64_t rounds() const { return rounds_.load(std::memory_order_relaxed); }
  /// The longest a round may be given, as a multiple of `round_seconds`.
  static constexpr double kMaxRoundGrowth = 64;
  /// What ended the rounds when one failed (out of GPU memory, say): null while none did. The
  /// published tour stays valid.
  std::exception_ptr failure() const;

 private:
  void run();

  const Instance& instance_;
  BatchConfig config_;
  int stretch_;
  double round_seconds_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  localsearch::cpu::OfferedTour offered_;
  localsearch::cpu::PublishedTour published_;
  std::atomic<int64_t> kicks_{0}, rounds_{0};
  std::atomic<bool> stop_{false};
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace formica::batch
