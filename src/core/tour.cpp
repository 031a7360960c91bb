// SPDX-License-Identifier: MIT
// Tour validation and exact length.
#include "core/tour.h"

#include "core/error.h"

namespace formica {

void validate_permutation(std::span<const int32_t> order, int n) {
  FORMICA_EXPECTS(order.size() == static_cast<size_t>(n), "tour has ", order.size(),
                  " cities but the instance has ", n);
  std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
  for (size_t position = 0; position < order.size(); ++position) {
    const int32_t city = order[position];
    FORMICA_EXPECTS(city >= 0 && city < n, "tour position ", position + 1, " holds city ",
                    static_cast<int64_t>(city) + 1, ", outside 1..", n);
    FORMICA_EXPECTS(!seen[static_cast<size_t>(city)], "tour visits city ", city + 1, " twice");
    seen[static_cast<size_t>(city)] = 1;
  }
}

int64_t tour_length(const Instance& instance, std::span<const int32_t> order) {
  int64_t length = 0;
  const size_t n = order.size();
  for (size_t i = 0; i < n; ++i) length += instance.distance(order[i], order[(i + 1) % n]);
  return length;
}

Tour::Tour(const Instance& instance, std::vector<int32_t> order) : order_(std::move(order)) {
  validate_permutation(order_, instance.n());
  length_ = tour_length(instance, order_);
}

Tour Tour::measured(std::vector<int32_t> order, int64_t length) {
  validate_permutation(order, static_cast<int>(order.size()));
  Tour tour;
  tour.order_ = std::move(order);
  tour.length_ = length;
  return tour;
}

std::vector<int32_t> Tour::successors() const {
  std::vector<int32_t> next(order_.size());
  for (size_t i = 0; i < order_.size(); ++i) next[order_[i]] = order_[(i + 1) % order_.size()];
  return next;
}

}  // namespace formica
