// SPDX-License-Identifier: MIT
// The one entry point of formica: an Instance and a SolverConfig in, a Result out.
//
// The solver picks the backend, builds the Search for the chosen algorithm, runs it until a
// stopping rule fires (iterations, time limit, target length, interrupt) and returns the best
// tour, validated and with its exact length, plus the best-so-far history.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aco/colony_config.h"
#include "aco/config.h"
#include "core/instance.h"
#include "core/named_table.h"
#include "core/path_transform.h"
#include "core/search.h"
#include "core/tour.h"
#include "distributed/communicator.h"
#include "localsearch/config.h"
#include "population/edge_assembly_search.h"

namespace formica {

/// The algorithms by name. Auto, the default, is whatever resolve_algorithm() says it is.
enum class Algorithm { Auto, AntSystem, Mmas, Acs, Gaco, TwoOpt, Eax };

std::string_view to_string(Algorithm algorithm);
std::optional<Algorithm> parse_algorithm(std::string_view text);
/// "auto, as, ..." : every algorithm name, for help and error messages.
/// Every algorithm's name with a line of help.
std::vector<NamedValue> algorithm_names();
std::string_view to_string(Backend backend);
std::optional<Backend> parse_backend(std::string_view text);

/// The longest --time-limit, in seconds (about 116 days), and the most --threads.
inline constexpr double kMaxTimeLimit = 1e7;
inline constexpr int kMaxThreads = 2048;

/// How the thread that drives a GPU search waits for its kernels (cuda::WaitMode): auto blocks where
/// host threads run beside the GPU search (--lk-threads), so that its core goes to them, and spins
/// elsewhere, where the shortest latency counts.
enum class GpuWait { Auto, Block, Spin };

struct SolverConfig {
  Algorithm algorithm = Algorithm::Auto;
  Backend backend = Backend::Auto;
  std::optional<int64_t> iterations;  ///< stop after this many iterations
  std::optional<double> time_limit;   ///< seconds, counted from SolveOptions::start (see resolve_config)
  std::optional<int64_t> target;      ///< stop once the best length is at most this
  uint64_t seed = 1;
  int threads = 0;                    ///< CPU threads; 0 means every hardware thread
  aco::AntSystemConfig ant_system;
  /// MMAS, ACS and GACO; their ants, alpha and beta come from ant_system (see make_search).
  aco::ColonyConfig colony;
  localsearch::TwoOptConfig two_opt;
  /// --algorithm eax (its seed and threads are the run's).
  population::EdgeAssemblyConfig eax;
  /// Exact 2-opt + Or-opt + 3-opt polish of the best tour before it is returned (neighbour lists, with the
  /// final sweep; localsearch/cpu/neighbour_list_climb.h). Its time comes out of the time limit.
  bool polish = true;
  /// How the GPU search's driving thread waits for the GPU (the CUDA backend only).
  GpuWait gpu_wait = GpuWait::Auto;
  /// Seconds between the ranks' exchanges of best tours in a run of several ranks (mpirun,
  /// solver/islands.h); 0 for default_island_interval(n, time limit).
  double island_interval = 0.0;
  /// Islands in this process (solve() runs them as threads exchanging through host memory,
  /// distributed/thread_team.h): each its own search with seed + island, its own CPU threads
  /// (`threads` each) and, on the GPU, GPU island mod gpus. resolve_config() makes it `gpus` unless named.
  int islands = 1;
  /// GPUs of this host that the islands share (the CUDA backend); kAllGpus for every GPU the process
  /// sees. resolve_config() replaces kAllGpus by the count, makes it 0 on the CPU and refuses more
  /// than there are.
  int gpus = 1;
  static constexpr int kAllGpus = -1;
  /// Set by RouteProblem (solver/route_solver.h), never by a parameter: the instance is an
  /// asymmetric one's symmetric form (core/asymmetric.h), where auto's rules differ (portfolio.h).
  bool asymmetric_form = false;
  /// Parameters given by name (set_parameter: the command line, Python, bench configs), so that
  /// `--algorithm auto` keeps them even where the value given equals the default.
  std::vector<std::string> named;

  /// True if set_parameter set `name` ("local-search", ...).
  bool was_named(std::string_view name) const;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// The chosen algorithm's parameters on one line, for logs and benchmark rows.
  std::string describe_algorithm() const;
};

/// What `config` runs on n cities on `backend` (resolved): the algorithm it names, or for auto what
/// auto runs there: GA-EAX where auto_eax (solver/portfolio.h) makes it the whole run, else MMAS
/// with local search. The algorithm of resolve_config's result; everything that reports a run
/// reports it, never "auto".
Algorithm resolve_algorithm(const SolverConfig& config, int n, Backend backend);

/// `config` as solve() runs it on n cities on `backend` (already resolved): Auto replaced by the
/// portfolio's choice (apply_portfolio) and, when neither iterations nor a time limit is set, the
/// default time limit for n (default_time_limit; a target alone does not count: it may never be
/// reached).
SolverConfig resolve_config(SolverConfig config, int n, Backend backend);

/// CPU threads each island of `config` runs with: config.threads, or an islands-th of the
/// hardware threads when that is 0.
int threads_per_island(const SolverConfig& config);

std::string_view to_string(GpuWait wait);
std::optional<GpuWait> parse_gpu_wait(std::string_view text);
/// Whether the GPU search of `config` (resolved) waits blocking: GpuWait::Block, or Auto with host threads.
bool gpu_waits_blocking(const SolverConfig& config);

struct HistoryPoint {
  int64_t iteration;
  double seconds;
  int64_t length;
};

struct Progress {
  int64_t iteration;
  double seconds;
  int64_t best_length;
  int64_t iteration_best_length;
  bool improved;
  /// At an exchange of a run of several ranks (rank 0 only): every rank's best length, rank by
  /// rank, and best_length is their minimum; empty otherwise.
  std::span<const int64_t> rank_best = {};
};

struct SolveOptions {
  const std::atomic<bool>* interrupt = nullptr;  ///< set (e.g. by Ctrl-C) to stop cleanly
  /// The time limit counts from here: the CLI passes its own start, so that reading the instance
  /// and every preprocessing step count too.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  /// Seconds that the process still needs after solve() returns when the search ran on the GPU,
  /// kept out of the time limit (at most half of it): the command line, whose limit counts until
  /// the process has ended, passes the CUDA driver's release of the context at exit
  /// (cuda::kContextReleaseSeconds); in-process callers (Python) leave it at 0.
  double gpu_exit_seconds = 0.0;
  std::function<void(const Progress&)> on_progress;  ///< called after every iteration
  /// Called on the solver's thread after every iteration that shortened the best tour (and once
  /// with the exact tour of a small instance), with that tour, its length and the seconds since
  /// `start`; returning false stops the run (stop_reason "callback"), which keeps that tour. A run
  /// of several ranks does not call it.
  std::function<bool(std::span<const int32_t> tour, int64_t length, double seconds)> on_improvement;
  /// The ranks of the run (distributed/start_ranks.h). With more than one, every rank solves with
  /// seed + rank and they exchange best tours (solver/islands.h): every rank calls solve() with the
  /// same instance and config. Null: one rank.
  distributed::Communicator* ranks = nullptr;
  /// With several ranks: called on rank 0 after every exchange that shortened the best tour, with
  /// that tour and its exact length (the CLI rewrites --tour-out with it, so that a run which
  /// mpirun aborts, a rank killed, leaves the last exchange's best tour).
  std::function<void(std::span<const int32_t> tour, int64_t length)> on_checkpoint;
};

struct Result {
  Tour tour;                       ///< best tour, validated, exact length
  /// What ran: resolve_config() of the request, with the backend, the CPU threads and the number
  /// of ants actually used.
  SolverConfig config;
  int64_t iterations = 0;
  double seconds = 0.0;            ///< since SolveOptions::start
  std::vector<HistoryPoint> history;  ///< every improvement of the best-so-far length
  Backend backend = Backend::Cpu;
  std::string device;              ///< "CPU, 16 threads" or the GPU's name
  /// "iterations", "time limit", "target", "interrupted", "finished", "exact" (a small instance
  /// solved by dynamic programming), "optimal" (the tour met a proven bound), "no improvement"
  /// (StoppingRule::stop_on_stall), "callback" (SolveOptions::on_improvement)
  std::string stop_reason;
  StepTimes mean_step_times;       ///< average over completed iterations
  /// Where the run's seconds went, each phase since the previous ended (their sum is `seconds`
  /// less the time before solve() was called): set-up of the search (lists, start tour, GPU
  /// buffers, host threads), the iterations, finish (host threads joined, their tours merged, the
  /// ranks' bests gathered), the final polish.
  struct Phases {
    double setup = 0.0, search = 0.0, finish = 0.0, polish = 0.0;
  } phase_seconds;
  /// The route solved (solver/route_solver.h): a closed tour unless `ends` say a path; `asymmetric`
  /// when the tour is a directed tour of an ATSP matrix.
  PathEnds ends;
  bool asymmetric = false;
  /// Ranks of the run, the GPUs they used together (0 on the CPU), what carried their tours and
  /// how many exchanges they made (solver/islands.h); 1, 1 on the GPU (0 on the CPU), "" and 0 for
  /// a run of one rank.
  int ranks = 1;
  int gpus = 0;
  std::string transport;
  int64_t exchanges = 0;
  /// A run of several ranks: this rank's search failed (stop_reason "failed"). The others stopped
  /// with it and rank 0 still returns the best tour gathered; the caller reports this error (rethrows)
  /// after its output is written and the ranks have met once more, so no rank ends the job first.
  std::exception_ptr failure;
  /// Who found the improvements of the best tour, from the first tour of the search to the
  /// returned one (core/credits.h); Finder::Search is `searched_by`.
  Credits credits;
  std::string searched_by;  ///< the run's own search, e.g. "mmas on the GPU"
  /// The time limit (or an interrupt) came before `config`'s search was set up: a QuickSearch
  /// (solver/quick_search.h) ran instead, on the CPU, and `searched_by` and `device` say so.
  bool setup_stopped = false;
};

/// The backend `requested` resolves to for `algorithm` on this machine: Auto picks CUDA when a
/// device is present and the algorithm has a CUDA implementation. Throws InputError when CUDA is
/// requested but unavailable.
Backend resolve_backend(Algorithm algorithm, Backend requested);

/// Hardware threads of this machine (at least 1).
int hardware_threads();

/// The colony variants' configuration of `config` (MMAS, ACS or GACO after its algorithm; ants,
/// alpha, beta and seed from the shared rows) with `threads` CPU threads.
aco::ColonyConfig colony_config(const SolverConfig& config, int threads);

/// Throws InputError unless `tour` can start `config` (resolved) on `instance`: the searches that
/// start from a tour are focused colonies, and the tour must be a permutation of the cities.
/// `source` names the tour in the message ("--initial-tour FILE").
void check_initial_tour(const Instance& instance, const SolverConfig& config, std::span<const int32_t> tour,
                        std::string_view source);

/// The Search that runs `config.algorithm` on `backend` (already resolved) with `threads` CPU
/// threads. The bench harness drives it directly to time single iterations. A non-empty
/// `start_tour` is where focused colonies start (instead of their own start tour); other searches
/// take none. `setup_stop` (the time limit) ends the climb of the CPU colonies' own start tour.
std::unique_ptr<Search> make_search(const Instance& instance, const SolverConfig& config, Backend backend,
                                    int threads, std::vector<int32_t> start_tour = {},
                                    const StopFlag* setup_stop = nullptr);

/// What the run of `config` (resolved: its algorithm is what runs) will hold at its peak on
/// `backend` and what is available, on one line ("host 52.0 MiB (12.0 MiB in use, 40.0 MiB for the
/// search) of 100 GiB available, GPU ..."): what the process holds when it is asked (the instance,
/// and the matrix of an asymmetric instance's symmetric form or of a path on the GPU, are built by
/// then) plus each island's search and its threads.
std::string memory_plan(const Instance& instance, const SolverConfig& config, Backend backend);

/// OutOfMemoryError (exit code 3) before any island starts when the plan of --islands N (N > 1, in
/// one process) exceeds the memory available: each island's search checks only its own share
/// (8 islands of 9.8 GiB each were run on 22 GiB, 29 s of allocation at a 1-s limit).
void expect_islands_fit(const Instance& instance, const SolverConfig& config, Backend backend);

/// A request resolved once, for the instance it runs on (resolve_request): what the front ends
/// print and what solve() runs, so that what is printed is what runs.
struct ResolvedRequest {
  SolverConfig request;            ///< as asked (validated): what the caller named
  Backend backend = Backend::Cpu;  ///< resolve_backend(request.algorithm, request.backend)
  /// resolve_config(request, n, backend), validated: the algorithm that runs (never Auto), its
  /// settings and a budget (iterations, a time limit or both).
  SolverConfig config;
  int n = 0;  ///< cities of the instance it was resolved for
  /// Where focused colonies (or GA-EAX) start, checked to be a tour of the instance that `config`
  /// can start from (check_initial_tour); empty: the search's own start tour.
  std::vector<int32_t> initial_tour;
  /// One line when `request` asked for more CPU threads than this machine has (capped_threads), for
  /// the front ends to print; empty otherwise.
  std::string threads_note;
  /// One line when auto's backend was moved to the CPU for this instance (RouteProblem::resolve:
  /// a path whose dense form would cost a share of the limit), for the front ends to print.
  std::string backend_note;

  /// The default solver on a budget nobody named (auto without iterations or a time limit, one
  /// island): such a run of one rank also stops when it stops improving and, up to kBoundedCities
  /// cities, when its tour meets the Held-Karp bound computed beside it.
  bool default_budget() const;
  /// CPU threads of one island: config.threads, or every hardware thread when that is 0.
  int threads() const;
  /// Seconds between the islands' exchanges of best tours (several ranks or islands).
  double island_interval() const;
};

/// Instances up to this size get a Held-Karp bound beside a run of the default budget
/// (ResolvedRequest::default_budget), so that a tour that meets it ends the run.
inline constexpr int kBoundedCities = 5000;

/// `config` with --threads and --lk-threads at most this machine's hardware threads: more only
/// share its cores, and each costs its set-up, stack and arena (4 islands of 512 threads on 2 cores
/// ran 2.9 s at a 1-s limit). A colony's result does not depend on its thread count. Returns the
/// note that says what was capped, empty when nothing was.
std::string capped_threads(SolverConfig& config);

/// `request` resolved for `instance`: validated, its CPU threads capped (capped_threads), its backend and configuration resolved, the
/// initial tour (if any) checked. Throws InputError for an invalid request or tour, naming the
/// tour by `tour_source` ("--initial-tour FILE").
ResolvedRequest resolve_request(const Instance& instance, const SolverConfig& request,
                                std::vector<int32_t> initial_tour = {},
                                std::string_view tour_source = "--initial-tour");

/// Runs `resolved` (resolve_request for this instance) until a stopping rule fires
/// (solver/stopping_rule.h), then polishes the best tour (SolverConfig::polish). An instance of at
/// most kExactTourCities cities (without an initial tour) gets its optimal tour by dynamic
/// programming instead. Throws OutOfMemoryError when the instance does not fit.
Result solve(const Instance& instance, const ResolvedRequest& resolved, const SolveOptions& options = {});
/// solve(instance, resolve_request(instance, request), options): no initial tour. Throws InputError
/// for an invalid request.
Result solve(const Instance& instance, const SolverConfig& request, const SolveOptions& options = {});

}  // namespace formica
