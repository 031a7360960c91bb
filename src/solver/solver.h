// The one entry point of formica: an Instance and a SolverConfig in, a Result out.
//
// The solver picks the backend, builds the Search for the chosen algorithm, runs it until a
// stopping rule fires (iterations, time limit, target length, interrupt) and returns the best
// tour, validated and with its exact length, plus the best-so-far history.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aco/config.h"
#include "core/instance.h"
#include "core/search.h"
#include "core/tour.h"
#include "localsearch/config.h"

namespace formica {

enum class Algorithm { AntSystem, TwoOpt };

std::string_view to_string(Algorithm algorithm);
std::optional<Algorithm> parse_algorithm(std::string_view text);
std::string_view to_string(Backend backend);
std::optional<Backend> parse_backend(std::string_view text);

struct SolverConfig {
  Algorithm algorithm = Algorithm::AntSystem;
  Backend backend = Backend::Auto;
  std::optional<int64_t> iterations;  ///< stop after this many iterations
  std::optional<double> time_limit;   ///< seconds, counted from SolveOptions::start
  std::optional<int64_t> target;      ///< stop once the best length is at most this
  uint64_t seed = 1;
  int threads = 0;                    ///< CPU threads; 0 means every hardware thread
  aco::AntSystemConfig ant_system;
  localsearch::TwoOptConfig two_opt;

  /// Throws InputError naming the first parameter out of range.
  void validate() const;
  /// The chosen algorithm's parameters on one line, for logs and benchmark rows.
  std::string describe_algorithm() const;
};

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
};

struct SolveOptions {
  const std::atomic<bool>* interrupt = nullptr;  ///< set (e.g. by Ctrl-C) to stop cleanly
  /// The time limit counts from here: the CLI passes its own start, so that reading the instance
  /// and every preprocessing step count too.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::function<void(const Progress&)> on_progress;  ///< called after every iteration
};

struct Result {
  Tour tour;                       ///< best tour, validated, exact length
  int64_t iterations = 0;
  double seconds = 0.0;            ///< since SolveOptions::start
  std::vector<HistoryPoint> history;  ///< every improvement of the best-so-far length
  Backend backend = Backend::Cpu;
  std::string device;              ///< "CPU, 16 threads" or the GPU's name
  std::string stop_reason;         ///< "iterations", "time limit", "target", "interrupted", "finished"
  StepTimes mean_step_times;       ///< average over completed iterations
};

/// The backend `requested` resolves to for `algorithm` on this machine: Auto picks CUDA when a
/// device is present and the algorithm has a CUDA implementation. Throws InputError when CUDA is
/// requested but unavailable.
Backend resolve_backend(Algorithm algorithm, Backend requested);

/// Hardware threads of this machine (at least 1).
int hardware_threads();

/// The Search that runs `config.algorithm` on `backend` (already resolved) with `threads` CPU
/// threads. The bench harness drives it directly to time single iterations.
std::unique_ptr<Search> make_search(const Instance& instance, const SolverConfig& config, Backend backend,
                                    int threads);

Result solve(const Instance& instance, const SolverConfig& config, const SolveOptions& options = {});

}  // namespace formica
