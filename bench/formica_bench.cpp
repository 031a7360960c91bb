// SPDX-License-Identifier: MIT
// formica_bench: runs a list of instances under a list of configurations and prints one table
// (instance, n, method, backend, median ms per iteration and its phases, best length, gap), with
// the same rows as CSV. Every speed-up table in docs/papers.md comes from here. With --seeds N each
// row runs N seeds and reports the mean best length with its min and max; a configuration that
// refuses an instance (an InputError) gets a "refused" row with the reason.
//
//   formica_bench --instances d198,lin318,uniform:2000
//                 --config "as-seq:algorithm=as,backend=cpu,threads=1"
//                 --config "as-16t:algorithm=as,backend=cpu,threads=16" --iterations 10 --csv out.csv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench_support.h"
#include "aco/cuda/ant_system_cuda.h"
#include "core/error.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "io/generator.h"
#include "io/instance_source.h"
#include "io/known_optima.h"
#include "solver/parameters.h"
#include "solver/report.h"
#include "solver/solver.h"

namespace formica::bench {
namespace {

/// One row's measurements: per-iteration phase times over every seed, and each seed's best length.
struct Row {
  std::vector<double> total, construction, pheromone;
  std::vector<int64_t> best;
  std::string plan;  // the GPU plan that ran ("auto" resolved), empty on the CPU
};

Row measure(const Instance& instance, const SolverConfig& config, Backend backend, int threads, int warmup,
            int iterations, int seeds) {
  Row row;
  for (int s = 0; s < seeds; ++s) {
    SolverConfig seeded = config;
    seeded.seed = config.seed + static_cast<uint64_t>(s);
    auto search = make_search(instance, seeded, backend, threads);
#if FORMICA_HAVE_CUDA
    if (const auto* gpu = dynamic_cast<const aco::AntSystemCuda*>(search.get())) row.plan = gpu->plan().describe();
#endif
    for (int i = 0; i < warmup + iterations; ++i) {
      search->step(StopFlag{});
      if (i < warmup) continue;
      const StepTimes t = search->last_step_times();
      row.total.push_back(t.total_ms);
      row.construction.push_back(t.construction_ms);
      row.pheromone.push_back(t.pheromone_ms);
    }
    row.best.push_back(search->best_length());
  }
  return row;
}

int run(int argc, char** argv) {
  CLI::App app("formica_bench: median ms per iteration for instances x configurations");
  std::string instances = "d198,lin318,pcb442";
  std::vector<std::string> configs;
  int iterations = 10, warmup = 1, seeds = 1;
  std::string csv;
  app.add_option("--instances", instances, "Comma-separated TSPLIB names/paths or uniform:N[:seed]")
      ->capture_default_str();
  app.add_option("--config", configs, "label:key=value,... (repeatable; keys as in formica solve)");
  app.add_option("--iterations", iterations, "Timed iterations per row")->capture_default_str();
  app.add_option("--warmup", warmup, "Untimed iterations first")->capture_default_str();
  app.add_option("--seeds", seeds, "Runs per row with seeds seed, seed + 1, ...; best is their mean")
      ->capture_default_str();
  app.add_option("--csv", csv, "Also write the rows as CSV");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  FORMICA_EXPECTS(iterations >= 1 && warmup >= 0, "--iterations must be at least 1");
  FORMICA_EXPECTS(seeds >= 1, "--seeds must be at least 1");
  std::vector<BenchConfig> benches;
  for (const auto& spec : configs.empty() ? std::vector<std::string>{"as-seq:algorithm=as,backend=cpu,threads=1"} : configs)
    benches.push_back(parse_config(spec));

  const auto device = cuda::find_device();
  std::printf("# formica_bench on %s (%d hardware threads)%s%s\n", cpu_model().c_str(), hardware_threads(),
              device ? ", GPU " : ", no GPU", device ? device->name.c_str() : "");
  std::printf("# %d warm-up + %d timed iterations per row and seed, %d seed%s; times are medians over the timed "
              "iterations, best is the mean over seeds (min and max beside it)\n",
              warmup, iterations, seeds, seeds == 1 ? "" : "s");
  std::printf("%-12s %7s %-24s %-6s %10s %10s %9s %8s %10s %11s %8s %11s %11s\n", "instance", "n", "method", "backend",
              "ms/iter", "constr ms", "pher ms", "step us", "total ms", "best", "gap %", "best min", "best max");
  std::ostringstream rows;
  rows << "instance,n,method,backend,device,warmup,iterations,seeds,median_ms,median_construction_ms,"
          "median_pheromone_ms,construction_us_per_step,total_ms,best_length,gap_percent,best_min,best_max,plan,"
          "refused\n";
  for (const std::string& spec : split(instances, ',')) {
    const Instance instance = load(spec);
    const auto optimum = known_optimum(instance.name(), instance.n());
    for (const BenchConfig& bench : benches) {
      const Backend backend = resolve_backend(bench.config.algorithm, bench.config.backend);
      // algorithm=auto times what `formica solve` runs: the portfolio's choice for this n.
      const SolverConfig config = resolve_config(bench.config, instance.n(), backend);
      config.validate();
      const int threads = config.threads > 0 ? config.threads : hardware_threads();
      const std::string device_name = backend == Backend::Cuda ? device->name : concat("CPU ", threads, "t");
      Row row;
      try {
        row = measure(instance, config, backend, threads, warmup, iterations, seeds);
      } catch (const std::exception& e) {
        if (dynamic_cast<const InputError*>(&e) == nullptr && dynamic_cast<const OutOfMemoryError*>(&e) == nullptr)
          throw;
        // A design that refuses this size (scatter-gather's work, a register or shared-memory limit,
        // memory) gets a row saying why, and the table goes on.
        std::printf("%-12s %7d %-24s %-6s refused: %s\n", instance.name().c_str(), instance.n(), bench.label.c_str(),
                    std::string(to_string(backend)).c_str(), e.what());
        std::fflush(stdout);
        std::string reason = e.what();
        for (char& c : reason)
          if (c == '"') c = '\'';
        rows << instance.name() << ',' << instance.n() << ',' << bench.label << ',' << to_string(backend) << ",\""
             << device_name << "\"," << warmup << ',' << iterations << ',' << seeds << ",,,,,,,,,,,\"" << reason
             << "\"\n";
        continue;
      }
      double mean_best = 0.0;
      for (int64_t b : row.best) mean_best += static_cast<double>(b) / static_cast<double>(row.best.size());
      const int64_t best = std::llround(mean_best);
      const int64_t best_min = *std::min_element(row.best.begin(), row.best.end());
      const int64_t best_max = *std::max_element(row.best.begin(), row.best.end());
      const double gap = optimum ? 100.0 * (mean_best - static_cast<double>(*optimum)) / static_cast<double>(*optimum)
                                 : 0.0;
      // Tour construction is n dependent steps per ant: its time per step is the latency to beat.
      const double step_us = median(row.construction) * 1e3 / instance.n();
      double sum_ms = 0.0;
      for (double t : row.total) sum_ms += t;
      sum_ms /= seeds;
      std::printf("%-12s %7d %-24s %-6s %10.3f %10.3f %9.3f %8.3f %10.1f %11lld %8s %11lld %11lld\n",
                  instance.name().c_str(), instance.n(), bench.label.c_str(), std::string(to_string(backend)).c_str(),
                  median(row.total), median(row.construction), median(row.pheromone), step_us, sum_ms,
                  static_cast<long long>(best), optimum ? concat(gap).c_str() : "-", static_cast<long long>(best_min),
                  static_cast<long long>(best_max));
      std::fflush(stdout);
      rows << instance.name() << ',' << instance.n() << ',' << bench.label << ',' << to_string(backend) << ",\""
           << device_name << "\"," << warmup << ',' << iterations << ',' << seeds << ',' << median(row.total) << ','
           << median(row.construction) << ',' << median(row.pheromone) << ',' << step_us << ',' << sum_ms << ','
           << best << ',' << (optimum ? concat(gap) : "") << ',' << best_min << ',' << best_max << ",\"" << row.plan
           << "\",\n";
    }
  }
  if (!csv.empty()) {
    std::ofstream out(csv);
    out << rows.str();
  }
  return 0;
}

}  // namespace
}  // namespace formica::bench

int main(int argc, char** argv) {
  return formica::bench::bench_main("formica_bench", formica::bench::run, argc, argv);
}
