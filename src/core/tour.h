// SPDX-License-Identifier: MIT
// Tour: a validated permutation of the cities with its exact 64-bit TSPLIB length.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/instance.h"

namespace formica {

/// Throws InputError unless `order` holds each of 0..n-1 exactly once.
void validate_permutation(std::span<const int32_t> order, int n);

/// Exact length of the closed tour `order` (no validation; see Tour for that).
int64_t tour_length(const Instance& instance, std::span<const int32_t> order);

class Tour {
 public:
  Tour() = default;
  /// Validates `order` against the instance and computes its exact length.
  Tour(const Instance& instance, std::vector<int32_t> order);
  /// A route measured by its caller (an open path, a directed tour of an asymmetric instance):
  /// validated as a permutation of 0..size-1, with `length` as its exact length.
  static Tour measured(std::vector<int32_t> order, int64_t length);

  std::span<const int32_t> order() const { return order_; }
  int64_t length() const { return length_; }
  int n() const { return static_cast<int>(order_.size()); }
  bool empty() const { return order_.empty(); }

  /// Successor array: next()[c] is the city after c (the "tour list" t_k of Uchida et al.).
  std::vector<int32_t> successors() const;

 private:
  std::vector<int32_t> order_;
  int64_t length_ = 0;
};

}  // namespace formica
