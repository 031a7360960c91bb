// SPDX-License-Identifier: MIT
// The CUDA backend's smoke test: the device computes the same exact tour length as the host.
#include <gtest/gtest.h>

#include "core/tour.h"
#include "cuda_support.h"
#include "cuda/device.h"
#include "cuda_support.h"
#include "io/generator.h"

#if FORMICA_HAVE_CUDA
#include "cuda/tour_length.h"
#endif

namespace formica {
namespace {

TEST(CudaSmoke, DeviceReportsItself) {
  FORMICA_REQUIRE_CUDA();
  const auto device = cuda::find_device();
  EXPECT_FALSE(device->name.empty());
  EXPECT_GT(device->multiprocessors, 0);
  RecordProperty("device", device->name);
}

#if FORMICA_HAVE_CUDA
TEST(CudaSmoke, TourLengthMatchesHost) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {3, 4, 1000, 100'003}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    std::vector<int32_t> order(n);
    for (int i = 0; i < n; ++i) order[i] = static_cast<int32_t>((static_cast<int64_t>(i) * 7919) % n);
    if (n % 7919 == 0) continue;
    validate_permutation(order, n);
    EXPECT_EQ(cuda::device_tour_length(instance, order), tour_length(instance, order)) << n;
  }
}
#endif

}  // namespace
}  // namespace formica
