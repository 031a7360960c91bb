// SPDX-License-Identifier: MIT
// Focused walks and the next iteration's sources on the GPU (see focused_construction.cuh), and
// the walks' test hook (focused_walks.h).
#include <algorithm>
#include <cmath>

#include "aco/cuda/focused_construction.cuh"
#include "aco/cuda/focused_walks.h"
#include "aco/cuda/warp_scan.cuh"
#include "core/rng.h"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "localsearch/cuda/ant_local_search.cuh"
#include "localsearch/cuda/warp_tour.cuh"

namespace formica::aco::cuda {
namespace {

using formica::cuda::DistanceView;
using formica::localsearch::cuda::queue_city;
using formica::localsearch::cuda::WarpTour;

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpsPerBlock = 4;
constexpr int kSourceThreads = 256;

__device__ __forceinline__ bool test_bit(const uint32_t* bits, int city) {
  return (bits[city >> 5] >> (city & 31)) & 1u;
}

/// The next city of the walk at a row whose slot s lane s holds (`free`: a candidate the walk has
/// not passed): aco::select_greedy when u_greedy < q0, else aco::select_proportional, step for step
/// as on the CPU: the running sums in double in a warp scan's order (aco::warp_order_prefix, the
/// CPU's order too), so 5 shuffles replace a walk along the row. -1 when nothing can be chosen.
/// Every lane gets it; warp-uniform call.
__device__ int walk_choice(int my_city, float my_f, bool my_free, double q0, double u_greedy, double u_pick,
                           int lane) {
  const bool eligible = my_free && my_f > 0.0f;
  if (u_greedy < q0) {  // the largest weight, lowest slot on ties (u_greedy is the same in every lane)
    unsigned long long key =
        eligible ? (static_cast<unsigned long long>(__float_as_uint(my_f)) << 32) | (31u - lane) : 0ull;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
      const unsigned long long other = __shfl_xor_sync(kFullMask, key, offset);
      key = other > key ? other : key;
    }
    return key == 0 ? -1 : __shfl_sync(kFullMask, my_city, 31 - static_cast<int>(key & 0xffffffffu));
  }
  const double prefix = warp_inclusive_sum(eligible ? static_cast<double>(my_f) : 0.0, lane);
  const double total = __shfl_sync(kFullMask, prefix, 31);
  if (!(total > 0.0)) return -1;
  double r = u_pick * total;
  if (r >= total) r = nextafter(total, 0.0);
  const unsigned passed = __ballot_sync(kFullMask, eligible && r < prefix);
  const unsigned any = __ballot_sync(kFullMask, eligible);
  // Rounding can leave every running sum at or below r: the last slot with weight, as on the CPU.
  const int slot = passed ? __ffs(passed) - 1 : 31 - __clz(any);
  return __shfl_sync(kFullMask, my_city, slot);
}

__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    focused_walk_kernel(FocusedWalkArgs a, DistanceView distance) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int ant = static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x >> 5);
  if (ant >= a.ants) return;  // whole warps leave
  const int n = a.n, words = (n + 31) / 32;
  const size_t offset = static_cast<size_t>(ant) * n;
  const int colony = a.ant_colony[ant], matrix = colony / a.group;
  const size_t cells = static_cast<size_t>(n) * a.width;
  const int32_t* ids = a.ids + matrix * cells;
  const float* fitness = a.fitness + matrix * cells;
  const double q0 = a.colony_acs[colony] ? a.q0 : 0.0;
  const int32_t* source = a.source_tours + static_cast<size_t>(colony) * n;
  const int32_t* source_pos = a.source_pos + static_cast<size_t>(colony) * n;
  WarpTour t{a.tours + offset, a.pos + offset, n, lane};
  uint32_t* walked = a.walked + static_cast<size_t>(ant) * words;
  for (int p = lane; p < n; p += 32) t.tour_[p] = source[p], t.pos_[p] = source_pos[p];
  for (int w = lane; w < words; w += 32) walked[w] = 0u;
  __syncwarp();
  RandomStream rng(a.ant_seeds[ant], 0, a.iteration);  // every lane draws the same numbers
  const int start = static_cast<int>(rng.below(static_cast<uint32_t>(n)));
  if (lane == 0) walked[start >> 5] |= 1u << (start & 31);
  __syncwarp();
  int32_t* ring = a.queue != nullptr ? a.queue + offset : nullptr;
  uint32_t* queued = a.queue != nullptr ? a.queued + static_cast<size_t>(ant) * words : nullptr;
  int count = 0, current = start, behind = -1, changed = 0;
  const int edges = a.colony_edges != nullptr ? a.colony_edges[colony] : a.edges;
  long long delta = 0;
  for (int steps = 0; changed < edges && steps < n - 1; ++steps) {
    const int succ = t.succ(current), pred = t.pred(current);
    const int ahead = succ == behind ? pred : succ;
    const size_t row = static_cast<size_t>(current) * a.width;
    const int my_city = lane < a.width ? ids[row + lane] : -1;
    const float my_f = lane < a.width ? fitness[row + lane] : 0.f;
    const bool my_free = my_city >= 0 && !test_bit(walked, my_city);
    const double u_greedy = q0 > 0.0 ? rng.next_double() : 1.0;
    const double u_pick = rng.next_double();
    const int choice = walk_choice(my_city, my_f, my_free, q0, u_greedy, u_pick, lane);
    const int next = choice < 0 ? ahead : choice;
    if (next != succ && next != pred) {
      const int z = ahead == succ ? t.succ(next) : t.pred(next);
      delta += distance(current, next) + distance(ahead, z) - distance(current, ahead) - distance(next, z);
      t.exchange(current, ahead, next, z);
      if (ring != nullptr && lane == 0) {
        queue_city(ring, queued, n, 0, count, current);
        queue_city(ring, queued, n, 0, count, ahead);
        queue_city(ring, queued, n, 0, count, next);
        queue_city(ring, queued, n, 0, count, z);
      }
      ++changed;
    }
    behind = current;
    current = next;
    if (lane == 0) walked[current >> 5] |= 1u << (current & 31);
    __syncwarp();
  }
  if (lane == 0) {
    a.lengths[ant] = a.source_lengths[colony] + delta;
    if (a.queue_count != nullptr) a.queue_count[ant] = count;
  }
}

__global__ void set_sources_kernel(SourceArgs a) {
  const int colony = static_cast<int>(blockIdx.y), n = a.n;
  const ColonyRecord r = a.records[colony];
  const auto depositor = static_cast<Depositor>(r.depositor);
  const int32_t* tour = depositor == Depositor::IterationBest
                            ? a.tours + static_cast<size_t>(a.first_ant[colony] + r.iteration_ant) * n
                            : (depositor == Depositor::RestartBest ? a.restart_tours : a.best_tours) +
                                  static_cast<size_t>(colony) * n;
  int32_t* source = a.source_tours + static_cast<size_t>(colony) * n;
  int32_t* pos = a.source_pos + static_cast<size_t>(colony) * n;
  for (int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); p < n;
       p += static_cast<int>(gridDim.x * blockDim.x)) {
    const int city = tour[p];
    source[p] = city;
    pos[city] = p;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) a.source_lengths[colony] = depositor_length(r);
}

}  // namespace

void launch_focused_walks(const FocusedWalkArgs& args, const DistanceView& distance, cudaStream_t stream) {
  if (args.ants == 0) return;
  const int blocks = (args.ants + kWarpsPerBlock - 1) / kWarpsPerBlock;
  focused_walk_kernel<<<blocks, kWarpsPerBlock * 32, 0, stream>>>(args, distance);
  CUDA_CHECK_LAUNCH();
}

void launch_set_sources(const SourceArgs& args, cudaStream_t stream) {
  const int blocks = std::min((args.n + kSourceThreads - 1) / kSourceThreads, 64);
  set_sources_kernel<<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(args.colonies)),
                       kSourceThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

GpuWalks focused_walks_on_gpu(const Instance& instance, const CandidateSet& set,
                              std::span<const float> fitness, std::span<const int32_t> source,
                              std::span<const uint64_t> seeds, uint32_t substream, int edges, double q0) {
  using formica::cuda::DeviceBuffer;
  const int n = instance.n(), ants = static_cast<int>(seeds.size()), words = (n + 31) / 32;
  FORMICA_EXPECTS(set.width <= 32, "a warp holds at most 32 candidates per row");
  FORMICA_EXPECTS(fitness.size() == set.ids.size() && source.size() == static_cast<size_t>(n),
                  "fitness must be n x width and the source a tour of n cities");
  std::vector<int32_t> pos(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) pos[source[p]] = p;
  const long long source_length = 0;  // the walks report changes, so the source counts as 0
  const std::vector<int> colony(static_cast<size_t>(ants), 0);
  const std::vector<unsigned char> acs = {static_cast<unsigned char>(q0 > 0.0 ? 1 : 0)};
  const std::vector<unsigned long long> ant_seeds(seeds.begin(), seeds.end());
  const formica::cuda::DeviceDistances distances(instance);
  DeviceBuffer<int32_t> d_ids{std::span<const int32_t>(set.ids)}, d_source{source},
      d_source_pos{std::span<const int32_t>(pos)}, d_tours(static_cast<size_t>(ants) * n),
      d_pos(static_cast<size_t>(ants) * n), d_queue(static_cast<size_t>(ants) * n);
  DeviceBuffer<float> d_fitness{fitness};
  DeviceBuffer<int> d_colony{std::span<const int>(colony)}, d_count(static_cast<size_t>(ants));
  DeviceBuffer<unsigned char> d_acs{std::span<const unsigned char>(acs)};
  DeviceBuffer<unsigned long long> d_seeds{std::span<const unsigned long long>(ant_seeds)};
  DeviceBuffer<long long> d_source_length{std::span<const long long>(&source_length, 1)},
      d_lengths(static_cast<size_t>(ants));
  DeviceBuffer<uint32_t> d_walked(static_cast<size_t>(ants) * words),
      d_queued(static_cast<size_t>(ants) * words);
  CUDA_CHECK(cudaMemset(d_queued.data(), 0, d_queued.size() * sizeof(uint32_t)));
  // Each walk fills only its queue_count entries of the queue; the rest is downloaded too.
  CUDA_CHECK(cudaMemset(d_queue.data(), 0, d_queue.size() * sizeof(int32_t)));
  FocusedWalkArgs args;
  args.n = n;
  args.width = set.width;
  args.ants = ants;
  args.edges = edges;
  args.ids = d_ids.data();
  args.fitness = d_fitness.data();
  args.ant_colony = d_colony.data();
  args.colony_acs = d_acs.data();
  args.q0 = q0;
  args.ant_seeds = d_seeds.data();
  args.iteration = substream;
  args.source_tours = d_source.data();
  args.source_pos = d_source_pos.data();
  args.source_lengths = d_source_length.data();
  args.tours = d_tours.data();
  args.pos = d_pos.data();
  args.walked = d_walked.data();
  args.queue = d_queue.data();
  args.queued = d_queued.data();
  args.queue_count = d_count.data();
  args.lengths = d_lengths.data();
  launch_focused_walks(args, distances.view(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  GpuWalks out;
  out.tours = d_tours.download();
  const std::vector<long long> deltas = d_lengths.download();
  out.deltas.assign(deltas.begin(), deltas.end());
  const std::vector<int32_t> queue = d_queue.download(), walk_pos = d_pos.download();
  const std::vector<int> counts = d_count.download();
  for (int a = 0; a < ants; ++a) {
    const size_t offset = static_cast<size_t>(a) * n;
    out.queued.emplace_back(queue.begin() + static_cast<ptrdiff_t>(offset),
                            queue.begin() + static_cast<ptrdiff_t>(offset) + counts[a]);
    for (int p = 0; p < n; ++p)
      FORMICA_EXPECTS(walk_pos[offset + out.tours[offset + p]] == p,
                      "a GPU walk left positions that do not match its tour");
  }
  return out;
}

}  // namespace formica::aco::cuda
