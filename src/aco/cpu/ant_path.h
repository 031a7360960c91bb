// SPDX-License-Identifier: MIT
// AntPath: one ant's tour under construction, with the two views of the unvisited set that the
// selection methods read: a visited flag per city (u_j of Uchida et al. Eq. 7) and the unvisited
// index array with O(1) removal (their Figure 7).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace formica::aco {

class AntPath {
 public:
  explicit AntPath(int n)
      : visited_(static_cast<size_t>(n)), unvisited_(static_cast<size_t>(n)),
        slot_(static_cast<size_t>(n)) {
    order_.reserve(static_cast<size_t>(n));
  }

  /// Starts a new tour at `start`: every other city unvisited.
  void reset(int start) {
    const int n = static_cast<int>(visited_.size());
    order_.clear();
    for (int c = 0; c < n; ++c) visited_[c] = 0, unvisited_[c] = c, slot_[c] = c;
    remaining_ = n;
    visit(start);
  }

  /// Moves to `city`: marks it visited and removes it from the index array by overwriting its
  /// slot with the last unvisited city.
  void visit(int city) {
    visited_[city] = 1;
    const int32_t last = unvisited_[--remaining_];
    unvisited_[slot_[city]] = last;
    slot_[last] = slot_[city];
    order_.push_back(city);
  }

  bool visited(int city) const { return visited_[city] != 0; }
  int current() const { return order_.back(); }
  int n() const { return static_cast<int>(visited_.size()); }
  int visited_count() const { return static_cast<int>(order_.size()); }
  std::span<const int32_t> unvisited() const { return {unvisited_.data(), static_cast<size_t>(remaining_)}; }
  std::span<const uint8_t> visited_flags() const { return visited_; }
  const std::vector<int32_t>& order() const { return order_; }

 private:
  std::vector<uint8_t> visited_;
  std::vector<int32_t> unvisited_;  // first remaining_ entries are the unvisited cities
  std::vector<int32_t> slot_;       // slot_[c]: position of c in unvisited_
  std::vector<int32_t> order_;
  int remaining_ = 0;
};

}  // namespace formica::aco
