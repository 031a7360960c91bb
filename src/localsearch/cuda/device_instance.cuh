// SPDX-License-Identifier: MIT
// with_metrics: hands a kernel launcher the fast and the exact distance policy of an instance's
// type (see device_metric.cuh and device_instance.h).
#pragma once

#include "localsearch/cuda/device_instance.h"
#include "localsearch/cuda/device_metric.cuh"

namespace formica::localsearch::cuda {

/// Calls f(fast, exact) with the fast and the exact distance policy of the instance's type.
template <class F>
decltype(auto) with_metrics(const DeviceCities& cities, F&& f) {
  switch (cities.type) {
    case EdgeWeightType::Euc2D: return f(FastEuc2D{}, ExactCoord{cities.type});
    case EdgeWeightType::Ceil2D: return f(FastCeil2D{}, ExactCoord{cities.type});
    case EdgeWeightType::Geo:
    case EdgeWeightType::Explicit:
      return f(MatrixMetric{cities.matrix, cities.n}, MatrixMetric{cities.matrix, cities.n});
    default: return f(FastGeneric{{}, cities.type}, ExactCoord{cities.type});
  }
}

}  // namespace formica::localsearch::cuda
