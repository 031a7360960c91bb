// SPDX-License-Identifier: MIT
// The solver loop: backend choice, stopping rules, progress and history (see solver.h).
#include "solver/solver.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <unistd.h>

#include "aco/colony_memory.h"
#include "aco/cpu/ant_system.h"
#include "aco/cpu/colony_search.h"
#include "aco/cuda/ant_system_cuda.h"
#include "aco/cuda/colony_search_cuda.h"
#include "bounds/held_karp.h"
#include "core/error.h"
#include "core/exact_tour.h"
#include "core/memory.h"
#include "core/number_text.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "hybrid/host_threads.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/cpu/two_opt_cpu.h"
#include "localsearch/start_tour.h"
#include "distributed/thread_team.h"
#include "solver/islands.h"
#include "solver/portfolio.h"
#include "solver/quick_search.h"
#include "solver/stopping_rule.h"
#if FORMICA_HAVE_CUDA
#include "localsearch/cuda/two_opt_cuda.h"
#endif

namespace formica {

namespace {

constexpr NamedEntry<Algorithm> kAlgorithms[] = {
    {Algorithm::Auto, {"auto", "the solver's default (portfolio_description)"}},
    {Algorithm::AntSystem, {"as", "Ant System (Dorigo et al. 1996; Uchida et al. 2012)"}},
    {Algorithm::Mmas, {"mmas", "MAX-MIN Ant System (Stutzle and Hoos 2000)"}},
    {Algorithm::Acs, {"acs", "Ant Colony System (Dorigo and Gambardella 1997)"}},
    {Algorithm::Gaco, {"gaco", "MMAS and ACS colonies sharing one matrix, dynamic neighbours (Li and Jin)"}},
    {Algorithm::TwoOpt, {"two-opt", "2-opt hill climbing with random restarts and k-swap (Robinson et al. 2018)"}},
    {Algorithm::Eax,
     {"eax", "GA-EAX, a population improved by edge assembly crossover on host threads (Nagata and Kobayashi "
             "2013); CPU only"}},
};

constexpr NamedEntry<Backend> kBackends[] = {
    {Backend::Auto, {"auto", "the GPU when a CUDA device is present"}},
    {Backend::Cpu, {"cpu", "the host's cores"}},
    {Backend::Cuda, {"cuda", "the GPU"}},
};

constexpr NamedEntry<GpuWait> kGpuWaits[] = {
    {GpuWait::Auto, {"auto", "block where host threads run beside the GPU search, else spin"}},
    {GpuWait::Block, {"block", "the driving thread sleeps until the GPU is done (its core free for others)"}},
    {GpuWait::Spin, {"spin", "the driving thread spins on its core (the shortest latency)"}},
};

}  // namespace

std::string_view to_string(Algorithm algorithm) { return name_of(kAlgorithms, algorithm); }
std::vector<NamedValue> algorithm_names() {
  std::vector<NamedValue> names = names_of(kAlgorithms);
  names.front().help = portfolio_description();  // auto, in the portfolio's own words
  return names;
}
std::optional<Algorithm> parse_algorithm(std::string_view text) { return value_of(kAlgorithms, text); }

Algorithm resolve_algorithm(const SolverConfig& config, int n, Backend backend) {
  return resolve_config(config, n, backend).algorithm;
}

namespace {

/// Whether `algorithm` runs ant colonies with their ColonyConfig (MMAS, ACS, GACO).
bool runs_colonies(Algorithm algorithm) {
  return algorithm == Algorithm::Mmas || algorithm == Algorithm::Acs || algorithm == Algorithm::Gaco;
}

}  // namespace

SolverConfig resolve_config(SolverConfig config, int n, Backend backend) {
  if (!config.iterations && !config.time_limit) config.time_limit = default_time_limit(n);
  if (backend == Backend::Cuda) {
    const int visible = cuda::device_count();
    if (config.gpus == SolverConfig::kAllGpus) config.gpus = std::max(1, visible);
    FORMICA_EXPECTS(config.gpus >= 1, "--gpus 0: the run is on the GPU (--backend cpu runs without one)");
    FORMICA_EXPECTS(config.gpus <= std::max(1, visible), "--gpus ", config.gpus, ": this process sees ", visible,
                    visible == 1 ? " GPU" : " GPUs", " (CUDA_VISIBLE_DEVICES narrows them)");
  } else {
    FORMICA_EXPECTS(config.gpus <= 1, "--gpus ", config.gpus, ": the run is on the CPU (",
                    cuda::built_with_cuda() ? "no GPU found, or --backend cpu" : "this build has no CUDA backend",
                    "); --islands N runs N islands on the CPU");
    config.gpus = 0;
  }
  if (!config.was_named("islands")) config.islands = std::max(1, config.gpus);
  FORMICA_EXPECTS(config.islands >= config.gpus, "--islands ", config.islands, " with --gpus ", config.gpus,
                  ": every GPU needs an island of its own");
  return apply_portfolio(config, n, backend);
}

std::string_view to_string(Backend backend) { return name_of(kBackends, backend); }
std::optional<Backend> parse_backend(std::string_view text) { return value_of(kBackends, text); }
std::string_view to_string(GpuWait wait) { return name_of(kGpuWaits, wait); }
std::optional<GpuWait> parse_gpu_wait(std::string_view text) { return value_of(kGpuWaits, text); }

bool gpu_waits_blocking(const SolverConfig& config) {
  if (config.gpu_wait != GpuWait::Auto) return config.gpu_wait == GpuWait::Block;
  return runs_colonies(config.algorithm) && config.colony.lk_threads > 0;
}

aco::ColonyConfig colony_config(const SolverConfig& config, int threads) {
  aco::ColonyConfig colony = config.colony;
  colony.variant = config.algorithm == Algorithm::Acs    ? aco::ColonyVariant::Acs
                   : config.algorithm == Algorithm::Gaco ? aco::ColonyVariant::Gaco
                                                         : aco::ColonyVariant::Mmas;
  colony.ants = config.ant_system.ants;
  colony.alpha = config.ant_system.alpha;
  colony.beta = config.ant_system.beta;
  colony.seed = config.seed;
  colony.threads = threads;
  colony.eax = config.eax;
  return colony;
}

int hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

int threads_per_island(const SolverConfig& config) {
  return config.threads > 0 ? config.threads : std::max(1, hardware_threads() / std::max(1, config.islands));
}

bool SolverConfig::was_named(std::string_view name) const {
  return std::find(named.begin(), named.end(), name) != named.end();
}

void SolverConfig::validate() const {
  FORMICA_EXPECTS(!iterations || *iterations >= 1, "--iterations must be at least 1, got ", *iterations);
  FORMICA_EXPECTS(!time_limit || (*time_limit > 0 && *time_limit <= kMaxTimeLimit),
                  "--time-limit must be in (0, ", number_text(kMaxTimeLimit), "] seconds, got ", number_text(*time_limit));
  FORMICA_EXPECTS(!target || *target >= 0, "--target must be a non-negative length, got ", *target);
  // Auto gives half of them to Lin-Kernighan threads, which allow at most 1024.
  FORMICA_EXPECTS(threads >= 0 && threads <= kMaxThreads, "--threads must be in [0, ", kMaxThreads,
                  "] (0: all of this machine's), got ", threads);
  FORMICA_EXPECTS(island_interval >= 0 && island_interval <= kMaxTimeLimit, "--island-interval must be in [0, ",
                  number_text(kMaxTimeLimit), "] seconds, got ", number_text(island_interval));
  FORMICA_EXPECTS(islands >= 1 && islands <= 1024, "--islands must be in [1, 1024], got ", islands);
  // --threads counts each island's threads, which start no more than this machine's hardware
  // threads (capped_threads): the islands together start no more than kMaxThreads.
  const int hardware = hardware_threads();
  const int64_t own = std::min(threads, hardware), lk = std::min(colony.lk_threads, hardware);
  const auto capped = [hardware](int count) {
    return count > hardware ? concat(" (", hardware, " on this machine)") : std::string();
  };
  FORMICA_EXPECTS(threads == 0 || own * islands <= kMaxThreads, "--threads ", threads, capped(threads),
                  " for each of --islands ", islands, " is ", own * islands, " threads, more than the ", kMaxThreads,
                  " formica starts (0: an N-th of this machine's each)");
  // Named Lin-Kernighan threads run beside each island's own.
  const int64_t started = (own + lk) * islands;
  FORMICA_EXPECTS(colony.lk_threads == 0 || started <= kMaxThreads, "--lk-threads ", colony.lk_threads,
                  capped(colony.lk_threads), threads > 0 ? concat(" beside --threads ", threads, capped(threads)) : std::string(),
                  " for each of --islands ", islands, " is ", started, " threads, more than the ", kMaxThreads,
                  " formica starts");
  FORMICA_EXPECTS(gpus == kAllGpus || (gpus >= 0 && gpus <= 1024), "--gpus must be 'all' or in [0, 1024], got ", gpus);
  ant_system.validate();
  // Auto runs colonies unless it makes GA-EAX the whole run, which it does only while every colony
  // setting holds its default: a request for auto is checked as the colonies it may run.
  const Algorithm resolved = algorithm == Algorithm::Auto ? Algorithm::Mmas : algorithm;
  if (resolved != Algorithm::AntSystem) {
    const std::string chosen = aco::gpu_choices(ant_system);
    FORMICA_EXPECTS(chosen.empty(), chosen, ": Ant System construction choices, but --algorithm ", to_string(resolved),
                    " builds its tours ",
                    resolved == Algorithm::TwoOpt ? "by 2-opt climbs"
                                                  : "from candidate lists (its GPU construction is --ant-construction)");
  }
  if (runs_colonies(resolved)) colony_config(*this, 1).validate();
  // Auto sets the threads by n and backend: checked once resolved (resolve_config names the algorithm).
  FORMICA_EXPECTS(algorithm == Algorithm::Auto || colony.lk_stretch == 0 || colony.lk_threads > 0,
                  "--lk-stretch: there are no Lin-Kernighan threads to walk stretches; add --lk-threads N");
  two_opt.validate();
  eax.validate();
  FORMICA_EXPECTS(eax.bridge_threads == 0 || algorithm == Algorithm::Auto ||
                      (runs_colonies(resolved) && colony.host_search == aco::HostSearch::Eax),
                  "--eax-bridge-threads: the threads lent by GA-EAX beside the colonies, but GA-EAX does not run "
                  "there (add --host-search eax)");
  FORMICA_EXPECTS(eax.bridge_threads == 0 || colony.lk_threads == 0 || eax.bridge_threads < colony.lk_threads,
                  "--eax-bridge-threads ", eax.bridge_threads, " must be fewer than --lk-threads ", colony.lk_threads,
                  " (GA-EAX keeps at least one)");
}

std::string SolverConfig::describe_algorithm() const {
  switch (algorithm) {
    case Algorithm::AntSystem: return ant_system.describe();
    case Algorithm::Auto:  // a request not yet resolved: the colonies' settings it runs unless GA-EAX
    case Algorithm::Mmas:
    case Algorithm::Acs:
    case Algorithm::Gaco: return colony_config(*this, 1).describe();
    case Algorithm::TwoOpt: return two_opt.describe();
    case Algorithm::Eax: return eax.describe();
  }
  return {};
}

void check_initial_tour(const Instance& instance, const SolverConfig& config, std::span<const int32_t> tour,
                        std::string_view source) {
  const Algorithm a = config.algorithm == Algorithm::Auto ? Algorithm::Mmas : config.algorithm;  // as validate()
  FORMICA_EXPECTS(a == Algorithm::Eax || (runs_colonies(a) && config.colony.focused()),
                  aco::kStartTourNeedsFocusedColonies);
  try {
    validate_permutation(tour, instance.n());
  } catch (const InputError& e) {
    throw InputError(concat(source, ": not a tour of ", instance.name(), ": ", e.what()));
  }
}

std::unique_ptr<Search> make_search(const Instance& instance, const SolverConfig& config,
                                    Backend backend, int threads, std::vector<int32_t> start_tour,
                                    const StopFlag* setup_stop) {
  const Algorithm algorithm = config.algorithm;
  FORMICA_EXPECTS(start_tour.empty() || (algorithm != Algorithm::AntSystem && algorithm != Algorithm::TwoOpt),
                  aco::kStartTourNeedsFocusedColonies);
  switch (algorithm) {
    case Algorithm::Auto: throw std::logic_error("make_search: the config is not resolved (resolve_config)");
    case Algorithm::AntSystem: {
      aco::AntSystemConfig as = config.ant_system;
      as.seed = config.seed;
      as.threads = threads;
      if (backend == Backend::Cpu) return std::make_unique<aco::AntSystemCpu>(instance, as, setup_stop);
#if FORMICA_HAVE_CUDA
      return std::make_unique<aco::AntSystemCuda>(instance, as);
#else
      break;
#endif
    }
    case Algorithm::Mmas:
    case Algorithm::Acs:
    case Algorithm::Gaco: {
      const aco::ColonyConfig colony = colony_config(config, threads);
      if (backend == Backend::Cpu)
        return std::make_unique<aco::ColonySearchCpu>(instance, colony, std::move(start_tour), setup_stop,
                                                      hybrid::start_host_threads);
#if FORMICA_HAVE_CUDA
      return std::make_unique<aco::ColonySearchCuda>(instance, colony, std::move(start_tour), setup_stop,
                                                     hybrid::start_host_threads);
#else
      break;
#endif
    }
    case Algorithm::TwoOpt: {
      localsearch::TwoOptConfig two_opt = config.two_opt;
      two_opt.seed = config.seed;
      two_opt.threads = threads;
      if (backend == Backend::Cpu) return std::make_unique<localsearch::cpu::TwoOptCpu>(instance, two_opt);
#if FORMICA_HAVE_CUDA
      if (backend == Backend::Cuda) return localsearch::cuda::make_two_opt_cuda(instance, two_opt);
#endif
      break;
    }
    case Algorithm::Eax: {
      population::EdgeAssemblyConfig eax = config.eax;
      eax.seed = config.seed;
      eax.threads = threads;
      // The same search on either backend: on cuda, its GPU steps may run (EdgeAssemblyConfig).
      return std::make_unique<population::EdgeAssemblySearch>(instance, eax, std::move(start_tour), setup_stop);
    }
  }
  throw InputError(concat("--algorithm ", to_string(algorithm), " has no ",
                          to_string(backend), " implementation"));
}

Backend resolve_backend(Algorithm requested_algorithm, Backend requested) {
  if (requested == Backend::Cpu) return Backend::Cpu;
  // Auto runs on the GPU where there is one: it makes GA-EAX the whole run only on the CPU.
  const Algorithm algorithm = requested_algorithm;
  const bool device = cuda::find_device().has_value();
  if (requested == Backend::Cuda) {
    FORMICA_EXPECTS(cuda::built_with_cuda(),
                    "--backend cuda: this build of formica has no CUDA backend (nvcc was not found "
                    "when it was configured)");
    FORMICA_EXPECTS(device, "--backend cuda: no CUDA device is available");
    return Backend::Cuda;
  }
  // GA-EAX runs on host threads, with steps on the GPU where asked (--eax-gpu-climbs,
  // --eax-gpu-children): auto keeps it on the CPU backend, where it was measured; --backend cuda
  // lends it the GPU.
  return device && algorithm != Algorithm::Eax ? Backend::Cuda : Backend::Cpu;
}


namespace {

/// Seconds the final polish spends before its first move: building its neighbour lists (about 4 us
/// a city, shared by the threads), which it cannot leave half done.
double polish_lists_seconds(int n, int threads) { return n * 4e-6 / threads; }

/// Seconds the final polish may take: its lists and one sweep over a tour that is already nearly a
/// local optimum (about 3 us a city), at most a tenth of the time limit.
double polish_reserve(int n, int threads, double time_limit) {
  return std::min(0.1 * time_limit, polish_lists_seconds(n, threads) + n * 3e-6);
}

std::chrono::steady_clock::time_point after(std::chrono::steady_clock::time_point start, double seconds) {
  return start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(seconds));
}

/// --islands N (N > 1) in a process of one rank: N threads, each solve()s as one member of a
/// ThreadTeam (the island model of solver/islands.h over host memory), on GPU member mod gpus when
/// the run is on the GPU, with its share of the CPU threads. Returns island 0's result, which holds
/// every island's best merged. A member that fails before it takes part in the exchanges breaks the
/// team, so nobody waits for it, and its error is the run's.
Result solve_as_team(const Instance& instance, const ResolvedRequest& resolved, const SolveOptions& options) {
  const SolverConfig& config = resolved.config;
  const int islands = config.islands;
  distributed::ThreadTeam team(islands, config.gpus);
  // Each island runs the run's resolution on its share of the threads: what resolving the request
  // with those threads gives, since auto sizes everything by the threads of one island
  // (threads_per_island) already.
  ResolvedRequest each = resolved;
  each.request.threads = threads_per_island(config);
  if (each.config.threads == 0) each.config.threads = each.request.threads;
  std::vector<std::optional<Result>> results(static_cast<size_t>(islands));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(islands));
  {
    std::vector<std::jthread> members;
    members.reserve(static_cast<size_t>(islands));
    for (int r = 0; r < islands; ++r)
      members.emplace_back([&, r] {
        distributed::TeamMember member(team, r);
        SolveOptions mine = options;
        mine.ranks = &member;
        if (r != 0) {  // island 0 speaks for the run
          mine.on_progress = nullptr;
          mine.on_improvement = nullptr;
          mine.on_checkpoint = nullptr;
        }
        try {
          if (config.gpus > 0) cuda::use_device(r % config.gpus);
          results[static_cast<size_t>(r)] = solve(instance, each, mine);
        } catch (...) {
          errors[static_cast<size_t>(r)] = std::current_exception();
          team.break_team();
        }
      });
  }
  // The first error that is not another island's TeamBroken is the cause.
  for (const std::exception_ptr& error : errors) {
    if (!error) continue;
    try {
      std::rethrow_exception(error);
    } catch (const distributed::TeamBroken&) {
    } catch (...) {
      throw;
    }
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return std::move(*results.front());
}

/// Whether the bound beside a run is due at `seconds`: the search has gone without improving for
/// half the time it took to reach its best, and for at least a quarter of the shortest stall that
/// ends a run (which leaves the bound of a small instance, solved at once, the rest of that stall).
bool bound_due(const StoppingRule& rule, double seconds) {
  return seconds - rule.improved_at() >= std::max(StoppingRule::kMinStallSeconds / 4, rule.improved_at() / 2);
}

/// The Held-Karp bound of an instance on one thread beside a run of the default budget, within a
/// quarter of the budget: 0 until it is proven (and when none can be: an instance the bound does
/// not take). The thread is stopped and joined by stop() or when the run ends, also by an exception.
/// solve() starts it once the search stalls (bound_due): a tour can meet the bound only once the
/// search has stopped improving, and a bound computed from the start took a core from the search
/// while it still improved (docs/cli.md).
class BoundBeside {
 public:
  BoundBeside(const Instance& instance, double budget) : thread_([this, &instance, budget] { prove(instance, budget); }) {}
  ~BoundBeside() { stop(); }
  BoundBeside(const BoundBeside&) = delete;
  BoundBeside& operator=(const BoundBeside&) = delete;

  const std::atomic<int64_t>* bound() const { return &bound_; }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  void prove(const Instance& instance, double budget) {
    try {
      bounds::BoundOptions options;
      options.time_limit = budget / 4;
      options.threads = 1;
      options.interrupt = &stop_;
      options.certify_when_interrupted = false;  // stopped: the run has ended and reads no bound
      bound_ = bounds::lower_bound(instance, options).bound;
    } catch (const std::exception&) {
      bound_ = 0;
    }
  }

  std::atomic<int64_t> bound_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;  // declared last: it starts once the atomics exist
};

/// The run of an instance of at most kExactTourCities cities: its optimal tour, at once.
Result solve_exactly(const Instance& instance, const SolverConfig& config, Backend backend, const SolveOptions& options) {
  const Stopwatch clock(options.start);
  Result result;
  result.config = config;
  result.config.backend = backend;
  result.backend = backend;
  result.device = backend == Backend::Cuda ? cuda::find_device()->name : "CPU, 1 thread";
  result.tour = Tour(instance, exact_tour(instance));
  result.stop_reason = "exact";
  result.searched_by = "Held-Karp dynamic programming";
  result.credits.start(result.tour.length());  // the first tour is the optimum: nothing to credit
  result.seconds = clock.seconds();
  result.history.push_back({0, result.seconds, result.tour.length()});
  result.phase_seconds.search = result.seconds;
  const int64_t length = result.tour.length();
  if (options.on_progress) options.on_progress({0, result.seconds, length, length, true});
  if (options.on_improvement) options.on_improvement(result.tour.order(), result.tour.length(), result.seconds);
  return result;
}

void add_step_times(StepTimes& sum, const StepTimes& t) {
  sum.total_ms += t.total_ms;
  sum.construction_ms += t.construction_ms;
  sum.pheromone_ms += t.pheromone_ms;
  sum.local_search_ms += t.local_search_ms;
}

/// `sum` over `iterations` completed iterations (zeros without one).
StepTimes mean_step_times(const StepTimes& sum, int64_t iterations) {
  if (iterations == 0) return {};
  const double k = 1.0 / static_cast<double>(iterations);
  return {sum.total_ms * k, sum.construction_ms * k, sum.pheromone_ms * k, sum.local_search_ms * k};
}

/// make_search, or a QuickSearch when `stop` (the time limit, an interrupt) comes before the
/// search's lists are built (half the time left: preparation_stop); `result` then says so. The
/// quick search takes the island's every core (`request`'s threads): the host threads the search
/// would have had beside it do not run.
std::unique_ptr<Search> make_search_in_time(const Instance& instance, const SolverConfig& config, Backend backend,
                                            int threads, const SolverConfig& request,
                                            const std::vector<int32_t>& start_tour, const StopFlag& stop,
                                            Result& result) {
  const int quick_threads = threads_per_island(request);
  try {
    return make_search(instance, config, backend, threads, start_tour, &stop);
  } catch (const SetupStopped&) {
    result.searched_by = concat("stretch walks (stopped before ", result.searched_by, " was set up)");
    result.setup_stopped = true;
    result.backend = Backend::Cpu;
    result.device = concat("CPU, ", quick_threads, quick_threads == 1 ? " thread" : " threads");
    return std::make_unique<QuickSearch>(instance, quick_threads, config.seed, start_tour);
  }
}

/// When the search and the polish stop: the search early enough to leave the polish its time, the
/// polish at the limit (less what the CUDA driver needs at exit on the GPU).
struct RunStops {
  StopFlag search, polish;
};

RunStops run_stops(const Instance& instance, const SolverConfig& config, Backend backend, int threads,
                   const SolveOptions& options) {
  RunStops stops;
  stops.search.interrupt = stops.polish.interrupt = options.interrupt;
  if (config.time_limit) {
    const double exit_reserve =
        backend == Backend::Cuda ? std::min(options.gpu_exit_seconds, *config.time_limit / 2) : 0.0;
    const double limit = *config.time_limit - exit_reserve;
    stops.polish.deadline = after(options.start, limit);
    // A reserve too short for the polish's lists would only be lost: the search keeps it.
    const double reserve = polish_reserve(instance.n(), threads, limit);
    const bool polish_fits = config.polish && reserve >= polish_lists_seconds(instance.n(), threads);
    stops.search.deadline = after(options.start, limit - (polish_fits ? reserve : 0.0));
  }
  return stops;
}

/// The Result before the search: what runs (the resolved config with its threads and ants), where.
Result started_result(const Instance& instance, const SolverConfig& config, Backend backend, int threads) {
  Result result;
  result.config = config;
  result.config.backend = backend;
  result.config.threads = threads;
  if (result.config.ant_system.ants == 0)
    result.config.ant_system.ants =
        runs_colonies(config.algorithm) ? colony_config(config, threads).ants_of(0, instance.n()) : instance.n();
  result.backend = backend;
  result.searched_by = concat(to_string(config.algorithm), backend == Backend::Cuda ? " on the GPU" : " on the CPU");
  result.gpus = backend == Backend::Cuda ? 1 : 0;  // several ranks: counted by start_islands
  if (backend == Backend::Cuda) result.device = cuda::find_device()->name;
  else result.device = concat("CPU, ", threads, threads == 1 ? " thread" : " threads");
  return result;
}

/// A run of several ranks: this rank's search seeded apart (seed + rank) with its own region of
/// the stretches (`searched`), and the islands that exchange the ranks' best tours; `result` says so.
Islands start_islands(const Instance& instance, const ResolvedRequest& resolved, distributed::Communicator& ranks,
                      SolverConfig& searched, Result& result) {
  const SolverConfig& config = resolved.config;
  searched.seed = config.seed + static_cast<uint64_t>(ranks.rank());
  searched.colony.lk_region = ranks.rank();
  searched.colony.lk_regions = ranks.size();
  searched.colony.lk_stretch = island_stretch(resolved.request, config, searched.colony.lk_regions);
  result.config.colony.lk_regions = searched.colony.lk_regions;  // what the islands split (rank 0's region)
  result.config.colony.lk_stretch = searched.colony.lk_stretch;
  Islands islands(ranks, instance, resolved.island_interval(), resolved.backend == Backend::Cuda);
  result.ranks = ranks.size();
  result.gpus = islands.gpus();
  result.transport = ranks.transport();
  return islands;
}

/// The search's best tour once it has finished (when it stopped before it had one, a start tour
/// built within `stop`: start_tour_in_time), with the history's last point and the ledger of who found it.
void take_final_tour(const Instance& instance, Search& search, uint64_t seed, const Stopwatch& clock,
                     const StopFlag& stop, Result& result, std::vector<int32_t>& tour, int64_t& length) {
  search.finish();
  tour = search.best_tour();
  length = search.best_length();
  if (tour.empty()) {
    // Stopped before the search had a tour: the nearest-neighbour tour while the stop allows, else
    // one that needs no k-d tree (200,000 cities: 0.22 s past the deadline on 2 cores, now 0.02 s).
    tour = localsearch::start_tour_in_time(instance, seed, 0, &stop);
    length = tour_length(instance, tour);
  }
  // The history has at least one point: a run stopped before its first iteration has its start tour.
  if (result.history.empty() || length < result.history.back().length)
    result.history.push_back({result.iterations, clock.seconds(), length});
  // The search's own ledger where it keeps one; else every improvement since its first
  // iteration is its own.
  if (const Credits* credits = search.credits()) result.credits = *credits;
  else result.credits.start(result.history.front().length);
  result.credits.credit(Finder::Search, length);
}

/// The final polish of `tour` (of exact length `length`) where there is time for it, then the
/// tour into `result`, validated and measured exactly.
void polish_and_validate(const Instance& instance, const SolverConfig& config, int threads, const StopFlag& stop,
                         const Stopwatch& clock, Result& result, std::vector<int32_t> tour, int64_t length) {
  // Without the time to build its lists before the limit, the polish would only overrun it (200,000
  // cities, 2 cores, a 2-s limit: by 0.12 s).
  const bool polish_in_time =
      !config.time_limit || std::chrono::duration<double>(stop.deadline - std::chrono::steady_clock::now()).count() >=
                                polish_lists_seconds(instance.n(), threads);
  if (config.polish && polish_in_time) {
    const localsearch::cpu::NeighbourClimbCounts polish =
        localsearch::cpu::polish_tour(instance, tour, threads, &stop, config.colony.neighbour_lists);
    length -= polish.gain;
    if (polish.gain > 0) result.history.push_back({result.iterations, clock.seconds(), length});
    result.credits.credit(Finder::Polish, length);
  }
  // Every tour leaves the solver validated, with its length recomputed exactly.
  result.tour = Tour(instance, std::move(tour));
  if (result.tour.length() != length)
    throw std::logic_error(concat("the search and the polish reported length ", length,
                                  " but the tour measures ", result.tour.length()));
  result.seconds = clock.seconds();
}

}  // namespace

bool ResolvedRequest::default_budget() const {
  return request.algorithm == Algorithm::Auto && !request.iterations && !request.time_limit && config.islands == 1;
}

int ResolvedRequest::threads() const { return config.threads > 0 ? config.threads : hardware_threads(); }

double ResolvedRequest::island_interval() const {
  return config.island_interval > 0 ? config.island_interval : default_island_interval(n, config.time_limit);
}

std::string capped_threads(SolverConfig& config) {
  const int hardware = hardware_threads();
  std::string asked;
  if (config.threads > hardware) {
    asked = concat("--threads ", config.threads);
    config.threads = hardware;
  }
  if (config.colony.lk_threads > hardware) {
    asked += concat(asked.empty() ? "" : " and ", "--lk-threads ", config.colony.lk_threads);
    config.colony.lk_threads = hardware;
    // GA-EAX keeps at least one of the Lin-Kernighan threads it lends.
    config.eax.bridge_threads = std::min(config.eax.bridge_threads, hardware - 1);
  }
  if (asked.empty()) return "";
  return concat(asked, ": more than this machine's ", hardware, " hardware thread", hardware == 1 ? "" : "s", ", ",
                hardware, " started", config.islands > 1 ? " for each island" : "");
}

ResolvedRequest resolve_request(const Instance& instance, const SolverConfig& asked,
                                std::vector<int32_t> initial_tour, std::string_view tour_source) {
  asked.validate();
  ResolvedRequest resolved;
  SolverConfig request = asked;
  resolved.threads_note = capped_threads(request);
  resolved.request = request;
  resolved.n = instance.n();
  resolved.backend = resolve_backend(request.algorithm, request.backend);
  resolved.config = resolve_config(request, instance.n(), resolved.backend);
  resolved.config.validate();
  // GA-EAX's GPU steps are built with the search, after the set-up: refused here, before any work.
  for (const auto& [asked_for, option] : {std::pair{resolved.config.eax.gpu_climbs, "--eax-gpu-climbs"},
                                          std::pair{resolved.config.eax.gpu_children, "--eax-gpu-children"}})
    FORMICA_EXPECTS(!asked_for || resolved.backend == Backend::Cuda, option,
                    " true needs the CUDA backend, but this run is on the CPU (",
                    cuda::find_device() ? "--backend cpu" : "no CUDA device found", ")");
  if (!initial_tour.empty()) check_initial_tour(instance, resolved.config, initial_tour, tour_source);
  resolved.initial_tour = std::move(initial_tour);
  return resolved;
}

Result solve(const Instance& instance, const SolverConfig& request, const SolveOptions& options) {
  return solve(instance, resolve_request(instance, request), options);
}

namespace {

/// `options` as the run's deadlines count them. A fresh process creates its CUDA context while the
/// search prepares on the host; a budget nobody named (from a few milliseconds on small instances)
/// does not pay for it: the run waits for the context and its start moves by the wait (a named
/// time limit keeps counting it).
SolveOptions options_after_context(const ResolvedRequest& resolved, Backend backend,
                                   const SolveOptions& options) {
  SolveOptions budget = options;
  if (backend != Backend::Cuda) return budget;
  cuda::start_context();
  if (resolved.default_budget()) {
    const auto waiting = std::chrono::steady_clock::now();
    cuda::finish_context();
    budget.start += std::chrono::steady_clock::now() - waiting;
  }
  return budget;
}

/// The final tour of the search into `tour` and `length` (take_final_tour); with `islands`, the
/// shortest of every rank's. A failed search may not answer any more: its rank sends no tour and
/// takes rank 0's word.
void final_tour(const Instance& instance, Search& search, uint64_t seed, const Stopwatch& clock, const StopFlag& stop,
                Islands* islands, Result& result, std::vector<int32_t>& tour, int64_t& length) {
  if (!result.failure) {
    try {
      take_final_tour(instance, search, seed, clock, stop, result, tour, length);
    } catch (...) {
      if (!islands) throw;
      result.failure = std::current_exception();
    }
  }
  if (islands) {
    const int64_t own = length;
    islands->gather_best(result.failure != nullptr, tour, length);
    if (length < own && !result.history.empty())
      result.history.push_back({result.iterations, clock.seconds(), length});
    result.credits.credit(Finder::Ranks, length);
    if (tour.empty()) {  // a failed rank other than 0: the identity, never written (only rank 0 writes)
      tour.resize(static_cast<size_t>(instance.n()));
      std::iota(tour.begin(), tour.end(), 0);
      length = tour_length(instance, tour);
    }
  }
}

/// One search, alone or as this rank's island among several: set up in time, stepped under the
/// stopping rules, its final tour polished and validated.
Result run_search(const Instance& instance, const ResolvedRequest& resolved, const SolveOptions& options) {
  const SolverConfig& config = resolved.config;
  const Backend backend = resolved.backend;
  const SolveOptions budget = options_after_context(resolved, backend, options);
  if (backend == Backend::Cuda)
    cuda::set_wait_mode(gpu_waits_blocking(config) ? cuda::WaitMode::Block : cuda::WaitMode::Spin);
  const int threads = resolved.threads();
  const Stopwatch clock(options.start);

  const RunStops stops = run_stops(instance, config, backend, threads, budget);
  const StopFlag& stop = stops.search;
  Result result = started_result(instance, config, backend, threads);
  std::optional<Islands> islands;  // several ranks: start_islands
  SolverConfig searched = config;
  if (options.ranks != nullptr && options.ranks->size() > 1)
    islands.emplace(start_islands(instance, resolved, *options.ranks, searched, result));
  const double before_setup = clock.seconds();
  std::unique_ptr<Search> search = make_search_in_time(instance, searched, backend, threads, resolved.request,
                                                       resolved.initial_tour, stop, result);
  const double set_up_at = clock.seconds();
  result.phase_seconds.setup = set_up_at - before_setup;
  // Every iteration obeys the time limit and the interrupt, the first one too (a first iteration run
  // to its end took minutes past a 2-s limit): a search stopped before its first tour returns the start tour.
  StepTimes sum;
  StoppingRule rule;
  rule.iterations = config.iterations;
  rule.target = config.target;
  rule.stop = stop;
  // The default solver on a budget nobody named also stops when its tour is proven optimal or
  // when it stops improving (a run of several ranks stops at their exchanges; a named algorithm
  // runs as configured).
  const bool default_budget = resolved.default_budget() && !islands;
  rule.stop_on_stall = default_budget;
  std::optional<BoundBeside> bounding;  // started once the search stalls (BoundBeside)
  const bool bound_beside = default_budget && instance.n() <= kBoundedCities;
  if (options.on_improvement && !islands)
    rule.keep_going = [&](int64_t length, double seconds) {
      return options.on_improvement(search->best_tour(), length, seconds);
    };
  // One iteration under the stopping rules; false, with the reason, once one fires.
  const auto advance = [&]() -> bool {
    // bounded: every run has a tour to return, the start tour at worst (above).
    if (const std::string_view reason = rule.before_step(result.iterations, search->finished(), true);
        !reason.empty()) {
      result.stop_reason = reason;
      return false;
    }
    const bool completed = search->step(stop);
    if (!completed) {
      result.stop_reason = rule.after_incomplete_step();
      return false;
    }
    ++result.iterations;
    add_step_times(sum, search->last_step_times());
    const double seconds = clock.seconds();
    const bool improved = result.history.empty() || search->best_length() < result.history.back().length;
    if (improved) result.history.push_back({result.iterations, seconds, search->best_length()});
    if (options.on_progress)
      options.on_progress({result.iterations, seconds, search->best_length(),
                           search->iteration_best_length(), improved});
    result.stop_reason = rule.after_step(search->best_length(), seconds, improved);
    if (bound_beside && !bounding && bound_due(rule, seconds))
      rule.lower_bound = bounding.emplace(instance, *config.time_limit).bound();
    return result.stop_reason.empty();
  };
  if (islands) {
    islands->run(*search, advance, result, clock, options);
    result.exchanges = islands->exchanges();
  } else {
    while (advance()) {
    }
  }
  if (bounding) bounding->stop();
  const double searched_until = clock.seconds();
  result.phase_seconds.search = searched_until - set_up_at;
  std::vector<int32_t> tour;
  int64_t length = 0;
  final_tour(instance, *search, searched.seed, clock, stop, islands ? &*islands : nullptr, result, tour, length);
  const double finished_at = clock.seconds();
  result.phase_seconds.finish = finished_at - searched_until;
  polish_and_validate(instance, config, threads, stops.polish, clock, result, std::move(tour), length);
  result.phase_seconds.polish = result.seconds - finished_at;
  result.mean_step_times = mean_step_times(sum, result.iterations);
  return result;
}

Result solve_resolved(const Instance& instance, const ResolvedRequest& resolved,
                      const SolveOptions& options) {
  if (resolved.n != instance.n())
    throw std::logic_error(concat("solve: a request resolved for ", resolved.n, " cities, run on ", instance.n()));
  const SolverConfig& config = resolved.config;
  const Backend backend = resolved.backend;
  const bool several_ranks = options.ranks != nullptr && options.ranks->size() > 1;
  // Islands exchange tours on their own schedule: a run of several goes through their search.
  if (instance.n() <= kExactTourCities && resolved.initial_tour.empty() && config.islands == 1 && !several_ranks) {
    // The one check the searches make when built rather than in validate(): refused as they would be.
    if (backend == Backend::Cpu && config.algorithm == Algorithm::AntSystem) aco::require_cpu_defaults(config.ant_system);
    return solve_exactly(instance, config, backend, options);
  }
  if (config.islands > 1 && !several_ranks) {
    expect_islands_fit(instance, config, backend);  // each island checks its own share only
    return solve_as_team(instance, resolved, options);
  }
  FORMICA_EXPECTS(config.islands == 1 || dynamic_cast<const distributed::TeamMember*>(options.ranks) != nullptr,
                  "--islands ", config.islands, " in a run of ", options.ranks->size(),
                  " MPI ranks: start one rank per GPU (or per group of cores) instead");
  return run_search(instance, resolved, options);
}

}  // namespace

Result solve(const Instance& instance, const ResolvedRequest& resolved, const SolveOptions& options) {
  Result result = solve_resolved(instance, resolved, options);
  // Every path's reason (the search's, set-up stopped, islands, exact) in one place.
  const std::string_view reason =
      StoppingRule::final_reason(result.stop_reason, resolved.config.target, result.tour.length());
  result.stop_reason = std::string(reason);
  return result;
}

}  // namespace formica
