// SPDX-License-Identifier: MIT
// Hilbert-curve tour construction (see space_filling_curve.h).
#include "core/space_filling_curve.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/error.h"
#include "core/path_city.h"
#include "core/rng.h"

namespace formica {
namespace {

constexpr int kOrder = 16;  // a 65536 x 65536 grid
constexpr uint64_t kVariantTag = 0x5346432d;  // "SFC-"

}  // namespace

uint64_t hilbert_index(uint32_t x, uint32_t y, int order) {
  const uint32_t side = 1u << order;
  uint64_t d = 0;
  for (uint32_t s = side >> 1; s > 0; s >>= 1) {
    const uint32_t rx = (x & s) != 0 ? 1u : 0u;
    const uint32_t ry = (y & s) != 0 ? 1u : 0u;
    d += static_cast<uint64_t>(s) * s * ((3u * rx) ^ ry);
    if (ry == 0) {  // rotate the quadrant so the curve inside it has the canonical orientation
      if (rx == 1) {
        x = side - 1 - x;
        y = side - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

std::vector<int32_t> space_filling_curve_tour(const Instance& instance, uint64_t variant, uint64_t seed) {
  FORMICA_EXPECTS(instance.has_display_coordinates(),
                  "a space-filling-curve tour needs coordinates, and ", instance.name(), " has none");
  const auto xs = instance.display_x(), ys = instance.display_y();
  const auto [xmin, xmax] = std::minmax_element(xs.begin(), xs.end());
  const auto [ymin, ymax] = std::minmax_element(ys.begin(), ys.end());
  double side = std::max({*xmax - *xmin, *ymax - *ymin, 1e-300});
  double ox = 0.0, oy = 0.0;
  uint32_t symmetry = 0;
  if (variant != 0) {
    RandomStream rng(derive_seed(seed, kVariantTag), variant);
    symmetry = rng.below(8);
    ox = rng.next_double() * 0.5 * side;
    oy = rng.next_double() * 0.5 * side;
    side *= 1.5;
  }
  const double cells = static_cast<double>(1u << kOrder);
  const auto cell = [&](double offset) {
    const double c = std::floor(offset / side * cells);
    return static_cast<uint32_t>(std::clamp(c, 0.0, cells - 1));
  };
  // The cities with coordinates: a path city is inserted afterwards.
  const int located = static_cast<int>(xs.size());
  std::vector<std::pair<uint64_t, int32_t>> keyed(static_cast<size_t>(located));
  const uint32_t last = (1u << kOrder) - 1;
  for (int i = 0; i < located; ++i) {
    uint32_t gx = cell(xs[i] - *xmin + ox), gy = cell(ys[i] - *ymin + oy);
    if (symmetry & 1u) gx = last - gx;
    if (symmetry & 2u) gy = last - gy;
    if (symmetry & 4u) std::swap(gx, gy);
    keyed[i] = {hilbert_index(gx, gy, kOrder), i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int32_t> tour(static_cast<size_t>(located));
  for (int i = 0; i < located; ++i) tour[i] = keyed[i].second;
  insert_path_city(instance, tour);
  return tour;
}

}  // namespace formica
