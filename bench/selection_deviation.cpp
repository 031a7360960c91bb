// SPDX-License-Identifier: MIT
// selection_deviation: how far I-Roulette (Cecilia et al. 3.2.3) is from the roulette wheel it
// stands in for, on the rows an Ant System really draws from. For each instance it takes the
// fitness row of a city in the first iteration (tau uniform, so f_ij ~ d_ij^-beta) with 1, half
// and 90 % of the cities visited, and prints the total variation distance between I-Roulette's
// distribution and the exact one: in closed form (aco/i_roulette_distribution.h), sampled on the
// CPU, and sampled on the GPU by every construction that takes I-Roulette. Also the probability
// each gives the most likely city (I-Roulette is greedier).
//
//   selection_deviation --instances d198,pr1002 --draws 200000
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "bench_support.h"

#include "aco/config.h"
#include "aco/cpu/ant_path.h"
#include "aco/cpu/selection.h"
#include "aco/cuda/selection_sampler.h"
#include "aco/i_roulette_distribution.h"
#include "core/rng.h"
#include "cuda/device.h"
#include "io/instance_source.h"

namespace formica {
namespace {

std::vector<double> frequencies(const std::vector<long>& counts) {
  long total = 0;
  for (long c : counts) total += c;
  std::vector<double> p(counts.size());
  for (size_t j = 0; j < counts.size(); ++j) p[j] = static_cast<double>(counts[j]) / static_cast<double>(total);
  return p;
}

int run(int argc, char** argv) {
  CLI::App app("selection_deviation: I-Roulette's distance from the roulette wheel on real fitness rows");
  std::string instances = "d198,pr1002";
  long draws = 200000;
  double beta = 2.0;
  app.add_option("--instances", instances, "Comma-separated TSPLIB names or paths")->capture_default_str();
  app.add_option("--draws", draws, "Samples per measured distribution")->capture_default_str();
  app.add_option("--beta", beta, "Heuristic exponent")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  const bool gpu = cuda::built_with_cuda() && cuda::find_device().has_value();
  std::printf("# I-Roulette vs roulette: total variation distance (TVD) on first-iteration rows f_0j ~ d_0j^-%g;\n"
              "# 'closed form' is exact; CPU and GPU columns are sampled with %ld draws each, and 'noise' is the\n"
              "# TVD that sampling alone adds on average (0.5 sum_j sqrt(2 p_j / (pi draws)))\n",
              beta, draws);
  std::printf("%-10s %6s %8s %11s %8s %8s%s %13s %11s\n", "instance", "n", "visited", "closed form", "noise", "CPU",
              gpu ? "  GPU warp GPU block GPU thread  GPU stc" : "", "P(top) exact", "P(top) I-R");
  for (const std::string& spec : bench::split(instances, ',')) {
    const Instance instance = io::load_instance(spec);
    const int n = instance.n();
    std::vector<float> row(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j)
      row[j] = j == 0 ? 0.f : static_cast<float>(std::pow(aco::heuristic(instance.distance(0, j)), beta));
    for (double fraction : {0.0, 0.5, 0.9}) {
      // City 0 is the current city; a seeded random `fraction` of the others is visited too.
      aco::AntPath path(n);
      path.reset(0);
      RandomStream pick(7, static_cast<uint64_t>(fraction * 100));
      for (int j = 1; j < n; ++j)
        if (pick.next_double() < fraction) path.visit(j);
      std::vector<uint8_t> visited(path.visited_flags().begin(), path.visited_flags().end());
      std::vector<double> weights(static_cast<size_t>(n), 0.0);
      for (int j = 0; j < n; ++j)
        if (!visited[j]) weights[j] = row[j];
      const auto exact = aco::roulette_distribution(weights), own = aco::i_roulette_distribution(weights);
      std::vector<long> cpu(static_cast<size_t>(n), 0);
      RandomStream rng(11, 1);
      for (long d = 0; d < draws; ++d) ++cpu[aco::select_i_roulette(row, path, rng)];
      double noise = 0.0;
      for (double p : own) noise += 0.5 * std::sqrt(2.0 * p / (3.141592653589793 * static_cast<double>(draws)));
      std::printf("%-10s %6d %7.0f%% %11.4f %8.4f %8.4f", instance.name().c_str(), n,
                  100.0 * path.visited_count() / n, aco::total_variation_distance(own, exact), noise,
                  aco::total_variation_distance(frequencies(cpu), exact));
#if FORMICA_HAVE_CUDA
      if (gpu) {
        for (auto construction : {aco::Construction::WarpPerAnt, aco::Construction::BlockPerAnt,
                                  aco::Construction::ThreadPerAnt, aco::Construction::Stc}) {
          aco::cuda::SamplerRequest request;
          request.construction = construction;
          request.selection = aco::Selection::IRoulette;
          request.draws = draws;
          const auto counts = aco::cuda::sample_selection(request, row, visited);
          std::printf(" %9.4f", aco::total_variation_distance(frequencies(counts), exact));
        }
      }
#endif
      const size_t top = static_cast<size_t>(std::max_element(exact.begin(), exact.end()) - exact.begin());
      std::printf(" %13.4f %11.4f\n", exact[top], own[top]);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace formica

int main(int argc, char** argv) {
  return formica::bench::bench_main("selection_deviation", formica::run, argc, argv);
}
