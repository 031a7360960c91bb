// SPDX-License-Identifier: MIT
// RandomPermutation: a keyed pseudo-random permutation of 0..n-1 whose every element is computed
// on its own, in O(1), on the host or the device (FORMICA_HD). Random-restart hill climbing starts
// each restart from such a permutation (Robinson et al. section 2.2): a GPU block fills its tour
// in parallel, and the CPU builds the very same tour for the same (seed, restart).
//
// The construction is a balanced Feistel network on [0, 4^b), the smallest such domain holding n
// (and at least 256), with Philox4x32-10 as the round function, and cycle walking to stay inside
// [0, n): apply the network until the value falls below n. A Feistel network is a bijection
// whatever its round function, so cycle walking gives a bijection of [0, n). Four rounds suffice in
// theory (Luby and Rackoff) but only for wide halves; on the few-bit halves of small n, four rounds
// fail a chi-square test on the first two elements, eight pass it (tests/core). For n >= 64 the
// domain is below 4n, so the expected walk is under four steps.
#pragma once

#include <cstdint>

#include "core/rng.h"

namespace formica {

class RandomPermutation {
 public:
  /// The permutation of 0..n-1 (n >= 1) selected by `key`.
  FORMICA_HD RandomPermutation(uint32_t n, uint64_t key) : n_(n), key_(key) {
    uint32_t bits = 1;
    while (bits < 32 && (n - 1) >> bits != 0) ++bits;  // bits needed for n - 1 (at least 1)
    half_bits_ = (bits + 1) / 2 < kMinHalfBits ? kMinHalfBits : (bits + 1) / 2;
    half_mask_ = (1u << half_bits_) - 1u;
  }

  /// The element at position `i` (0 <= i < n).
  FORMICA_HD uint32_t operator()(uint32_t i) const {
    uint32_t x = i;
    do {
      x = feistel(x);
    } while (x >= n_);
    return x;
  }

  FORMICA_HD uint32_t size() const { return n_; }

 private:
  FORMICA_HD uint32_t feistel(uint32_t x) const {
    uint32_t left = x >> half_bits_, right = x & half_mask_;
    for (uint32_t round = 0; round < kRounds; ++round) {
      const uint32_t f = philox4x32_10(PhiloxBlock{{right, round, 0x52504d31u, 0u}}, key_).v[0];
      const uint32_t next = left ^ (f & half_mask_);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }

  static constexpr uint32_t kRounds = 8;
  static constexpr uint32_t kMinHalfBits = 4;
  uint32_t n_;
  uint64_t key_;
  uint32_t half_bits_ = 1;
  uint32_t half_mask_ = 1;
};

}  // namespace formica
