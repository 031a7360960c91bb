// SPDX-License-Identifier: MIT
// GPU tests skip, visibly and with the reason, where there is no CUDA device or no CUDA build.
#pragma once

#include <gtest/gtest.h>

#include "cuda/device.h"

#define FORMICA_REQUIRE_CUDA()                                                   \
  do {                                                                           \
    if (!::formica::cuda::built_with_cuda()) GTEST_SKIP() << "skipped: built without CUDA"; \
    if (!::formica::cuda::find_device()) GTEST_SKIP() << "skipped: no CUDA device";         \
  } while (false)
