// SPDX-License-Identifier: MIT
// Stretches first, then the whole tour (see stretch_hand_over.h).
#include "decomposition/stretch_hand_over.h"

#include <utility>

namespace formica::decomposition {
using localsearch::LinKernighanStep;

StretchHandOver::StretchHandOver(const Instance& instance, int threads, uint64_t seed, int stretch,
                                 double stall_gain, WholeTour whole_tour, StretchRegion region,
                                 LinKernighanStep step, NeighbourShape shape)
    : stretches_(instance, threads, seed, stretch, 0, stall_gain, region, step, shape),
      make_whole_tour_(std::move(whole_tour)) {
  hand_over_ = std::thread([this] {
    if (!stretches_.wait_until_stalled()) return;
    std::unique_ptr<TourCompanion> whole = make_whole_tour_();
    std::vector<int32_t> tour;
    const int64_t length = stretches_.best(tour);
    const std::lock_guard lock(mutex_);
    if (stopping_) return;  // `whole`'s threads end with it, before their first offer
    if (offered_length_ >= 0 && offered_length_ < length)
      whole->offer(offered_, offered_length_);
    else
      whole->offer(tour, length);
    offered_.clear();
    whole_tour_ = std::move(whole);
  });
}

void StretchHandOver::offer(std::span<const int32_t> tour, int64_t length) {
  const std::lock_guard lock(mutex_);
  if (whole_tour_) {
    whole_tour_->offer(tour, length);
    return;
  }
  stretches_.offer(tour, length);
  if (offered_length_ < 0 || length < offered_length_) {
    offered_.assign(tour.begin(), tour.end());
    offered_length_ = length;
  }
}

int64_t StretchHandOver::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  // The whole-tour threads started from the stretches' best or a shorter tour: theirs is shorter.
  return whole_tour_ ? whole_tour_->best(out) : stretches_.best(out);
}

int64_t StretchHandOver::best_length() const {
  const std::lock_guard lock(mutex_);
  return whole_tour_ ? whole_tour_->best_length() : stretches_.best_length();
}

void StretchHandOver::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stretches_.stop();  // wakes the hand-over thread if the rounds had not stalled
  if (hand_over_.joinable()) hand_over_.join();
  const std::lock_guard lock(mutex_);
  if (whole_tour_) whole_tour_->stop();
}

void StretchHandOver::walks(std::vector<Walk>& out) const {
  const std::lock_guard lock(mutex_);
  if (whole_tour_)
    whole_tour_->walks(out);
  else
    out.clear();
}

int64_t StretchHandOver::kicks() const {
  const std::lock_guard lock(mutex_);
  return stretches_.kicks() + (whole_tour_ ? whole_tour_->kicks() : 0);
}

bool StretchHandOver::handed_over() const {
  const std::lock_guard lock(mutex_);
  return whole_tour_ != nullptr;
}

}  // namespace formica::decomposition
