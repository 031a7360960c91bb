// SPDX-License-Identifier: MIT
// The batch's walks on the GPU (batch_walks_cuda.h): a warp per walk of every instance of a jagged
// batch, all in one launch. A walk's tour, its kept copy, positions and queue lie in global memory
// at the walk's offset; its instance's exact distances (cuda::DistanceView over the instance's
// coordinates or matrix) and neighbour lists at the instance's. The kick is the shared double
// bridge (localsearch/double_bridge.h), drawn by every lane from the same Philox block, and the
// repair is the colonies' warp climb (localsearch/cuda/warp_climb.cuh), so each walk takes the
// CPU's steps (batch/cpu/batch_walks.cpp) move for move.
//
// The host drives launches of a few kicks each: between them it checks deadlines and the
// interrupt flag and marks instances done, and reads the lengths back for the history. The
// number of kicks per launch doubles while a launch takes under kLaunchTargetMs, so that a time
// limit is kept to within about one launch.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/cuda/batch_walks_cuda.h"
#include "batch/cuda/host_batch.cuh"
#include "core/error.h"
#include "core/memory.h"
#include "core/tour.h"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "cuda/device_distance.cuh"
#include "cuda/mapped_stop.cuh"
#include "localsearch/cuda/warp_climb.cuh"
#include "localsearch/double_bridge.h"

namespace formica::batch::cuda {
namespace {

using formica::cuda::DeviceBuffer;
using formica::cuda::DistanceView;
using localsearch::cuda::kFullMask;
using localsearch::cuda::WarpTour;

constexpr int kWarpsPerBlock = 4;
constexpr double kLaunchTargetMs = 20.0;
constexpr int kMaxKicksPerLaunch = 4096;
/// From this many cities a start climb looks at its stop before every city it takes: a move there
/// reverses tens of thousands of cities in global memory, milliseconds each.
constexpr int kLargeClimbCities = 20000;
/// How often the host looks at the deadline while the start climbs run.
constexpr std::chrono::microseconds kClimbPoll{200};
/// Blocks of kWarpsPerBlock warps an SM should hold: caps the climb's registers at 80 (unbounded it
/// takes 142, which leaves 12 walks per SM). H100, 10,000 x 100 cities, 2,000 kicks a walk: 3.7 s
/// with 4 blocks (128 registers), 3.1 s with 6 (spills to L1), 4.5 s with 8 (64 registers).
constexpr int kMinBlocks = 6;

/// What the kernels see, by value.
struct WalkArgs {
  int slots = 0, walks = 1, kick_segment = 50;
  int lanes = 32;  ///< lanes per walk: 32, or 16 (two walks per warp) when every list fits in 16
  const DistanceView* views = nullptr;  ///< per instance
  const int* n = nullptr;               ///< per instance
  const int* k = nullptr;               ///< per instance: list length
  const long long* list_offset = nullptr;  ///< per instance, into lists
  const int32_t* lists = nullptr;
  const long long* slot_offset = nullptr;  ///< per slot, into tours, kept, pos and ring
  const long long* bits_offset = nullptr;  ///< per slot, into bits
  int32_t* tours = nullptr;
  int32_t* kept = nullptr;
  int32_t* pos = nullptr;
  int32_t* ring = nullptr;
  uint32_t* bits = nullptr;
  long long* lengths = nullptr;      ///< per slot: the kept tour's exact length
  long long* kicks = nullptr;        ///< per slot: kicks done
  const long long* budget = nullptr;  ///< per instance: kicks per walk
  const long long* target = nullptr;  ///< per instance
  const unsigned long long* seed = nullptr;  ///< per instance
  int* done = nullptr;  ///< per instance: set by the host (deadline, interrupt) or a walk (target)
  /// The start climbs' stop (cuda::MappedStop): raised once every instance's deadline has passed or
  /// the run is interrupted; a climb cut off keeps the moves it made.
  const volatile int* stop = nullptr;
};

/// Where a warp keeps its walk while a kernel runs: in shared memory when the launch's largest
/// instance fits (the climb reads positions, tour neighbours and coordinates at every step, and
/// from global memory each read waits on L2: thousands of warps' walks do not fit in L1), else in
/// global memory where the walk lives between launches.
struct SharedLayout {
  int cities = 0;          ///< the largest n of the launch (0: nothing staged)
  int list_ints = 0;       ///< n x k of the largest lists when they are staged too (0: lists stay global)
  int coordinates = 0;     ///< coordinate arrays staged per city: 2 (x, y), 3 (with z) or 0
  /// True: the walk's whole distance matrix (cities x cities) is computed into shared memory and
  /// the climb looks distances up instead of computing them from coordinates (small instances).
  bool matrix = false;
  /// Above 0: the matrices (and lists) are the block's, one per instance whose walks the block
  /// runs (at most this many), computed once by the whole block and shared by those walks, so that
  /// a walk's own share holds only its tours, positions and queue; 0: each walk has its own.
  int block_instances = 0;
  int bytes_per_walk = 0;

  /// Ints of one instance's part of the block's share: its matrix, then its lists.
  __host__ __device__ int instance_ints() const { return cities * cities + list_ints; }
  __host__ __device__ int instance_bytes() const { return block_instances * instance_ints() * 4; }
};

/// A walk as one warp sees it; `distance` and `lists` may point into shared memory.
struct Walk {
  WarpTour t;
  int32_t* kept;
  int32_t* ring;
  uint32_t* bits;
  DistanceView distance;
  const int32_t* lists;
  int k;
  int instance, walk;
  const int32_t* matrix = nullptr;  ///< in shared memory, SharedLayout::matrix
};

/// The lanes of this thread's walk: the whole warp, or the half it belongs to.
__device__ WarpTour group_of(const WalkArgs& a) {
  const int warp_lane = static_cast<int>(threadIdx.x) & 31, group = warp_lane / a.lanes;
  const unsigned mask = a.lanes == 32 ? kFullMask : ((1u << a.lanes) - 1) << (group * a.lanes);
  return WarpTour{nullptr, nullptr, 0, warp_lane % a.lanes, a.lanes, mask};
}

__device__ Walk walk_of(const WalkArgs& a, int slot, const WarpTour& group) {
  const int i = slot / a.walks;
  const long long offset = a.slot_offset[slot];
  return {WarpTour{a.tours + offset, a.pos + offset, a.n[i], group.lane, group.width, group.mask},
          a.kept + offset,
          a.ring + offset,
          a.bits + a.bits_offset[slot],
          a.views[i],
          a.lists + a.list_offset[i],
          a.k[i],
          i,
          slot % a.walks};
}

template <class T>
__device__ void copy_array(const T* from, T* to, int count, const WarpTour& t) {
  for (int p = t.lane; p < count; p += t.width) to[p] = from[p];
}

/// The slot of this thread's walk, and the walk's part of shared memory (after the block's
/// instances, SharedLayout::block_instances).
__device__ int walk_slot(const WalkArgs& a) {
  const int groups = 32 / a.lanes;
  return (static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x >> 5)) * groups +
         (static_cast<int>(threadIdx.x) & 31) / a.lanes;
}
__device__ unsigned char* block_shared() {
  extern __shared__ __align__(16) unsigned char shared[];
  return shared;
}
__device__ unsigned char* walk_shared(const WalkArgs& a, const SharedLayout& layout) {
  return block_shared() + layout.instance_bytes() + static_cast<size_t>(threadIdx.x / a.lanes) * layout.bytes_per_walk;
}

/// The block's share of its `index`-th instance (SharedLayout::block_instances).
__device__ int32_t* instance_share(const SharedLayout& layout, int index) {
  return reinterpret_cast<int32_t*>(block_shared()) + static_cast<size_t>(index) * layout.instance_ints();
}
/// The instance of the block's first walk: its walks' instances are this one and the next few.
__device__ int first_instance_of_block(const WalkArgs& a) {
  return static_cast<int>(blockIdx.x) * kWarpsPerBlock * (32 / a.lanes) / a.walks;
}

/// With SharedLayout::block_instances, the whole block computes the distance matrix of every
/// instance its walks belong to (exactly as the metric computes each distance) and copies its
/// lists, before any walk starts; instances already done are skipped when `skip_done`. Every
/// thread of the block takes part, so this runs before any of them leaves.
__device__ void stage_instances(const WalkArgs& a, const SharedLayout& layout, bool skip_done) {
  if (layout.block_instances == 0) return;
  const int walks_per_block = kWarpsPerBlock * (32 / a.lanes);
  const int first_slot = static_cast<int>(blockIdx.x) * walks_per_block;
  const int last_slot = min(first_slot + walks_per_block, a.slots) - 1;
  const int first = first_instance_of_block(a), last = last_slot / a.walks;
  const int stride = static_cast<int>(blockDim.x);
  for (int i = first; i <= last; ++i) {
    // One answer for the whole block: the flag may be set by another block meanwhile.
    if (__syncthreads_or(skip_done && *static_cast<const volatile int*>(a.done + i))) continue;
    int32_t* matrix = instance_share(layout, i - first);
    const int n = a.n[i], k = a.k[i];
    const DistanceView distance = a.views[i];
    for (int at = static_cast<int>(threadIdx.x); at < n * n; at += stride)
      matrix[at] = static_cast<int32_t>(distance(at / n, at % n));
    const int32_t* lists = a.lists + a.list_offset[i];
    for (int at = static_cast<int>(threadIdx.x); at < n * k; at += stride) matrix[layout.cities * layout.cities + at] = lists[at];
  }
  __syncthreads();
}

/// Moves the walk into its part of shared memory (layout.bytes_per_walk from `base`):
/// tour, positions, kept tour, queue and its bits, and as the layout says the coordinates and the
/// lists. Returns the global walk, to which stage_out writes back.
__device__ Walk stage_in(const WalkArgs& a, Walk& w, const SharedLayout& layout, unsigned char* base) {
  const Walk global = w;
  const int n = w.t.n(), cities = layout.cities;
  double* coordinates = reinterpret_cast<double*>(base);
  int32_t* ints = reinterpret_cast<int32_t*>(coordinates + static_cast<size_t>(layout.coordinates) * cities);
  w.t.tour_ = ints, w.t.pos_ = ints + cities, w.kept = ints + 2 * cities, w.ring = ints + 3 * cities;
  w.bits = reinterpret_cast<uint32_t*>(ints + 4 * cities);
  copy_array(global.t.tour_, w.t.tour_, n, w.t);
  copy_array(global.t.pos_, w.t.pos_, n, w.t);
  copy_array(global.kept, w.kept, n, w.t);
  copy_array(global.bits, w.bits, (n + 31) / 32, w.t);
  if (layout.block_instances > 0) {  // the block's copy of the instance (stage_instances)
    w.matrix = instance_share(layout, w.instance - first_instance_of_block(a));
    w.lists = w.matrix + cities * cities;
    __syncwarp(w.t.mask);
    return global;
  }
  int32_t* next = reinterpret_cast<int32_t*>(w.bits + (cities + 31) / 32);
  if (layout.list_ints > 0) {
    copy_array(global.lists, next, n * w.k, w.t);
    w.lists = next;
    next += layout.list_ints;
  }
  if (layout.matrix) {  // every distance once, exactly as the metric computes it
    for (int at = w.t.lane; at < n * n; at += w.t.width) next[at] = static_cast<int32_t>(global.distance(at / n, at % n));
    w.matrix = next;
  }
  if (layout.coordinates > 0 && w.distance.type != EdgeWeightType::Explicit) {
    double* x = coordinates;
    copy_array(global.distance.x, x, n, w.t);
    copy_array(global.distance.y, x + cities, n, w.t);
    w.distance.x = x, w.distance.y = x + cities;
    if (layout.coordinates == 3 && w.distance.type == EdgeWeightType::Euc3D) {
      copy_array(global.distance.z, x + 2 * cities, n, w.t);
      w.distance.z = x + 2 * cities;
    }
  }
  __syncwarp(w.t.mask);
  return global;
}

/// Writes the walk's tour, positions and kept tour back to global memory (its queue is empty).
__device__ void stage_out(const Walk& w, const Walk& global) {
  __syncwarp(w.t.mask);
  const int n = w.t.n();
  copy_array(w.t.tour_, global.t.tour_, n, w.t);
  copy_array(w.t.pos_, global.t.pos_, n, w.t);
  copy_array(w.kept, global.kept, n, w.t);
}

/// Copies `from` to `to` (n cities) and, when `pos` is given, rebuilds the positions.
__device__ void copy_tour(const int32_t* from, int32_t* to, int32_t* pos, const WarpTour& t) {
  __syncwarp(t.mask);
  for (int p = t.lane; p < t.n(); p += t.width) {
    const int32_t city = from[p];
    to[p] = city;
    if (pos != nullptr) pos[city] = p;
  }
  __syncwarp(t.mask);
}


/// EUC_2D distances without DistanceView's switch over the metric: fewer registers and
/// instructions in the climb, which every batch of EUC_2D instances (the common case) runs.
struct Euc2DView {
  const double* x;
  const double* y;
  __device__ int64_t operator()(int i, int j) const {
    return i == j ? 0 : tsplib::euc_2d(x[i] - x[j], y[i] - y[j]);
  }
};

/// Distances looked up in the walk's matrix in shared memory (SharedLayout::matrix).
struct MatrixView {
  const int32_t* m;
  int n;
  __device__ int64_t operator()(int i, int j) const { return m[i * n + j]; }
};

/// Which distances the kernels climb with: any metric through DistanceView's switch, EUC_2D when
/// every instance of the launch is EUC_2D, or a matrix staged in shared memory.
enum class Metric { Any, Euc2D, Matrix };

template <Metric kMetric>
__device__ auto metric_of(const Walk& w) {
  if constexpr (kMetric == Metric::Euc2D)
    return Euc2DView{w.distance.x, w.distance.y};
  else if constexpr (kMetric == Metric::Matrix)
    return MatrixView{w.matrix, w.t.n()};
  else
    return w.distance;
}

/// Climbs every walk's start tour with every city active and keeps it.
template <bool kOrOpt, bool kThreeOpt, Metric kMetric>
__global__ void __launch_bounds__(kWarpsPerBlock * 32, kMinBlocks) climb_starts_kernel(WalkArgs a, SharedLayout layout) {
  stage_instances(a, layout, false);
  const WarpTour group = group_of(a);
  const int slot = walk_slot(a);
  if (slot >= a.slots) return;  // whole groups leave
  Walk w = walk_of(a, slot, group);
  const Walk global = layout.cities > 0 ? stage_in(a, w, layout, walk_shared(a, layout)) : w;
  const auto distance = metric_of<kMetric>(w);
  const int count = localsearch::cuda::warp_queue_all(w.t, w.ring, w.bits);
  const long long gain =
      localsearch::cuda::warp_climb<kOrOpt, kThreeOpt>(w.t, distance, w.lists, w.k, w.ring, w.bits, 0, count, a.stop,
                                                       w.t.n() >= kLargeClimbCities ? 1 : localsearch::cuda::kStopPollCities);
  copy_tour(w.t.tour_, w.kept, nullptr, w.t);
  if (layout.cities > 0) stage_out(w, global);
  if (group.lane == 0) {
    a.lengths[slot] -= gain;
    if (a.lengths[slot] <= a.target[w.instance]) atomicExch(&a.done[w.instance], 1);
  }
}

/// Up to `kicks` kicks on every walk whose instance is not done.
template <bool kOrOpt, bool kThreeOpt, Metric kMetric>
__global__ void __launch_bounds__(kWarpsPerBlock * 32, kMinBlocks) kick_kernel(WalkArgs a, SharedLayout layout, int kicks) {
  stage_instances(a, layout, true);
  const WarpTour group = group_of(a);
  const int slot = walk_slot(a), lane = group.lane;
  if (slot >= a.slots) return;
  Walk w = walk_of(a, slot, group);
  const volatile int* done = a.done + w.instance;
  const int n = w.t.n();
  if (*done || n < localsearch::kMinKickCities) return;
  const Walk global = layout.cities > 0 ? stage_in(a, w, layout, walk_shared(a, layout)) : w;
  const auto distance = metric_of<kMetric>(w);
  const long long budget = a.budget[w.instance], target = a.target[w.instance];
  long long length = a.lengths[slot], kicked = a.kicks[slot];
  for (int j = 0; j < kicks && kicked < budget; ++j) {
    if (localsearch::cuda::group_shuffle(w.t, *done, 0)) break;
    RandomStream random = kick_random(a.seed[w.instance], w.walk, kicked);
    const localsearch::DoubleBridge bridge = localsearch::draw_double_bridge(random, n, a.kick_segment);
    int32_t ends[8];
    localsearch::double_bridge_ends(bridge, [&](int p) { return w.kept[p % n]; }, ends);
    const long long delta = localsearch::double_bridge_delta(ends, distance);
    for (int i = lane; i < bridge.moved(); i += w.t.width) {
      const int p = (bridge.p0 + 1 + i) % n;
      const int32_t city = w.kept[localsearch::double_bridge_source(bridge, i) % n];
      w.t.tour_[p] = city;
      w.t.pos_[city] = p;
    }
    __syncwarp(w.t.mask);
    int count = 0;
    if (lane == 0)
      for (const int32_t city : ends) localsearch::cuda::queue_city(w.ring, w.bits, n, 0, count, city);
    count = localsearch::cuda::group_shuffle(w.t, count, 0);
    const long long gain =
        localsearch::cuda::warp_climb<kOrOpt, kThreeOpt>(w.t, distance, w.lists, w.k, w.ring, w.bits, 0, count);
    ++kicked;
    const long long next = length + delta - gain;
    if (next <= length) {  // kept (equal lengths too: plateaus)
      copy_tour(w.t.tour_, w.kept, nullptr, w.t);
      length = next;
      if (length <= target) {
        if (lane == 0) atomicExch(&a.done[w.instance], 1);
        break;
      }
    } else {
      copy_tour(w.kept, w.t.tour_, w.t.pos_, w.t);
    }
  }
  if (layout.cities > 0) stage_out(w, global);
  if (lane == 0) {
    a.lengths[slot] = length;
    a.kicks[slot] = kicked;
  }
}

/// The kernels for a batch's moves and metric.
struct Kernels {
  void (*climb)(WalkArgs, SharedLayout);
  void (*kick)(WalkArgs, SharedLayout, int);
};

template <Metric kMetric>
Kernels kernels_for(localsearch::LocalSearchKind moves) {
  if (localsearch::searches_three_opt(moves))
    return {climb_starts_kernel<true, true, kMetric>, kick_kernel<true, true, kMetric>};
  if (localsearch::searches_or_opt(moves))
    return {climb_starts_kernel<true, false, kMetric>, kick_kernel<true, false, kMetric>};
  return {climb_starts_kernel<false, false, kMetric>, kick_kernel<false, false, kMetric>};
}

Kernels kernels_for(Metric metric, localsearch::LocalSearchKind moves) {
  switch (metric) {
    case Metric::Matrix: return kernels_for<Metric::Matrix>(moves);
    case Metric::Euc2D: return kernels_for<Metric::Euc2D>(moves);
    case Metric::Any: break;
  }
  return kernels_for<Metric::Any>(moves);
}

/// The shared memory a block's walks may take together when each walk stages its own data: the
/// 48 KiB a launch gets without opting in, 12 KiB a walk with a warp each, 6 KiB with half a warp.
constexpr int kSharedPerBlock = 48 * 1024;

/// What to stage for instances of at most `cities` cities and lists of at most `list_ints`
/// entries, each walk given `budget` bytes: the distance matrix (with the lists if they fit too),
/// else the coordinates (with the lists if they fit too), else nothing.
SharedLayout shared_layout(int cities, int list_ints, int coordinates, int budget) {
  const auto bytes = [&](int lists, int coordinate_arrays, bool matrix) {  // 64-bit: cities^2 of large instances
    const long long n = cities;
    const long long ints = 4 * n + (n + 31) / 32 + lists + (matrix ? n * n : 0);
    return static_cast<int>(std::min<long long>((8 * coordinate_arrays * n + 4 * ints + 15) / 16 * 16, INT_MAX));
  };
  // Small instances: the distance matrix instead of the coordinates (a lookup instead of a square
  // root per distance).
  for (const int lists : {list_ints, 0})
    if (bytes(lists, 0, true) <= budget) return {cities, lists, 0, true, 0, bytes(lists, 0, true)};
  for (const int lists : {list_ints, 0})
    if (bytes(lists, coordinates, false) <= budget)
      return {cities, lists, coordinates, false, 0, bytes(lists, coordinates, false)};
  return {};
}

/// The most instances whose walks one block of `walks_per_block` walks runs (slot s is walk
/// s % walks of instance s / walks).
int most_instances_per_block(int slots, int walks, int walks_per_block) {
  int most = 0;
  for (int first = 0; first < slots; first += walks_per_block)
    most = std::max(most, (std::min(first + walks_per_block, slots) - 1) / walks - first / walks + 1);
  return most;
}

/// The matrices and lists as the block's (SharedLayout::block_instances): each walk's own share
/// is then its tours, positions and queue; `max_bytes` is what a block may opt in to.
SharedLayout block_layout(int cities, int list_ints, int instances_per_block, int walks_per_block, int max_bytes) {
  if (4LL * (static_cast<long long>(cities) * cities + list_ints) > max_bytes) return {};  // not even one matrix
  SharedLayout layout{cities, list_ints, 0, true, instances_per_block, 0};
  layout.bytes_per_walk = (4 * (4 * cities + (cities + 31) / 32) + 15) / 16 * 16;
  const long long bytes =
      4LL * instances_per_block * layout.instance_ints() + static_cast<long long>(walks_per_block) * layout.bytes_per_walk;
  return bytes <= max_bytes ? layout : SharedLayout{};
}

/// How a launch keeps its walks: the layout, lanes per walk, and the kernels.
struct Launch {
  SharedLayout layout;
  int lanes = 32;
  Kernels kernels{};
  int walks_per_sm = 0;  ///< resident walks per SM, from the occupancy calculator

  int walks_per_block() const { return kWarpsPerBlock * (32 / lanes); }
  size_t shared_bytes() const {
    return static_cast<size_t>(layout.instance_bytes()) + static_cast<size_t>(layout.bytes_per_walk) * walks_per_block();
  }
  std::string describe() const {
    const char* where = layout.cities == 0 ? "walks in global memory"
                        : layout.block_instances > 0 ? "distance matrices and lists shared by each block's walks"
                        : layout.matrix ? "a distance matrix per walk in shared memory"
                                        : "walks staged in shared memory";
    return concat(lanes, " lanes a walk, ", where, ", ", walks_per_sm, " walks per SM");
  }
};

/// Picks the launch for a batch: each walk staging its own data in its share of 48 KiB (half a
/// warp per walk where every list fits in 16 lanes and the walk still fits half a share: the climb
/// is a chain of dependent reads, and more walks hide more of it; H100, 10,000 x 100 cities: 8.31
/// -> 7.15 s; small instances whose distance matrix fits a warp's share keep a warp and their
/// matrix; walks left in global memory keep a warp too: 1,000 x 1,000 cities, 60 s, 5.16 million
/// kicks a second with a warp, 4.81 with half), or the block sharing each instance's matrix among
/// its walks, where that keeps more walks resident per SM (the occupancy calculator's count).
Launch choose_launch(int cities, int list_ints, int coordinates, int max_k, bool euc_2d, localsearch::LocalSearchKind moves,
                     int slots, int walks) {
  const auto resident = [](Launch& launch) {
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, launch.kernels.kick, kWarpsPerBlock * 32,
                                                             launch.shared_bytes()));
    launch.walks_per_sm = blocks * launch.walks_per_block();
  };
  int device = 0, max_bytes = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));

  Launch own;
  own.layout = shared_layout(cities, list_ints, coordinates, kSharedPerBlock / kWarpsPerBlock);
  if (const SharedLayout half = shared_layout(cities, list_ints, coordinates, kSharedPerBlock / (2 * kWarpsPerBlock));
      max_k <= 16 && !own.layout.matrix && half.cities > 0) {
    own.lanes = 16;
    own.layout = half;
  }
  own.kernels = kernels_for(own.layout.matrix ? Metric::Matrix : euc_2d ? Metric::Euc2D : Metric::Any, moves);
  resident(own);
  Launch best = own;
  for (const int lanes : {32, 16}) {
    if (lanes == 16 && max_k > 16) continue;
    Launch shared;
    shared.lanes = lanes;
    shared.layout = block_layout(cities, list_ints, most_instances_per_block(slots, walks, shared.walks_per_block()),
                                 shared.walks_per_block(), max_bytes);
    if (shared.layout.cities == 0) continue;
    shared.kernels = kernels_for(Metric::Matrix, moves);
    for (auto* kernel : {reinterpret_cast<const void*>(shared.kernels.climb), reinterpret_cast<const void*>(shared.kernels.kick)})
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_bytes));
    resident(shared);
    if (shared.walks_per_sm > best.walks_per_sm) best = shared;
  }
  return best;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// A packed batch on the device, with the walks' working memory zeroed, and the kernels'
/// arguments pointing into it.
struct DeviceBatch {
  DeviceBuffer<double> x, y, z;
  DeviceBuffer<int32_t> matrices;
  DeviceBuffer<DistanceView> views;
  DeviceBuffer<int> n, k;
  DeviceBuffer<long long> list_offset, slot_offset, bits_offset, budget, target, lengths, kicks;
  DeviceBuffer<unsigned long long> seed;
  DeviceBuffer<int32_t> lists, tours, kept, pos, ring;
  DeviceBuffer<uint32_t> bits;
  DeviceBuffer<int> done;

  DeviceBatch(const HostBatch& b, int slots)
      : x{std::span<const double>(b.x)},
        y{std::span<const double>(b.y)},
        z{std::span<const double>(b.z)},
        matrices{std::span<const int32_t>(b.matrices)},
        views{std::span<const DistanceView>(b.views(x.data(), y.data(), z.data(), matrices.data()))},
        n{std::span<const int>(b.n)},
        k{std::span<const int>(b.k)},
        list_offset{std::span<const long long>(b.list_offset)},
        slot_offset{std::span<const long long>(b.slot_offset)},
        bits_offset{std::span<const long long>(b.bits_offset)},
        budget{std::span<const long long>(b.budget)},
        target{std::span<const long long>(b.target)},
        lengths{std::span<const long long>(b.lengths)},
        kicks(static_cast<size_t>(slots)),
        seed{std::span<const unsigned long long>(b.seed)},
        lists{std::span<const int32_t>(b.lists)},
        tours{std::span<const int32_t>(b.tours)},
        kept(static_cast<size_t>(b.slot_total)),
        pos(static_cast<size_t>(b.slot_total)),
        ring(static_cast<size_t>(b.slot_total)),
        bits(static_cast<size_t>(b.bits_total)),
        done{std::span<const int>(std::vector<int>(b.n.size(), 0))} {
    CUDA_CHECK(cudaMemset(bits.data(), 0, bits.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(pos.data(), 0, pos.size() * sizeof(int32_t)));  // staged before the first climb sets it
    CUDA_CHECK(cudaMemset(kept.data(), 0, kept.size() * sizeof(int32_t)));
    CUDA_CHECK(cudaMemset(kicks.data(), 0, kicks.size() * sizeof(long long)));
  }

  WalkArgs args(const WalkPlan& plan, int slots, int lanes) {
    WalkArgs a;
    a.slots = slots;
    a.walks = plan.walks;
    a.kick_segment = plan.kick_segment;
    a.lanes = lanes;
    a.views = views.data();
    a.n = n.data();
    a.k = k.data();
    a.list_offset = list_offset.data();
    a.lists = lists.data();
    a.slot_offset = slot_offset.data();
    a.bits_offset = bits_offset.data();
    a.tours = tours.data();
    a.kept = kept.data();
    a.pos = pos.data();
    a.ring = ring.data();
    a.bits = bits.data();
    a.lengths = lengths.data();
    a.kicks = kicks.data();
    a.budget = budget.data();
    a.target = target.data();
    a.seed = seed.data();
    a.done = done.data();
    return a;
  }
};

/// The launch for a packed batch (choose_launch by its largest instance and lists).
Launch batch_launch(std::span<const PlannedInstance> instances, const HostBatch& b, const WalkPlan& plan,
                    int slots) {
  const bool euc_2d = std::all_of(instances.begin(), instances.end(), [](const PlannedInstance& p) {
    return p.instance->type() == EdgeWeightType::Euc2D;
  });
  int cities = 0, list_ints = 0, coordinates = 2;
  for (size_t i = 0; i < instances.size(); ++i) {
    cities = std::max(cities, b.n[i]);
    list_ints = std::max(list_ints, b.n[i] * b.k[i]);
    if (instances[i].instance->type() == EdgeWeightType::Euc3D) coordinates = 3;
  }
  const int max_k = *std::max_element(b.k.begin(), b.k.end());
  return choose_launch(cities, list_ints, coordinates, max_k, euc_2d, plan.moves, slots, plan.walks);
}

/// What the walks of a batch have done so far, read back from the device between launches.
struct WalkLedger {
  std::vector<WalkOutcome> outcomes;
  std::vector<long long> lengths, kicks;
  std::vector<uint8_t> interrupted, timed_out;  // per instance
  std::vector<double> ended;                    // per instance: seconds since the plan's start
  std::vector<int> done;                        // per instance

  WalkLedger(int count, int slots)
      : outcomes(static_cast<size_t>(slots)),
        kicks(static_cast<size_t>(slots), 0),
        interrupted(static_cast<size_t>(count), 0),
        timed_out(static_cast<size_t>(count), 0),
        ended(static_cast<size_t>(count), 0.0),
        done(static_cast<size_t>(count), 0) {}

  /// Lengths and kicks back; every walk's improvement into its history.
  void record(const DeviceBatch& d, const WalkPlan& plan) {
    lengths = d.lengths.download();
    kicks = d.kicks.download();
    const double now = seconds_since(plan.start);
    for (size_t s = 0; s < outcomes.size(); ++s) {
      WalkOutcome& o = outcomes[s];
      if (o.history.empty() || lengths[s] < o.history.back().length) o.history.push_back({kicks[s], now, lengths[s]});
    }
  }

  /// Marks done the instances whose walks have spent their kicks or whose deadline passed (all
  /// of them when the plan's interrupt is set), after those whose walks met the target (`done` as
  /// the device left it). Returns how many are done.
  int finish(std::span<const PlannedInstance> instances, const HostBatch& b, const WalkPlan& plan) {
    const int count = static_cast<int>(instances.size()), walks = plan.walks;
    const auto now = std::chrono::steady_clock::now();
    const bool stop = plan.interrupt != nullptr && plan.interrupt->load(std::memory_order_relaxed);
    int finished = 0;
    for (int i = 0; i < count; ++i) {
      if (!done[i]) {
        const bool spent = std::all_of(kicks.begin() + static_cast<ptrdiff_t>(i) * walks,
                                       kicks.begin() + static_cast<ptrdiff_t>(i + 1) * walks,
                                       [&](long long k) { return k >= b.budget[i]; });
        if (stop) interrupted[i] = 1;
        else if (now >= instances[i].deadline) timed_out[i] = 1;
        if (stop || spent || now >= instances[i].deadline || b.n[i] < localsearch::kMinKickCities) {
          done[i] = 1;
          ended[i] = seconds_since(plan.start);
        }
      } else if (ended[i] == 0.0) {
        ended[i] = seconds_since(plan.start);
      }
      finished += done[i];
    }
    return finished;
  }

  /// Every walk's kept tour and what it did, each tour's length checked on the host.
  std::vector<WalkOutcome> outcomes_of(std::span<const PlannedInstance> instances, const HostBatch& b,
                                       const DeviceBatch& d, int walks, int threads) {
    const std::vector<int32_t> kept = d.kept.download();
    // Every tour's length checked on the host threads (64 walks of 200,000 cities: 13 million
    // distances, after the deadline); a mismatch is thrown from this thread.
    std::atomic<int> wrong{-1};
    for_each_index(static_cast<int>(outcomes.size()), std::max(threads, 1), [&](int s) {
      const int i = s / walks, n = b.n[i];
      WalkOutcome& o = outcomes[s];
      o.tour.assign(kept.begin() + b.slot_offset[s], kept.begin() + b.slot_offset[s] + n);
      o.length = lengths[s];
      o.kicks = kicks[s];
      o.interrupted = interrupted[i] != 0;
      o.timed_out = timed_out[i] != 0;
      o.seconds = ended[i];
      if (tour_length(*instances[i].instance, o.tour) != o.length) wrong.store(s);
    });
    if (const int s = wrong.load(); s >= 0)
      throw std::logic_error(concat("the GPU walk's length does not match its tour (instance ", s / walks, ", walk ",
                                    s % walks, ")"));
    return std::move(outcomes);
  }
};

}  // namespace

size_t walks_bytes(std::span<const PlannedInstance> instances, int walks) {
  size_t bytes = 0;
  for (const PlannedInstance& p : instances) {
    const size_t n = static_cast<size_t>(p.instance->n());
    const size_t distances = p.instance->type() == EdgeWeightType::Explicit ? n * n * 4 : n * 24;  // x, y, z in double
    bytes += distances + n * static_cast<size_t>(p.lists.k()) * 4 + 64;
    bytes += static_cast<size_t>(walks) * (4 * n * 4 + (n + 31) / 32 * 4 + 32);
  }
  return bytes;
}

std::vector<WalkOutcome> run_walks(std::span<const PlannedInstance> instances, const WalkPlan& plan,
                                   std::string* layout_note) {
  const int count = static_cast<int>(instances.size()), walks = plan.walks, slots = count * walks;
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  expect_memory(walks_bytes(instances, walks), capped_memory(free_bytes) / 10 * 9,
                concat("the batch's ", slots, " walks on the GPU"));
  const HostBatch b = pack_batch(instances, walks, plan.threads, plan.interrupt);
  DeviceBatch d(b, slots);
  const Launch launch = batch_launch(instances, b, plan, slots);
  if (layout_note != nullptr) *layout_note = launch.describe();
  const WalkArgs args = d.args(plan, slots, launch.lanes);
  const int blocks = (slots + launch.walks_per_block() - 1) / launch.walks_per_block();
  const size_t shared_bytes = launch.shared_bytes();

  // Every walk climbs its start tour, then kicks in launches of per_launch kicks each (doubled or
  // halved towards kLaunchTargetMs a launch) until every instance is done.
  // The start climbs of a million cities' walks take seconds in one launch: they read a stop in
  // mapped memory, raised at the last instance's deadline (or an interrupt), when every instance is
  // done anyway and no kick follows (WalkLedger::finish).
  WalkLedger ledger(count, slots);
  formica::cuda::MappedStop climb_stop;
  const auto last_deadline = std::max_element(instances.begin(), instances.end(), [](const auto& a, const auto& b) {
                               return a.deadline < b.deadline;
                             })->deadline;
  const StopFlag until_last{plan.interrupt, last_deadline};
  WalkArgs climb_args = args;
  climb_args.stop = climb_stop.device();
  launch.kernels.climb<<<blocks, kWarpsPerBlock * 32, shared_bytes>>>(climb_args, launch.layout);
  CUDA_CHECK_LAUNCH();
  climb_stop.wait(nullptr, &until_last, kClimbPoll);
  ledger.record(d, plan);
  int per_launch = 1;
  for (;;) {
    ledger.done = d.done.download();
    const int finished = ledger.finish(instances, b, plan);
    if (plan.on_progress) plan.on_progress(finished);
    if (finished == count) break;
    d.done.upload(ledger.done);
    const auto launched = std::chrono::steady_clock::now();
    launch.kernels.kick<<<blocks, kWarpsPerBlock * 32, shared_bytes>>>(args, launch.layout, per_launch);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - launched).count();
    if (ms < kLaunchTargetMs / 2 && per_launch < kMaxKicksPerLaunch) per_launch *= 2;
    else if (ms > 2 * kLaunchTargetMs && per_launch > 1) per_launch /= 2;
    ledger.record(d, plan);
  }
  return ledger.outcomes_of(instances, b, d, walks, plan.threads);
}

}  // namespace formica::batch::cuda
