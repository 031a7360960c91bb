// SPDX-License-Identifier: MIT
// GA-EAX alone on host threads (population/edge_assembly_search.h): the population's shortest
// tour against wall time on a TSPLIB instance, its gap to the optimum where one is known.
//   eax_bench --instance pcb3038 --seconds 30 [--population 100] [--children 30] [--threads 0] [--seed 1]
//             [--gpu-climbs] [--gpu-children] [--gpu-makers M] [--generations G] ...
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>

#include "bench_support.h"
#include "core/search.h"
#include "core/tour.h"
#include "io/known_optima.h"
#include "io/tsplib.h"
#include "population/edge_assembly_search.h"
#include "solver/solver.h"

int main(int argc, char** argv) {
  using namespace formica;
  CLI::App app{"GA-EAX on host threads: shortest tour against wall time"};
  std::string instance_spec = "pcb3038";
  population::EdgeAssemblyConfig config;
  double seconds = 30;
  int64_t optimum = 0;
  app.add_option("--instance", instance_spec, "a TSPLIB name or path (or uniform:N[:seed])");
  app.add_option("--seconds", seconds, "time limit (the search also ends when its population converges)")
      ->check(CLI::Range(0.01, 36000.0));
  app.add_option("--population", config.population, "tours")->check(CLI::Range(2, 100000));
  app.add_option("--children", config.children, "children per pair")->check(CLI::Range(1, 1000));
  app.add_option("--stages", config.stages, "1: single AB-cycles only; 2: then block E-sets")
      ->check(CLI::Range(1, 2));
  app.add_option("--threads", config.threads, "threads, 0 for all hardware threads");
  app.add_option("--seed", config.seed, "seed");
  app.add_option("--neighbours", config.neighbours, "nearest neighbours of the start climbs and the joins")
      ->check(CLI::Range(1, 50));
  app.add_option("--optimum", optimum,
                 "the optimal length, for the gap (default: the instance's known optimum)");
  std::string start_kind = "random";
  app.add_option("--start", start_kind, "the population's start tours")
      ->check(CLI::IsMember({"random", "nearest-neighbour", "space-filling-curve"}));
  app.add_option("--restart-kicks", config.restart_kicks,
                 "populations after the first: 0 climbed from --start; K the best tour with K kicks, each repaired")
      ->check(CLI::Range(0, 100000));
  app.add_option("--first-kicks", config.first_kicks,
                 "the first population: 0 climbed from --start; K the first tour with K kicks, each repaired")
      ->check(CLI::Range(0, 100000));
  std::string start_file;
  app.add_option("--start-tour", start_file, "the population's first tour: this TSPLIB tour file");
  bool once = false;
  app.add_flag(
      "--restart-apart", config.restart_apart,
      "populations after the first climbed without the best tour, which joins each once it has converged");
  app.add_flag("--once", once, "one population: stop when it converges (no larger one after it)");
  int generations = 0;
  app.add_option(
         "--generations", generations,
         "stop after this many generations (0: no limit); the time of the generations alone is printed")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--gpu-climbs", config.gpu_climbs, "the start tours' first climbs on the GPU");
  app.add_flag("--gpu-children", config.gpu_children,
               "the first stage's crossovers on the GPU (the same generations as on the host threads)");
  app.add_option("--gpu-makers", config.gpu_makers, "--gpu-children: warps of a pair's block making children at once")
      ->check(CLI::Range(1, population::kMaxGpuMakers));
  std::string climb = "or-opt";
  app.add_option("--climb", climb, "how the start tours are climbed")
      ->check(CLI::IsMember({"or-opt", "lin-kernighan"}));
  std::string selection = "entropy";
  app.add_option("--selection", selection, "which child replaces its parent")
      ->check(CLI::IsMember({"greedy", "entropy"}));
  CLI11_PARSE(app, argc, argv);
  config.selection = *population::parse_eax_selection(selection);
  if (once) config.growth = 0;
  config.start = *localsearch::parse_start(start_kind);
  config.climb = *population::parse_eax_climb(climb);
  if (config.threads <= 0) config.threads = hardware_threads();

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const Instance instance = bench::load(instance_spec);
  if (optimum == 0) optimum = known_optimum(instance.name(), instance.n()).value_or(0);
  std::vector<int32_t> first;
  if (!start_file.empty()) {
    try {
      first = io::read_tour(start_file);
      validate_permutation(first, instance.n());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", start_file.c_str(), e.what());
      return 1;
    }
  }
  population::EdgeAssemblySearch search(instance, config, std::move(first));
  std::printf("%s, %d cities: %s, seed %llu (lists and first tour %.2f s)\n", instance.name().c_str(),
              instance.n(), config.describe().c_str(), static_cast<unsigned long long>(config.seed),
              elapsed());
  const auto gap = [&](int64_t length) { return optimum > 0 ? 100.0 * (length - optimum) / optimum : 0.0; };
  StopFlag stop;
  stop.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(seconds));
  int64_t shown = 0;
  double built = 0;
  while (!search.finished() && (generations == 0 || search.generations() < generations) &&
         search.step(stop)) {
    if (built == 0) built = elapsed();
    if (shown == 0 || search.best_length() < shown) {
      shown = search.best_length();
      std::printf("%8.2f s %12lld %8.4f %%  generation %d, stage %d, population %d, restarts %d\n", elapsed(),
                  static_cast<long long>(shown), gap(shown), search.generations(), search.stage(),
                  search.population_size(), search.restarts());
      std::fflush(stdout);
    }
  }
  const std::vector<int32_t> tour = search.best_tour();
  if (tour_length(instance, tour) != search.best_length()) {
    std::fprintf(stderr, "eax_bench: the reported length does not match the tour\n");
    return 1;
  }
  std::printf(
      "final %lld (%.4f %%) after %d generations (%s), %lld children, population built at %.2f s, %.2f s in "
      "all, %.2f s of generations (%lld pair crossovers on the GPU, their kernels %.2f s)\n",
      static_cast<long long>(search.best_length()), gap(search.best_length()), search.generations(),
      search.finished()                                        ? "converged"
      : generations > 0 && search.generations() >= generations ? "generations"
                                                               : "time limit",
      static_cast<long long>(search.children()), built, elapsed(), elapsed() - built,
      static_cast<long long>(search.gpu_pairs()), search.gpu_seconds());
  if (search.gpu_pairs() > 0) {
    const auto shares = search.gpu_phase_shares();
    std::printf("the GPU's pair blocks: %.0f %% difference, %.0f %% AB-cycles, %.0f %% children\n", 100 * shares[0],
                100 * shares[1], 100 * shares[2]);
  }
  return 0;
}
