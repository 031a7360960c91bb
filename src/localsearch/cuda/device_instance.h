// SPDX-License-Identifier: MIT
// DeviceInstance: the cities of an instance on the device, in the forms the 2-opt kernels read:
// float coordinates for the fast passes, double coordinates for the exact ones, or the n x n
// matrix for GEO and EXPLICIT instances. Host header: no CUDA types.
#pragma once

#include <cstdint>
#include <memory>

#include "core/instance.h"

namespace formica::localsearch::cuda {

/// Device pointers to what the kernels read about the cities (views of DeviceInstance's buffers).
struct DeviceCities {
  int n = 0;
  EdgeWeightType type = EdgeWeightType::Euc2D;
  const float* fcoord = nullptr;    ///< 4 floats per city: x, y, z shifted so each minimum is 0, unused
  const double* x = nullptr;        ///< exact coordinates as read
  const double* y = nullptr;
  const double* z = nullptr;        ///< EUC_3D only, else null
  const int32_t* matrix = nullptr;  ///< GEO and EXPLICIT: row-major n x n, else null
};

/// True when the instance's distances come from the matrix (GEO, EXPLICIT).
inline bool uses_matrix(EdgeWeightType type) { return type == EdgeWeightType::Geo || type == EdgeWeightType::Explicit; }

class DeviceInstance {
 public:
  /// Uploads the instance. GEO and EXPLICIT instances need their n x n matrix on the device;
  /// throws OutOfMemoryError when it would take more than half the free device memory.
  explicit DeviceInstance(const Instance& instance);
  ~DeviceInstance();
  DeviceInstance(const DeviceInstance&) = delete;
  DeviceInstance& operator=(const DeviceInstance&) = delete;

  const DeviceCities& view() const { return view_; }
  int n() const { return view_.n; }

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
  DeviceCities view_;
};

}  // namespace formica::localsearch::cuda
