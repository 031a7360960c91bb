// The ants' local search on the GPU, a warp per tour (see ant_local_search.cuh), and its test hook.
#include <algorithm>
#include <vector>

#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "localsearch/cuda/ant_local_search.cuh"
#include "localsearch/cuda/ant_local_search.h"
#include "localsearch/cuda/warp_tour.cuh"
#include "localsearch/neighbour_moves.h"

namespace formica::localsearch::cuda {
namespace {

using formica::cuda::DistanceView;

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpsPerBlock = 4;

__device__ long long shuffle64(long long value, int lane) {
  const int lo = __shfl_sync(kFullMask, static_cast<int>(value & 0xffffffffLL), lane);
  const int hi = __shfl_sync(kFullMask, static_cast<int>(value >> 32), lane);
  return (static_cast<long long>(hi) << 32) | static_cast<unsigned>(lo);
}

/// The move every lane gets: the best of the lanes' moves (better_move: gain, then search order).
__device__ LocalMove warp_best(const LocalMove& mine, int lane) {
  long long gain = mine.gain;
  int order = mine.order;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const long long other_gain = shuffle64(gain, lane ^ offset);
    const int other_order = __shfl_xor_sync(kFullMask, order, offset);
    if (other_gain > gain || (other_gain == gain && other_order < order))
      gain = other_gain, order = other_order;
  }
  LocalMove best;
  if (gain <= 0) return best;
  const unsigned owner_lanes = __ballot_sync(kFullMask, mine.gain == gain && mine.order == order);
  const int owner = __ffs(owner_lanes) - 1;
  best.gain = gain;
  best.order = order;
  best.kind = static_cast<MoveKind>(__shfl_sync(kFullMask, static_cast<int>(mine.kind), owner));
  best.e1 = __shfl_sync(kFullMask, mine.e1, owner);
  best.e2 = __shfl_sync(kFullMask, mine.e2, owner);
#pragma unroll
  for (int i = 0; i < 6; ++i) best.city[i] = __shfl_sync(kFullMask, mine.city[i], owner);
  return best;
}

/// City a's best move, lane t trying a's t-th neighbour (the CPU's best_move in
/// cpu/neighbour_list_climb.cpp, its loops' stopping points found by ballot).
template <bool kOrOpt, bool kThreeOpt>
__device__ LocalMove warp_best_move(const WarpTour& t, const DistanceView& distance, const int32_t* lists,
                                    int k, int a, int lane) {
  const CityContext ctx = city_context(t, distance, a);
  int c = -1;
  long long d_ac = 0;
  if (lane < k) {
    c = lists[static_cast<size_t>(a) * k + lane];
    d_ac = distance(a, c);
  }
  LocalMove best;
  unsigned stop = __ballot_sync(kFullMask, lane < k && two_opt_exhausted(ctx, d_ac));
  int limit = stop ? __ffs(stop) - 1 : k;
  if (lane < limit) two_opt_moves(t, distance, ctx, c, d_ac, lane, best);
  if (kOrOpt) {
    for (int number = 0; number < 6; ++number) {
      const int length = number % 3 + 1;
      if (length > t.n() - 3) continue;
      const Segment s = or_opt_segment(t, distance, ctx, number, k);
      if (s.g1 <= 0) continue;
      stop = __ballot_sync(kFullMask, lane < k && d_ac >= s.g1);
      limit = stop ? __ffs(stop) - 1 : k;
      if (lane < limit) or_opt_moves(t, distance, ctx, s, c, d_ac, lane, best);
    }
  }
  if (kThreeOpt && t.n() >= kThreeOptMinCities) {
    for (int dir = 1; dir >= -1; dir -= 2) {
      const long long d_12 = dir > 0 ? ctx.d_pred : ctx.d_succ;
      stop = __ballot_sync(kFullMask, lane < k && d_ac >= d_12);
      limit = stop ? __ffs(stop) - 1 : k;
      if (lane < limit) three_opt_moves(t, distance, ctx, dir, c, d_ac, lane, lists, k, best);
    }
  }
  return warp_best(best, lane);
}

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
  int head = 0, count = 0;
  if (a.all_active) {
    for (int p = lane; p < n; p += 32) {
      const int city = t.tour_[p];
      t.pos_[city] = p;
      ring[p] = city;
    }
    for (int w = lane; w < words; w += 32)
      bits[w] = w == words - 1 && (n & 31) ? (1u << (n & 31)) - 1 : kFullMask;
    count = n;
  } else {
    count = a.queue_count[ant];
  }
  __syncwarp();
  long long total = 0;
  while (count > 0) {
    int city = 0;
    if (lane == 0) {
      city = ring[head];
      bits[city >> 5] &= ~(1u << (city & 31));
    }
    city = __shfl_sync(kFullMask, city, 0);
    if (++head == n) head = 0;
    --count;
    const LocalMove best = warp_best_move<kOrOpt, kThreeOpt>(t, distance, a.lists, a.k, city, lane);
    if (best.gain <= 0) continue;
    total += best.gain;
    int ends[6];
    const int changed = apply_move(t, best, ends);
    if (lane == 0)
      for (int i = 0; i < changed; ++i) queue_city(ring, bits, n, head, count, ends[i]);
    count = __shfl_sync(kFullMask, count, 0);
  }
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

std::vector<int64_t> climb_tours_on_gpu(const Instance& instance, const CandidateLists& lists,
                                        LocalSearchKind kind, std::vector<int32_t>& tours,
                                        std::span<const std::vector<int32_t>> active) {
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
  launch_ant_local_search(args, distances.view(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  tours = d_tours.download();
  const std::vector<int32_t> climbed_pos = d_pos.download();
  for (int a = 0; a < count; ++a)
    for (int p = 0; p < n; ++p)
      FORMICA_EXPECTS(climbed_pos[static_cast<size_t>(a) * n + tours[static_cast<size_t>(a) * n + p]] == p,
                      "the GPU climb left a position array that does not match its tour");
  const std::vector<uint32_t> left = d_bits.download();
  FORMICA_EXPECTS(std::all_of(left.begin(), left.end(), [](uint32_t w) { return w == 0; }),
                  "the GPU climb left queued bits set");
  const std::vector<long long> gains = d_gains.download();
  return std::vector<int64_t>(gains.begin(), gains.end());
}

}  // namespace formica::localsearch::cuda
