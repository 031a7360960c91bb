// SPDX-License-Identifier: MIT
// The ants' local search on the GPU, a warp per tour (see ant_local_search.cuh), and its test hook.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "cuda/mapped_stop.cuh"
#include "localsearch/cuda/ant_local_search.cuh"
#include "localsearch/cuda/ant_local_search.h"
#include "localsearch/cuda/warp_climb.cuh"

namespace formica::localsearch::cuda {
namespace {

using formica::cuda::DistanceView;

constexpr int kWarpsPerBlock = 4;

template <bool kOrOpt, bool kThreeOpt>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    ant_local_search_kernel(AntLocalSearchArgs a, DistanceView distance) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int ant = static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x >> 5);
  if (ant >= a.ants) return;  // whole warps leave
  const int n = a.n, words = (n + 31) / 32;
  const size_t offset = static_cast<size_t>(ant) * n;
  WarpTour t{a.tours + offset, a.pos + offset, n, lane};
  int32_t* ring = a.queue + offset;
  uint32_t* bits = a.queued + static_cast<size_t>(ant) * words;
  const int count = a.all_active ? warp_queue_all(t, ring, bits) : a.queue_count[ant];
  __syncwarp();
  const long long total = warp_climb<kOrOpt, kThreeOpt>(t, distance, a.lists, a.k, ring, bits, 0, count, a.stop);
  if (lane == 0) {
    if (a.lengths != nullptr) a.lengths[ant] -= total;
    if (a.gains != nullptr) a.gains[ant] = total;
  }
}

}  // namespace

void launch_ant_local_search(const AntLocalSearchArgs& args, const DistanceView& distance,
                             cudaStream_t stream) {
  if (args.ants == 0) return;
  const int blocks = (args.ants + kWarpsPerBlock - 1) / kWarpsPerBlock;
  if (searches_three_opt(args.moves))
    ant_local_search_kernel<true, true><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(args, distance);
  else if (searches_or_opt(args.moves))
    ant_local_search_kernel<true, false><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(args, distance);
  else
    ant_local_search_kernel<false, false><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(args, distance);
  CUDA_CHECK_LAUNCH();
}

ClimbedOnGpu climb_tours_on_gpu(const Instance& instance, const CandidateLists& lists, LocalSearchKind kind,
                                std::vector<int32_t>& tours, std::span<const std::vector<int32_t>> active,
                                const StopFlag* stop) {
  using formica::cuda::DeviceBuffer;
  const int n = instance.n(), count = static_cast<int>(tours.size() / static_cast<size_t>(n));
  FORMICA_EXPECTS(tours.size() == static_cast<size_t>(count) * n, "tours must hold whole tours of ", n,
                  " cities");
  FORMICA_EXPECTS(active.empty() || active.size() == static_cast<size_t>(count), "one active list per tour");
  const int words = (n + 31) / 32;
  std::vector<int32_t> pos(tours.size()), ring(tours.size(), 0);
  std::vector<uint32_t> bits(static_cast<size_t>(count) * words, 0);
  std::vector<int> queue_count(static_cast<size_t>(count), 0);
  for (int a = 0; a < count; ++a) {
    const size_t offset = static_cast<size_t>(a) * n;
    for (int p = 0; p < n; ++p) pos[offset + tours[offset + p]] = p;
    if (active.empty()) continue;
    for (const int32_t city : active[a]) {  // queued as the CPU climber queues them
      uint32_t& word = bits[static_cast<size_t>(a) * words + (city >> 5)];
      if (word & (1u << (city & 31))) continue;
      word |= 1u << (city & 31);
      ring[offset + queue_count[a]++] = city;
    }
  }
  const formica::cuda::DeviceDistances distances(instance);
  DeviceBuffer<int32_t> d_lists(lists.data()), d_tours{std::span<const int32_t>(tours)},
      d_pos{std::span<const int32_t>(pos)}, d_ring{std::span<const int32_t>(ring)};
  DeviceBuffer<uint32_t> d_bits{std::span<const uint32_t>(bits)};
  DeviceBuffer<int> d_count{std::span<const int>(queue_count)};
  DeviceBuffer<long long> d_gains(static_cast<size_t>(count));
  // The stop flag in mapped host memory, which the climbs read while they run; a stream of its own
  // that does not wait for other work on the device (the colonies' beside GA-EAX).
  formica::cuda::MappedStop flag;
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::unique_ptr<CUstream_st, decltype(&cudaStreamDestroy)> stream_owner(stream, &cudaStreamDestroy);
  AntLocalSearchArgs args;
  args.n = n;
  args.ants = count;
  args.k = lists.k();
  args.moves = kind;
  args.all_active = active.empty();
  args.lists = d_lists.data();
  args.tours = d_tours.data();
  args.pos = d_pos.data();
  args.queue = d_ring.data();
  args.queued = d_bits.data();
  args.queue_count = d_count.data();
  args.gains = d_gains.data();
  args.stop = stop != nullptr ? flag.device() : nullptr;
  launch_ant_local_search(args, distances.view(), stream);
  // Waits in steps of a millisecond, raising the flag once `stop` asks.
  ClimbedOnGpu result;
  result.completed = flag.wait(stream, stop, std::chrono::milliseconds(1));
  tours = d_tours.download(stream);
  const std::vector<int32_t> climbed_pos = d_pos.download(stream);
  for (int a = 0; a < count; ++a)
    for (int p = 0; p < n; ++p)
      FORMICA_EXPECTS(climbed_pos[static_cast<size_t>(a) * n + tours[static_cast<size_t>(a) * n + p]] == p,
                      "the GPU climb left a position array that does not match its tour");
  const std::vector<uint32_t> left = d_bits.download(stream);
  FORMICA_EXPECTS(!result.completed || std::all_of(left.begin(), left.end(), [](uint32_t w) { return w == 0; }),
                  "the GPU climb left queued bits set");
  const std::vector<long long> gains = d_gains.download(stream);
  result.gains.assign(gains.begin(), gains.end());
  return result;
}

}  // namespace formica::localsearch::cuda
