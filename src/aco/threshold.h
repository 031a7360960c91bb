// SPDX-License-Identifier: MIT
// The roulette threshold r = u * total, kept strictly below the total: u in [0, 1) can round up
// to it, and a search for the first cumulative sum exceeding r must always end on a positive
// weight. One definition for the CPU (double sums) and the GPU (float sums).
#pragma once

#include <cmath>

#include "core/distance.h"  // FORMICA_HD

namespace formica::aco {

template <typename Real>
FORMICA_HD inline Real threshold_below(Real u, Real total) {
  const Real r = u * total;
  if (r < total) return r;
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(Real) == sizeof(float)) return nextafterf(total, 0.f);
  else return nextafter(total, 0.0);
#else
  return std::nextafter(total, Real(0));
#endif
}

}  // namespace formica::aco
