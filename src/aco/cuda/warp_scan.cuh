// SPDX-License-Identifier: MIT
// The shared warp primitives (cuda/warp_scan.cuh) under the names the construction kernels use.
#pragma once

#include "cuda/warp_scan.cuh"

namespace formica::aco::cuda {

using ::formica::cuda::first_lane;
using ::formica::cuda::kFullMask;
using ::formica::cuda::kWarpSize;
using ::formica::cuda::last_lane;
using ::formica::cuda::warp_inclusive_sum;
using ::formica::cuda::warp_sum;

}  // namespace formica::aco::cuda
