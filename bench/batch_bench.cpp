// SPDX-License-Identifier: MIT
// batch_bench: many small instances at once (docs/batch.md's table). Generates B seeded uniform
// instances of n cities (instance i seeded seed + i, formica's generator), solves them as one batch
// after a warm-up batch, repeats, and prints the median wall time (instance set-up, lists, start
// tours and transfers included: what a user waits for), the throughput and the mean length.
//   --csv FILE        every instance's length from the last repeat (index, n, length, kicks)
//   --npy FILE        the instances' coordinates as a float64 (B, n, 2) .npy, for the reference
//                     solvers (bench/batch_reference.py runs LKH-3 through elkai on them)
//   --solve-loop M    also formica's one-instance-at-a-time loop (formica::solve, the default
//                     solver) over the first M instances, each stopped once it reaches the batch's
//                     length for that instance (or its time limit): seconds per instance, and the
//                     batch's throughput over the loop's.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <vector>

#include "batch/batch_parameters.h"
#include "batch/batch_solver.h"
#include "bench_support.h"
#include "io/generator.h"

namespace formica::bench {
namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void write_npy(const std::string& path, const std::vector<Instance>& instances) {
  const int n = instances.front().n();
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(instances.size()) +
                       ", " + std::to_string(n) + ", 2), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const uint16_t length = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char*>(&length), 2);
  out << header;
  for (const Instance& instance : instances)
    for (int c = 0; c < n; ++c) {
      const double xy[2] = {instance.x()[c], instance.y()[c]};
      out.write(reinterpret_cast<const char*>(xy), sizeof xy);
    }
  FORMICA_EXPECTS(out.good(), "--npy: cannot write ", path);
}

int run(int argc, char** argv) {
  CLI::App app("batch_bench: many small instances at once");
  int cities = 100, count = 10000, repeats = 3, loop = 0;
  uint64_t seed = 1;
  std::vector<std::string> settings;
  std::string csv, npy;
  double loop_limit = 10.0;
  app.add_option("--cities", cities, "cities per instance")->check(CLI::Range(3, 100000));
  app.add_option("--instances", count, "instances in the batch")->check(CLI::Range(1, 10000000));
  app.add_option("--seed", seed, "instance i is generated with seed + i");
  app.add_option("--repeats", repeats, "timed batches after the warm-up")->check(CLI::Range(1, 100));
  app.add_option("--set", settings, "batch parameter key=value, as formica solve-batch takes them (seed: the "
                                    "solver's; instance i is generated with --seed + i)");
  app.add_option("--csv", csv, "every instance's length from the last repeat");
  app.add_option("--npy", npy, "the instances' coordinates as a (B, n, 2) float64 .npy");
  app.add_option("--solve-loop", loop, "formica::solve one instance at a time over the first M instances");
  app.add_option("--solve-loop-limit", loop_limit, "seconds each solve of the loop may take at most");
  CLI11_PARSE(app, argc, argv);

  batch::BatchConfig config;
  for (const std::string& setting : settings) {
    const size_t eq = setting.find('=');
    FORMICA_EXPECTS(eq != std::string::npos, "--set: '", setting, "' is not key=value");
    batch::set_batch_parameter(config, setting.substr(0, eq), setting.substr(eq + 1));
  }

  std::vector<Instance> instances;
  instances.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    instances.push_back(io::generate_instance(cities, io::InstanceKind::Uniform, seed + static_cast<uint64_t>(i)));
  if (!npy.empty()) write_npy(npy, instances);

  // Warm-up: a small batch creates the CUDA context and touches every code path once.
  batch::BatchConfig warm = config;
  warm.time_limit.reset();
  warm.kicks = 10;
  batch::solve_batch(std::span(instances).first(std::min<size_t>(instances.size(), 64)), warm);

  std::vector<double> seconds;
  batch::Batch last;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    batch::BatchOptions options;
    options.start = start;
    last = batch::solve_batch(instances, config, {}, options);
    seconds.push_back(since(start));
  }
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  double total = 0.0;
  int64_t kicks = 0;
  for (const batch::BatchResult& r : last.results) total += static_cast<double>(r.tour.length()), kicks += r.kicks;
  std::printf("batch_bench: %d instances of %d cities (uniform, seeds %llu..), %s (%s), %d walks each\n", count,
              cities, static_cast<unsigned long long>(seed), std::string(to_string(last.backend)).c_str(),
              last.device.c_str(), last.walks);
  std::printf("layout: %s\nconfig: %s\n", last.layout.c_str(), config.to_json().dump().c_str());
  std::printf("%-10s %-10s %-12s %-14s %-16s %-12s\n", "instances", "cities", "median s", "instances/s",
              "mean length", "kicks/s");
  std::printf("%-10d %-10d %-12.3f %-14.1f %-16.1f %-12.3g\n", count, cities, median, count / median, total / count,
              static_cast<double>(kicks) / median);
  std::printf("runs (s):");
  for (const double s : seconds) std::printf(" %.3f", s);
  std::printf("\n");

  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "index,n,length,kicks,seconds,stop_reason\n";
    for (size_t i = 0; i < last.results.size(); ++i) {
      const batch::BatchResult& r = last.results[i];
      out << i << ',' << r.tour.n() << ',' << r.tour.length() << ',' << r.kicks << ',' << r.seconds << ','
          << r.stop_reason << '\n';
    }
  }

  if (loop > 0) {
    const int m = std::min(loop, count);
    const auto start = std::chrono::steady_clock::now();
    int reached = 0;
    double loop_total = 0.0, batch_total = 0.0;
    for (int i = 0; i < m; ++i) {
      SolverConfig single;
      single.target = last.results[i].tour.length();
      single.time_limit = loop_limit;
      single.seed = seed + static_cast<uint64_t>(i);
      const Result r = solve(instances[i], single);
      reached += r.tour.length() <= last.results[i].tour.length() ? 1 : 0;
      loop_total += static_cast<double>(r.tour.length());
      batch_total += static_cast<double>(last.results[i].tour.length());
    }
    const double per = since(start) / m;
    std::printf("solve loop: %d instances one at a time (formica::solve, default solver, target = the batch's "
                "length, at most %.1f s each): %.4f s per instance, %d of %d reached the batch's length, mean "
                "length %.1f against the batch's %.1f; batch throughput %.1fx the loop's\n",
                m, loop_limit, per, reached, m, loop_total / m, batch_total / m, per / (median / count));
  }
  return 0;
}

}  // namespace
}  // namespace formica::bench

int main(int argc, char** argv) { return formica::bench::bench_main("batch_bench", formica::bench::run, argc, argv); }
