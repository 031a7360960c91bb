// SPDX-License-Identifier: MIT
// The decision rules of the colony variants over candidate rows (aco/candidate_set.h) on the CPU,
// the reference of the GPU kernels in aco/cuda/candidate_construction.cu:
//   random proportional rule (AS, MMAS; Li and Jin Eq. 1): candidate j of the current row with
//     probability f_j / (sum of f over unvisited candidates);
//   pseudo-random proportional rule (ACS, Dorigo and Gambardella Eq. 3): with probability q0 the
//     unvisited candidate of largest f (lowest slot on ties), otherwise the proportional rule;
//   fallback (as ACOTSP's choose_best_next, by distance alone): when no candidate is unvisited,
//     the first unvisited city of the sorted fallback list, else the unvisited city nearest by
//     exact distance (lowest index on ties), found by scanning every city.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>

#include "aco/candidate_set.h"
#include "aco/cpu/ant_path.h"
#include "core/instance.h"

namespace formica::aco {

/// A chosen city and its slot in the current row (-1 when it came from the fallback).
struct CandidateChoice {
  int city;
  int slot;
};

/// Inclusive prefix sums of 32 values in the order a warp's Hillis-Steele scan adds them (lane s
/// adds lane s - 2^k's partial sum at level k): the GPU's warp scan gives these doubles bit for
/// bit, so the GPU can draw the proportional rule in 5 shuffles and still match the CPU.
inline std::array<double, 32> warp_order_prefix(std::array<double, 32> values) {
  for (int offset = 1; offset < 32; offset <<= 1)
    for (int s = 31; s >= offset; --s) values[s] += values[s - offset];  // s - offset: the old level
  return values;
}

/// Proportional rule over the unvisited entries of a row (`ids` -1 = empty); u in [0, 1).
/// Returns slot -1 and city -1 when no unvisited entry has positive weight. `Visited` is anything
/// with `bool visited(int city) const` (an AntPath, or the marks of a focused walk). Sums in double,
/// 32 slots at a time in a warp scan's order (warp_order_prefix) and block after block: the first
/// slot whose running sum passes u times the total, or the last one with weight if rounding left
/// the sum at or below it.
template <class Visited>
CandidateChoice select_proportional(std::span<const int32_t> ids, std::span<const float> f,
                                    const Visited& path, double u) {
  const auto eligible = [&](size_t s) { return ids[s] >= 0 && !path.visited(ids[s]) && f[s] > 0.0f; };
  // The running sums of the 32 slots from `block` (the ineligible ones weigh 0).
  const auto block_prefix = [&](size_t block) {
    std::array<double, 32> values{};
    for (size_t s = block; s < std::min(ids.size(), block + 32); ++s) values[s - block] = eligible(s) ? f[s] : 0.0;
    return warp_order_prefix(values);
  };
  // The first block's sums serve both passes: a row of up to 32 candidates is scanned once.
  const std::array<double, 32> first = block_prefix(0);
  double total = first[31];
  for (size_t block = 32; block < ids.size(); block += 32) total += block_prefix(block)[31];
  if (!(total > 0.0)) return {-1, -1};
  double r = u * total;
  if (r >= total) r = std::nextafter(total, 0.0);
  double carry = 0.0;
  CandidateChoice last{-1, -1};
  for (size_t block = 0; block < ids.size(); block += 32) {
    const std::array<double, 32> prefix = block == 0 ? first : block_prefix(block);
    for (size_t s = block; s < std::min(ids.size(), block + 32); ++s) {
      if (!eligible(s)) continue;
      last = {ids[s], static_cast<int>(s)};
      if (r < carry + prefix[s - block]) return last;
    }
    carry += prefix[31];
  }
  return last;
}

/// The unvisited entry of largest positive weight (lowest slot on ties); city -1 if none.
template <class Visited>
CandidateChoice select_greedy(std::span<const int32_t> ids, std::span<const float> f, const Visited& path) {
  CandidateChoice best{-1, -1};
  float best_f = 0.0f;  // only positive weights can be chosen (as in the proportional rule)
  for (size_t s = 0; s < ids.size(); ++s)
    if (ids[s] >= 0 && !path.visited(ids[s]) && f[s] > best_f)
      best_f = f[s], best = {ids[s], static_cast<int>(s)};
  return best;
}

/// The fallback city for an ant at `from` (see the file comment).
int select_fallback(const Instance& instance, const CandidateSet& set, int from, const AntPath& path);

/// One step: greedy with probability q0 (u_greedy < q0), else proportional with u_pick; the
/// fallback when the row offers nothing.
CandidateChoice select_candidate(const Instance& instance, const CandidateSet& set, std::span<const float> f_row,
                                 const AntPath& path, double q0, double u_greedy, double u_pick);

}  // namespace formica::aco
