// FORMICA_REQUIRE_CUDA: skips a GPU test, saying why, in a build without CUDA or on a machine
// without a device.
#pragma once

#include <gtest/gtest.h>

#include "cuda/device.h"

#define FORMICA_REQUIRE_CUDA()                                                             \
  do {                                                                                     \
    if (!::formica::cuda::built_with_cuda()) GTEST_SKIP() << "skipped: built without CUDA"; \
    if (!::formica::cuda::find_device()) GTEST_SKIP() << "skipped: no CUDA device";         \
  } while (false)
