// SPDX-License-Identifier: MIT
// What host threads beside another search share with it (tour_companion.h): the shortest tour
// they have published, the shorter tour offered to them, and the stop request. The owner keeps the
// mutex and the condition variable its threads wait on; these hold the state and the rules that
// every companion's offer(), best() and stop() follow (the stretch threads,
// decomposition/stretch_lin_kernighan.h, and the batch's stretch rounds, batch/stretch_batch.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace formica::localsearch::cpu {

/// The shortest tour published so far and its exact length (-1 before the first). Written and
/// copied under the owner's mutex; its length is also read without it.
class PublishedTour {
 public:
  /// Under the owner's mutex: publishes `tour` when it is the first or shorter than the one
  /// published. Returns whether it did.
  bool publish(std::span<const int32_t> tour, int64_t length) {
    const int64_t published = length_.load(std::memory_order_relaxed);
    if (published >= 0 && length >= published) return false;
    tour_.assign(tour.begin(), tour.end());
    length_.store(length, std::memory_order_release);
    return true;
  }
  /// Under the owner's mutex: the tour copied to `out` and its length (-1 and `out` untouched
  /// before the first).
  int64_t copy(std::vector<int32_t>& out) const {
    const int64_t length = length_.load(std::memory_order_relaxed);
    if (length >= 0) out = tour_;
    return length;
  }
  /// Its length, without the mutex.
  int64_t length() const { return length_.load(std::memory_order_acquire); }

 private:
  std::vector<int32_t> tour_;
  std::atomic<int64_t> length_{-1};
};

/// A tour offered to the threads, waiting until they can adopt it (length -1: none).
struct OfferedTour {
  std::vector<int32_t> tour;
  int64_t length = -1;

  /// Under the owner's mutex: keeps `offered` when it is shorter than `published` (or nothing is
  /// published) and than the offer already waiting.
  void keep_if_shorter(std::span<const int32_t> offered, int64_t offered_length, int64_t published) {
    if ((published >= 0 && offered_length >= published) || (length >= 0 && offered_length >= length)) return;
    tour.assign(offered.begin(), offered.end());
    length = offered_length;
  }
  void clear() {
    tour.clear();
    length = -1;
  }
};

/// Sets `stop` under `mutex`, so that no thread misses it between its test and its wait, and wakes
/// every thread waiting on `wake`. The caller joins its threads after.
inline void request_stop(std::mutex& mutex, std::atomic<bool>& stop, std::condition_variable& wake) {
  {
    const std::lock_guard lock(mutex);
    stop.store(true);
  }
  wake.notify_all();
}

}  // namespace formica::localsearch::cpu
