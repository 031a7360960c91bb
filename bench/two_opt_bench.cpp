// SPDX-License-Identifier: MIT
// two_opt_bench: the 2-opt tables of docs/papers.md. For every instance and every k of --k it runs all
// restarts of 2-opt with random restarts (each instance with its own restart count) and prints
// wall time, climb time, full passes, move evaluations (n(n - 3) / 2 per full pass), evaluations
// per second of climb time against the special-function ceiling, the best length, and the speed-up
// and tour ratio against the first k of the list: Robinson et al.'s Figure 6 with k = 1 first.
//
//   two_opt_bench --instances fl417@1000,fl1400@1000,fnl4461@132 --k 1,2,4,8,16,32,64,128,256,inf
//                 --set backend=cuda --set block-neighbours=0 --csv figure6.csv
//   two_opt_bench --instances fnl4461@132 --k 1024 --set backend=cuda            (throughput)
//   two_opt_bench --instances pla85900@1 --k inf --set backend=cuda --set start=space-filling-curve
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench_support.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "io/known_optima.h"
#include "localsearch/two_opt_search.h"

namespace formica::bench {
namespace {

/// Two square roots per evaluation at the special-function rate: the ceiling for an H200
/// (132 SMs x 16 results per clock x 1.98 GHz / 2).
constexpr double kCeilingEvaluationsPerSecond = 2.0e12;

struct Row {
  std::string instance;
  int n = 0;
  std::string k;
  int64_t restarts = 0;
  std::string launch;
  double wall_s = 0, climb_s = 0;
  localsearch::TwoOptStats stats;
  int64_t best = 0;
};

Row run_one(const Instance& instance, SolverConfig config) {
  config.validate();
  const Backend backend = resolve_backend(config.algorithm, config.backend);
  const int threads = config.threads > 0 ? config.threads : hardware_threads();
  const Stopwatch clock;
  auto search = make_search(instance, config, backend, threads);
  auto* two_opt = dynamic_cast<localsearch::TwoOptSearch*>(search.get());
  FORMICA_EXPECTS(two_opt != nullptr, "two_opt_bench runs --algorithm two-opt only");
  while (!two_opt->finished()) two_opt->step(StopFlag{});
  Row row;
  row.wall_s = clock.seconds();
  row.instance = instance.name();
  row.n = instance.n();
  row.k = localsearch::k_swap_text(config.two_opt.k_swap);
  row.restarts = config.two_opt.restarts;
  row.launch = two_opt->describe_launch();
  row.stats = two_opt->stats();
  row.climb_s = row.stats.climb_ms / 1e3;
  row.best = two_opt->best_length();
  return row;
}

int run(int argc, char** argv) {
  CLI::App app("two_opt_bench: 2-opt with random restarts, k swept (Robinson et al. Figure 6), throughput");
  std::string instances = "fl417@100";
  std::string ks = "1,2,4,8,16,32,64,128,256,inf";
  std::vector<std::string> settings;
  std::string csv;
  app.add_option("--instances", instances, "Comma-separated NAME[@RESTARTS] (TSPLIB name, path, or uniform:N[:seed])")
      ->capture_default_str();
  app.add_option("--k", ks, "Comma-separated k-swap values; speed-ups and ratios are against the first")
      ->capture_default_str();
  app.add_option("--set", settings, "key=value applied to every run (keys as in formica solve; repeatable)");
  app.add_option("--csv", csv, "Also write the rows as CSV");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  SolverConfig base;
  base.algorithm = Algorithm::TwoOpt;
  for (const std::string& setting : settings) apply_setting(base, setting, "--set");
  const auto device = cuda::find_device();
  std::printf("# two_opt_bench on %s (%d hardware threads)%s%s\n", cpu_model().c_str(), hardware_threads(),
              device ? ", GPU " : ", no GPU", device ? device->name.c_str() : "");
  std::printf("# %s\n", base.describe_algorithm().c_str());
  {  // warm-up: device context, kernel loading
    SolverConfig warm = base;
    warm.two_opt.restarts = 2;
    run_one(io::generate_instance(200, io::InstanceKind::Uniform, 1), warm);
  }
  std::printf("%-10s %6s %5s %8s %9s %9s %9s %14s %10s %6s %12s %8s %8s  %s\n", "instance", "n", "k", "restarts",
              "wall s", "climb s", "passes", "evaluations", "eval/s", "%ceil", "best", "ratio", "speedup", "launch");
  std::ostringstream rows;
  rows << "instance,n,k,restarts,wall_s,climb_s,passes,evaluations,neighbour_passes,moves,evaluations_per_s,"
          "percent_of_ceiling,best,optimum,ratio_to_first_k,speedup_to_first_k,launch\n";
  for (const std::string& spec : split(instances, ',')) {
    const size_t at = spec.find('@');
    const std::string name = spec.substr(0, at);
    const Stopwatch load_clock;
    const Instance instance = load(name);
    std::printf("# %s loaded in %.2f s\n", instance.name().c_str(), load_clock.seconds());
    const auto optimum = known_optimum(instance.name(), instance.n());
    std::optional<Row> first;
    for (const std::string& k : split(ks, ',')) {
      SolverConfig config = base;
      set_parameter(config, "k-swap", k);
      if (at != std::string::npos) set_parameter(config, "restarts", spec.substr(at + 1));
      const Row row = run_one(instance, config);
      if (!first) first = row;
      const double rate = row.climb_s > 0 ? static_cast<double>(row.stats.evaluations) / row.climb_s : 0.0;
      const double ratio = static_cast<double>(row.best) / static_cast<double>(first->best);
      const double speedup = first->wall_s / row.wall_s;
      std::printf("%-10s %6d %5s %8lld %9.3f %9.3f %9lld %14.4g %10.3g %6.1f %12lld %8.4f %8.2f  %s\n",
                  row.instance.c_str(), row.n, row.k.c_str(), static_cast<long long>(row.restarts), row.wall_s,
                  row.climb_s, static_cast<long long>(row.stats.passes), static_cast<double>(row.stats.evaluations),
                  rate, 100.0 * rate / kCeilingEvaluationsPerSecond, static_cast<long long>(row.best), ratio, speedup,
                  row.launch.c_str());
      std::fflush(stdout);
      rows << row.instance << ',' << row.n << ',' << row.k << ',' << row.restarts << ',' << row.wall_s << ','
           << row.climb_s << ',' << row.stats.passes << ',' << row.stats.evaluations << ','
           << row.stats.neighbour_passes << ',' << row.stats.moves << ',' << rate << ','
           << 100.0 * rate / kCeilingEvaluationsPerSecond << ',' << row.best << ','
           << (optimum ? std::to_string(*optimum) : std::string()) << ',' << ratio << ',' << speedup << ",\""
           << row.launch << "\"\n";
    }
  }
  if (!csv.empty()) std::ofstream(csv) << rows.str();
  return 0;
}

}  // namespace
}  // namespace formica::bench

int main(int argc, char** argv) {
  return formica::bench::bench_main("two_opt_bench", formica::bench::run, argc, argv);
}
