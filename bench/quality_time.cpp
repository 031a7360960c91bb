// SPDX-License-Identifier: MIT
// quality_time: gap against wall time for the default solver (docs/default-solver.md's table and plot). Every
// instance runs with each seed for its time limit, the clock started before the instance is read
// (as `formica solve` counts it); the best-so-far history of each run gives the curve, and the
// median over the seeds at each moment gives the instance's curve. The table has the median final
// gap (min and max beside it), the median gap at a reference time with the target (half the
// reference's gap), and the median time to reach 1 %, 0.5 % and 0.1 %.
//
//   quality_time --instances pr2392@2,fnl4461@3 --seeds 5 --reference pr2392=0.72:0.62
//                --csv table.csv --curves curves.csv --svg gap_vs_time.svg
//   quality_time --instances d198@10,... --seeds 1 --stop-gap 0.1          (time to 0.1 %)
//
// Instances without a known optimum (e.g. uniform:200000:1) get the gap against --best-known
// NAME=LENGTH when given; otherwise only their lengths are reported.
//
//   quality_time --cli build/formica --instances pr2392@0.72 --seeds 5
// runs every seed as a fresh `formica solve` process instead, timed by the process's own clock
// (its JSON report), so that CUDA context creation and kernel loading count, as they do for a
// user; in-process runs share one context created before the first timed run.
//
//   quality_time --replot curves.csv --svg gap_vs_time.svg [--best-known NAME=LENGTH ...]
// draws the median curves of runs recorded by --curves, without running anything: the gap is
// against --best-known NAME=LENGTH (NAME as in the file), else the instance's known optimum.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "io/known_optima.h"
#include "io/svg.h"
#include "io/tsplib.h"
#include "solver/report.h"

namespace formica::bench {
namespace {

struct Reference {
  double seconds = 0.0, gap = 0.0;  ///< the reference solver's gap (%) at this wall time
};

struct Run {
  uint64_t seed = 0;
  std::vector<HistoryPoint> history;
  int64_t length = 0;
  double seconds = 0.0;
  int64_t iterations = 0;
};

/// The best length of `run` at time t (+infinity before its first tour).
double length_at(const Run& run, double t) {
  double best = std::numeric_limits<double>::infinity();
  for (const HistoryPoint& h : run.history) {
    if (h.seconds > t) break;
    best = static_cast<double>(h.length);
  }
  return best;
}

/// The median over the runs of the best length at t.
double median_length_at(const std::vector<Run>& runs, double t) {
  std::vector<double> lengths;
  for (const Run& run : runs) lengths.push_back(length_at(run, t));
  return median(lengths);
}

/// Every moment at which some run's best length changes, in order.
std::vector<double> event_times(const std::vector<Run>& runs) {
  std::vector<double> times;
  for (const Run& run : runs) {
    for (const HistoryPoint& h : run.history) times.push_back(h.seconds);
    times.push_back(run.seconds);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

/// The first moment the median curve is at most `length` (nullopt if never).
std::optional<double> median_time_to(const std::vector<Run>& runs, double length) {
  for (const double t : event_times(runs))
    if (median_length_at(runs, t) <= length) return t;
  return std::nullopt;
}

/// The median curve of `runs` as gaps (%) against `optimum`: a step function over the moments any
/// run improved.
io::PlotSeries median_curve(const std::string& name, const std::vector<Run>& runs, int64_t optimum) {
  std::vector<double> times;
  for (const Run& run : runs) times.push_back(run.seconds);
  io::PlotSeries line{name, {}, {}, median(times)};
  for (const double t : event_times(runs)) {
    const double length = median_length_at(runs, t);
    if (!std::isfinite(length)) continue;
    const double gap = 100.0 * (length / static_cast<double>(optimum) - 1.0);
    if (!line.values.empty() && gap == line.values.back()) continue;
    line.seconds.push_back(t);
    line.values.push_back(gap);
  }
  return line;
}

/// Runs recorded by --curves (instance,seed,seconds,length,gap; each run's last row is its end),
/// by instance in the file's order.
std::vector<std::pair<std::string, std::vector<Run>>> read_curves(const std::string& path) {
  std::ifstream in(path);
  FORMICA_EXPECTS(in.good(), "--replot: cannot read '", path, "'");
  std::string line;
  std::getline(in, line);
  FORMICA_EXPECTS(line.rfind("instance,seed,seconds,length", 0) == 0, path,
                  ": not a --curves file (its first line must be instance,seed,seconds,length,gap)");
  std::vector<std::pair<std::string, std::vector<Run>>> out;
  for (int row = 2; std::getline(in, line); ++row) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split(line, ',');
    FORMICA_EXPECTS(f.size() >= 4, path, ":", row, ": expected instance,seed,seconds,length");
    if (out.empty() || out.back().first != f[0]) out.push_back({f[0], {}});
    std::vector<Run>& runs = out.back().second;
    const auto seed = static_cast<uint64_t>(std::stoull(f[1]));
    if (runs.empty() || runs.back().seed != seed) runs.push_back({seed, {}, 0, 0.0, 0});
    Run& run = runs.back();
    run.seconds = std::stod(f[2]);
    run.length = std::stoll(f[3]);
    run.history.push_back({0, run.seconds, run.length});
  }
  return out;
}

/// `text` as one shell word.
std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// One run as a fresh process of the formica command line `cli` on `instance` (a path or a TSPLIB
/// name). Its history and seconds come from its JSON report, timed from that process's start.
/// `settings` are quality_time's --set key=value pairs, passed on as --key value.
Run run_cli(const std::string& cli, const std::string& instance, double limit, uint64_t seed,
            std::optional<int64_t> target, const std::vector<std::string>& settings, std::string& ran) {
  const std::filesystem::path json = private_temp_file("quality_time_run.json"),
                              errors = private_temp_file("quality_time_run.err");
  struct RemovedAtTheEnd {  // read below, then gone from the temporary folder
    const std::filesystem::path &json, &errors;
    ~RemovedAtTheEnd() {
      std::error_code ignored;
      std::filesystem::remove(json, ignored);
      std::filesystem::remove(errors, ignored);
    }
  } removed{json, errors};
  std::filesystem::remove(json);
  std::string command = concat(shell_quote(cli), " solve ", shell_quote(instance), " --quiet --time-limit ", limit,
                               " --seed ", seed, " --json ", shell_quote(json.string()));
  if (target) command += concat(" --target ", *target);
  for (const std::string& setting : settings) {  // keys as apply_setting takes them: '_' or '-'
    const size_t eq = setting.find('=');
    std::string key = setting.substr(0, eq);
    std::replace(key.begin(), key.end(), '_', '-');
    command += concat(" --", key, " ", shell_quote(setting.substr(eq + 1)));
  }
  command += concat(" > /dev/null 2> ", shell_quote(errors.string()));
  if (std::system(command.c_str()) != 0 || !std::filesystem::exists(json)) {
    std::ifstream in(errors);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    throw InputError(concat("--cli: `", cli, " solve ", instance, "` failed: ", last.empty() ? "no report" : last));
  }
  const nlohmann::json report = nlohmann::json::parse(std::ifstream(json));
  Run run{seed, {}, report.at("best_length").get<int64_t>(), report.at("seconds").get<double>(),
          report.at("iterations").get<int64_t>()};
  for (const auto& h : report.at("history"))
    run.history.push_back(
        {h.at("iteration").get<int64_t>(), h.at("seconds").get<double>(), h.at("length").get<int64_t>()});
  ran = concat(report.at("algorithm").get<std::string>(), " ", report.at("parameters").at("ants").get<int>(),
               " ants on ", report.at("device").get<std::string>(), ", fresh process");
  return run;
}

std::string format(std::optional<double> value, const char* spec) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, spec, *value);
  return text;
}

int run(int argc, char** argv) {
  CLI::App app("quality_time: gap against wall time of the default solver, medians over seeds");
  std::string instances = "pr1002@5";
  int seeds = 5;
  std::vector<std::string> settings, references, best_known;
  std::string csv, curves_csv, svg, replot, cli;
  double stop_gap = 0.0;
  app.add_option("--instances", instances,
                 "Comma-separated NAME@SECONDS (TSPLIB name, path, or uniform:N[:seed] / clustered:N[:seed])")
      ->capture_default_str();
  app.add_option("--seeds", seeds, "Runs per instance, seeds 1..N")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--set", settings, "key=value applied to every run (keys as in formica solve; repeatable)");
  app.add_option("--reference", references,
                 "NAME=SECONDS:GAP, a reference solver's gap (%) at a wall time (repeatable)");
  app.add_option("--best-known", best_known,
                 "NAME=LENGTH for instances without a known optimum (repeatable)");
  app.add_option("--stop-gap", stop_gap,
                 "Stop each run once within this gap (%) of the optimum (0: run to the limit)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--csv", csv, "Write the table as CSV");
  app.add_option("--curves", curves_csv,
                 "Write every run's history as CSV (instance, seed, seconds, length, gap)");
  app.add_option("--svg", svg, "Write the median gap curves in one plot (log time, log gap)");
  app.add_option("--cli", cli,
                 "Run every seed as a fresh process of this formica executable (CUDA start-up included)");
  app.add_option("--replot", replot,
                 "Draw --svg from a --curves file of earlier runs instead of running (gaps against "
                 "--best-known, else the known optimum)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  SolverConfig base;
  for (const std::string& setting : settings) apply_setting(base, setting, "--set");
  const auto name_value = [](const std::string& spec, const char* option) {
    const size_t eq = spec.find('=');
    FORMICA_EXPECTS(eq != std::string::npos && eq > 0, option, ": '", spec, "' is not NAME=VALUE");
    return std::pair{spec.substr(0, eq), spec.substr(eq + 1)};
  };
  std::map<std::string, Reference> reference_of;
  for (const std::string& spec : references) {
    const auto [name, value] = name_value(spec, "--reference");
    const size_t colon = value.find(':');
    FORMICA_EXPECTS(colon != std::string::npos, "--reference: '", spec, "' is not NAME=SECONDS:GAP");
    reference_of[name] = {std::stod(value.substr(0, colon)), std::stod(value.substr(colon + 1))};
  }
  std::map<std::string, int64_t> best_known_of;
  for (const std::string& spec : best_known) {
    const auto [name, value] = name_value(spec, "--best-known");
    best_known_of[name] = std::stoll(value);
  }

  if (!replot.empty()) {
    FORMICA_EXPECTS(!svg.empty(), "--replot needs --svg, the picture to write");
    std::vector<io::PlotSeries> series;
    size_t most_runs = 0;
    for (const auto& [name, runs] : read_curves(replot)) {
      std::optional<int64_t> optimum;
      if (best_known_of.count(name)) {
        optimum = best_known_of.at(name);
      } else {
        try {  // a TSPLIB name: its known optimum
          const Instance instance = load(name);
          optimum = known_optimum(instance.name(), instance.n());
        } catch (const InputError&) {
        }
      }
      FORMICA_EXPECTS(optimum.has_value(), "--replot: no optimum known for ", name, "; give --best-known ", name,
                      "=LENGTH");
      most_runs = std::max(most_runs, runs.size());
      series.push_back(median_curve(name, runs, *optimum));
    }
    std::ofstream(svg) << io::convergence_plot_svg(
        series, {}, concat("formica: median gap against wall time (", most_runs, most_runs == 1 ? " seed" : " seeds", ")"),
        "gap above the optimum or best known length (%, log scale)", true, 0.01);
    std::printf("wrote %s: %zu median %s (medians over up to %zu runs)\n", svg.c_str(), series.size(),
                series.size() == 1 ? "curve" : "curves", most_runs);
    return 0;
  }

  const auto device = cuda::find_device();
  std::printf("# quality_time on %s (%d hardware threads)%s%s, %d seed%s per instance%s\n", cpu_model().c_str(),
              hardware_threads(), device ? ", GPU " : ", no GPU", device ? device->name.c_str() : "", seeds,
              seeds == 1 ? "" : "s", cli.empty() ? "" : ", each a fresh formica process");
  if (cli.empty()) {  // warm-up: device context and kernel loading, outside every timed run
    SolverConfig warm = base;
    warm.iterations = 3;
    warm.time_limit.reset();
    solve(io::generate_instance(200, io::InstanceKind::Uniform, 1), warm);
  }
  std::printf("%-16s %7s %6s %5s %9s %9s %9s %7s %6s %8s %8s %5s %8s %8s %8s %9s  %s\n", "instance", "n",
              "limit", "seeds", "median%", "min%", "max%", "ref@s", "ref%", "at-ref%", "target%", "met",
              "t(1%)", "t(0.5%)", "t(0.1%)", "iters", "ran");
  std::ostringstream table, curves;
  table
      << "instance,n,time_limit_s,seeds,reference_length,median_final_gap,min_final_gap,max_final_gap,"
         "median_final_length,reference_seconds,reference_gap,median_gap_at_reference,target_gap,target_met,"
         "median_seconds_to_1pct,median_seconds_to_0.5pct,median_seconds_to_0.1pct,median_iterations,"
         "median_seconds,ran\n";
  curves << "instance,seed,seconds,length,gap\n";
  std::vector<io::PlotSeries> series;
  std::vector<io::PlotMark> marks;
  for (const std::string& spec : split(instances, ',')) {
    const size_t at = spec.find('@');
    FORMICA_EXPECTS(at != std::string::npos, "--instances: '", spec, "' is not NAME@SECONDS");
    const std::string name = spec.substr(0, at);
    const double limit = std::stod(spec.substr(at + 1));
    std::vector<Run> runs;
    std::string ran;
    std::optional<Instance> instance;  // each run reads it again, inside its own clock
    std::optional<int64_t> optimum;
    std::string cli_instance = name;  // what the command line reads (generated instances: a file)
    for (int s = 1; s <= seeds; ++s) {
      SolveOptions options;
      options.start = std::chrono::steady_clock::now();
      if (s == 1 || cli.empty()) instance.emplace(load(name));
      if (s == 1) {
        optimum = known_optimum(instance->name(), instance->n());
        // --best-known by the spec (uniform:200000:1) or by the instance's name (uniform200000-s1,
        // as --curves writes it and --replot reads it).
        for (const std::string& key : {name, instance->name()})
          if (!optimum && best_known_of.count(key)) optimum = best_known_of.at(key);
        if (!cli.empty() && name.find(':') != std::string::npos) {
          cli_instance = private_temp_file(instance->name() + ".tsp").string();
          io::write_tsplib(cli_instance, *instance);
        }
      }
      std::optional<int64_t> target;
      if (stop_gap > 0 && optimum)
        target = static_cast<int64_t>(std::floor(static_cast<double>(*optimum) * (1.0 + stop_gap / 100.0)));
      if (cli.empty()) {
        SolverConfig config = base;
        config.seed = static_cast<uint64_t>(s);
        config.time_limit = limit;
        config.target = target;
        const Result result = solve(*instance, config, options);
        runs.push_back({config.seed, result.history, result.tour.length(), result.seconds, result.iterations});
        ran = concat(to_string(result.config.algorithm), " ", result.config.ant_system.ants, " ants on ",
                     result.device);
      } else {
        runs.push_back(run_cli(cli, cli_instance, limit, static_cast<uint64_t>(s), target, settings, ran));
      }
      const Run& run = runs.back();
      for (const HistoryPoint& h : run.history)
        curves << instance->name() << ',' << s << ',' << h.seconds << ',' << h.length << ','
               << (optimum ? std::to_string(gap_percent(h.length, *optimum)) : std::string()) << '\n';
      curves << instance->name() << ',' << s << ',' << run.seconds << ',' << run.length << ','
             << (optimum ? std::to_string(gap_percent(run.length, *optimum)) : std::string()) << '\n';
    }

    std::vector<double> finals, times, iterations;
    for (const Run& run : runs) {
      finals.push_back(static_cast<double>(run.length));
      times.push_back(run.seconds);
      iterations.push_back(static_cast<double>(run.iterations));
    }
    const double median_final = median(finals);
    const auto gap_of = [&](double length) { return 100.0 * (length / static_cast<double>(*optimum) - 1.0); };
    std::optional<double> med_gap, min_gap, max_gap, ref_s, ref_gap, at_ref, target, t1, t05, t01;
    if (optimum) {
      med_gap = gap_of(median_final);
      min_gap = gap_of(*std::min_element(finals.begin(), finals.end()));
      max_gap = gap_of(*std::max_element(finals.begin(), finals.end()));
      const double opt = static_cast<double>(*optimum);
      t1 = median_time_to(runs, opt * 1.01);
      t05 = median_time_to(runs, opt * 1.005);
      t01 = median_time_to(runs, opt * 1.001);
      if (const auto it = reference_of.find(name); it != reference_of.end()) {
        ref_s = it->second.seconds;
        ref_gap = it->second.gap;
        at_ref = gap_of(median_length_at(runs, *ref_s));
        target = *ref_gap / 2;
      }
    }
    const std::string met = at_ref ? (*at_ref <= *target ? "yes" : "no") : "-";
    std::printf("%-16s %7d %6.1f %5d %9s %9s %9s %7s %6s %8s %8s %5s %8s %8s %8s %9.0f  %s\n",
                instance->name().c_str(), instance->n(), limit, seeds, format(med_gap, "%.3f").c_str(),
                format(min_gap, "%.3f").c_str(), format(max_gap, "%.3f").c_str(),
                format(ref_s, "%.2f").c_str(), format(ref_gap, "%.2f").c_str(),
                format(at_ref, "%.3f").c_str(), format(target, "%.3f").c_str(), met.c_str(),
                format(t1, "%.2f").c_str(), format(t05, "%.2f").c_str(), format(t01, "%.2f").c_str(),
                median(iterations), ran.c_str());
    if (!optimum)
      std::printf("#   %s: no optimum known; median final length %.0f (min %.0f, max %.0f)\n",
                  instance->name().c_str(), median_final, *std::min_element(finals.begin(), finals.end()),
                  *std::max_element(finals.begin(), finals.end()));
    std::fflush(stdout);
    table << instance->name() << ',' << instance->n() << ',' << limit << ',' << seeds << ','
          << (optimum ? std::to_string(*optimum) : std::string()) << ',' << format(med_gap, "%.4f") << ','
          << format(min_gap, "%.4f") << ',' << format(max_gap, "%.4f") << ',' << median_final << ','
          << format(ref_s, "%.3f") << ',' << format(ref_gap, "%.3f") << ',' << format(at_ref, "%.4f") << ','
          << format(target, "%.4f") << ',' << met << ',' << format(t1, "%.3f") << ',' << format(t05, "%.3f")
          << ',' << format(t01, "%.3f") << ',' << median(iterations) << ',' << median(times) << ",\"" << ran
          << "\"\n";

    if (optimum) {
      io::PlotSeries line = median_curve(instance->name(), runs, *optimum);
      if (!line.seconds.empty()) {
        if (ref_s) marks.push_back({series.size(), *ref_s, *ref_gap});
        series.push_back(std::move(line));
      }
    }
  }
  if (!csv.empty()) std::ofstream(csv) << table.str();
  if (!curves_csv.empty()) std::ofstream(curves_csv) << curves.str();
  if (!svg.empty() && !series.empty())
    std::ofstream(svg) << io::convergence_plot_svg(
        series, marks,
        concat("formica: median gap against wall time (", seeds, seeds == 1 ? " seed" : " seeds",
               device ? ", " + device->name : std::string(", CPU"), "; crosses: reference solver)"),
        "gap above the optimum (%, log scale)", true, 0.01);
  return 0;
}

}  // namespace
}  // namespace formica::bench

int main(int argc, char** argv) {
  return formica::bench::bench_main("quality_time", formica::bench::run, argc, argv);
}
