// SPDX-License-Identifier: MIT
// Exact tour length computed on the GPU: the CUDA backend's smoke test (it checks that the
// TSPLIB distance functions compile and agree on the device) and a building block for kernels
// that must rank tours.
#pragma once

#include <cstdint>
#include <span>

#include "core/instance.h"

namespace formica::cuda {

/// Exact length of `order` for a coordinate instance other than GEO, summed on the device with
/// one thread per edge and a block reduction. Throws InputError for EXPLICIT and GEO instances.
int64_t device_tour_length(const Instance& instance, std::span<const int32_t> order);

}  // namespace formica::cuda
