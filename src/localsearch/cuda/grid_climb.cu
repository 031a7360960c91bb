// SPDX-License-Identifier: MIT
// The one-big-tour climber: all blocks on one tour (see grid_climb.h; Robinson et al. section 7).
//
// Each pass: points rebuilt (grid-wide), the search (full pass: units dealt over every warp of the
// grid; neighbour-list pass: a thread per active city), improving candidates appended to a global
// list, sorted best first by CUB, selected by one block (k_swap.cuh, exactly the greedy k-swap), and
// applied by a grid-wide reversal that also keeps pos (city -> position) current. The host reads
// the number of candidates after each search to know when a phase is over.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <bit>
#include <limits>

#include "core/candidates.h"
#include "core/error.h"
#include "core/tour.h"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "localsearch/cuda/device_instance.cuh"
#include "localsearch/cuda/grid_climb.h"
#include "localsearch/cuda/k_swap.cuh"
#include "localsearch/cuda/neighbour_list_pass.cuh"
#include "localsearch/cuda/random_start.cuh"
#include "localsearch/cuda/two_opt_pass.cuh"
#include "localsearch/start_tour.h"

namespace formica::localsearch::cuda {
namespace {

using formica::cuda::DeviceBuffer;

constexpr int kSearchThreads = 256;
constexpr int kTilePoints = 128;    // fast points per warp tile (chunk 127)
constexpr int kSelectThreads = 1024;
constexpr int kCounters = 4;        // candidates, kept moves, kept swaps, (unused)

__host__ __device__ inline unsigned long long pack(int2 move) {
  return (static_cast<unsigned long long>(static_cast<uint32_t>(move.x)) << 32) | static_cast<uint32_t>(move.y);
}
__host__ __device__ inline int2 unpack(unsigned long long packed) {
  return make_int2(static_cast<int>(packed >> 32), static_cast<int>(packed & 0xFFFFFFFFull));
}

template <class Metric>
__global__ void build_points_kernel(Metric metric, DeviceCities cities, const int32_t* tour, int n,
                                    typename Metric::Point* points) {
  build_points(metric, cities, tour, n, points, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
               static_cast<int>(gridDim.x * blockDim.x));
}

__global__ void positions_kernel(const int32_t* tour, int32_t* pos, int n) {
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) pos[tour[p]] = p;
}

/// Appends an improving candidate to the global list.
__device__ inline void append(unsigned long long key, int2 move, unsigned long long* keys, unsigned long long* moves,
                              int* counter) {
  if (key == 0ull) return;
  const int slot = atomicAdd(counter, 1);
  keys[slot] = key;
  moves[slot] = pack(move);
}

template <class Metric>
__global__ void __launch_bounds__(kSearchThreads, 4) grid_search_kernel(Metric metric, PassShape shape, int tile_bytes,
                                                                     const typename Metric::Point* points,
                                                                     unsigned long long* keys,
                                                                     unsigned long long* moves, int* counter) {
  extern __shared__ __align__(16) unsigned char tiles[];
  using Point = typename Metric::Point;
  const int warp_in_block = threadIdx.x >> 5, warps_per_block = blockDim.x >> 5;
  Point* tile = reinterpret_cast<Point*>(tiles + static_cast<size_t>(warp_in_block) * tile_bytes);
  LaneBest<typename Metric::Value> best;
  search_units<Metric::kRows>(metric, points, tile, shape,
                              static_cast<int>(blockIdx.x) * warps_per_block + warp_in_block,
                  static_cast<int>(gridDim.x) * warps_per_block, best);
  if (best.j >= 0)
    append(candidate_key(best.gain, blockIdx.x * blockDim.x + threadIdx.x), make_int2(best.i, best.j), keys, moves,
           counter);
}

template <class Metric>
__global__ void neighbour_pass_kernel(Metric metric, DeviceCities cities, const int32_t* tour, const int32_t* pos,
                                      const int32_t* neighbours, int k, int n, uint8_t* active,
                                      unsigned long long* keys, unsigned long long* moves, int* counter) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n || active[a] == 0) return;
  typename Metric::Value gain;
  int2 move;
  best_neighbour_move(metric, cities, tour, pos, neighbours, k, n, a, gain, move);
  if (move.x < 0) {
    active[a] = 0;  // don't look at a again until a kept move touches it
    return;
  }
  append(candidate_key(gain, static_cast<unsigned int>(a)), move, keys, moves, counter);
}

/// One block: the k-swap selection over the sorted candidates. Kept moves wake their four cities.
__global__ void __launch_bounds__(kSelectThreads) select_kernel(const unsigned long long* sorted_moves,
                                                                const int* counters, int k, int n, int2* kept,
                                                                int* prefix, int* totals, const int32_t* tour,
                                                                uint8_t* active, unsigned long long* total_moves) {
  extern __shared__ __align__(16) unsigned char shared_memory[];
  int2* survivors = reinterpret_cast<int2*>(shared_memory);
  int* ints = reinterpret_cast<int*>(shared_memory + kSelectThreads * sizeof(int2));  // 33 counts + 2 totals
  uint32_t* bitmap = reinterpret_cast<uint32_t*>(ints + 36);
  const SelectScratch scratch{bitmap, survivors, ints, ints + 33, ints + 34};
  const int m = counters[0];
  select_disjoint([sorted_moves](int c) { return unpack(sorted_moves[c]); }, m, k, n, scratch, kept, prefix,
                  [tour, active, n](int2 move) {
                    if (active == nullptr) return;
                    active[tour[move.x]] = 1;
                    active[tour[move.x + 1]] = 1;
                    active[tour[move.y]] = 1;
                    active[tour[move.y + 1 == n ? 0 : move.y + 1]] = 1;
                  });
  if (threadIdx.x == 0) {
    totals[0] = *scratch.kept_count;
    totals[1] = *scratch.kept_swaps;
    *total_moves += static_cast<unsigned long long>(*scratch.kept_count);
  }
}

/// k = 1 needs only the best candidate: one block finds it and leaves it as the only sorted one.
__global__ void __launch_bounds__(kSelectThreads) top_candidate_kernel(const unsigned long long* keys,
                                                                       const unsigned long long* moves,
                                                                       unsigned long long* sorted_moves, int* counters) {
  __shared__ unsigned long long scratch[33];
  const int m = counters[0];
  unsigned long long best = 0;
  for (int c = threadIdx.x; c < m; c += blockDim.x) best = keys[c] > best ? keys[c] : best;
  best = block_max(best, scratch);
  for (int c = threadIdx.x; c < m; c += blockDim.x)
    if (keys[c] == best) sorted_moves[0] = moves[c];  // keys are unique: one writer
  __syncthreads();
  if (threadIdx.x == 0) counters[0] = 1;
}

__global__ void apply_kernel(int32_t* tour, int32_t* pos, const int2* kept, const int* prefix, const int* totals) {
  reverse_segments(tour, pos, kept, prefix, totals[0], totals[1], static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                   static_cast<int>(gridDim.x * blockDim.x));
}

template <class Kernel>
int resident_grid(Kernel kernel, int threads, size_t shared) {
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
  return std::max(1, per_sm) * sms;
}

constexpr int kTileBytes = kTilePoints * 16;
constexpr size_t kSearchShared = static_cast<size_t>(kSearchThreads / 32) * kTileBytes;

template <class Point>
constexpr int chunk_of() {
  return kTileBytes / static_cast<int>(sizeof(Point)) - 1;
}

}  // namespace

struct GridClimber::State {
  const DeviceInstance& cities;
  const Instance& instance;
  TwoOptConfig config;
  int n = 0;
  int fast_blocks = 0, exact_blocks = 0;  // resident grids of the two search kernels
  size_t capacity = 0;    // candidates one search can append
  DeviceBuffer<int32_t> tour, pos, neighbours, prefix;
  DeviceBuffer<unsigned char> points, sort_temp;
  size_t sort_bytes = 0;
  DeviceBuffer<unsigned long long> keys, sorted_keys, moves, sorted_moves, total_moves;
  DeviceBuffer<int2> kept;
  DeviceBuffer<int> counters;
  DeviceBuffer<uint8_t> active;
  int k_neighbours = 0;
  cudaEvent_t started = nullptr, finished = nullptr;

  State(const DeviceInstance& c, const Instance& i, const TwoOptConfig& cfg) : cities(c), instance(i), config(cfg) {}
  ~State() {
    if (started != nullptr) cudaEventDestroy(started);
    if (finished != nullptr) cudaEventDestroy(finished);
  }

  size_t select_shared() const {
    return kSelectThreads * sizeof(int2) + 36 * sizeof(int) +
           static_cast<size_t>(select_bitmap_words(n)) * sizeof(uint32_t);
  }

  int candidates() {
    int m = 0;
    CUDA_CHECK(cudaMemcpy(&m, counters.data(), sizeof(int), cudaMemcpyDeviceToHost));
    return m;
  }

  /// Full pass search with `metric` (the fast one or the exact one): points, then the grid search.
  /// Leaves the candidates unsorted.
  template <class Metric>
  void search(const Metric& metric, bool exact) {
    using Point = typename Metric::Point;
    Point* p = reinterpret_cast<Point*>(points.data());
    build_points_kernel<<<(n + 255) / 256, 256>>>(metric, cities.view(), tour.data(), n, p);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemset(counters.data(), 0, sizeof(int)));
    const int blocks = exact ? exact_blocks : fast_blocks;
    grid_search_kernel<Metric><<<blocks, kSearchThreads, kSearchShared>>>(metric, PassShape{n, chunk_of<Point>()}, kTileBytes, p,
                                                       keys.data(), moves.data(), counters.data());
    CUDA_CHECK_LAUNCH();
  }

  template <class Metric>
  void neighbour_search(const Metric& metric) {
    CUDA_CHECK(cudaMemset(counters.data(), 0, sizeof(int)));
    neighbour_pass_kernel<<<(n + 255) / 256, 256>>>(metric, cities.view(), tour.data(), pos.data(),
                                                    neighbours.data(), k_neighbours, n, active.data(), keys.data(),
                                                    moves.data(), counters.data());
    CUDA_CHECK_LAUNCH();
  }

  /// Sorts the m candidates best first (for k = 1 only finds the best), selects, and applies.
  void select_and_apply(int m, bool wake) {
    if (config.k_swap == 1) {
      top_candidate_kernel<<<1, kSelectThreads>>>(keys.data(), moves.data(), sorted_moves.data(), counters.data());
      CUDA_CHECK_LAUNCH();
    } else {
      size_t bytes = sort_bytes;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(sort_temp.data(), bytes, keys.data(), sorted_keys.data(),
                                                           moves.data(), sorted_moves.data(), m));
    }
    apply_sorted(wake);
  }

  /// Selects over sorted_moves (counters[0] of them) and applies.
  void apply_sorted(bool wake) {
    select_kernel<<<1, kSelectThreads, select_shared()>>>(sorted_moves.data(), counters.data(), config.k_swap, n,
                                                          kept.data(), prefix.data(), counters.data() + 1,
                                                          tour.data(), wake ? active.data() : nullptr,
                                                          total_moves.data());
    CUDA_CHECK_LAUNCH();
    const int max_swaps = std::max(1, n / 2);
    apply_kernel<<<(max_swaps + 255) / 256, 256>>>(tour.data(), pos.data(), kept.data(), prefix.data(),
                                                   counters.data() + 1);
    CUDA_CHECK_LAUNCH();
  }

  /// Repeats passes of `search_fn` until one finds no candidate (for neighbour-list passes: until
  /// one over every city finds none). False when stopped.
  template <class SearchFn>
  bool phase(SearchFn search_fn, bool neighbour, int64_t max_passes, const StopFlag& stop, int64_t& passes) {
    bool swept = true;  // every city is active when a neighbour-list phase starts
    for (int64_t pass = 0; pass < max_passes; ++pass) {
      if (stop.requested()) return false;
      search_fn();
      const int m = candidates();
      ++passes;
      if (m == 0) {
        if (!neighbour || swept) return true;
        CUDA_CHECK(cudaMemset(active.data(), 1, static_cast<size_t>(n)));
        swept = true;
        continue;
      }
      swept = false;
      select_and_apply(m, neighbour);
    }
    return true;
  }

  /// Climbs the tour in `tour` (already on the device).
  bool run(bool neighbour_lists, const StopFlag& stop, std::vector<int32_t>& host_tour, GridClimbResult& out) {
    out = GridClimbResult{};
    CUDA_CHECK(cudaMemset(total_moves.data(), 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaEventRecord(started));
    positions_kernel<<<(n + 255) / 256, 256>>>(tour.data(), pos.data(), n);
    CUDA_CHECK_LAUNCH();
    const int64_t cap = 10 * static_cast<int64_t>(n) + 1000;  // a safety net: every pass shortens the tour
    const bool completed = with_metrics(cities.view(), [&](auto fast, auto exact) {
      if (neighbour_lists && k_neighbours > 0) {
        CUDA_CHECK(cudaMemset(active.data(), 1, static_cast<size_t>(n)));
        if (!phase([&] { neighbour_search(fast); }, true, cap, stop, out.neighbour_passes)) return false;
      }
      if (!phase([&] { search(fast, false); }, false, cap, stop, out.passes)) return false;
      return phase([&] { search(exact, true); }, false, std::numeric_limits<int64_t>::max(), stop, out.passes);
    });
    CUDA_CHECK(cudaEventRecord(finished));
    CUDA_CHECK(cudaEventSynchronize(finished));
    if (!completed) return false;
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, started, finished));
    out.kernel_ms = ms;
    host_tour = tour.download();
    unsigned long long moves_done = 0;
    CUDA_CHECK(cudaMemcpy(&moves_done, total_moves.data(), sizeof(moves_done), cudaMemcpyDeviceToHost));
    out.moves = static_cast<int64_t>(moves_done);
    out.length = tour_length(instance, host_tour);
    return true;
  }

  std::vector<Candidate> read_candidates() {
    const int m = candidates();
    std::vector<unsigned long long> key(static_cast<size_t>(m)), move(static_cast<size_t>(m));
    if (m > 0) {
      CUDA_CHECK(cudaMemcpy(key.data(), keys.data(), m * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(move.data(), moves.data(), m * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    }
    std::vector<Candidate> out;
    for (int c = 0; c < m; ++c) {
      const int2 mv = unpack(move[c]);
      out.push_back({static_cast<int64_t>(std::bit_cast<float>(static_cast<uint32_t>(key[c] >> 32))), {mv.x, mv.y}});
    }
    sort_candidates(out);
    return out;
  }
};

GridClimber::GridClimber(const DeviceInstance& cities, const Instance& instance, const TwoOptConfig& config)
    : state_(std::make_unique<State>(cities, instance, config)) {
  State& s = *state_;
  const int n = s.n = cities.n();
  with_metrics(cities.view(), [&](auto fast, auto exact) {
    s.fast_blocks = resident_grid(grid_search_kernel<decltype(fast)>, kSearchThreads, kSearchShared);
    s.exact_blocks = resident_grid(grid_search_kernel<decltype(exact)>, kSearchThreads, kSearchShared);
  });
  const size_t threads = static_cast<size_t>(std::max(s.fast_blocks, s.exact_blocks)) * kSearchThreads;
  s.capacity = std::max(threads, static_cast<size_t>(n));
  s.tour = DeviceBuffer<int32_t>(static_cast<size_t>(n));
  s.pos = DeviceBuffer<int32_t>(static_cast<size_t>(n));
  s.points = DeviceBuffer<unsigned char>((static_cast<size_t>(n) + 1) * sizeof(ExactPoint));
  s.keys = DeviceBuffer<unsigned long long>(s.capacity);
  s.sorted_keys = DeviceBuffer<unsigned long long>(s.capacity);
  s.moves = DeviceBuffer<unsigned long long>(s.capacity);
  s.sorted_moves = DeviceBuffer<unsigned long long>(s.capacity);
  s.total_moves = DeviceBuffer<unsigned long long>(1);
  CUDA_CHECK(cudaMemset(s.total_moves.data(), 0, sizeof(unsigned long long)));  // select_and_apply may run before run()
  // Kept moves are disjoint and each spans at least three edges: fewer than n / 3 + 1.
  s.kept = DeviceBuffer<int2>(static_cast<size_t>(n) / 3 + 2);
  s.prefix = DeviceBuffer<int>(static_cast<size_t>(n) / 3 + 3);
  s.counters = DeviceBuffer<int>(kCounters);
  s.active = DeviceBuffer<uint8_t>(static_cast<size_t>(n));
  CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, s.sort_bytes, s.keys.data(), s.sorted_keys.data(),
                                                       s.moves.data(), s.sorted_moves.data(),
                                                       static_cast<int>(s.capacity)));
  s.sort_temp = DeviceBuffer<unsigned char>(std::max<size_t>(s.sort_bytes, 1));
  CUDA_CHECK(cudaFuncSetAttribute(select_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(s.select_shared())));
  if (config.neighbours > 0) {
    const CandidateLists lists = build_candidate_lists(instance, config.neighbours, config.threads);
    s.k_neighbours = lists.k();
    s.neighbours = DeviceBuffer<int32_t>(lists.data());
  }
  CUDA_CHECK(cudaEventCreate(&s.started));
  CUDA_CHECK(cudaEventCreate(&s.finished));
}

GridClimber::~GridClimber() = default;

int GridClimber::blocks() const { return state_->fast_blocks; }

bool GridClimber::climb(std::vector<int32_t>& tour, bool neighbour_lists, const StopFlag& stop, GridClimbResult& out) {
  State& s = *state_;
  FORMICA_EXPECTS(tour.size() == static_cast<size_t>(s.n), "the tour to climb has ", tour.size(), " cities, not ", s.n);
  s.tour.upload(tour);
  return s.run(neighbour_lists, stop, tour, out);
}

bool GridClimber::climb_random(int64_t restart, bool neighbour_lists, const StopFlag& stop, std::vector<int32_t>& tour,
                               GridClimbResult& out) {
  State& s = *state_;
  launch_random_start(s.tour.data(), s.n, random_start_key(s.config.seed, restart));
  return s.run(neighbour_lists, stop, tour, out);
}

std::vector<Candidate> GridClimber::pass_candidates(std::span<const int32_t> tour, bool exact) {
  State& s = *state_;
  s.tour.upload(tour);
  with_metrics(s.cities.view(), [&](auto fast, auto exact_metric) {
    if (exact) s.search(exact_metric, true);
    else s.search(fast, false);
  });
  return s.read_candidates();
}

std::vector<Candidate> GridClimber::neighbour_candidates(std::span<const int32_t> tour) {
  State& s = *state_;
  FORMICA_EXPECTS(s.k_neighbours > 0, "the climber has no neighbour lists (neighbours = 0)");
  s.tour.upload(tour);
  positions_kernel<<<(s.n + 255) / 256, 256>>>(s.tour.data(), s.pos.data(), s.n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemset(s.active.data(), 1, static_cast<size_t>(s.n)));
  with_metrics(s.cities.view(), [&](auto fast, auto) { s.neighbour_search(fast); });
  return s.read_candidates();
}

std::vector<Candidate> GridClimber::select_and_apply(std::vector<int32_t>& tour, std::span<const Candidate> ranked,
                                                     int k) {
  State& s = *state_;
  FORMICA_EXPECTS(ranked.size() <= s.capacity, "too many candidates for the climber's buffers");
  s.tour.upload(tour);
  positions_kernel<<<(s.n + 255) / 256, 256>>>(s.tour.data(), s.pos.data(), s.n);
  CUDA_CHECK_LAUNCH();
  std::vector<unsigned long long> packed;
  for (const Candidate& c : ranked) packed.push_back(pack(make_int2(c.move.i, c.move.j)));
  if (!packed.empty()) s.sorted_moves.upload(std::span<const unsigned long long>(packed));
  const int m = static_cast<int>(ranked.size());
  CUDA_CHECK(cudaMemcpy(s.counters.data(), &m, sizeof(int), cudaMemcpyHostToDevice));
  const int saved_k = s.config.k_swap;
  s.config.k_swap = k;
  s.apply_sorted(false);
  s.config.k_swap = saved_k;
  int totals[2] = {0, 0};
  CUDA_CHECK(cudaMemcpy(totals, s.counters.data() + 1, sizeof(totals), cudaMemcpyDeviceToHost));
  std::vector<int2> kept(static_cast<size_t>(totals[0]));
  if (totals[0] > 0)
    CUDA_CHECK(cudaMemcpy(kept.data(), s.kept.data(), totals[0] * sizeof(int2), cudaMemcpyDeviceToHost));
  tour = s.tour.download();
  std::vector<Candidate> out;
  for (const int2& mv : kept) {
    const auto it = std::find_if(ranked.begin(), ranked.end(),
                                 [&](const Candidate& c) { return c.move.i == mv.x && c.move.j == mv.y; });
    out.push_back({it != ranked.end() ? it->gain : 0, {mv.x, mv.y}});
  }
  return out;
}

}  // namespace formica::localsearch::cuda
