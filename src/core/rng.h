// SPDX-License-Identifier: MIT
// Counter-based random numbers: Philox4x32-10 (Salmon et al., SC 2011), the generator behind
// cuRAND's Philox. A stream is fully determined by (seed, stream, substream), so every ant, restart
// or thread draws its own reproducible sequence whatever the order in which work is scheduled.
#pragma once

#include <cstdint>

#include "core/distance.h"  // FORMICA_HD

namespace formica {

struct PhiloxBlock {
  uint32_t v[4];
};

/// One Philox4x32-10 evaluation: 4 random words from a 128-bit counter and a 64-bit key.
FORMICA_HD inline PhiloxBlock philox4x32_10(PhiloxBlock counter, uint64_t key) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(kM0) * counter.v[0];
    const uint64_t p1 = static_cast<uint64_t>(kM1) * counter.v[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    counter = PhiloxBlock{{hi1 ^ counter.v[1] ^ k0, lo1, hi0 ^ counter.v[3] ^ k1, lo0}};
    k0 += kW0;
    k1 += kW1;
  }
  return counter;
}

/// A reproducible stream of random numbers: block b of (seed, stream, substream) is
/// philox(counter = {b, substream, stream_lo, stream_hi}, key = seed).
class RandomStream {
 public:
  FORMICA_HD RandomStream(uint64_t seed, uint64_t stream, uint32_t substream = 0)
      : key_(seed),
        counter_{{0u, substream, static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)}} {}

  FORMICA_HD uint32_t next_u32() {
    if (used_ == 4) {
      buffer_ = philox4x32_10(counter_, key_);
      ++counter_.v[0];
      used_ = 0;
    }
    return buffer_.v[used_++];
  }

  /// Uniform double in [0, 1) with 53 random bits.
  FORMICA_HD double next_double() {
    const uint64_t hi = next_u32() >> 5, lo = next_u32() >> 6;
    return static_cast<double>((hi << 26) | lo) * (1.0 / 9007199254740992.0);
  }

  /// Uniform float in [0, 1) with 24 random bits.
  FORMICA_HD float next_float() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

  /// Unbiased integer in [0, bound), bound > 0 (Lemire's multiply-and-reject).
  FORMICA_HD uint32_t below(uint32_t bound) {
    uint64_t m = static_cast<uint64_t>(next_u32()) * bound;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < bound) {
      const uint32_t threshold = (0u - bound) % bound;
      while (low < threshold) {
        m = static_cast<uint64_t>(next_u32()) * bound;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

 private:
  uint64_t key_;
  PhiloxBlock counter_;
  PhiloxBlock buffer_{};
  int used_ = 4;
};

/// Mixes a user seed with a purpose tag so different uses of one seed draw unrelated streams:
/// SplitMix64's output at position `tag` of the stream `seed` (Steele et al., OOPSLA 2014), which
/// is also how the GPU's group construction draws 64 random bits per (ant, step, lane).
FORMICA_HD constexpr uint64_t derive_seed(uint64_t seed, uint64_t tag) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (tag + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace formica
