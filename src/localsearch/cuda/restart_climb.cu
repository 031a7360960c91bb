// SPDX-License-Identifier: MIT
// The block-per-tour climber (see restart_climb.h; Robinson et al. sections 3.1 to 3.4).
//
// One kernel launch climbs a batch of restarts. Each block loops: take restarts from the queue,
// build the start tour in its own memory, climb it (fast float passes until none improves, then
// exact double passes until none improves, so the result is a 2-opt local optimum of the exact
// TSPLIB metric), record its exact length, keep the block's best tour. A pass is: the tour's points
// rebuilt, the search of two_opt_pass.cuh, every thread's best move as a candidate, then k-swap
// (k_swap.cuh) and the parallel reversal. With neighbour lists, the climb first runs the
// neighbour-list passes of neighbour_list_pass.cuh (O(n k) each) until no listed move improves, and
// the full passes only finish and certify the local optimum.
#include <algorithm>
#include <bit>
#include <chrono>
#include <limits>
#include <thread>

#include "core/error.h"
#include "cuda/block_barrier.cuh"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "localsearch/cuda/device_instance.cuh"
#include "localsearch/cuda/k_swap.cuh"
#include "localsearch/cuda/neighbour_list_pass.cuh"
#include "localsearch/cuda/random_start.cuh"
#include "localsearch/cuda/restart_climb.h"
#include "localsearch/cuda/two_opt_pass.cuh"
#include "localsearch/start_tour.h"

namespace formica::localsearch::cuda {
namespace {

using formica::cuda::DeviceBuffer;

constexpr long long kPollCycles = 1ll << 20;  // about half a millisecond between stop checks

struct ClimbParams {
  DeviceCities cities;
  int n = 0;
  int tile_bytes = 0;  // per warp
  int chunk_fast = 0, chunk_exact = 0;
  int k_swap = 0;
  int queue = 0;
  int max_fast_passes = 0;
  uint64_t seed = 0;
  int64_t first_restart = 0;
  int count = 0;
  int* queue_counter = nullptr;
  const int32_t* start_tours = nullptr;  // count x n, or null for random starts
  int32_t* tours = nullptr;              // blocks x n
  int32_t* best_tours = nullptr;         // blocks x n
  unsigned char* points = nullptr;       // blocks x points_stride bytes
  size_t points_stride = 0;
  int64_t* lengths = nullptr;            // count
  int64_t* passes = nullptr;             // count
  int64_t* moves = nullptr;              // count
  int64_t* block_best = nullptr;         // blocks x (length, restart)
  const volatile int* stop = nullptr;    // host-mapped; set by the host to stop early
  int* aborted = nullptr;
  // The neighbour-list pre-climb; off when neighbours is null.
  const int32_t* neighbours = nullptr;   // n x k_neighbours, nearest first
  int k_neighbours = 0;
  int32_t* positions = nullptr;          // blocks x n: city -> position in the block's tour
  uint8_t* active = nullptr;             // blocks x n: don't-look bits (0: skip the city)
  int64_t* neighbour_passes = nullptr;   // count
};

/// What a block keeps between passes and restarts. It lives in shared memory, written by thread 0
/// between barriers, so that the search loop has every register to itself.
struct BlockState {
  int64_t best_length, best_restart;  // the block's best restart so far
  int64_t passes, moves;              // of the current climb (passes: full passes)
  int64_t neighbour_passes;           // of the current climb
  long long last_poll;                // clock64() at the last look at the stop flag
  int next_static;                    // the next restart of this block without a queue
  int first, end;                     // restarts taken from the queue
  int abort, better, exact_phase, fast_passes;
};

/// Byte offsets of the kernel's dynamic shared memory.
struct SharedLayout {
  size_t tiles, keys, moves, kept, survivors, scratch64, prefix, ints, state, bitmap, total;
};

enum Int : int { kKeptCount, kKeptSwaps, kCounts, kInts = kCounts + 33 };

__host__ __device__ inline size_t align16(size_t bytes) { return (bytes + 15) & ~size_t{15}; }

__host__ __device__ inline SharedLayout shared_layout(int threads, int tile_bytes, int n) {
  SharedLayout s{};
  const size_t t = static_cast<size_t>(threads);
  s.tiles = 0;
  s.keys = align16(s.tiles + t / 32 * static_cast<size_t>(tile_bytes));
  s.moves = align16(s.keys + t * sizeof(unsigned long long));
  s.kept = align16(s.moves + t * sizeof(int2));
  s.survivors = align16(s.kept + t * sizeof(int2));
  s.scratch64 = align16(s.survivors + t * sizeof(int2));
  s.prefix = align16(s.scratch64 + 33 * sizeof(unsigned long long));
  s.ints = align16(s.prefix + (t + 1) * sizeof(int));
  s.state = align16(s.ints + kInts * sizeof(int));
  s.bitmap = align16(s.state + sizeof(BlockState));
  s.total = align16(s.bitmap + static_cast<size_t>(select_bitmap_words(n)) * sizeof(uint32_t));
  return s;
}

/// Pointers into the dynamic shared memory.
struct Shared {
  unsigned char* tiles;
  unsigned long long* keys;
  int2* moves;
  int2* kept;
  unsigned long long* scratch64;
  int* prefix;
  int* ints;
  BlockState* state;
  SelectScratch select;

  __device__ Shared(unsigned char* base, const SharedLayout& s)
      : tiles(base + s.tiles),
        keys(reinterpret_cast<unsigned long long*>(base + s.keys)),
        moves(reinterpret_cast<int2*>(base + s.moves)),
        kept(reinterpret_cast<int2*>(base + s.kept)),
        scratch64(reinterpret_cast<unsigned long long*>(base + s.scratch64)),
        prefix(reinterpret_cast<int*>(base + s.prefix)),
        ints(reinterpret_cast<int*>(base + s.ints)),
        state(reinterpret_cast<BlockState*>(base + s.state)),
        select{reinterpret_cast<uint32_t*>(base + s.bitmap), reinterpret_cast<int2*>(base + s.survivors),
               ints + kCounts, ints + kKeptCount, ints + kKeptSwaps} {}
};

/// Builds the points of `tour` for `metric` and runs the search; returns this thread's candidate
/// key (0 when it found no improving move) and move.
template <class Metric>
__device__ void search_pass(const Metric& metric, const ClimbParams& p, const int32_t* tour, unsigned char* points_raw,
                            unsigned char* tiles, int chunk, unsigned long long& key, int2& move) {
  using Point = typename Metric::Point;
  Point* points = reinterpret_cast<Point*>(points_raw);
  build_points(metric, p.cities, tour, p.n, points, static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x));
  formica::cuda::block_barrier();
  const int warp = threadIdx.x >> 5;
  Point* tile = reinterpret_cast<Point*>(tiles + static_cast<size_t>(warp) * p.tile_bytes);
  LaneBest<typename Metric::Value> best;
  search_units<Metric::kRows>(metric, points, tile, PassShape{p.n, chunk}, warp, static_cast<int>(blockDim.x >> 5),
                              best);
  key = best.j >= 0 ? candidate_key(best.gain, threadIdx.x) : 0ull;
  move = make_int2(best.i, best.j);
}

/// Block-wide exact sum of the costs the exact points hold: the tour's exact length.
template <class Exact>
__device__ int64_t exact_length(const typename Exact::Point* points, int n, unsigned long long* scratch64) {
  double sum = 0.0;
  for (int p = threadIdx.x; p < n; p += blockDim.x) sum += Exact::cost(points[p]);
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, offset);
  double* partial = reinterpret_cast<double*>(scratch64);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = sum;
  formica::cuda::block_barrier();
  if (warp == 0) {
    sum = lane < static_cast<int>(blockDim.x >> 5) ? partial[lane] : 0.0;
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, offset);
    if (lane == 0) partial[32] = sum;
  }
  formica::cuda::block_barrier();
  const int64_t length = llround(partial[32]);  // a sum of integers below 2^53: exact
  formica::cuda::block_barrier();
  return length;
}

/// Thread 0 looks at the host's stop flag (at most every kPollCycles); the block reads st.abort
/// after the next barrier.
__device__ inline void poll_stop(const ClimbParams& p, BlockState& st) {
  if (threadIdx.x != 0) return;
  st.abort = 0;
  if (p.stop != nullptr && clock64() - st.last_poll > kPollCycles) {
    st.last_poll = clock64();
    if (*p.stop != 0) st.abort = 1;
  }
}

/// Keeps and applies the pass's moves: every thread's candidate is in sh.keys / sh.moves (its own
/// `key` too), m of them improving. k = 1 takes the best by a reduction, else the keys are sorted
/// and the k-swap selection keeps the best disjoint ones; on_keep(move) runs for each kept move
/// before the tour changes. Then the kept moves' segments are reversed (`pos` kept up to date when
/// given). Returns the number of moves kept; the caller puts a barrier before the tour is read.
template <class OnKeep>
__device__ int apply_pass(const ClimbParams& p, unsigned long long key, int m, int32_t* tour, int32_t* pos,
                          const Shared& sh, OnKeep on_keep) {
  const int tid = threadIdx.x;
  if (p.k_swap == 1) {  // the original algorithm: the one best move (a reduction, no sort)
    const unsigned long long top = block_max(key, sh.scratch64);
    if (tid == 0) {
      const int2 best = sh.moves[candidate_id(top)];
      on_keep(best);
      sh.kept[0] = best;
      sh.prefix[0] = 0;
      sh.prefix[1] = sh.ints[kKeptSwaps] = (best.y - best.x) / 2;
      sh.ints[kKeptCount] = 1;
    }
    formica::cuda::block_barrier();
  } else {
    bitonic_sort_descending(sh.keys);
    const unsigned long long* keys = sh.keys;
    const int2* moves = sh.moves;
    select_disjoint([keys, moves](int c) { return moves[candidate_id(keys[c])]; }, m, p.k_swap, p.n, sh.select,
                    sh.kept, sh.prefix, on_keep);
  }
  const int kept = sh.ints[kKeptCount], swaps = sh.ints[kKeptSwaps];
  reverse_segments(tour, pos, sh.kept, sh.prefix, kept, swaps, tid, static_cast<int>(blockDim.x));
  return kept;
}

/// The neighbour-list pre-climb (neighbour_list_pass.cuh: Bentley's lists with the gain criterion
/// and don't-look bits) in the fast metric: every active city offers its best improving listed
/// move, each thread its best offer, and the pass keeps and applies them as a full pass does. A
/// pass costs O(n k) instead of O(n^2), and from a random start these passes make most of the
/// climb. Returns true when no city offers a move (every kept move lowers the float length, so that
/// comes), false when the host asked to stop. Ends after a barrier with no read of the block state
/// after it, so the caller may write that state at once.
template <class Fast>
__device__ bool neighbour_climb(const ClimbParams& p, const Fast& fast, int32_t* tour, const Shared& sh) {
  using Value = typename Fast::Value;
  const int tid = threadIdx.x, threads = static_cast<int>(blockDim.x), n = p.n;
  int32_t* pos = p.positions + static_cast<size_t>(blockIdx.x) * n;
  uint8_t* active = p.active + static_cast<size_t>(blockIdx.x) * n;
  BlockState& st = *sh.state;
  for (int q = tid; q < n; q += threads) pos[tour[q]] = q, active[q] = 1;
  for (;;) {
    poll_stop(p, st);
    formica::cuda::block_barrier();
    if (st.abort != 0) return false;
    unsigned long long key = 0;
    int2 move = make_int2(-1, -1);
    for (int a = tid; a < n; a += threads) {
      if (active[a] == 0) continue;
      Value gain;
      int2 offer;
      best_neighbour_move(fast, p.cities, tour, pos, p.neighbours, p.k_neighbours, n, a, gain, offer);
      if (offer.x < 0) {
        active[a] = 0;  // don't look at a again until a kept move touches it
        continue;
      }
      const unsigned long long offered = candidate_key(gain, static_cast<unsigned>(tid));
      if (offered > key) key = offered, move = offer;
    }
    sh.keys[tid] = key;
    sh.moves[tid] = move;
    const int m = formica::cuda::block_barrier_count(key != 0ull);
    if (m == 0) return true;
    const int kept = apply_pass(p, key, m, tour, pos, sh, [tour, active, n](int2 kept_move) {
      active[tour[kept_move.x]] = 1;  // the four cities whose tour edges change
      active[tour[kept_move.x + 1]] = 1;
      active[tour[kept_move.y]] = 1;
      active[tour[kept_move.y + 1 == n ? 0 : kept_move.y + 1]] = 1;
    });
    if (tid == 0) ++st.neighbour_passes, st.moves += kept;
    formica::cuda::block_barrier();
  }
}

/// Climbs the block's tour to a 2-opt local optimum of the exact metric (the neighbour-list
/// pre-climb first when the params have lists). On return, sh.state holds the climb's passes and
/// moves and sh.state->abort says whether the host asked to stop; thread 0 gets the exact length.
template <class Fast, class Exact>
__device__ int64_t climb_tour(const ClimbParams& p, const Fast& fast, const Exact& exact, int32_t* tour,
                              unsigned char* points, const Shared& sh) {
  const int tid = threadIdx.x;
  BlockState& st = *sh.state;
  if (tid == 0) st.passes = st.moves = st.neighbour_passes = 0, st.exact_phase = st.fast_passes = 0;
  if (p.neighbours != nullptr && !neighbour_climb(p, fast, tour, sh)) return 0;  // st.abort is set
  for (;;) {
    poll_stop(p, st);
    formica::cuda::block_barrier();
    if (st.abort != 0) return 0;
    unsigned long long key = 0;
    int2 move = make_int2(-1, -1);
    const bool exact_phase = st.exact_phase != 0;
    if (!exact_phase) search_pass(fast, p, tour, points, sh.tiles, p.chunk_fast, key, move);
    else search_pass(exact, p, tour, points, sh.tiles, p.chunk_exact, key, move);
    sh.keys[tid] = key;
    sh.moves[tid] = move;
    const int m = formica::cuda::block_barrier_count(key != 0ull);
    if (tid == 0) ++st.passes;
    if (m == 0) {
      if (!exact_phase) {  // the float climb is done; the exact passes certify or finish it
        if (tid == 0) st.exact_phase = 1;
        formica::cuda::block_barrier();
        continue;
      }
      return exact_length<Exact>(reinterpret_cast<const typename Exact::Point*>(points), p.n, sh.scratch64);
    }
    const int kept = apply_pass(p, key, m, tour, nullptr, sh, [](int2) {});
    if (tid == 0) {
      st.moves += kept;
      // A safety net that never triggers: every fast pass lowers the float length by at least 1.
      if (!exact_phase && ++st.fast_passes >= p.max_fast_passes) st.exact_phase = 1;
    }
    formica::cuda::block_barrier();
  }
}

template <class Fast, class Exact>
__global__ void __launch_bounds__(1024) restart_climb_kernel(ClimbParams p, Fast fast, Exact exact) {
  extern __shared__ __align__(16) unsigned char shared_memory[];
  const Shared sh(shared_memory, shared_layout(static_cast<int>(blockDim.x), p.tile_bytes, p.n));
  BlockState& st = *sh.state;
  const int tid = threadIdx.x, n = p.n;
  int32_t* tour = p.tours + static_cast<size_t>(blockIdx.x) * n;
  int32_t* best_tour = p.best_tours + static_cast<size_t>(blockIdx.x) * n;
  unsigned char* points = p.points + static_cast<size_t>(blockIdx.x) * p.points_stride;
  if (tid == 0) {
    st.best_length = std::numeric_limits<int64_t>::max();
    st.best_restart = -1;
    st.next_static = blockIdx.x;
    st.last_poll = clock64();
  }
  for (;;) {
    if (tid == 0) {
      if (p.queue > 0) {  // the work queue: Q restarts per atomic fetch (section 3.3.2)
        st.first = atomicAdd(p.queue_counter, p.queue);
        st.end = min(st.first + p.queue, p.count);
      } else {            // no queue: restarts dealt evenly, block b takes b, b + grid, ...
        st.first = st.next_static;
        st.end = min(st.first + 1, p.count);
        st.next_static += gridDim.x;
      }
    }
    formica::cuda::block_barrier();
    const int first = st.first, end = st.end;
    if (first >= end) break;
    for (int r = first; r < end; ++r) {
      if (p.start_tours == nullptr) {
        write_random_start(tour, n, random_start_key(p.seed, p.first_restart + r), tid, static_cast<int>(blockDim.x));
      } else {
        const int32_t* start = p.start_tours + static_cast<size_t>(r) * n;
        for (int q = tid; q < n; q += blockDim.x) tour[q] = start[q];
      }
      formica::cuda::block_barrier();
      const int64_t length = climb_tour(p, fast, exact, tour, points, sh);
      if (st.abort != 0) {
        if (tid == 0) atomicExch(p.aborted, 1);
        return;
      }
      if (tid == 0) {
        p.lengths[r] = length;
        p.passes[r] = st.passes;
        p.moves[r] = st.moves;
        p.neighbour_passes[r] = st.neighbour_passes;
        const int64_t restart = p.first_restart + r;
        const bool better = length < st.best_length || (length == st.best_length && restart < st.best_restart);
        if (better) st.best_length = length, st.best_restart = restart;
        st.better = better ? 1 : 0;
      }
      formica::cuda::block_barrier();
      if (st.better != 0)
        for (int q = tid; q < n; q += blockDim.x) best_tour[q] = tour[q];
      formica::cuda::block_barrier();
    }
  }
  if (tid == 0) {
    p.block_best[2 * blockIdx.x] = st.best_length;
    p.block_best[2 * blockIdx.x + 1] = st.best_restart;
  }
}

/// One pass only, for device_pass_candidates: every thread's key and move.
template <class Metric>
__global__ void __launch_bounds__(1024) single_pass_kernel(ClimbParams p, Metric metric, int chunk, const int32_t* tour,
                                                           unsigned long long* keys, int2* moves) {
  extern __shared__ __align__(16) unsigned char shared_memory[];
  const Shared sh(shared_memory, shared_layout(static_cast<int>(blockDim.x), p.tile_bytes, p.n));
  unsigned long long key = 0;
  int2 move = make_int2(-1, -1);
  search_pass(metric, p, tour, p.points, sh.tiles, chunk, key, move);
  keys[threadIdx.x] = key;
  moves[threadIdx.x] = move;
}

__global__ void random_start_kernel(int32_t* tour, int n, uint64_t key) {
  write_random_start(tour, n, key, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                     static_cast<int>(gridDim.x * blockDim.x));
}

/// Per-warp tile bytes of a shape: S elements of 16 bytes shared by the warps, rounded down to
/// whole 32-byte exact points, at least 33 fast points.
int tile_bytes_of(const BlockShape& shape) {
  const int warps = shape.threads / 32;
  const int bytes = shape.tile / warps * 16;
  return std::max(33 * 16, bytes / 32 * 32);
}

template <class Point>
int chunk_of(int tile_bytes) {
  return tile_bytes / static_cast<int>(sizeof(Point)) - 1;
}

size_t shared_bytes(const BlockShape& shape, int n) { return shared_layout(shape.threads, tile_bytes_of(shape), n).total; }

template <class Kernel>
void allow_shared(Kernel kernel, size_t bytes) {
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

size_t point_stride(int n) { return align16((static_cast<size_t>(n) + 1) * std::max(sizeof(ExactPoint), sizeof(float4))); }

}  // namespace

int resident_blocks_per_sm(const DeviceCities& cities, BlockShape shape) {
  const size_t bytes = shared_bytes(shape, cities.n);
  return with_metrics(cities, [&](auto fast, auto exact) {
    const auto kernel = restart_climb_kernel<decltype(fast), decltype(exact)>;
    allow_shared(kernel, bytes);
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, shape.threads, bytes));
    return blocks;
  });
}

struct BlockPerTourClimber::State {
  const DeviceInstance& cities;
  TwoOptConfig config;
  BlockShape shape;
  int blocks = 0;
  size_t shared = 0;
  DeviceBuffer<int32_t> tours, best_tours;
  DeviceBuffer<unsigned char> points;
  DeviceBuffer<int64_t> block_best;
  DeviceBuffer<int> counters;  // queue counter, aborted
  DeviceBuffer<int64_t> lengths, passes, moves, neighbour_passes;
  DeviceBuffer<int32_t> start_tours;
  DeviceBuffer<int32_t> neighbours, positions;  // the pre-climb's lists and every block's positions
  DeviceBuffer<uint8_t> active;                 // every block's don't-look bits
  int k_neighbours = 0;
  int* stop_host = nullptr;  // pinned, mapped

  State(const DeviceInstance& c, const TwoOptConfig& cfg, BlockShape s) : cities(c), config(cfg), shape(s) {}
  ~State() {
    if (stop_host != nullptr) cudaFreeHost(stop_host);
  }
};

BlockPerTourClimber::BlockPerTourClimber(const DeviceInstance& cities, const TwoOptConfig& config, BlockShape shape,
                                         std::span<const int32_t> neighbour_lists, int neighbours_per_city)
    : state_(std::make_unique<State>(cities, config, shape)) {
  State& s = *state_;
  const int n = cities.n();
  const bool lists = !neighbour_lists.empty();
  FORMICA_EXPECTS(!lists || (neighbours_per_city > 0 && neighbour_lists.size() == static_cast<size_t>(n) *
                                                                                  static_cast<size_t>(neighbours_per_city)),
                  "neighbour lists must be n x k cities, got ", neighbour_lists.size(), " for n = ", n, ", k = ",
                  neighbours_per_city);
  FORMICA_EXPECTS(shape.threads >= 32 && shape.threads <= 1024 && (shape.threads & (shape.threads - 1)) == 0,
                  "threads per block must be a power of two in [32, 1024], got ", shape.threads);
  int device = 0, sms = 0, max_shared = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  s.shared = shared_bytes(shape, n);
  FORMICA_EXPECTS(s.shared <= static_cast<size_t>(max_shared), "--tile ", shape.tile, " with ", shape.threads,
                  " threads per block needs ", s.shared, " bytes of shared memory per block; this GPU has ",
                  max_shared);
  const int per_sm = resident_blocks_per_sm(cities.view(), shape);
  FORMICA_EXPECTS(per_sm > 0, "no block of ", shape.threads, " threads fits on a multiprocessor");
  // Every block owns two tours and the points of one (section 3.3.1); keep that under half the
  // free memory, with fewer blocks if need be.
  size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  const size_t per_block = 2 * static_cast<size_t>(n) * sizeof(int32_t) + point_stride(n) +
                           (lists ? static_cast<size_t>(n) * (sizeof(int32_t) + sizeof(uint8_t)) : 0);
  const size_t affordable = free_bytes / 2 / per_block;
  if (affordable == 0)
    throw OutOfMemoryError(concat("one 2-opt block needs ", per_block >> 20, " MiB and only ", free_bytes >> 20,
                                  " MiB are free"));
  s.blocks = static_cast<int>(std::min<size_t>(static_cast<size_t>(per_sm) * static_cast<size_t>(sms), affordable));
  s.tours = DeviceBuffer<int32_t>(static_cast<size_t>(s.blocks) * n);
  s.best_tours = DeviceBuffer<int32_t>(static_cast<size_t>(s.blocks) * n);
  s.points = DeviceBuffer<unsigned char>(static_cast<size_t>(s.blocks) * point_stride(n));
  s.block_best = DeviceBuffer<int64_t>(2 * static_cast<size_t>(s.blocks));
  if (lists) {
    s.neighbours = DeviceBuffer<int32_t>(neighbour_lists);
    s.k_neighbours = neighbours_per_city;
    s.positions = DeviceBuffer<int32_t>(static_cast<size_t>(s.blocks) * n);
    s.active = DeviceBuffer<uint8_t>(static_cast<size_t>(s.blocks) * n);
  }
  s.counters = DeviceBuffer<int>(2);
  CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&s.stop_host), sizeof(int), cudaHostAllocMapped));
  *s.stop_host = 0;
}

BlockPerTourClimber::~BlockPerTourClimber() = default;

int BlockPerTourClimber::blocks() const { return state_->blocks; }
const BlockShape& BlockPerTourClimber::shape() const { return state_->shape; }

bool BlockPerTourClimber::climb(int64_t first, int64_t count, std::span<const int32_t> start_tours,
                                const StopFlag& stop, RestartBatchResult& out) {
  State& s = *state_;
  const int n = s.cities.n();
  FORMICA_EXPECTS(count >= 1 && count <= std::numeric_limits<int>::max() / 2, "bad restart batch size ", count);
  if (s.lengths.size() < static_cast<size_t>(count)) {
    s.lengths = DeviceBuffer<int64_t>(static_cast<size_t>(count));
    s.passes = DeviceBuffer<int64_t>(static_cast<size_t>(count));
    s.moves = DeviceBuffer<int64_t>(static_cast<size_t>(count));
    s.neighbour_passes = DeviceBuffer<int64_t>(static_cast<size_t>(count));
  }
  const bool given_starts = !start_tours.empty();
  if (given_starts) {
    FORMICA_EXPECTS(start_tours.size() == static_cast<size_t>(count) * n, "start tours must be count x n cities");
    if (s.start_tours.size() < start_tours.size()) s.start_tours = DeviceBuffer<int32_t>(start_tours.size());
    s.start_tours.upload(start_tours);
  }
  CUDA_CHECK(cudaMemset(s.counters.data(), 0, 2 * sizeof(int)));
  *s.stop_host = 0;
  int* stop_device = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&stop_device), s.stop_host, 0));

  ClimbParams p;
  p.cities = s.cities.view();
  p.n = n;
  p.tile_bytes = tile_bytes_of(s.shape);
  p.k_swap = s.config.k_swap;
  p.queue = s.config.queue;
  p.max_fast_passes = 10 * n + 1000;  // never reached: each pass lowers the float length by 1 or more
  p.seed = s.config.seed;
  p.first_restart = first;
  p.count = static_cast<int>(count);
  p.queue_counter = s.counters.data();
  p.aborted = s.counters.data() + 1;
  p.start_tours = given_starts ? s.start_tours.data() : nullptr;
  p.tours = s.tours.data();
  p.best_tours = s.best_tours.data();
  p.points = s.points.data();
  p.points_stride = point_stride(n);
  p.lengths = s.lengths.data();
  p.passes = s.passes.data();
  p.moves = s.moves.data();
  p.block_best = s.block_best.data();
  p.stop = stop_device;
  if (s.k_neighbours > 0) {
    p.neighbours = s.neighbours.data();
    p.k_neighbours = s.k_neighbours;
    p.positions = s.positions.data();
    p.active = s.active.data();
  }
  p.neighbour_passes = s.neighbour_passes.data();
  const int grid = static_cast<int>(std::min<int64_t>(s.blocks, count));

  cudaEvent_t started, finished;
  CUDA_CHECK(cudaEventCreate(&started));
  CUDA_CHECK(cudaEventCreate(&finished));
  with_metrics(p.cities, [&](auto fast, auto exact) {
    using Fast = decltype(fast);
    using Exact = decltype(exact);
    p.chunk_fast = chunk_of<typename Fast::Point>(p.tile_bytes);
    p.chunk_exact = chunk_of<typename Exact::Point>(p.tile_bytes);
    const auto kernel = restart_climb_kernel<Fast, Exact>;
    allow_shared(kernel, s.shared);
    CUDA_CHECK(cudaEventRecord(started));
    kernel<<<grid, s.shape.threads, s.shared>>>(p, fast, exact);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(finished));
  });
  // Wait, raising the stop flag the kernel polls if the caller asks to stop.
  for (;;) {
    const cudaError_t state = cudaEventQuery(finished);
    if (state == cudaSuccess) break;
    if (state != cudaErrorNotReady) CUDA_CHECK(state);
    if (*s.stop_host == 0 && stop.requested()) *s.stop_host = 1;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, started, finished));
  CUDA_CHECK(cudaEventDestroy(started));
  CUDA_CHECK(cudaEventDestroy(finished));
  int aborted = 0;
  CUDA_CHECK(cudaMemcpy(&aborted, s.counters.data() + 1, sizeof(int), cudaMemcpyDeviceToHost));
  if (aborted != 0) return false;

  out = RestartBatchResult{};
  out.kernel_ms = ms;
  out.lengths.resize(static_cast<size_t>(count));
  std::vector<int64_t> passes(static_cast<size_t>(count)), moves(static_cast<size_t>(count)),
      neighbour_passes(static_cast<size_t>(count));
  CUDA_CHECK(cudaMemcpy(out.lengths.data(), s.lengths.data(), count * sizeof(int64_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(passes.data(), s.passes.data(), count * sizeof(int64_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(moves.data(), s.moves.data(), count * sizeof(int64_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(neighbour_passes.data(), s.neighbour_passes.data(), count * sizeof(int64_t),
                        cudaMemcpyDeviceToHost));
  int64_t best = 0;
  for (int64_t r = 0; r < count; ++r) {
    if (out.lengths[r] < out.lengths[best]) best = r;
    out.passes += passes[r];
    out.moves += moves[r];
    out.neighbour_passes += neighbour_passes[r];
  }
  out.best_restart = first + best;
  out.best_length = out.lengths[best];
  // The block that climbed the best restart holds it as its own best (it is the least of its own).
  std::vector<int64_t> block_best(2 * static_cast<size_t>(grid));
  CUDA_CHECK(cudaMemcpy(block_best.data(), s.block_best.data(), block_best.size() * sizeof(int64_t),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; ++b)
    if (block_best[2 * b + 1] == out.best_restart) {
      out.best_tour.resize(static_cast<size_t>(n));
      CUDA_CHECK(cudaMemcpy(out.best_tour.data(), s.best_tours.data() + static_cast<size_t>(b) * n,
                            n * sizeof(int32_t), cudaMemcpyDeviceToHost));
      break;
    }
  if (out.best_tour.empty())
    throw std::logic_error(concat("no block reported restart ", out.best_restart, " as its best"));
  return true;
}

void launch_random_start(int32_t* tour, int n, uint64_t key) {
  random_start_kernel<<<(n + 255) / 256, 256>>>(tour, n, key);
  CUDA_CHECK_LAUNCH();
}

std::vector<int32_t> device_random_start(int n, uint64_t seed, int64_t restart) {
  DeviceBuffer<int32_t> tour(static_cast<size_t>(n));
  launch_random_start(tour.data(), n, random_start_key(seed, restart));
  return tour.download();
}

std::vector<Candidate> device_pass_candidates(const DeviceInstance& cities, std::span<const int32_t> tour, bool exact,
                                              BlockShape shape) {
  const int n = cities.n(), threads = shape.threads;
  DeviceBuffer<int32_t> device_tour(tour);
  DeviceBuffer<unsigned char> points(point_stride(n));
  DeviceBuffer<unsigned long long> keys(static_cast<size_t>(threads));
  DeviceBuffer<int2> moves(static_cast<size_t>(threads));
  ClimbParams p;
  p.cities = cities.view();
  p.n = n;
  p.tile_bytes = tile_bytes_of(shape);
  p.points = points.data();
  const size_t bytes = shared_bytes(shape, n);
  with_metrics(p.cities, [&](auto fast, auto exact_metric) {
    const auto run = [&](auto metric) {
      using Metric = decltype(metric);
      const auto kernel = single_pass_kernel<Metric>;
      allow_shared(kernel, bytes);
      kernel<<<1, threads, bytes>>>(p, metric, chunk_of<typename Metric::Point>(p.tile_bytes), device_tour.data(),
                                    keys.data(), moves.data());
      CUDA_CHECK_LAUNCH();
    };
    if (exact) run(exact_metric);
    else run(fast);
  });
  const std::vector<unsigned long long> key = keys.download();
  const std::vector<int2> move = moves.download();
  std::vector<Candidate> out;
  for (int t = 0; t < threads; ++t)
    if (key[t] != 0) {
      const float gain = std::bit_cast<float>(static_cast<uint32_t>(key[t] >> 32));
      out.push_back({static_cast<int64_t>(gain), {move[t].x, move[t].y}});
    }
  sort_candidates(out);
  return out;
}

}  // namespace formica::localsearch::cuda
