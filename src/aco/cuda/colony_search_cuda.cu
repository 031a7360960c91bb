// SPDX-License-Identifier: MIT
// The GPU colony variants (see colony_search_cuda.h): buffers, one iteration as a sequence of
// launches on one stream (construction, whole tours or focused walks -> the ants' local search ->
// colony bests -> GACO dynamic neighbours -> global update -> the focused ants' next sources), one
// read-back of the colony records per iteration, and the shared host bookkeeping (restarts every
// 100 iterations, exchanges) of aco/colony_layout.h.
#include <algorithm>
#include <cstring>
#include <optional>

#include "aco/candidate_set.h"
#include "aco/colony_layout.h"
#include "aco/colony_memory.h"
#include "aco/colony_merge.h"
#include "aco/cpu/focused_construction.h"
#include "aco/cuda/candidate_construction.cuh"
#include "aco/cuda/candidate_pheromone.cuh"
#include "aco/cuda/colonies.cuh"
#include "aco/cuda/colony_search_cuda.h"
#include "aco/cuda/focused_construction.cuh"
#include "core/candidates.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/tour.h"
#include "cuda/buffer.cuh"
#include "cuda/device_distance.cuh"
#include "cuda/event.cuh"
#include "cuda/mapped_stop.cuh"
#include "localsearch/cuda/ant_local_search.cuh"

namespace formica::aco {

using ::formica::cuda::DeviceBuffer;
using ::formica::cuda::elapsed_ms;
using ::formica::cuda::Event;

namespace {

template <typename T>
std::vector<T> repeat(const std::vector<T>& block, int times) {
  std::vector<T> out;
  out.reserve(block.size() * static_cast<size_t>(times));
  for (int t = 0; t < times; ++t) out.insert(out.end(), block.begin(), block.end());
  return out;
}

}  // namespace

struct ColonySearchCuda::State {
  const Instance& instance;
  ColonyConfig config;
  ColonyLayout layout;
  CandidateSet set;
  int n = 0;
  size_t cells = 0;  // entries per matrix
  int lanes = 32;     // lanes per ant of the candidate construction (1: thread per ant), set once
  cudaStream_t stream{};
  std::optional<formica::cuda::DeviceDistances> distances_view;  // after the host preparation

  DeviceBuffer<int32_t> ids, entry_distances, fallback, tours, best_tours, restart_tours, next, previous;
  DeviceBuffer<int32_t> scratch_next, scratch_previous;
  DeviceBuffer<float> tau, fitness, eta_beta;
  DeviceBuffer<int> crossings, first_ant, ant_colony;
  DeviceBuffer<unsigned char> colony_acs;
  DeviceBuffer<unsigned long long> ant_seeds;
  DeviceBuffer<long long> lengths;
  DeviceBuffer<ColonyRecord> records_d;
  DeviceBuffer<Bounds> bounds_d;
  DeviceBuffer<uint32_t> visited;
  // Local search and focused construction (ant_local_search.cuh, focused_construction.cuh)
  bool local_search = false, focused = false;
  int ls_k = 0;
  DeviceBuffer<int32_t> ls_lists, ant_pos, queue, source_tours, source_pos;
  DeviceBuffer<uint32_t> queued, walked;
  DeviceBuffer<int> queue_count;
  DeviceBuffer<long long> source_lengths;
  std::vector<int> walk_edges;  // focused: edges each colony's ants re-decide next iteration
  DeviceBuffer<int> walk_edges_d;
  bool walk_edges_changed = false;
  ColonyRecord* pinned = nullptr;
  // The stop as the construction and the ants' climbs read it while they run, in the iterations
  // that guarded() picks; `cut` when the last one was stopped before its end.
  formica::cuda::MappedStop flag;
  bool cut = false;

  std::vector<ColonyRecord> records;
  Event start, constructed, searched, updated;
  int iteration = 0, restarts = 0, merges = 0, best_colony = 0;
  ColonyMerger merger;
  std::vector<int32_t> merged;  // --merge-tours: the last merged tour, alive while it uploads
  int64_t iteration_best = 0;
  StepTimes times;

  State(const Instance& inst, const ColonyConfig& cfg) : instance(inst), config(cfg), n(inst.n()) {}
  ~State() {
    if (pinned) cudaFreeHost(pinned);
    if (stream) cudaStreamDestroy(stream);
  }

  int ants_per_matrix() const { return layout.first_ant[layout.group]; }
  bool lockstep() const { return config.immediate_local_update(); }
  /// Whether an iteration runs its long kernels under the stop: the first, whose length nothing
  /// foretells (cities stacked on a few points make a walk O(n^2)), and any that may not end
  /// before the deadline at four times the last one's length. The others wait for the stream with
  /// no look at the stop, as a mapped read every 64 steps and a polled wait cost time.
  bool guarded(const StopFlag& stop) const {
    if (iteration == 0) return true;
    if (stop.deadline == std::chrono::steady_clock::time_point::max()) return false;
    const auto left = stop.deadline - std::chrono::steady_clock::now();
    return left < std::chrono::duration<double, std::milli>(4 * times.total_ms + 1);
  }
  void upload_records() {
    records_d.upload(std::span<const ColonyRecord>(records), stream);
  }
  // The kernels' arguments, built once the buffers are (build_kernel_args): an iteration sets
  // only its number in them.
  cuda::CandidateConstructionArgs construct_args;
  cuda::FocusedWalkArgs walk_args;
  localsearch::cuda::AntLocalSearchArgs search_args;
  cuda::ColonyBestArgs best_args;
  cuda::DynamicArgs dynamic_args;
  cuda::CandidateUpdateArgs update_args;
  cuda::SourceArgs source_args;
  void build_kernel_args();
  void build_construction_args();  // the tours' construction and local search
  void build_update_args();        // the colonies' records, dynamic neighbours, pheromone and sources

  void after_iteration();
  /// Merges the colonies' best tours (merge(); finish() when `last`) and uploads the result.
  /// Returns whether a colony's records changed.
  bool merge_best_tours(bool last);
  void find_best_colony();
};

// Long: the host preparation (lists, start tour), the memory check and every device buffer's
// allocation and first upload, in one place so that the check and the allocations stay together.
ColonySearchCuda::ColonySearchCuda(const Instance& instance, const ColonyConfig& config,
                                   std::vector<int32_t> start_tour, const StopFlag* setup_stop,
                                   const StartHostThreads& host_threads)
    : state_(std::make_unique<State>(instance, config)) {
  State& s = *state_;
  s.config.validate();
  FORMICA_EXPECTS(start_tour.empty() || s.config.focused(), kStartTourNeedsFocusedColonies);
  if (!start_tour.empty()) validate_permutation(start_tour, s.n);
  const StopFlag lists_stop = preparation_stop(setup_stop);
  s.layout = make_colony_layout(instance, s.config, &lists_stop);
  s.set = build_candidate_set(instance, s.config.candidates, s.config.dynamic_slots(), s.config.beta,
                              s.config.threads, s.config.neighbour_lists,
                              s.config.long_fallback_lists(/*gpu=*/true), &lists_stop);
  const int n = s.n, matrices = s.layout.matrices, colonies = s.layout.colonies, ants = s.layout.total_ants();
  const int width = s.set.width;
  s.cells = static_cast<size_t>(n) * width;
  FORMICA_EXPECTS(s.lockstep() || s.config.ant_construction == AntConstruction::ThreadPerAnt || width <= 32,
                  "--ant-construction ", to_string(s.config.ant_construction),
                  " holds at most 32 candidates per ant, one to four per lane: --candidates (", s.set.k,
                  ") plus GACO's 2 dynamic slots must be at most 32");
  FORMICA_EXPECTS(!s.lockstep() || (s.ants_per_matrix() <= 32 && width <= 32),
                  "ACS on the GPU runs every ant of a matrix in one block, one warp per ant: at most 32 ants per "
                  "matrix (got ", s.ants_per_matrix(), ") and at most 32 candidates");

  s.local_search = s.config.local_search != localsearch::LocalSearchKind::None;
  s.focused = s.config.focused();
  FORMICA_EXPECTS(!s.focused || width <= 32,
                  "focused ants on the GPU hold one candidate per lane: --candidates (", s.set.k,
                  ") plus dynamic slots must be at most 32");
  FORMICA_EXPECTS(config.variant != ColonyVariant::Gaco || (!s.local_search && !s.focused),
                  "GACO with local search or focused ants runs on the CPU backend only (use --backend cpu)");
  const size_t words = static_cast<size_t>(n + 31) / 32;

  // Everything the host prepares comes before the first CUDA call: a fresh process is still
  // creating its CUDA context meanwhile (cuda::start_context()).
  std::vector<int32_t> entry_distances(s.cells, 0);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < s.set.k; ++c)
      entry_distances[static_cast<size_t>(i) * width + c] =
          static_cast<int32_t>(instance.distance(i, s.set.ids[static_cast<size_t>(i) * width + c]));
  std::vector<float> fitness(s.cells);
  const float initial = static_cast<float>(s.layout.initial), alpha = static_cast<float>(s.config.alpha);
  for (size_t e = 0; e < s.cells; ++e) fitness[e] = entry_fitness(initial, s.set.eta_beta[e], alpha);
  std::optional<CandidateLists> lists;
  if (s.local_search)
    lists = local_search_lists(instance, s.config, setup_stop, &lists_stop);
  // Focused colonies: every colony starts from this tour; it is each colony's best so far.
  std::vector<int32_t> tour;
  if (s.focused)
    tour = start_tour.empty() ? focused_start_tour(instance, s.config, lists ? &*lists : nullptr, setup_stop)
                              : std::move(start_tour);

  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  expect_memory(colony_memory(n, s.config, true).device, capped_memory(free_bytes) / 10 * 9,
                concat(to_string(s.config.variant), " on the GPU for n = ", n, " with ", ants, " ants"));
  s.merger = ColonyMerger(host_threads, instance, s.config, lists ? &*lists : nullptr, &lists_stop);
  s.distances_view.emplace(instance);
  CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  s.ids = DeviceBuffer<int32_t>(std::span<const int32_t>(repeat(s.set.ids, matrices)));
  s.entry_distances = DeviceBuffer<int32_t>(std::span<const int32_t>(repeat(entry_distances, matrices)));
  s.eta_beta = DeviceBuffer<float>(std::span<const float>(repeat(s.set.eta_beta, matrices)));
  s.fitness = DeviceBuffer<float>(std::span<const float>(repeat(fitness, matrices)));
  s.tau = DeviceBuffer<float>(std::span<const float>(std::vector<float>(s.cells * matrices, initial)));
  s.fallback = DeviceBuffer<int32_t>(std::span<const int32_t>(s.set.fallback));
  if (config.variant == ColonyVariant::Gaco) {
    s.crossings = DeviceBuffer<int>(s.cells * matrices);
    s.scratch_next = DeviceBuffer<int32_t>(static_cast<size_t>(matrices) * n);
    s.scratch_previous = DeviceBuffer<int32_t>(static_cast<size_t>(matrices) * n);
  }
  s.first_ant = DeviceBuffer<int>(std::span<const int>(s.layout.first_ant));
  s.ant_colony = DeviceBuffer<int>(std::span<const int32_t>(s.layout.ant_colony));
  std::vector<unsigned char> acs(static_cast<size_t>(colonies));
  for (int c = 0; c < colonies; ++c) acs[c] = s.layout.rule[c] == ColonyRule::Acs ? 1 : 0;
  s.colony_acs = DeviceBuffer<unsigned char>(std::span<const unsigned char>(acs));
  std::vector<unsigned long long> seeds(s.layout.ant_seeds.begin(), s.layout.ant_seeds.end());
  s.ant_seeds = DeviceBuffer<unsigned long long>(std::span<const unsigned long long>(seeds));
  s.tours = DeviceBuffer<int32_t>(static_cast<size_t>(ants) * n);
  s.lengths = DeviceBuffer<long long>(static_cast<size_t>(ants));
  s.best_tours = DeviceBuffer<int32_t>(static_cast<size_t>(colonies) * n);
  s.restart_tours = DeviceBuffer<int32_t>(static_cast<size_t>(colonies) * n);
  s.next = DeviceBuffer<int32_t>(static_cast<size_t>(colonies) * n);
  s.previous = DeviceBuffer<int32_t>(static_cast<size_t>(colonies) * n);
  int device = 0, multiprocessors = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  s.lanes = cuda::construction_lanes(config.ant_construction, n, width, s.ants_per_matrix(), matrices, multiprocessors);
  if (s.lanes == 1 && !s.lockstep()) s.visited = DeviceBuffer<uint32_t>(static_cast<size_t>(ants) * words);
  s.records.assign(static_cast<size_t>(colonies), fresh_colony_record());
  s.records_d = DeviceBuffer<ColonyRecord>(std::span<const ColonyRecord>(s.records));
  std::vector<Bounds> bounds;
  for (int m = 0; m < matrices; ++m) bounds.push_back(s.layout.bounds_of(m, s.records));
  s.bounds_d = DeviceBuffer<Bounds>(std::span<const Bounds>(bounds));
  if (lists) {
    s.ls_k = lists->k();
    s.ls_lists = DeviceBuffer<int32_t>(lists->data());
  }
  if (s.local_search || s.focused) {
    s.ant_pos = DeviceBuffer<int32_t>(static_cast<size_t>(ants) * n);
    s.queue = DeviceBuffer<int32_t>(static_cast<size_t>(ants) * n);
    s.queued = DeviceBuffer<uint32_t>(static_cast<size_t>(ants) * words);
    s.walked = DeviceBuffer<uint32_t>(s.focused ? static_cast<size_t>(ants) * words : 0);
    s.queue_count = DeviceBuffer<int>(static_cast<size_t>(ants));
    CUDA_CHECK(cudaMemset(s.queued.data(), 0, s.queued.size() * sizeof(uint32_t)));
  }
  if (s.focused) {
    const long long length = tour_length(instance, tour);
    s.merger.start(tour, length);
    std::vector<int32_t> pos(static_cast<size_t>(n));
    for (int p = 0; p < n; ++p) pos[tour[p]] = p;
    s.source_tours = DeviceBuffer<int32_t>(std::span<const int32_t>(repeat(tour, colonies)));
    s.source_pos = DeviceBuffer<int32_t>(std::span<const int32_t>(repeat(pos, colonies)));
    s.source_lengths =
        DeviceBuffer<long long>(std::span<const long long>(std::vector<long long>(colonies, length)));
    s.walk_edges.assign(static_cast<size_t>(colonies), s.config.focused_edges);
    s.walk_edges_d = DeviceBuffer<int>(std::span<const int>(s.walk_edges));
    s.best_tours.upload(std::span<const int32_t>(repeat(tour, colonies)));
    s.restart_tours.upload(std::span<const int32_t>(repeat(tour, colonies)));
    for (ColonyRecord& r : s.records) r.best_length = r.restart_length = length;
    s.upload_records();
    std::vector<Bounds> seeded;
    for (int m = 0; m < matrices; ++m) seeded.push_back(s.layout.bounds_of(m, s.records));
    s.bounds_d.upload(std::span<const Bounds>(seeded));
  }
  CUDA_CHECK(cudaMallocHost(&s.pinned, static_cast<size_t>(colonies) * sizeof(ColonyRecord)));
  s.build_kernel_args();
}

ColonySearchCuda::~ColonySearchCuda() = default;

void ColonySearchCuda::State::build_kernel_args() {
  build_construction_args();
  build_update_args();
}

void ColonySearchCuda::State::build_construction_args() {
  const bool gaco = config.variant == ColonyVariant::Gaco;
  construct_args.n = n;
  construct_args.width = set.width;
  construct_args.fallback_length = set.fallback_length;
  construct_args.group = layout.group;
  construct_args.ids = ids.data();
  construct_args.fitness = fitness.data();
  construct_args.tau = tau.data();
  construct_args.eta_beta = eta_beta.data();
  construct_args.distances = entry_distances.data();
  construct_args.fallback = fallback.data();
  construct_args.distance = distances_view->view();
  construct_args.first_ant = first_ant.data();
  construct_args.ant_colony = ant_colony.data();
  construct_args.colony_acs = colony_acs.data();
  construct_args.ant_seeds = ant_seeds.data();
  construct_args.q0 = static_cast<float>(config.q0);
  construct_args.alpha = static_cast<float>(config.alpha);
  construct_args.crossings = gaco ? crossings.data() : nullptr;
  construct_args.tau0 = static_cast<float>(layout.tau0);
  construct_args.local_keep = static_cast<float>(1.0 - config.xi);
  construct_args.bounds = bounds_d.data();
  construct_args.tours = tours.data();
  construct_args.lengths = lengths.data();
  construct_args.visited = visited.data();
  construct_args.visited_words = (n + 31) / 32;
  construct_args.max_ants_per_matrix = ants_per_matrix();
  construct_args.ants = layout.total_ants();
  walk_args.n = n;
  walk_args.width = set.width;
  walk_args.group = layout.group;
  walk_args.ants = layout.total_ants();
  walk_args.edges = config.focused_edges;
  walk_args.colony_edges = walk_edges_d.data();
  walk_args.ids = ids.data();
  walk_args.fitness = fitness.data();
  walk_args.ant_colony = ant_colony.data();
  walk_args.colony_acs = colony_acs.data();
  walk_args.q0 = config.q0;
  walk_args.ant_seeds = ant_seeds.data();
  walk_args.source_tours = source_tours.data();
  walk_args.source_pos = source_pos.data();
  walk_args.source_lengths = source_lengths.data();
  walk_args.tours = tours.data();
  walk_args.pos = ant_pos.data();
  walk_args.walked = walked.data();
  walk_args.queue = local_search ? queue.data() : nullptr;
  walk_args.queued = queued.data();
  walk_args.queue_count = queue_count.data();
  walk_args.lengths = lengths.data();
  search_args.n = n;
  search_args.ants = layout.total_ants();
  search_args.k = ls_k;
  search_args.moves = config.local_search;
  search_args.all_active = !focused;
  search_args.lists = ls_lists.data();
  search_args.tours = tours.data();
  search_args.pos = ant_pos.data();
  search_args.queue = queue.data();
  search_args.queued = queued.data();
  search_args.queue_count = queue_count.data();
  search_args.lengths = lengths.data();
}

void ColonySearchCuda::State::build_update_args() {
  const bool gaco = config.variant == ColonyVariant::Gaco;
  const int matrices = layout.matrices;
  best_args.n = n;
  best_args.colonies = layout.colonies;
  best_args.first_ant = first_ant.data();
  best_args.colony_acs = colony_acs.data();
  best_args.tours = tours.data();
  best_args.lengths = lengths.data();
  best_args.records = records_d.data();
  best_args.best_tours = best_tours.data();
  best_args.restart_tours = restart_tours.data();
  best_args.next = next.data();
  best_args.previous = previous.data();
  best_args.increasing = config.schedule == MmasSchedule::Increasing;
  best_args.best_every = config.best_every;
  dynamic_args.n = n;
  dynamic_args.width = set.width;
  dynamic_args.k = set.k;
  dynamic_args.group = layout.group;
  dynamic_args.matrices = matrices;
  dynamic_args.first_ant = first_ant.data();
  dynamic_args.records = records_d.data();
  dynamic_args.tours = tours.data();
  dynamic_args.scratch_next = scratch_next.data();
  dynamic_args.scratch_previous = scratch_previous.data();
  dynamic_args.ids = ids.data();
  dynamic_args.tau = tau.data();
  dynamic_args.eta_beta = eta_beta.data();
  dynamic_args.distances = entry_distances.data();
  dynamic_args.distance = distances_view->view();
  dynamic_args.beta = config.beta;
  dynamic_args.kind = layout.bounds;
  dynamic_args.rho = layout.rho;
  dynamic_args.min_factor = layout.min_factor;
  dynamic_args.tau0 = layout.tau0;
  dynamic_args.nn_length = layout.nn_length;
  update_args.n = n;
  update_args.width = set.width;
  update_args.group = layout.group;
  update_args.matrices = matrices;
  update_args.ids = ids.data();
  update_args.tau = tau.data();
  update_args.fitness = fitness.data();
  update_args.eta_beta = eta_beta.data();
  update_args.crossings = gaco ? crossings.data() : nullptr;
  update_args.records = records_d.data();
  update_args.colony_acs = colony_acs.data();
  update_args.next = next.data();
  update_args.previous = previous.data();
  update_args.kind = layout.bounds;
  update_args.rho = layout.rho;
  update_args.min_factor = layout.min_factor;
  update_args.tau0 = layout.tau0;
  update_args.acs_rho = config.acs_rho;
  update_args.nn_length = layout.nn_length;
  update_args.local_keep = static_cast<float>(1.0 - config.xi);
  update_args.alpha = static_cast<float>(config.alpha);
  update_args.bounds_out = bounds_d.data();
  source_args.n = n;
  source_args.colonies = layout.colonies;
  source_args.first_ant = first_ant.data();
  source_args.records = records_d.data();
  source_args.tours = tours.data();
  source_args.best_tours = best_tours.data();
  source_args.restart_tours = restart_tours.data();
  source_args.source_tours = source_tours.data();
  source_args.source_pos = source_pos.data();
  source_args.source_lengths = source_lengths.data();
}

bool ColonySearchCuda::step(const StopFlag& stop) {
  State& s = *state_;
  if (stop.requested()) return false;
  if (s.cut) {  // the climbs stopped before their end leave cities queued
    CUDA_CHECK(cudaMemsetAsync(s.queued.data(), 0, s.queued.size() * sizeof(uint32_t), s.stream));
    s.cut = false;
  }
  const bool guarded = s.guarded(stop);
  if (guarded) s.flag.reset();
  s.construct_args.stop = guarded ? s.flag.device() : nullptr;
  s.search_args.stop = s.construct_args.stop;
  const int iteration = s.iteration + 1, matrices = s.layout.matrices;
  const bool gaco = s.config.variant == ColonyVariant::Gaco;
  CUDA_CHECK(cudaEventRecord(s.start.event, s.stream));
  if (gaco) CUDA_CHECK(cudaMemsetAsync(s.crossings.data(), 0, s.crossings.size() * sizeof(int), s.stream));
  s.construct_args.iteration = static_cast<unsigned>(iteration);
  s.walk_args.iteration = static_cast<unsigned>(iteration);
  s.best_args.iteration = iteration;

  if (s.focused) {
    if (s.walk_edges_changed) s.walk_edges_d.upload(std::span<const int>(s.walk_edges), s.stream);
    s.walk_edges_changed = false;
    cuda::launch_focused_walks(s.walk_args, s.distances_view->view(), s.stream);
  } else {
    cuda::launch_candidate_construction(s.lanes, s.lockstep(), matrices, s.construct_args, s.stream);
  }
  CUDA_CHECK(cudaEventRecord(s.constructed.event, s.stream));
  if (s.local_search) localsearch::cuda::launch_ant_local_search(s.search_args, s.distances_view->view(), s.stream);
  CUDA_CHECK(cudaEventRecord(s.searched.event, s.stream));
  // A guarded iteration waits here, looking at the stop every 200 us; a stopped one is abandoned
  // before anything reads its unfinished tours.
  if (guarded && !s.flag.wait(s.stream, &stop, std::chrono::microseconds(200))) {
    s.cut = s.local_search;
    return false;
  }
  cuda::launch_colony_best(s.best_args, s.stream);
  if (gaco) cuda::launch_dynamic_neighbours(s.dynamic_args, s.stream);
  cuda::launch_candidate_update(s.update_args, s.stream);
  if (s.focused) {
    cuda::launch_set_sources(s.source_args, s.stream);
    for (int& edges : s.walk_edges)
      if (edges != s.config.focused_edges) edges = s.config.focused_edges, s.walk_edges_changed = true;
  }
  CUDA_CHECK(cudaMemcpyAsync(s.pinned, s.records_d.data(), s.records.size() * sizeof(ColonyRecord),
                             cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaEventRecord(s.updated.event, s.stream));
  CUDA_CHECK(cudaEventSynchronize(s.updated.event));
  std::memcpy(s.records.data(), s.pinned, s.records.size() * sizeof(ColonyRecord));
  s.times.construction_ms = elapsed_ms(s.start, s.constructed);
  s.times.local_search_ms = elapsed_ms(s.constructed, s.searched);
  s.times.pheromone_ms = elapsed_ms(s.searched, s.updated);
  s.times.total_ms = elapsed_ms(s.start, s.updated);
  s.after_iteration();
  ++s.iteration;
  return true;
}

void ColonySearchCuda::State::after_iteration() {
  const int it = iteration + 1;
  bool changed = false;
  if (it % 100 == 0 && layout.bounds != BoundsKind::Acs) {
    const std::vector<Bounds> bounds = bounds_d.download(stream);
    for (int m = 0; m < layout.matrices; ++m) {
      if (!restart_due(layout, records, m, it, config.restart_after)) continue;
      std::vector<float> values(cells);
      CUDA_CHECK(cudaMemcpyAsync(values.data(), tau.data() + m * cells, cells * sizeof(float), cudaMemcpyDeviceToHost,
                                 stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      if (!(lambda_branching(values.data(), n, set.width, set.k) < 1.00001)) continue;
      const float value = clamp_pheromone(layout.restart_value(m, records), bounds[m]);
      cuda::launch_fill_pheromone(tau.data() + m * cells, fitness.data() + m * cells, eta_beta.data() + m * cells, cells,
                                  value, static_cast<float>(config.alpha), stream);
      restart_records(layout, records, m, it);
      for (int c = m * layout.group; c < (m + 1) * layout.group && focused; ++c)
        walk_edges[c] = restart_walk_edges(n, config.focused_edges), walk_edges_changed = true;
      ++restarts;
      changed = true;
    }
  }
  std::vector<int> receivers;
  const int source = exchange_source(layout, records, it, config.exchange_interval, receivers);
  for (int c : receivers) {
    const size_t bytes = static_cast<size_t>(n) * sizeof(int32_t);
    CUDA_CHECK(cudaMemcpyAsync(best_tours.data() + static_cast<size_t>(c) * n,
                               best_tours.data() + static_cast<size_t>(source) * n, bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(restart_tours.data() + static_cast<size_t>(c) * n,
                               best_tours.data() + static_cast<size_t>(source) * n, bytes, cudaMemcpyDeviceToDevice, stream));
    changed = true;
  }
  if (config.merge_tours && merger.due(records, it)) changed |= merge_best_tours(false);
  if (changed) upload_records();
  find_best_colony();
}

bool ColonySearchCuda::State::merge_best_tours(bool last) {
  const std::vector<int32_t> bests = best_tours.download(stream),
                             restart_bests = restart_tours.download(stream);
  const int c = last ? merger.finish(instance, records, iteration, bests, restart_bests, merged)
                     : merger.merge(instance, records, iteration + 1, bests, restart_bests, merged);
  if (c < 0) return false;
  const size_t at = static_cast<size_t>(c) * n, bytes = static_cast<size_t>(n) * sizeof(int32_t);
  CUDA_CHECK(cudaMemcpyAsync(best_tours.data() + at, merged.data(), bytes, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(
      cudaMemcpyAsync(restart_tours.data() + at, merged.data(), bytes, cudaMemcpyHostToDevice, stream));
  ++merges;
  return true;
}

void ColonySearchCuda::State::find_best_colony() {
  best_colony = 0;
  iteration_best = kNoLength;
  for (int c = 0; c < layout.colonies; ++c) {
    if (records[c].best_length < records[best_colony].best_length) best_colony = c;
    iteration_best = std::min<int64_t>(iteration_best, records[c].iteration_length);
  }
  merger.observe(records[best_colony].best_length);
}

bool ColonySearchCuda::adopt(std::span<const int32_t> tour, int64_t length) {
  State& s = *state_;
  validate_permutation(tour, s.n);
  const long long before = s.records[s.best_colony].best_length;
  const std::vector<int32_t> bests = s.best_tours.download(s.stream);
  const int c = s.merger.adopt(s.instance, s.records, s.iteration, bests, tour, length, s.merged);
  if (c >= 0) {
    const size_t at = static_cast<size_t>(c) * s.n, bytes = static_cast<size_t>(s.n) * sizeof(int32_t);
    CUDA_CHECK(cudaMemcpyAsync(s.best_tours.data() + at, s.merged.data(), bytes, cudaMemcpyHostToDevice, s.stream));
    CUDA_CHECK(cudaMemcpyAsync(s.restart_tours.data() + at, s.merged.data(), bytes, cudaMemcpyHostToDevice, s.stream));
    if (s.focused) {
      std::vector<int32_t> pos(static_cast<size_t>(s.n));
      for (int p = 0; p < s.n; ++p) pos[s.merged[p]] = p;
      const long long merged_length = s.records[c].best_length;
      CUDA_CHECK(cudaMemcpyAsync(s.source_tours.data() + at, s.merged.data(), bytes, cudaMemcpyHostToDevice, s.stream));
      CUDA_CHECK(cudaMemcpyAsync(s.source_pos.data() + at, pos.data(), bytes, cudaMemcpyHostToDevice, s.stream));
      CUDA_CHECK(cudaMemcpyAsync(s.source_lengths.data() + c, &merged_length, sizeof(long long), cudaMemcpyHostToDevice,
                                 s.stream));
      CUDA_CHECK(cudaStreamSynchronize(s.stream));  // pos and merged_length are on this stack
    }
    ++s.merges;
    s.upload_records();
  }
  s.find_best_colony();
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return s.records[s.best_colony].best_length < before;
}

void ColonySearchCuda::finish() {
  State& s = *state_;
  if ((s.iteration > 0 || s.focused) && s.merge_best_tours(true)) s.upload_records();
  s.find_best_colony();
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

// Focused colonies know their start tour before the first step; other colonies have no tour yet.
int64_t ColonySearchCuda::best_length() const {
  return state_->iteration == 0 && !state_->focused ? 0 : state_->records[state_->best_colony].best_length;
}

std::vector<int32_t> ColonySearchCuda::best_tour() const {
  if (state_->iteration == 0 && !state_->focused) return {};
  return group_best_tour(state_->layout.matrix_of(state_->best_colony));
}

int64_t ColonySearchCuda::iteration_best_length() const { return state_->iteration_best; }

const Credits* ColonySearchCuda::credits() const { return &state_->merger.credits(); }
StepTimes ColonySearchCuda::last_step_times() const { return state_->times; }
int ColonySearchCuda::matrices() const { return state_->layout.matrices; }
int ColonySearchCuda::total_ants() const { return state_->layout.total_ants(); }
int ColonySearchCuda::merges() const { return state_->merges; }

int ColonySearchCuda::restarts() const { return state_->restarts; }

std::vector<float> ColonySearchCuda::pheromone(int matrix) const {
  const State& s = *state_;
  std::vector<float> out(s.cells);
  CUDA_CHECK(cudaMemcpyAsync(out.data(), s.tau.data() + matrix * s.cells, s.cells * sizeof(float),
                             cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return out;
}

std::vector<int> ColonySearchCuda::crossings(int matrix) const {
  const State& s = *state_;
  FORMICA_EXPECTS(s.config.variant == ColonyVariant::Gaco, "crossings are counted for GACO only");
  std::vector<int> out(s.cells);
  CUDA_CHECK(cudaMemcpyAsync(out.data(), s.crossings.data() + matrix * s.cells, s.cells * sizeof(int),
                             cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return out;
}

std::vector<int32_t> ColonySearchCuda::candidate_ids(int matrix) const {
  const State& s = *state_;
  std::vector<int32_t> out(s.cells);
  CUDA_CHECK(cudaMemcpyAsync(out.data(), s.ids.data() + matrix * s.cells, s.cells * sizeof(int32_t),
                             cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return out;
}

Bounds ColonySearchCuda::bounds(int matrix) const { return state_->bounds_d.download(state_->stream)[matrix]; }

std::vector<int64_t> ColonySearchCuda::group_best_lengths() const {
  std::vector<int64_t> lengths;
  for (int m = 0; m < state_->layout.matrices; ++m) lengths.push_back(state_->layout.group_best(m, state_->records));
  return lengths;
}

std::vector<int32_t> ColonySearchCuda::group_best_tour(int matrix) const {
  const State& s = *state_;
  int best = matrix * s.layout.group;
  for (int c = best + 1; c < (matrix + 1) * s.layout.group; ++c)
    if (s.records[c].best_length < s.records[best].best_length) best = c;
  std::vector<int32_t> out(static_cast<size_t>(s.n));
  CUDA_CHECK(cudaMemcpyAsync(out.data(), s.best_tours.data() + static_cast<size_t>(best) * s.n,
                             static_cast<size_t>(s.n) * sizeof(int32_t), cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return out;
}

std::vector<int32_t> ColonySearchCuda::source_tour(int colony) const {
  const State& s = *state_;
  FORMICA_EXPECTS(s.focused, "source_tour: the colonies build whole tours (no focused construction)");
  std::vector<int32_t> out(static_cast<size_t>(s.n));
  CUDA_CHECK(cudaMemcpyAsync(out.data(), s.source_tours.data() + static_cast<size_t>(colony) * s.n,
                             static_cast<size_t>(s.n) * sizeof(int32_t), cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return out;
}

std::vector<int32_t> ColonySearchCuda::tours() const { return state_->tours.download(state_->stream); }

std::vector<int64_t> ColonySearchCuda::tour_lengths() const {
  const auto lengths = state_->lengths.download(state_->stream);
  return std::vector<int64_t>(lengths.begin(), lengths.end());
}

}  // namespace formica::aco
