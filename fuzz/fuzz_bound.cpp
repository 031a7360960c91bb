// SPDX-License-Identifier: MIT
// libFuzzer target: the Held-Karp bound (bounds/held_karp.h) on small instances of any coordinates
// and weights the reader accepts, up to +-kMaxCoordinate and 2^31 - 1. The first bytes pick the
// type, n (3 to 64, or one input in eight up to 499: cities stacked on a few points broke the
// ascent from about 400), how coordinates or weights are drawn (anywhere in range, near the
// extreme corners, small integers), a path city, and the ascent's length; the rest are the values,
// taken again from the first when they run out (so a few words make many cities on a few points).
//
// A finding is a bound above the exact length of a tour (the identity, nearest neighbour, and the
// optimum by dynamic programming up to kExactTourCities cities), a reported value that is not the
// exact value of its 1-tree, a k-d tree 1-tree that differs from dense Prim's, an exception other
// than InputError, and every sanitizer report (an overflow in the weights is UBSan's).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "bounds/complete_graph.h"
#include "bounds/held_karp.h"
#include "core/error.h"
#include "core/exact_tour.h"
#include "core/instance.h"
#include "core/nearest_neighbour.h"
#include "core/tour.h"

namespace {

using namespace formica;

constexpr EdgeWeightType kTypes[] = {EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D,  EdgeWeightType::Att,
                                     EdgeWeightType::Geo,   EdgeWeightType::Man2D,   EdgeWeightType::Max2D,
                                     EdgeWeightType::Euc3D, EdgeWeightType::Explicit};

/// Reads the fuzzer's bytes front to back; zeros once they run out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  uint32_t word() {
    uint32_t w = 0;
    const size_t bytes = std::min<size_t>(4, size_ - at_);
    if (bytes > 0) std::memcpy(&w, data_ + at_, bytes);
    at_ += bytes;
    return w;
  }
  /// `count` words: those left, then the same again from the first (zeros if none is left).
  std::vector<uint32_t> words(size_t count) {
    std::vector<uint32_t> out;
    const size_t given = std::min(count, (size_ - std::min(at_, size_)) / 4);
    for (size_t i = 0; i < given; ++i) out.push_back(word());
    for (size_t i = given; i < count; ++i) out.push_back(given > 0 ? out[i % given] : 0);
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

/// A coordinate from 32 bits, within +-kMaxCoordinate: 0 anywhere in range (not whole), 1 within
/// 2^16 of a corner (+-5e8, or +-4e8), 2 a small integer.
double coordinate(uint32_t w, uint32_t mode) {
  const double sign = (w & 1u) != 0 ? -1.0 : 1.0;
  switch (mode) {
    case 0:
      return std::max(-1.0,
                      static_cast<double>(static_cast<int32_t>(w)) / std::numeric_limits<int32_t>::max()) *
             kMaxCoordinate;
    case 1:
      return sign * ((w & 2u) != 0 ? 4e8 : kMaxCoordinate) + -sign * static_cast<double>(w >> 16);
    default:
      return static_cast<double>(static_cast<int32_t>(w) % 1000);
  }
}

/// A non-negative weight from 32 bits: 0 any, 1 within 2^16 of 2^31 - 1, 2 small.
int32_t weight(uint32_t w, uint32_t mode) {
  switch (mode) {
    case 0:
      return static_cast<int32_t>(w & 0x7FFFFFFFu);
    case 1:
      return std::numeric_limits<int32_t>::max() - static_cast<int32_t>(w >> 16);
    default:
      return static_cast<int32_t>(w % 1000);
  }
}

/// The instance of a type byte, a size byte (its top three bits set: up to 499 cities instead of
/// 64), a mode byte, and the words left.
Instance make_instance(Input& in, uint32_t type_byte, uint32_t size_byte, uint32_t mode_byte) {
  const EdgeWeightType type = kTypes[type_byte % std::size(kTypes)];
  const bool large = (size_byte & 0xE0u) == 0xE0u;
  const int n = 3 + static_cast<int>(large ? (size_byte & 0x1Fu) * 16 : size_byte % 62);
  const uint32_t mode = mode_byte % 3;
  if (type == EdgeWeightType::Explicit) {
    const int m = std::min(n, 64);  // n^2 / 2 weights: kept small
    const std::vector<uint32_t> words = in.words(static_cast<size_t>(m) * (m - 1) / 2);
    std::vector<int32_t> w(static_cast<size_t>(m) * m, 0);
    size_t at = 0;
    for (int i = 0; i < m; ++i)
      for (int j = i + 1; j < m; ++j) w[i * m + j] = w[j * m + i] = weight(words[at++], mode);
    return Instance::from_matrix("fuzz", m, std::move(w));
  }
  const int dims = type == EdgeWeightType::Euc3D ? 3 : 2;
  const std::vector<uint32_t> words = in.words(static_cast<size_t>(n) * dims);
  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n)), z;
  if (dims == 3) z.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    x[i] = coordinate(words[static_cast<size_t>(i) * dims], mode);
    y[i] = coordinate(words[static_cast<size_t>(i) * dims + 1], mode);
    if (dims == 3) z[i] = coordinate(words[static_cast<size_t>(i) * dims + 2], mode);
  }
  return Instance("fuzz", type, std::move(x), std::move(y), std::move(z));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  try {
    const uint32_t shape = in.byte(), type_byte = in.byte(), size_byte = in.byte(), mode_byte = in.byte();
    bounds::BoundOptions options;
    options.iterations = 1 + 2 * in.byte();
    options.initial_period = 1 + static_cast<int>(in.byte());
    options.threads = 1;
    // A path city (0, 1 or 2 ends) with a penalty up to 2^31 - 1, one input in four.
    const uint32_t end_count = in.byte() % 3, end_a = in.byte(), end_b = in.byte();
    const int32_t penalty = weight(in.word(), (shape >> 2) % 3);
    Instance base = make_instance(in, type_byte, size_byte, mode_byte);
    if ((shape & 3u) == 3u) {
      std::vector<int32_t> ends;
      if (end_count > 0) ends.push_back(static_cast<int32_t>(end_a % base.n()));
      if (end_count > 1) ends.push_back(static_cast<int32_t>(end_b % base.n()));
      base = Instance::with_path_city(base, ends, penalty);
    }
    const Instance& instance = base;
    const bounds::LowerBound bound = bounds::lower_bound(instance, options);

    std::vector<int32_t> identity(static_cast<size_t>(instance.n()));
    for (int i = 0; i < instance.n(); ++i) identity[i] = i;
    int64_t shortest =
        std::min(tour_length(instance, identity), tour_length(instance, nearest_neighbour_tour(instance)));
    if (instance.n() <= kExactTourCities)
      shortest = std::min(shortest, tour_length(instance, exact_tour(instance)));
    if (bound.bound < 0 || bound.bound > shortest) __builtin_trap();
    if (bounds::ceil_bound(bounds::exact_value(instance, bound.one_tree, bound.penalties)) != bound.bound)
      __builtin_trap();

    // The k-d tree's pruned search finds dense Prim's 1-tree under the same penalties.
    if (bounds::kd_boruvka_supported(instance.type())) {
      bounds::CompleteGraph dense(instance, instance.n()), kd(instance, 0);
      const bounds::OneTree a = dense.one_tree(bound.penalties, 1), b = kd.one_tree(bound.penalties, 1);
      if (bounds::scaled_value(a, bound.penalties) != bounds::scaled_value(b, bound.penalties))
        __builtin_trap();
    }
  } catch (const InputError&) {
    // An instance the checks refuse (a path end out of range...): the check doing its job.
  }
  return 0;
}
