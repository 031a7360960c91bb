// SPDX-License-Identifier: MIT
// Upload of an instance for the 2-opt kernels (see device_instance.cuh).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/error.h"
#include "cuda/buffer.cuh"
#include "localsearch/cuda/device_instance.h"

namespace formica::localsearch::cuda {

struct DeviceInstance::Buffers {
  formica::cuda::DeviceBuffer<float4> fcoord;
  formica::cuda::DeviceBuffer<double> x, y, z;
  formica::cuda::DeviceBuffer<int32_t> matrix;
};

DeviceInstance::~DeviceInstance() = default;

DeviceInstance::DeviceInstance(const Instance& instance) : buffers_(std::make_unique<Buffers>()) {
  if (instance.has_path_city()) throw std::logic_error("DeviceInstance: an implicit path city on the GPU");
  const int n = instance.n();
  view_.n = n;
  view_.type = instance.type();
  if (uses_matrix(instance.type())) {
    const size_t bytes = static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(int32_t);
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (bytes > free_bytes / 2)
      throw OutOfMemoryError(concat("the CUDA 2-opt needs the ", n, " x ", n, " distance matrix of this ",
                                    to_string(instance.type()), " instance (", bytes >> 20, " MiB) and only ",
                                    free_bytes >> 20, " MiB are free; use --backend cpu"));
    std::vector<int32_t> matrix(static_cast<size_t>(n) * static_cast<size_t>(n));
    if (instance.type() == EdgeWeightType::Explicit) {
      std::copy(instance.matrix().begin(), instance.matrix().end(), matrix.begin());
    } else {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          matrix[static_cast<size_t>(i) * n + j] = static_cast<int32_t>(instance.distance(i, j));
    }
    buffers_->matrix = formica::cuda::DeviceBuffer<int32_t>(std::span<const int32_t>(matrix));
    view_.matrix = buffers_->matrix.data();
    return;
  }
  const auto xs = instance.x(), ys = instance.y(), zs = instance.z();
  const double xmin = *std::min_element(xs.begin(), xs.end()), ymin = *std::min_element(ys.begin(), ys.end());
  const double zmin = zs.empty() ? 0.0 : *std::min_element(zs.begin(), zs.end());
  std::vector<float4> fcoord(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    fcoord[i] = make_float4(static_cast<float>(xs[i] - xmin), static_cast<float>(ys[i] - ymin),
                            zs.empty() ? 0.0f : static_cast<float>(zs[i] - zmin), 0.0f);
  Buffers& b = *buffers_;
  b.fcoord = formica::cuda::DeviceBuffer<float4>(std::span<const float4>(fcoord));
  b.x = formica::cuda::DeviceBuffer<double>(xs);
  b.y = formica::cuda::DeviceBuffer<double>(ys);
  if (!zs.empty()) b.z = formica::cuda::DeviceBuffer<double>(zs);
  view_.fcoord = reinterpret_cast<const float*>(b.fcoord.data());
  view_.x = b.x.data();
  view_.y = b.y.data();
  view_.z = zs.empty() ? nullptr : b.z.data();
}

}  // namespace formica::localsearch::cuda
