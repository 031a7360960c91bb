// SPDX-License-Identifier: MIT
// colony_runs: many independent runs of MMAS / ACS / GACO at once, as the independent matrix groups
// of one search (colonies = runs x colonies-per-matrix, no exchange), for Li and Jin's Table 1:
// mean, best and worst of the runs' exact TSPLIB lengths, the mean unrounded Euclidean length of
// the same tours, wall time and time per iteration.
//
//   colony_runs --instances eil51,d198 --runs 50 --iterations 3000
//               --config "mmas-gpu:algorithm=mmas,backend=cuda" --csv out.csv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench_support.h"

#include "aco/cpu/colony_search.h"
#include "aco/cuda/colony_search_cuda.h"
#include "core/error.h"
#include "core/timer.h"
#include "core/tour.h"
#include "cuda/device.h"
#include "io/instance_source.h"
#include "io/known_optima.h"
#include "solver/parameters.h"
#include "solver/solver.h"

namespace formica {
namespace {

/// Unrounded Euclidean length of a closed tour (what the paper's numbers may have measured).
double euclidean_length(const Instance& instance, const std::vector<int32_t>& tour) {
  if (!instance.has_coordinates()) return 0.0;
  double sum = 0.0;
  const int n = static_cast<int>(tour.size());
  for (int p = 0; p < n; ++p) {
    const int a = tour[p], b = tour[(p + 1) % n];
    sum += std::hypot(instance.x()[a] - instance.x()[b], instance.y()[a] - instance.y()[b]);
  }
  return sum;
}

struct Runs {
  std::vector<int64_t> lengths;
  std::vector<std::vector<int32_t>> tours;
};

template <typename ColonySearch>
Runs collect(const ColonySearch& search, int matrices) {
  Runs runs;
  runs.lengths = search.group_best_lengths();
  for (int m = 0; m < matrices; ++m) runs.tours.push_back(search.group_best_tour(m));
  return runs;
}

int run(int argc, char** argv) {
  CLI::App app("colony_runs: independent runs of the colony variants at once");
  std::string instances = "eil51";
  std::vector<std::string> configs;
  int runs = 10, iterations = 3000;
  double time_limit = 0.0;
  std::string csv;
  app.add_option("--instances", instances, "Comma-separated TSPLIB names or paths")->capture_default_str();
  app.add_option("--config", configs, "label:key=value,... (repeatable; keys as in formica solve)")->required();
  app.add_option("--runs", runs, "Independent runs (matrix groups)")->capture_default_str();
  app.add_option("--iterations", iterations, "Iterations per run")->capture_default_str();
  app.add_option("--time-limit", time_limit, "Seconds instead of a number of iterations");
  app.add_option("--csv", csv, "Also write the rows as CSV");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  FORMICA_EXPECTS(runs >= 1 && iterations >= 1, "--runs and --iterations must be at least 1");
  const auto device = cuda::find_device();
  std::printf("# colony_runs: %d independent runs per row, %s; GPU %s\n", runs,
              time_limit > 0 ? concat(time_limit, " s each").c_str() : concat(iterations, " iterations").c_str(),
              device ? device->name.c_str() : "none");
  std::printf("%-9s %6s %-12s %-5s %5s %7s %9s %9s %12s %10s %10s %14s %9s %7s\n", "instance", "n", "method", "back",
              "runs", "iters", "seconds", "ms/iter", "mean exact", "best", "worst", "mean euclid", "optimum", "gap %");
  std::ostringstream rows;
  rows << "instance,n,method,backend,device,runs,iterations,seconds,ms_per_iteration,mean_exact,best_exact,"
          "worst_exact,mean_euclidean,optimum,mean_gap_percent\n";
  for (const std::string& name : bench::split(instances, ',')) {
    const Instance instance = io::load_instance(name);
    const auto optimum = known_optimum(instance.name(), instance.n());
    for (const std::string& spec : configs) {
      auto [label, config] = bench::parse_config(spec);
      FORMICA_EXPECTS(config.algorithm == Algorithm::Mmas || config.algorithm == Algorithm::Acs ||
                          config.algorithm == Algorithm::Gaco,
                      "colony_runs runs mmas, acs or gaco");
      const int group = colony_config(config, 1).group_size();
      config.colony.colonies = runs * group;
      config.colony.exchange_interval = 0;
      config.validate();
      const Backend backend = resolve_backend(config.algorithm, config.backend);
      const int threads = config.threads > 0 ? config.threads : hardware_threads();
      const Stopwatch clock;
      auto search = make_search(instance, config, backend, threads);
      StopFlag stop;
      if (time_limit > 0)
        stop.deadline = clock.start() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                            std::chrono::duration<double>(time_limit));
      int done = 0;
      while (time_limit > 0 ? done == 0 || !stop.requested() : done < iterations) {
        if (!search->step(done == 0 ? StopFlag{} : stop)) break;
        ++done;
      }
      const double seconds = clock.seconds();
      Runs result;
      if (backend == Backend::Cpu) result = collect(dynamic_cast<const aco::ColonySearchCpu&>(*search), runs);
#if FORMICA_HAVE_CUDA
      else result = collect(dynamic_cast<const aco::ColonySearchCuda&>(*search), runs);
#endif
      double mean = 0, euclid = 0;
      for (int r = 0; r < runs; ++r) {
        mean += static_cast<double>(Tour(instance, result.tours[r]).length());  // validated, exact
        euclid += euclidean_length(instance, result.tours[r]);
      }
      mean /= runs;
      euclid /= runs;
      const int64_t best = *std::min_element(result.lengths.begin(), result.lengths.end());
      const int64_t worst = *std::max_element(result.lengths.begin(), result.lengths.end());
      const double gap = optimum ? 100.0 * (mean - static_cast<double>(*optimum)) / static_cast<double>(*optimum) : 0.0;
      const std::string device_name = backend == Backend::Cuda ? device->name : concat("CPU ", threads, "t");
      std::printf("%-9s %6d %-12s %-5s %5d %7d %9.2f %9.3f %12.1f %10lld %10lld %14.1f %9s %7.2f\n",
                  instance.name().c_str(), instance.n(), label.c_str(), std::string(to_string(backend)).c_str(), runs,
                  done, seconds, 1e3 * seconds / done, mean, static_cast<long long>(best),
                  static_cast<long long>(worst), euclid, optimum ? std::to_string(*optimum).c_str() : "-", gap);
      std::fflush(stdout);
      rows << instance.name() << ',' << instance.n() << ',' << label << ',' << to_string(backend) << ",\""
           << device_name << "\"," << runs << ',' << done << ',' << seconds << ',' << 1e3 * seconds / done << ','
           << mean << ',' << best << ',' << worst << ',' << euclid << ',' << (optimum ? concat(*optimum) : "") << ','
           << gap << '\n';
    }
  }
  if (!csv.empty()) std::ofstream(csv) << rows.str();
  return 0;
}

}  // namespace
}  // namespace formica

int main(int argc, char** argv) {
  return formica::bench::bench_main("colony_runs", formica::run, argc, argv);
}
