// SPDX-License-Identifier: MIT
// The cities a CPU local search still has to try, first in first out, with a bit per city so that
// no city waits twice (Bentley's don't-look bits, the other way round): the work list of the
// neighbour-list climber and of the Lin-Kernighan chains.
#pragma once

#include <cstdint>
#include <vector>

namespace formica::localsearch::cpu {

class CityQueue {
 public:
  explicit CityQueue(int n) : n_(n), queued_(static_cast<size_t>(n), 0) {}

  /// Appends `city` unless it is waiting already.
  void push(int city) {
    if (!queued_[city]) queued_[city] = 1, queue_.push_back(city);
  }
  bool empty() const { return head_ == queue_.size(); }
  /// Takes the first city off the queue (not empty()).
  int pop() {
    const int city = queue_[head_++];
    queued_[city] = 0;
    if (head_ > static_cast<size_t>(4 * n_)) {  // keep the queue compact
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(head_));
      head_ = 0;
    }
    return city;
  }
  /// Drops every waiting city.
  void clear() {
    for (size_t i = head_; i < queue_.size(); ++i) queued_[queue_[i]] = 0;
    queue_.clear();
    head_ = 0;
  }

 private:
  int n_;
  std::vector<int32_t> queue_;
  std::vector<uint8_t> queued_;
  size_t head_ = 0;
};

}  // namespace formica::localsearch::cpu
