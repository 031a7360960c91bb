// SPDX-License-Identifier: MIT
// The set-up of a large instance, stage by stage: the k-d tree, nearest and quadrant neighbour
// lists, the colonies' candidate rows, and the start tours (docs/reliability.md, time limits at scale).
// Times are the median over --repeats of one thread's CPU time (wall time beside it), so that
// other processes on the machine change them little.
//   setup_bench --cities 500000 --repeats 3
#include <CLI/CLI.hpp>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "aco/candidate_set.h"
#include "bench_support.h"
#include "core/candidates.h"
#include "core/kd_tree.h"
#include "core/nearest_neighbour.h"
#include "core/space_filling_curve.h"
#include "io/generator.h"

namespace {

using namespace formica;

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"set-up stages of a large instance, one thread"};
  int cities = 200000, repeats = 3;
  std::string instance_spec;
  app.add_option("--cities", cities, "uniform instance size (seed 1)")->check(CLI::Range(1000, 10000000));
  app.add_option("--instance", instance_spec,
                 "a TSPLIB name or path (or uniform:N[:seed]) instead of --cities");
  app.add_option("--repeats", repeats, "runs of each stage; the median is printed")
      ->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  const Instance instance = instance_spec.empty()
                                ? io::generate_instance(cities, io::InstanceKind::Uniform, 1)
                                : bench::load(instance_spec);
  std::printf("%s, %d cities, one thread, median of %d\n%-40s %10s %10s\n", instance.name().c_str(),
              instance.n(), repeats, "stage", "cpu (s)", "wall (s)");
  const auto stage = [&](const char* name, const std::function<void()>& work) {
    std::vector<double> cpu, wall;
    for (int r = 0; r < repeats; ++r) {
      const double c0 = thread_seconds();
      const auto w0 = std::chrono::steady_clock::now();
      work();
      cpu.push_back(thread_seconds() - c0);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
    }
    std::printf("%-40s %10.3f %10.3f\n", name, bench::median(cpu), bench::median(wall));
    std::fflush(stdout);
  };
  stage("k-d tree", [&] { const KdTree tree(instance); });
  for (const int k : {8, 10, 20})
    stage(("nearest lists, k = " + std::to_string(k)).c_str(),
          [&] { build_candidate_lists(instance, k, 1, NeighbourShape::Nearest); });
  for (const int k : {10, 20})
    stage(("quadrant lists, k = " + std::to_string(k)).c_str(),
          [&] { build_candidate_lists(instance, k, 1, NeighbourShape::Quadrant); });
  stage("colonies' candidate rows (20, quadrant)",
        [&] { aco::build_candidate_set(instance, 20, 2, 2.0, 1, NeighbourShape::Quadrant); });
  stage("nearest-neighbour tour", [&] { nearest_neighbour_tour(instance, 0); });
  stage("space-filling-curve tour", [&] { space_filling_curve_tour(instance); });
  return 0;
}
