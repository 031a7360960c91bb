// SPDX-License-Identifier: MIT
// The GPU Ant System (see ant_system_cuda.h): buffers, one iteration as a sequence of kernels on
// one stream, phases timed with CUDA events.
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include "aco/cuda/alias_table.cuh"
#include "aco/cuda/ant_lengths.cuh"
#include "aco/cuda/ant_system_cuda.h"
#include "aco/cuda/construction.cuh"
#include "aco/cuda/fitness.cuh"
#include "aco/cuda/pheromone_designs.cuh"
#include "aco/cuda/pheromone_update.cuh"
#include "aco/cuda/step_random.cuh"
#include "aco/cuda/warp_selection.cuh"
#include "core/distance_matrix.h"
#include "core/error.h"
#include "core/nearest_neighbour.h"
#include "core/tour.h"
#include "cuda/buffer.cuh"
#include "cuda/event.cuh"

namespace formica::aco {

using ::formica::cuda::DeviceBuffer;
using ::formica::cuda::elapsed_ms;
using ::formica::cuda::Event;

namespace {

int padded(int n) { return (n + 31) / 32 * 32; }

/// Shared memory a warp-per-ant block may use before the index arrays move to global memory.
constexpr size_t kWarpSharedLimit = 96 * 1024;

int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

struct AntSystemCuda::State {
  const Instance& instance;
  AntSystemConfig config;
  int n, ld, m;
  GpuPlan plan;
  std::unique_ptr<cuda::TourConstruction> construction;
  double tau0 = 0.0;
  double deposit_scale = 1.0;  // fixed-point scale of the deposits 1 / L_k
  cudaStream_t stream{};

  DeviceBuffer<int32_t> distances;
  DeviceBuffer<float> eta_beta, tau, fitness, prefix;
  DeviceBuffer<uint32_t> alias;
  DeviceBuffer<int32_t> tours, successors, scratch;
  DeviceBuffer<long long> lengths;
  DeviceBuffer<unsigned long long> deposits, accumulator, step_key_d;
  DeviceBuffer<long long> best_length_d;
  DeviceBuffer<int> best_index_d;
  DeviceBuffer<unsigned char> reduce_temp;
  long long* pinned = nullptr;  // [0] iteration-best length, [1] its ant, [2] the step key

  Event start, constructed, ranked, updated;
  std::vector<int32_t> best_tour;
  int64_t best_length = 0, iteration_best = 0;
  uint64_t iteration = 0;
  StepTimes times;

  State(const Instance& inst, const AntSystemConfig& cfg)
      : instance(inst), config(cfg), n(inst.n()), ld(padded(inst.n())), m(cfg.ants > 0 ? cfg.ants : inst.n()),
        plan(plan_gpu(cfg, n, m)) {}
  ~State() {
    if (pinned) cudaFreeHost(pinned);
    if (stream) cudaStreamDestroy(stream);
  }
};

size_t AntSystemCuda::memory_bytes(int n, const AntSystemConfig& config) {
  const size_t ld = static_cast<size_t>(padded(n));
  const size_t m = config.ants > 0 ? static_cast<size_t>(config.ants) : static_cast<size_t>(n);
  const GpuPlan plan = plan_gpu(config, n, static_cast<int>(m));
  const size_t matrices = 4 + (needs_prefix_sums(config.selection) ? 1 : 0);  // distances, eta, tau, fitness
  const size_t scratch =
      cuda::TourConstruction::scratch_ints(plan, n, static_cast<int>(ld), static_cast<int>(m)) * sizeof(int32_t);
  return ld * ld * 4 * matrices + static_cast<size_t>(cuda::row_slack_floats(static_cast<int>(ld))) * 4 +
         m * static_cast<size_t>(n) * 4 * 2 + scratch + m * 16 +
         cuda::accumulator_cells(plan.pheromone_update, static_cast<int>(ld)) * 8;
}

AntSystemCuda::AntSystemCuda(const Instance& instance, const AntSystemConfig& config)
    : state_(std::make_unique<State>(instance, config)) {
  State& s = *state_;
  s.config.validate();
  const int n = s.n, ld = s.ld, m = s.m;

  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t need = memory_bytes(n, s.config);
  if (need > free_bytes / 10 * 9)
    throw OutOfMemoryError(concat("the dense GPU Ant System needs ", need >> 20, " MiB for n = ", n, ", m = ", m,
                                  " but the GPU has ", free_bytes >> 20, " MiB free"));
  FORMICA_EXPECTS(s.plan.pheromone_update != PheromoneUpdate::Symmetrize || cuda::pheromone_update_shared_bytes(ld) > 0,
                  "the symmetrize pheromone update keeps a row of ", n,
                  " cities in shared memory, more than this GPU allows per block (use --pheromone-update atomic)");
  s.construction = std::make_unique<cuda::TourConstruction>(s.plan, n, ld, m);

  CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  const size_t cells = static_cast<size_t>(ld) * ld;
  // No tour is shorter than the sum over cities of the distance to their nearest other city.
  double shortest_tour = 0.0;
  {
    const std::vector<int32_t> d = dense_distance_matrix(instance, ld, hardware_threads());
    for (int i = 0; i < n; ++i) {
      int32_t nearest = std::numeric_limits<int32_t>::max();
      for (int j = 0; j < n; ++j)
        if (j != i) nearest = std::min(nearest, d[static_cast<size_t>(i) * ld + j]);
      shortest_tour += nearest;
    }
    s.distances = DeviceBuffer<int32_t>(std::span<const int32_t>(d));
  }
  s.eta_beta = DeviceBuffer<float>(cells);
  s.tau = DeviceBuffer<float>(cells);
  // Zeros in the padding rows (the fitness kernel writes rows [0, n)) and after the last row: the
  // warp-per-ant roulette loads whole register rows unclamped, past row n - 1's end (initcheck).
  const size_t slack = static_cast<size_t>(cuda::row_slack_floats(ld));
  s.fitness = DeviceBuffer<float>(cells + slack);
  CUDA_CHECK(cudaMemset(s.fitness.data(), 0, (cells + slack) * sizeof(float)));
  // Alias tables or prefix sums for the trials: either is one ld x ld matrix.
  if (cuda::uses_alias_tables(s.plan.construction, s.plan.selection, n)) {
    s.alias = DeviceBuffer<uint32_t>(cells);
  } else if (needs_prefix_sums(s.plan.selection)) {
    s.prefix = DeviceBuffer<float>(cells);
  }
  s.tours = DeviceBuffer<int32_t>(static_cast<size_t>(m) * n);
  s.successors = DeviceBuffer<int32_t>(static_cast<size_t>(n) * m);
  s.scratch = DeviceBuffer<int32_t>(s.construction->scratch_ints());
  s.lengths = DeviceBuffer<long long>(static_cast<size_t>(m));
  s.deposits = DeviceBuffer<unsigned long long>(static_cast<size_t>(m));
  s.accumulator = DeviceBuffer<unsigned long long>(cuda::accumulator_cells(s.plan.pheromone_update, ld));
  if (s.accumulator.size() > 0)
    CUDA_CHECK(cudaMemsetAsync(s.accumulator.data(), 0, s.accumulator.size() * sizeof(unsigned long long), s.stream));
  s.step_key_d = DeviceBuffer<unsigned long long>(1);
  s.best_length_d = DeviceBuffer<long long>(1);
  s.best_index_d = DeviceBuffer<int>(1);
  s.reduce_temp = DeviceBuffer<unsigned char>(cuda::best_ant_temp_bytes(m));
  CUDA_CHECK(cudaMallocHost(&s.pinned, 3 * sizeof(long long)));

  cuda::launch_heuristic(s.distances.data(), s.eta_beta.data(), n, ld, s.config.beta, s.stream);
  // tau_0 = m / L_nn (Uchida 2.3 with m ants; their n / L(T_G) for the default m = n).
  const int64_t nn_length = std::max<int64_t>(tour_length(instance, nearest_neighbour_tour(instance, 0)), 1);
  s.tau0 = static_cast<double>(m) / static_cast<double>(nn_length);
  cuda::launch_fill(s.tau.data(), ld, static_cast<float>(s.tau0), s.stream);
  // Fixed-point deposits: with every tour at least `shortest_tour` long, m deposits of
  // scale / L_k on one edge stay below 2^62.
  s.deposit_scale = std::exp2(std::floor(std::log2(std::ldexp(std::max(shortest_tour, 1.0), 62) / m)));
  CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

AntSystemCuda::~AntSystemCuda() = default;

bool AntSystemCuda::step(const StopFlag& stop) {
  State& s = *state_;
  if (stop.requested()) return false;
  const int n = s.n, ld = s.ld, m = s.m;
  CUDA_CHECK(cudaEventRecord(s.start.event, s.stream));
  cuda::launch_fitness(s.tau.data(), s.eta_beta.data(), s.fitness.data(), s.prefix.data(), n, ld, s.config.alpha,
                       s.stream);
  if (s.alias.size() > 0) cuda::launch_alias_tables(s.fitness.data(), s.alias.data(), n, ld, n, 0, s.stream);
  cuda::ConstructionArgs args;
  args.n = n;
  args.ld = ld;
  args.m = m;
  args.fitness = s.fitness.data();
  args.prefix = s.prefix.data();
  args.alias = s.alias.data();
  args.tours = s.tours.data();
  args.seed = s.config.seed;
  args.iteration = s.iteration;
  // The iteration's key also in device memory: a KE-ONE graph reads it there at every replay.
  args.step_key = cuda::step_key(s.config.seed, s.iteration);
  s.pinned[2] = static_cast<long long>(args.step_key);
  CUDA_CHECK(cudaMemcpyAsync(s.step_key_d.data(), s.pinned + 2, sizeof(long long), cudaMemcpyHostToDevice, s.stream));
  args.step_key_d = s.step_key_d.data();
  args.trials = s.config.trials;
  args.switch_count = static_cast<int>(std::ceil(s.config.hybrid_switch * n));
  s.construction->bind(args, s.scratch.data());
  cuda::plan_warp_memory(s.config.selection, args, kWarpSharedLimit);
  s.construction->launch(args, s.stream);
  CUDA_CHECK(cudaEventRecord(s.constructed.event, s.stream));
  cuda::launch_ant_lengths(s.distances.data(), ld, s.tours.data(), n, m, s.lengths.data(), s.deposits.data(),
                           s.successors.data(), s.deposit_scale, s.stream);
  cuda::launch_best_ant(s.lengths.data(), m, s.best_length_d.data(), s.best_index_d.data(), s.reduce_temp.data(),
                        s.reduce_temp.size(), s.stream);
  CUDA_CHECK(cudaMemcpyAsync(s.pinned, s.best_length_d.data(), sizeof(long long), cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaMemcpyAsync(s.pinned + 1, s.best_index_d.data(), sizeof(int), cudaMemcpyDeviceToHost, s.stream));
  CUDA_CHECK(cudaEventRecord(s.ranked.event, s.stream));
  cuda::PheromoneArgs update;
  update.tau = s.tau.data();
  update.n = n;
  update.ld = ld;
  update.m = m;
  update.tours = s.tours.data();
  update.successors = s.successors.data();
  update.deposits = s.deposits.data();
  update.accumulator = s.accumulator.data();
  update.rho = s.config.rho;
  update.scale = s.deposit_scale;
  cuda::launch_pheromone_design(s.plan.pheromone_update, update, s.stream);
  CUDA_CHECK(cudaEventRecord(s.updated.event, s.stream));
  CUDA_CHECK(cudaEventSynchronize(s.updated.event));

  int best_ant = 0;
  std::memcpy(&best_ant, s.pinned + 1, sizeof(int));
  s.iteration_best = s.pinned[0];
  if (s.best_tour.empty() || s.iteration_best < s.best_length) {
    s.best_length = s.iteration_best;
    s.best_tour.resize(static_cast<size_t>(n));
    CUDA_CHECK(cudaMemcpy(s.best_tour.data(), s.tours.data() + static_cast<size_t>(best_ant) * n,
                          static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDeviceToHost));
  }
  s.times.construction_ms = elapsed_ms(s.start, s.ranked);
  s.times.pheromone_ms = elapsed_ms(s.ranked, s.updated);
  s.times.total_ms = elapsed_ms(s.start, s.updated);
  ++s.iteration;
  return true;
}

int64_t AntSystemCuda::best_length() const { return state_->best_length; }
std::vector<int32_t> AntSystemCuda::best_tour() const { return state_->best_tour; }
int64_t AntSystemCuda::iteration_best_length() const { return state_->iteration_best; }
StepTimes AntSystemCuda::last_step_times() const { return state_->times; }
int AntSystemCuda::ants() const { return state_->m; }
const GpuPlan& AntSystemCuda::plan() const { return state_->plan; }
double AntSystemCuda::initial_pheromone() const { return state_->tau0; }

std::vector<float> AntSystemCuda::pheromone() const {
  const State& s = *state_;
  const std::vector<float> padded_matrix = s.tau.download(s.stream);
  std::vector<float> out(static_cast<size_t>(s.n) * s.n);
  for (int i = 0; i < s.n; ++i)
    std::memcpy(out.data() + static_cast<size_t>(i) * s.n, padded_matrix.data() + static_cast<size_t>(i) * s.ld,
                static_cast<size_t>(s.n) * sizeof(float));
  return out;
}

std::vector<int32_t> AntSystemCuda::tours() const { return state_->tours.download(state_->stream); }

std::vector<int64_t> AntSystemCuda::tour_lengths() const {
  const auto lengths = state_->lengths.download(state_->stream);
  return std::vector<int64_t>(lengths.begin(), lengths.end());
}

}  // namespace formica::aco
