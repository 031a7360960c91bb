// SPDX-License-Identifier: MIT
// GA-EAX's children on the GPU (see eax_children_cuda.h).
#include "population/cuda/eax_children_cuda.h"

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "core/rng.h"
#include "core/search.h"
#include "cuda/buffer.cuh"
#include "cuda/check.cuh"
#include "cuda/device_distance.cuh"
#include "cuda/event.cuh"
#include "cuda/mapped_stop.cuh"
#include "population/eax_pair.h"
#include "population/eax_pair_host.h"

namespace formica::population::cuda {
namespace {

using formica::cuda::DeviceBuffer;

/// A pair's result as the kernel writes it.
struct PairOutcome {
  int32_t made = 0;
  int32_t fault = 0;
  int32_t removed = 0, added = 0;
  long long gain = 0;
};

/// Position p of `tour` (n cities): its city's position and links.
__device__ void write_position(const int32_t* tour, int n, int p, int32_t* pos, int32_t* links) {
  const int32_t city = tour[p];
  pos[city] = p;
  links[2 * city] = tour[p + 1 < n ? p + 1 : 0];
  links[2 * city + 1] = tour[p > 0 ? p - 1 : n - 1];
}

/// Positions and links of every tour (one thread per city of a tour).
__global__ void parent_arrays_kernel(const int32_t* tours, int32_t* pos, int32_t* links, int n, int count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<size_t>(n) * count) return;
  const size_t t = i / n;
  write_position(tours + t * n, n, static_cast<int>(i % n), pos + t * n, links + 2 * t * n);
}

/// Tours `slots[i]` of the population replaced by staged[i] (n cities each), their positions and
/// links with them (one thread per city of a staged tour).
__global__ void replace_tours_kernel(const int32_t* staged, const int* slots, int count, int32_t* tours, int32_t* pos,
                                     int32_t* links, int n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<size_t>(n) * count) return;
  const size_t s = i / n, t = static_cast<size_t>(slots[s]);
  const int p = static_cast<int>(i % n);
  tours[t * n + p] = staged[s * n + p];
  write_position(staged + s * n, n, p, pos + t * n, links + 2 * t * n);
}

struct PairKernelArgs {
  formica::cuda::DistanceView distance;
  int n = 0, k = 0, merge_neighbours = 0, children = 0, population = 0;
  int makers = 1;  // warps of a block that make children at once
  const int32_t* lists = nullptr;
  const int32_t* tours = nullptr;
  const int32_t* pos = nullptr;
  const int32_t* links = nullptr;
  const double* h = nullptr;  // null: score by gain
  const PairJob* jobs = nullptr;
  uint64_t seed = 0;
  int32_t* work = nullptr;       // per launch slot: pair_words(n, makers)
  uint32_t* counters = nullptr;  // per launch slot and maker: stamp_now, mark_now
  PairOutcome* outcomes = nullptr;  // per launch slot
  const volatile int* stop = nullptr;  // mapped host memory: non-zero, stop between rounds of children
  unsigned long long* phase_cycles = nullptr;  // the blocks' clock cycles in difference, AB-cycles, children
};

/// Threads of a pair's block: they find the parents' difference together; the first one then
/// traces the AB-cycles, and up to Threads / 32 warps make children. Blocks of 256 threads for up
/// to 8 makers (more blocks on an SM at once), of 1,024 for more.
constexpr int kSmallPairThreads = 256;
constexpr int kLargePairThreads = 1024;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kMaxMakers = EaxChildrenCuda::kMaxMakers;
static_assert(kMaxMakers * 32 <= kLargePairThreads);

/// The threads of a pair's block for `makers` warps making children.
int pair_threads(int makers) { return makers * 32 <= kSmallPairThreads ? kSmallPairThreads : kLargePairThreads; }

/// The words of one slot's workspace: the pair's (with its first maker's child) and one child's
/// more for each other maker.
__host__ __device__ size_t pair_words(size_t n, int makers) {
  return (static_cast<size_t>(eax::PairArrays::kPerCity) + static_cast<size_t>(makers - 1) * eax::ChildWork::kPerCity) * n;
}

/// Maker m's child workspace in the slot's words (the pair's own for m = 0, bound first).
__device__ eax::ChildWork maker_child(int32_t* slot_words, size_t n, int m) {
  eax::ChildWork c;
  eax::WordCarver carver{
      m == 0 ? slot_words
             : slot_words + (eax::PairArrays::kPerCity + static_cast<size_t>(m - 1) * eax::ChildWork::kPerCity) * n,
      n};
  c.bind(carver);
  return c;
}

/// The best of the warp's join candidates (the least delta, then the earliest in the scan's
/// order), on every lane.
__device__ eax::JoinCandidate warp_best_join(eax::JoinCandidate mine) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    eax::JoinCandidate other;
    other.delta = __shfl_xor_sync(kFullMask, mine.delta, offset);
    other.order = __shfl_xor_sync(kFullMask, mine.order, offset);
    other.u = __shfl_xor_sync(kFullMask, mine.u, offset);
    other.u2 = __shfl_xor_sync(kFullMask, mine.u2, offset);
    other.v = __shfl_xor_sync(kFullMask, mine.v, offset);
    other.v2 = __shfl_xor_sync(kFullMask, mine.v2, offset);
    if (other.better_than(mine)) mine = other;
  }
  return mine;
}

/// eax::make_child on a whole warp: the first lane starts the child and joins the subtours, every
/// lane lists and scans its share of the smallest subtour's cities for the cheapest join. The child
/// is the one make_child makes; its state is the first lane's (the others get the counters and
/// pieces they read, and the edge counts).
template <class Args>
__device__ bool make_child_on_warp(const eax::ParentView& a, const Args& args, const int32_t* cities, int m,
                                   eax::ChildWork& child, int lane, int64_t& gain) {
  int subtours = 0;
  if (lane == 0) subtours = eax::start_child(a, args.distance, cities, m, child, gain);
  subtours = __shfl_sync(kFullMask, subtours, 0);
  child.pieces = __shfl_sync(kFullMask, child.pieces, 0);  // what every lane's list_smallest reads
  child.cycles = __shfl_sync(kFullMask, child.cycles, 0);
  bool ok = subtours > 0;
  for (int left = subtours; ok && left > 1; --left) {
    child.stamp_now = __shfl_sync(kFullMask, child.stamp_now, 0);
    __syncwarp();  // the first lane's child edges and subtours, seen by every lane
    const int members = eax::list_smallest(a, child, lane, 32);
    __syncwarp();  // every lane's marks and members, seen by every lane
    eax::JoinCandidate best;
    const bool scanned =
        eax::scan_joins(a, args.distance, args.lists, args.k, args.merge_neighbours, child, members, lane, 32, best);
    if (__ballot_sync(kFullMask, !scanned) != 0) {
      if (lane == 0) child.fault = eax::PairFault::CityDegree;
      ok = false;
      break;
    }
    best = warp_best_join(best);
    if (lane == 0) ok = best.u >= 0 && eax::apply_join(a, child, best, gain);
    ok = __shfl_sync(kFullMask, static_cast<int>(ok), 0) != 0;
    __syncwarp();
  }
  child.removed_edges = __shfl_sync(kFullMask, child.removed_edges, 0);
  child.added_edges = __shfl_sync(kFullMask, child.added_edges, 0);
  __syncwarp();
  return ok;
}

/// The AB-cycles of the difference in w, traced, and the order in which the children are made of
/// them, every draw at once (the host draws the same ones, in this order, for as many children as
/// it tries); returns the fault (0 also when cut off by the stop, with no cycles then).
__device__ int trace_in_order(eax::PairWork& w, RandomStream& rng, const volatile int* stop) {
  if (!eax::ab_cycles(w, rng, stop)) {
    w.cycles = 0;
    return static_cast<int>(w.fault);
  }
  for (int i = 0; i < w.cycles; ++i) w.order[i] = i;
  for (int i = 0; i < w.cycles; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<uint32_t>(w.cycles - i)));
    const int32_t t = w.order[i];
    w.order[i] = w.order[j];
    w.order[j] = t;
  }
  return 0;
}

/// One pair per block: the difference found by every thread over its stretch of B's positions,
/// listed in position order (a block scan of the counts); the AB-cycles traced by the first thread,
/// with the order of the children drawn as the host draws it (eax::best_child_of_difference); then
/// the children made `makers` at a time, one per warp, and counted in that order, the best kept as
/// the host keeps it. The best child's edges stay in the slot's workspace for the host to copy.
template <int Threads>
__global__ void __launch_bounds__(Threads) pair_children_kernel(PairKernelArgs args, int first_job) {
  constexpr int kMakersHere = Threads / 32;
  using Scan = cub::BlockScan<int, Threads>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ int totals[2], cycles, made, fault, stopped;
  __shared__ int made_one[kMakersHere], removed_edges[kMakersHere], added_edges[kMakersHere], faults[kMakersHere];
  __shared__ long long gains[kMakersHere];
  __shared__ double scores[kMakersHere];
  const int slot = static_cast<int>(blockIdx.x), warp = static_cast<int>(threadIdx.x) / 32,
            lane = static_cast<int>(threadIdx.x) % 32;
  const PairJob job = args.jobs[first_job + slot];
  const size_t n = static_cast<size_t>(args.n);
  const long long started = clock64();
  int32_t* slot_words = args.work + static_cast<size_t>(slot) * pair_words(n, args.makers);
  eax::PairWork w;
  w.bind(slot_words, args.n);
  const eax::ParentView a{args.n, args.tours + job.a * n, args.pos + job.a * n, args.links + 2 * job.a * n};
  const int32_t* b = args.tours + job.b * n;
  const int chunk = (args.n + Threads - 1) / Threads;
  const int from = min(args.n, static_cast<int>(threadIdx.x) * chunk), to = min(args.n, from + chunk);
  int added = 0, removed = 0;
  eax::difference_between(a, b, from, to, nullptr, added, nullptr, removed);
  int added_at = 0, removed_at = 0;
  Scan(scan_storage).ExclusiveSum(added, added_at);
  __syncthreads();
  Scan(scan_storage).ExclusiveSum(removed, removed_at);
  eax::difference_between(a, b, from, to, w.diff_added, added_at, w.diff_removed, removed_at);
  if (threadIdx.x == Threads - 1) totals[0] = added_at, totals[1] = removed_at;
  __syncthreads();
  RandomStream rng(args.seed, job.stream);
  const long long differed = clock64();
  if (threadIdx.x == 0) {
    w.added_count = totals[0];
    w.removed_count = totals[1];
    fault = trace_in_order(w, rng, args.stop);
    cycles = fault == 0 ? w.cycles : 0;
    made = 0;
    stopped = *args.stop != 0;
  }
  __syncthreads();
  const long long traced = clock64();
  const bool maker = warp < args.makers;  // the whole warp: the joins' scans run on every lane
  eax::ChildWork child;
  uint32_t* counter = args.counters + 2 * (static_cast<size_t>(slot) * args.makers + warp);
  if (maker) {
    child = maker_child(slot_words, n, warp);
    child.stamp_now = counter[0];
    child.mark_now = counter[1];
  }
  const eax::PopulationScore score{args.links, args.population, args.n, args.h};
  eax::PairResult result;
  double best_score = 0;
  for (int first = 0; first < cycles && made < args.children && fault == 0 && !stopped; first += args.makers) {
    const int i = first + warp;
    if (maker && i < cycles) {
      const int32_t* cities = w.cycle_cities + w.cycle_start[w.order[i]];
      const int m = w.cycle_start[w.order[i] + 1] - w.cycle_start[w.order[i]];
      int64_t gain = 0;
      const bool made_it = make_child_on_warp(a, args, cities, m, child, lane, gain);
      if (made_it && args.h != nullptr) {  // the counts of the child's edges, over the lanes
        const int edges = child.removed_edges + child.added_edges;
        for (int e = lane; e < edges; e += 32) child.ends[e] = score.edge_count(child, e);
        __syncwarp();
      }
      if (lane == 0) {
        made_one[warp] = made_it;
        faults[warp] = static_cast<int>(child.fault);
        if (made_it) {
          gains[warp] = gain;
          scores[warp] = score.from_counts(child, child.ends, gain);
          removed_edges[warp] = child.removed_edges;
          added_edges[warp] = child.added_edges;
        }
      }
    } else if (maker && lane == 0) {
      made_one[warp] = 0;
      faults[warp] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int m = 0; m < args.makers && first + m < cycles && made < args.children; ++m) {
        if (faults[m] != 0) {
          fault = faults[m];
          break;
        }
        if (!made_one[m]) continue;
        eax::ChildWork other = maker_child(slot_words, n, m);
        other.removed_edges = removed_edges[m];
        other.added_edges = added_edges[m];
        eax::keep_if_best(w, other, gains[m], scores[m], result, best_score);
        made = result.made;
      }
      stopped = *args.stop != 0;
    }
    __syncthreads();
  }
  if (maker && lane == 0) {
    counter[0] = child.stamp_now;
    counter[1] = child.mark_now;
  }
  if (threadIdx.x != 0) return;
  atomicAdd(&args.phase_cycles[0], static_cast<unsigned long long>(differed - started));
  atomicAdd(&args.phase_cycles[1], static_cast<unsigned long long>(traced - differed));
  atomicAdd(&args.phase_cycles[2], static_cast<unsigned long long>(clock64() - traced));
  PairOutcome& out = args.outcomes[slot];
  out.made = fault == 0 ? result.made : 0;
  out.fault = fault;
  out.gain = result.gain;
  out.removed = out.made > 0 ? w.best_removed_edges : 0;
  out.added = out.made > 0 ? w.best_added_edges : 0;
}

/// The workspace of one pair, in bytes.
size_t pair_bytes(int n, int makers) { return pair_words(static_cast<size_t>(n), makers) * sizeof(int32_t); }

}  // namespace

/// Grows `buffer` to hold `count` values (its contents lost when it grows).
template <class T>
void reserve(DeviceBuffer<T>& buffer, size_t count) {
  if (buffer.size() < count) buffer = DeviceBuffer<T>(count);
}

struct EaxChildrenCuda::State {
  int n = 0, k = 0, merge_neighbours = 0, population = 0, slots = 0, makers = 1;
  formica::cuda::DeviceDistances distances;
  DeviceBuffer<int32_t> lists, tours, pos, links, work, edges;
  DeviceBuffer<uint32_t> counters;
  DeviceBuffer<double> h;
  DeviceBuffer<PairJob> jobs;
  DeviceBuffer<PairOutcome> outcomes;
  DeviceBuffer<long long> offsets;
  DeviceBuffer<int32_t> staged;
  DeviceBuffer<int> staged_slots;
  DeviceBuffer<unsigned long long> phase_cycles{3};
  int h_population = -1;
  double kernel_ms = 0;
  formica::cuda::Event before, after;
  // A stream of its own, which waits for no other work on the device (the colonies' beside GA-EAX),
  // and the stop flag in mapped host memory, which the kernel reads as it traces and between rounds
  // of children.
  cudaStream_t stream = nullptr;
  formica::cuda::MappedStop flag;
  State(const Instance& instance, const CandidateLists& candidates, int merge)
      : n(instance.n()), k(candidates.k()), merge_neighbours(std::min(merge, candidates.k())),
        distances(instance), lists(candidates.data()) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMemset(phase_cycles.data(), 0, phase_cycles.size() * sizeof(unsigned long long)));
  }
  ~State() { cudaStreamDestroy(stream); }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

/// Every pair's best child's edges, removed then added, gathered at offsets[pair] (2 words an edge).
__global__ void gather_edges_kernel(const int32_t* work, size_t slot_words, int n, const PairOutcome* outcomes,
                                    const long long* offsets, int32_t* edges) {
  const int slot = static_cast<int>(blockIdx.x);
  const PairOutcome o = outcomes[slot];
  if (o.made == 0) return;
  eax::PairWork view;
  view.bind(const_cast<int32_t*>(work) + static_cast<size_t>(slot) * slot_words, n);
  int32_t* out = edges + offsets[slot];
  for (int e = static_cast<int>(threadIdx.x); e < 2 * o.removed; e += blockDim.x) out[e] = view.best_removed[e];
  for (int e = static_cast<int>(threadIdx.x); e < 2 * o.added; e += blockDim.x) out[2 * o.removed + e] = view.best_added[e];
}

EaxChildrenCuda::EaxChildrenCuda(const Instance& instance, const CandidateLists& lists, int merge_neighbours,
                                 int makers)
    : state_(std::make_unique<State>(instance, lists, merge_neighbours)) {
  FORMICA_EXPECTS(makers >= 1 && makers <= kMaxMakers, "eax on the GPU: children made at once must be in [1, ",
                  kMaxMakers, "], got ", makers);
  state_->makers = makers;
  FORMICA_EXPECTS(lists.n() == instance.n() && merge_neighbours >= 1, "eax on the GPU: lists of every city needed");
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t fits = free_bytes / 4 / pair_bytes(instance.n(), makers);
  FORMICA_EXPECTS(fits >= 1, "eax on the GPU: no room for one pair's workspace of ", pair_bytes(instance.n(), makers),
                  " bytes");
  state_->slots = static_cast<int>(std::min<size_t>(fits, 1024));
}

EaxChildrenCuda::~EaxChildrenCuda() = default;

double EaxChildrenCuda::kernel_seconds() const { return state_->kernel_ms / 1000; }

std::array<double, 3> EaxChildrenCuda::phase_shares() const {
  const std::vector<unsigned long long> cycles = state_->phase_cycles.download(state_->stream);
  const double total = static_cast<double>(cycles[0] + cycles[1] + cycles[2]);
  if (total == 0) return {0, 0, 0};
  return {cycles[0] / total, cycles[1] / total, cycles[2] / total};
}

void EaxChildrenCuda::set_population(std::span<const std::vector<int32_t>> tours) {
  State& s = *state_;
  const size_t n = static_cast<size_t>(s.n);
  FORMICA_EXPECTS(!tours.empty(), "eax on the GPU: an empty population");
  std::vector<int32_t> flat;
  flat.reserve(n * tours.size());
  for (const auto& tour : tours) {
    FORMICA_EXPECTS(tour.size() == n, "eax on the GPU: a tour of ", tour.size(), " cities, not ", n);
    flat.insert(flat.end(), tour.begin(), tour.end());
  }
  s.population = static_cast<int>(tours.size());
  if (s.tours.size() != flat.size()) {
    s.tours = DeviceBuffer<int32_t>(flat.size());
    s.pos = DeviceBuffer<int32_t>(flat.size());
    s.links = DeviceBuffer<int32_t>(2 * flat.size());
  }
  s.tours.upload(flat, s.stream);
  constexpr int kThreads = 256;
  const size_t cities = flat.size();
  parent_arrays_kernel<<<static_cast<unsigned>((cities + kThreads - 1) / kThreads), kThreads, 0, s.stream>>>(
      s.tours.data(), s.pos.data(), s.links.data(), s.n, s.population);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

void EaxChildrenCuda::set_tours(std::span<const int> slots, std::span<const std::vector<int32_t>> tours) {
  State& s = *state_;
  const size_t n = static_cast<size_t>(s.n);
  if (slots.empty()) return;
  std::vector<int32_t> flat;
  flat.reserve(n * slots.size());
  for (const int slot : slots) {
    FORMICA_EXPECTS(slot >= 0 && slot < s.population && static_cast<size_t>(slot) < tours.size() &&
                        tours[static_cast<size_t>(slot)].size() == n,
                    "eax on the GPU: tour ", slot, " of a population of ", s.population);
    flat.insert(flat.end(), tours[static_cast<size_t>(slot)].begin(), tours[static_cast<size_t>(slot)].end());
  }
  reserve(s.staged, flat.size());
  reserve(s.staged_slots, slots.size());
  CUDA_CHECK(cudaMemcpyAsync(s.staged.data(), flat.data(), flat.size() * sizeof(int32_t), cudaMemcpyHostToDevice,
                             s.stream));
  CUDA_CHECK(cudaMemcpyAsync(s.staged_slots.data(), slots.data(), slots.size() * sizeof(int), cudaMemcpyHostToDevice,
                             s.stream));
  constexpr int kThreads = 256;
  replace_tours_kernel<<<static_cast<unsigned>((flat.size() + kThreads - 1) / kThreads), kThreads, 0, s.stream>>>(
      s.staged.data(), s.staged_slots.data(), static_cast<int>(slots.size()), s.tours.data(), s.pos.data(),
      s.links.data(), s.n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s.stream));  // `flat` goes when this returns
}

bool EaxChildrenCuda::best_children(std::span<const PairJob> jobs, uint64_t seed, int children, bool entropy,
                                    std::vector<PairChild>& out, const StopFlag* stop) {
  State& s = *state_;
  FORMICA_EXPECTS(s.population >= 2, "eax on the GPU: no population set");
  FORMICA_EXPECTS(children >= 1, "eax on the GPU: children must be positive");
  for (const PairJob& job : jobs)
    FORMICA_EXPECTS(job.a >= 0 && job.a < s.population && job.b >= 0 && job.b < s.population,
                    "eax on the GPU: a pair outside the population");
  out.assign(jobs.size(), PairChild{});
  if (jobs.empty()) return true;
  const size_t n = static_cast<size_t>(s.n), slot_words = pair_words(n, s.makers);
  if (entropy && s.h_population != s.population) {
    const std::vector<double> h = eax::entropy_terms(s.population);
    s.h = DeviceBuffer<double>(h.size());
    s.h.upload(h, s.stream);
    s.h_population = s.population;
  }
  const int slots = static_cast<int>(std::min<size_t>(static_cast<size_t>(s.slots), jobs.size()));
  if (s.work.size() < static_cast<size_t>(slots) * slot_words) {
    s.work = DeviceBuffer<int32_t>(static_cast<size_t>(slots) * slot_words);
    CUDA_CHECK(cudaMemsetAsync(s.work.data(), 0, s.work.size() * sizeof(int32_t), s.stream));
    s.counters = DeviceBuffer<uint32_t>(2 * static_cast<size_t>(slots) * s.makers);
    CUDA_CHECK(cudaMemsetAsync(s.counters.data(), 0, s.counters.size() * sizeof(uint32_t), s.stream));
  }
  reserve(s.jobs, jobs.size());
  reserve(s.outcomes, static_cast<size_t>(slots));
  reserve(s.offsets, static_cast<size_t>(slots));
  s.jobs.upload(jobs, s.stream);
  s.flag.reset();
  PairKernelArgs args;
  args.distance = s.distances.view();
  args.n = s.n;
  args.k = s.k;
  args.merge_neighbours = s.merge_neighbours;
  args.children = children;
  args.population = s.population;
  args.makers = s.makers;
  args.lists = s.lists.data();
  args.tours = s.tours.data();
  args.pos = s.pos.data();
  args.links = s.links.data();
  args.h = entropy ? s.h.data() : nullptr;
  args.jobs = s.jobs.data();
  args.seed = seed;
  args.work = s.work.data();
  args.counters = s.counters.data();
  args.outcomes = s.outcomes.data();
  args.stop = s.flag.device();
  args.phase_cycles = s.phase_cycles.data();
  std::vector<PairOutcome> outcomes;
  std::vector<long long> offsets;
  std::vector<int32_t> edges;
  for (size_t first = 0; first < jobs.size(); first += static_cast<size_t>(slots)) {
    const int count = static_cast<int>(std::min(jobs.size() - first, static_cast<size_t>(slots)));
    CUDA_CHECK(cudaEventRecord(s.before.event, s.stream));
    if (pair_threads(s.makers) == kSmallPairThreads) {
      pair_children_kernel<kSmallPairThreads>
          <<<static_cast<unsigned>(count), kSmallPairThreads, 0, s.stream>>>(args, static_cast<int>(first));
    } else {
      pair_children_kernel<kLargePairThreads>
          <<<static_cast<unsigned>(count), kLargePairThreads, 0, s.stream>>>(args, static_cast<int>(first));
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(s.after.event, s.stream));
    // Waits before the copy: a copy into pageable memory would block until the kernel is done,
    // and the stop would never be raised.
    const bool completed = s.flag.wait(s.stream, stop, std::chrono::microseconds(50));
    s.kernel_ms += formica::cuda::elapsed_ms(s.before, s.after);
    if (!completed) return false;
    outcomes.resize(static_cast<size_t>(count));
    CUDA_CHECK(cudaMemcpyAsync(outcomes.data(), s.outcomes.data(), outcomes.size() * sizeof(PairOutcome),
                               cudaMemcpyDeviceToHost, s.stream));
    CUDA_CHECK(cudaStreamSynchronize(s.stream));
    // Every pair's best child's edges in one array, one copy.
    offsets.assign(static_cast<size_t>(count), 0);
    long long words = 0;
    for (int slot = 0; slot < count; ++slot) {
      const PairOutcome& o = outcomes[static_cast<size_t>(slot)];
      if (o.fault != 0)
        throw std::logic_error("edge assembly on the GPU: fault " + std::to_string(o.fault) + " in pair " +
                               std::to_string(first + static_cast<size_t>(slot)));
      offsets[static_cast<size_t>(slot)] = words;
      if (o.made > 0) words += 2LL * (o.removed + o.added);
    }
    if (words > 0) {
      reserve(s.edges, static_cast<size_t>(words));
      s.offsets.upload(offsets, s.stream);
      gather_edges_kernel<<<static_cast<unsigned>(count), 128, 0, s.stream>>>(s.work.data(), slot_words, s.n,
                                                                                s.outcomes.data(), s.offsets.data(),
                                                                                s.edges.data());
      CUDA_CHECK(cudaGetLastError());
      edges.resize(static_cast<size_t>(words));
      CUDA_CHECK(cudaMemcpyAsync(edges.data(), s.edges.data(), edges.size() * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                 s.stream));
      CUDA_CHECK(cudaStreamSynchronize(s.stream));
    }
    for (int slot = 0; slot < count; ++slot) {
      const PairOutcome& o = outcomes[static_cast<size_t>(slot)];
      PairChild& child = out[first + static_cast<size_t>(slot)];
      child.made = o.made;
      child.gain = o.gain;
      if (o.made == 0) continue;
      const int32_t* at = edges.data() + offsets[static_cast<size_t>(slot)];
      child.removed.resize(static_cast<size_t>(o.removed));
      for (int e = 0; e < o.removed; ++e) child.removed[e] = Edge{at[2 * e], at[2 * e + 1]};
      at += 2 * o.removed;
      child.added.resize(static_cast<size_t>(o.added));
      for (int e = 0; e < o.added; ++e) child.added[e] = Edge{at[2 * e], at[2 * e + 1]};
    }
  }
  return true;
}

}  // namespace formica::population::cuda
