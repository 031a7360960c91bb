// SPDX-License-Identifier: MIT
// One kick of iterated Lin-Kernighan (see kicked_tour.h).
#include "localsearch/cpu/kicked_tour.h"

namespace formica::localsearch::cpu {

std::span<const int32_t> KickedTour::tour() const {
  if (stale_) list_.write(saved_), stale_ = false;
  return saved_;
}

void KickedTour::reset(std::span<const int32_t> tour, int64_t length, bool two_level) {
  two_level_ = two_level;
  length_ = length;
  log_.clear();
  saved_.assign(tour.begin(), tour.end());
  stale_ = false;
  if (two_level_) {
    list_.assign(tour);
    tour_.clear(), pos_.clear();
    return;
  }
  tour_.assign(tour.begin(), tour.end());
  touched_.reset(static_cast<int>(tour_.size()));
  pos_.resize(tour_.size());
  for (size_t p = 0; p < tour_.size(); ++p) pos_[tour_[p]] = static_cast<int32_t>(p);
}

DoubleBridge KickedTour::list_bridge(const Instance& instance, const LinKernighan& lk, RandomStream& random,
                                     int max_segment, int32_t (&ends)[8], int64_t& delta) {
  DoubleBridge bridge;
  do {
    bridge = draw_double_bridge(random, list_.n(), max_segment);
    // x a0 .. a1 b0 .. b1 c0 .. c1 y, as double_bridge_ends() names them.
    const int a = bridge.a, b = bridge.b, m = bridge.moved();
    int c = bridge.p0;
    for (int i = 0; i <= m + 1; ++i, c = list_.succ(c)) {
      if (i == 0) ends[0] = c;
      if (i == 1) ends[1] = c;
      if (i == a) ends[2] = c;
      if (i == a + 1) ends[3] = c;
      if (i == a + b) ends[4] = c;
      if (i == a + b + 1) ends[5] = c;
      if (i == m) ends[6] = c;
      if (i == m + 1) ends[7] = c;
    }
  } while (!lk.removable(ends[0], ends[1]) || !lk.removable(ends[2], ends[3]) ||
           !lk.removable(ends[4], ends[5]) || !lk.removable(ends[6], ends[7]));
  delta = double_bridge_delta(ends, [&](int a, int b) { return instance.distance(a, b); });
  const int x = ends[0], a0 = ends[1], a1 = ends[2], b0 = ends[3], b1 = ends[4], c0 = ends[5], c1 = ends[6],
            y = ends[7];
  list_.exchange(x, a0, c1, y);    // x c1 .. c0 b1 .. b0 a1 .. a0 y
  list_.exchange(x, c1, c0, b1);   // x c0 .. c1 b1 .. b0 a1 .. a0 y
  list_.exchange(c1, b1, b0, a1);  // x c0 .. c1 b0 .. b1 a1 .. a0 y
  list_.exchange(b1, a1, a0, y);   // x c0 .. c1 b0 .. b1 a0 .. a1 y
  return bridge;
}

DoubleBridge KickedTour::bridge(const Instance& instance, const LinKernighan& lk, RandomStream& random,
                                int max_segment, int32_t (&ends)[8], int64_t& delta) {
  const int n = static_cast<int>(tour_.size());
  const auto at = [n](int p) { return p % n; };
  // The kick, a double bridge: x, A, B, C, y -> x, C, B, A, y (saved_ holds the tour before it),
  // drawn again while it would remove the chains' fixed edge (about 4 draws in n do).
  DoubleBridge bridge;
  do {
    bridge = draw_double_bridge(random, n, max_segment);
    double_bridge_ends(bridge, [&](int p) { return tour_[at(p)]; }, ends);
  } while (!lk.removable(ends[0], ends[1]) || !lk.removable(ends[2], ends[3]) ||
           !lk.removable(ends[4], ends[5]) || !lk.removable(ends[6], ends[7]));
  const int p0 = bridge.p0, m = bridge.moved();
  delta = double_bridge_delta(ends, [&](int a, int b) { return instance.distance(a, b); });
  for (int i = 0; i < m; ++i) tour_[at(p0 + 1 + i)] = saved_[at(double_bridge_source(bridge, i))];
  for (int i = 1; i <= m; ++i) pos_[tour_[at(p0 + i)]] = at(p0 + i);
  return bridge;
}

void KickedTour::perturb(const Instance& instance, LinKernighan& lk, RandomStream& random, const StopFlag* stop,
                         int max_segment, int bridges) {
  for (int b = 0; b < bridges; ++b) {
    int32_t ends[8];
    int64_t delta = 0;
    if (two_level_) {
      list_.journal(logging_);
      list_bridge(instance, lk, random, max_segment, ends, delta);
      length_ += delta - lk.improve(list_, ends, stop).gain;
      stale_ = true;
      if (logging_) log_.insert(log_.end(), list_.journal().begin(), list_.journal().end());
      list_.forget();
      list_.journal(false);
      continue;
    }
    bridge(instance, lk, random, max_segment, ends, delta);
    length_ += delta - lk.improve(tour_, pos_, ends, stop).gain;
    saved_ = tour_;
  }
}

void KickedTour::kick(const Instance& instance, LinKernighan& lk, RandomStream& random, const StopFlag* stop,
                      int max_segment) {
  const int n = static_cast<int>(tour_.size());
  const auto at = [n](int p) { return p % n; };
  int32_t ends[8];
  int64_t kick = 0;
  if (two_level_) {
    list_.journal(true);
    list_bridge(instance, lk, random, max_segment, ends, kick);
    const int64_t next = length_ + kick - lk.improve(list_, ends, stop).gain;
    if (next <= length_) {
      if (logging_) log_.insert(log_.end(), list_.journal().begin(), list_.journal().end());
      list_.forget();
      length_ = next;
      stale_ = true;
    } else {
      list_.rollback();
    }
    list_.journal(false);
    return;
  }
  const DoubleBridge bridge = this->bridge(instance, lk, random, max_segment, ends, kick);
  // Only the positions the kick and the repair rewrote are copied between tour_ and saved_: a city
  // that moved left a touched position and reached one.
  touched_.clear();
  touched_.mark(at(bridge.p0 + 1), bridge.moved());
  lk.track(&touched_);
  const NeighbourClimbCounts repair = lk.improve(tour_, pos_, ends, stop);
  lk.track(nullptr);
  const int64_t next = length_ + kick - repair.gain;
  if (next <= length_) {  // keep it (equal lengths too: plateaus)
    touched_.for_each_position([this](int p) { saved_[p] = tour_[p]; });
    length_ = next;
    return;
  }
  touched_.for_each_position([this](int p) {
    tour_[p] = saved_[p];
    pos_[tour_[p]] = p;
  });
}

}  // namespace formica::localsearch::cpu
