// SPDX-License-Identifier: MIT
// An independent brute-force check of the Or-opt neighbourhood of the neighbour-list climb (see
// localsearch/cpu/neighbour_list_climb.h), written apart from the library: every segment of 1-3
// consecutive positions, every tour edge outside it, both ways round; the gain either from the
// three-edge formula or, on small tours, by building the new tour and measuring it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/tour.h"

namespace formica::test {

/// The tour with positions first..first+length-1 (cyclically) taken out and put between the cities
/// c and e (adjacent in the rest), the segment's first city next to c when `first_next_to_c`.
inline std::vector<int32_t> moved_segment_tour(const std::vector<int32_t>& tour, int first, int length, int c,
                                               int e, bool first_next_to_c) {
  const int n = static_cast<int>(tour.size());
  std::vector<int32_t> segment, rest;
  for (int s = 0; s < length; ++s) segment.push_back(tour[(first + s) % n]);
  for (int s = length; s < n; ++s) rest.push_back(tour[(first + s) % n]);
  // In `rest`, c and e are adjacent (cyclically); put the segment between them.
  const int rc = static_cast<int>(std::find(rest.begin(), rest.end(), c) - rest.begin());
  const int m = static_cast<int>(rest.size());
  const bool e_after_c = rest[(rc + 1) % m] == e;
  // Rotate so that the pair reads (left, right) at the end and start of the list.
  const int right_index = e_after_c ? (rc + 1) % m : rc;
  std::rotate(rest.begin(), rest.begin() + right_index, rest.end());
  // Now rest.back() is the left city of the pair and rest.front() the right one.
  const bool c_left = rest.back() == c;
  if (c_left != first_next_to_c) std::reverse(segment.begin(), segment.end());
  rest.insert(rest.end(), segment.begin(), segment.end());
  return rest;
}

/// The largest gain of an Or-opt move the climb searches (0 when none improves): segment ends a
/// and x, cities p and q around it, g1 = d(p, a) + d(x, q) - d(p, q), a new edge (a, c) with c
/// listed for a and d(a, c) < g1 (a may be either end). `rebuild` measures each new tour instead
/// of using the formula (O(n) a move: small tours only).
inline int64_t best_listed_or_opt_gain(const Instance& instance, const CandidateLists& lists,
                                       const std::vector<int32_t>& tour, bool rebuild) {
  const int n = static_cast<int>(tour.size());
  const int64_t length_before = rebuild ? tour_length(instance, tour) : 0;
  const auto d = [&](int a, int b) { return instance.distance(a, b); };
  const auto listed = [&](int a, int c) {
    const auto list = lists.of(a);
    return std::find(list.begin(), list.end(), c) != list.end();
  };
  int64_t best = 0;
  for (int first = 0; first < n; ++first)
    for (int length = 1; length <= 3 && length <= n - 3; ++length) {
      const int s1 = tour[first], sl = tour[(first + length - 1) % n];
      const int p = tour[(first + n - 1) % n], q = tour[(first + length) % n];
      const int64_t g1 = d(p, s1) + d(sl, q) - d(p, q);
      std::vector<int32_t> inside;
      for (int s = 0; s < length; ++s) inside.push_back(tour[(first + s) % n]);
      const auto in_segment = [&](int city) {
        return std::find(inside.begin(), inside.end(), city) != inside.end();
      };
      for (int j = 0; j < n; ++j) {
        const int u = tour[j], v = tour[(j + 1) % n];
        if (in_segment(u) || in_segment(v)) continue;
        // (c, e) = (u, v) or (v, u); the end next to c is s1 or sL.
        for (const auto& [c, e] : {std::pair{u, v}, std::pair{v, u}})
          for (const bool first_next_to_c : {true, false}) {
            const int at_c = first_next_to_c ? s1 : sl, at_e = first_next_to_c ? sl : s1;
            const bool searched =
                (listed(at_c, c) && d(at_c, c) < g1) || (listed(at_e, e) && d(at_e, e) < g1);
            if (!searched) continue;
            const int64_t gain =
                rebuild ? length_before - tour_length(instance, moved_segment_tour(tour, first, length, c, e,
                                                                                   first_next_to_c))
                        : g1 - d(at_c, c) - d(at_e, e) + d(c, e);
            best = std::max(best, gain);
          }
      }
    }
  return best;
}

}  // namespace formica::test
