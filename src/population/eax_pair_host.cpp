// SPDX-License-Identifier: MIT
#include "population/eax_pair_host.h"

#include <cmath>

namespace formica::population::eax {

void parent_arrays(std::span<const int32_t> tour, int32_t* pos, int32_t* links) {
  const size_t n = tour.size();
  for (size_t p = 0; p < n; ++p) {
    const int32_t city = tour[p];
    pos[city] = static_cast<int32_t>(p);
    links[2 * city] = tour[p + 1 < n ? p + 1 : 0];
    links[2 * city + 1] = tour[p > 0 ? p - 1 : n - 1];
  }
}

HostParent::HostParent(std::span<const int32_t> cities)
    : tour(cities.begin(), cities.end()), pos(cities.size()), links(2 * cities.size()) {
  parent_arrays(tour, pos.data(), links.data());
}

HostPairWork::HostPairWork(int n)
    : words_((static_cast<size_t>(PairArrays::kPerCity) * static_cast<size_t>(n) + 1) / 2, 0) {
  work_.bind(reinterpret_cast<int32_t*>(words_.data()), n);
}

std::vector<double> entropy_terms(int population) {
  const double p = population;
  std::vector<double> h(static_cast<size_t>(population) + 2);
  for (int c = 1; c < static_cast<int>(h.size()); ++c) h[c] = -(c / p) * std::log(c / p);
  return h;
}

}  // namespace formica::population::eax
