// SPDX-License-Identifier: MIT
// `formica solve-batch INPUT`: many small instances at once (batch/batch_solver.h). INPUT is a
// folder of .tsp files or an .npy / .npz file of coordinates (io/batch_input.h). Writes one TSPLIB
// .tour per instance into --out-dir and a CSV or JSON summary, prints a one-line total on stdout
// and progress on stderr. Ctrl-C stops every instance, keeping its best tour, and still writes.
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/batch_parameters.h"
#include "batch/batch_solver.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "core/error.h"
#include "cuda/device.h"  // kContextReleaseSeconds
#include "io/batch_input.h"
#include "io/known_optima.h"
#include "io/line_reader.h"
#include "io/tsplib.h"
#include "solver/report.h"

namespace formica::cli {
namespace {

namespace fs = std::filesystem;

/// Seconds between two progress lines on stderr.
constexpr double kProgressEvery = 0.5;

struct BatchOptionsCli {
  std::string input;
  std::map<std::string, std::string> values;  // batch parameter name -> text
  std::vector<std::string> settings;          // --set key=value
  std::optional<std::string> out_dir, summary;
  std::string start_tours;
  bool quiet = false;
};

/// Every instance's start tour from `folder`/NAME.tour where that file exists (none where it does
/// not); a folder that holds none of them is an error (a mistyped folder, not a choice).
std::vector<batch::InstanceLimits> read_start_tours(const fs::path& folder, const io::BatchInput& input, int& found) {
  std::error_code ec;  // a link in a loop or a folder that cannot be read: not a folder, and one line
  FORMICA_EXPECTS(fs::is_directory(folder, ec), "--start-tours ", folder.string(), ": not a folder",
                  ec ? concat(" (", ec.message(), ")") : std::string());
  std::vector<batch::InstanceLimits> limits(input.instances.size());
  found = 0;
  for (size_t i = 0; i < input.instances.size(); ++i) {
    const fs::path file = folder / (input.names[i] + ".tour");
    if (!fs::exists(fs::symlink_status(file, ec))) continue;  // a link that leads nowhere readable fails in read_tour
    try {
      std::vector<int32_t> tour = io::read_tour(file);
      validate_permutation(tour, input.instances[i].n());
      limits[i].start = std::move(tour);
    } catch (const InputError& error) {
      throw InputError(concat("--start-tours ", file.string(), ": ", error.what()));
    }
    ++found;
  }
  FORMICA_EXPECTS(found > 0, "--start-tours ", folder.string(), ": no NAME.tour for any of the ", input.instances.size(),
                  " instances (", input.names.front(), ".tour, ...)");
  return limits;
}

/// One instance's line of the summary.
struct Row {
  std::string name;
  int n = 0;
  int64_t length = 0;
  std::optional<int64_t> optimum;
  const batch::BatchResult* result = nullptr;
  /// The exact length of an instance of float coordinates (io::BatchInput::scales).
  std::optional<double> float_length;

  /// The length as the summary writes it: the integer, or the float to ten significant digits.
  std::string length_text() const { return float_length ? significant(*float_length) : std::to_string(length); }
  static std::string significant(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
  }
};

/// A CSV field (RFC 4180): control bytes and bytes that are not UTF-8 escaped as \\xNN, as in
/// every message and output (a file name may hold any byte but '/'), then quoted when it holds a
/// comma or a quote.
std::string csv_field(const std::string& text) {
  const std::string shown = io::printable(text);
  if (shown.find_first_of(",\"") == std::string::npos) return shown;
  std::string out = "\"";
  for (const char c : shown) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string summary_csv(const std::vector<Row>& rows) {
  std::string out = "name,n,length,optimum,gap,seconds,kicks,stop_reason\n";
  for (const Row& r : rows)
    out += concat(csv_field(r.name), ",", r.n, ",", r.length_text(), ",", r.optimum ? std::to_string(*r.optimum) : "", ",",
                  r.optimum ? fixed(gap_percent(r.length, *r.optimum), 4) : "", ",", fixed(r.result->seconds, 3), ",",
                  r.result->kicks, ",", r.result->stop_reason, "\n");
  return out;
}

std::string summary_json(const std::vector<Row>& rows, const batch::Batch& batch, const batch::BatchConfig& config) {
  nlohmann::json doc;
  doc["backend"] = std::string(to_string(batch.backend));
  doc["device"] = batch.device;
  doc["walks"] = batch.walks;
  doc["layout"] = batch.layout;
  doc["seconds"] = batch.seconds;
  doc["parameters"] = config.to_json();
  doc["instances"] = nlohmann::json::array();
  for (const Row& r : rows)
    doc["instances"].push_back({{"name", io::printable(r.name)},
                                {"n", r.n},
                                {"length", r.float_length ? nlohmann::json(*r.float_length) : nlohmann::json(r.length)},
                                {"optimum", r.optimum ? nlohmann::json(*r.optimum) : nlohmann::json()},
                                {"gap", r.optimum ? nlohmann::json(gap_percent(r.length, *r.optimum)) : nlohmann::json()},
                                {"seconds", r.result->seconds},
                                {"kicks", r.result->kicks},
                                {"seed", r.result->seed},
                                {"stop_reason", r.result->stop_reason}});
  return doc.dump(2) + "\n";
}

/// "solved 12 instances in 1.23 s on cpu (CPU, 2 threads), 4 walks each: total length L, mean gap G% over K
/// with a known optimum".
std::string total_line(const std::vector<Row>& rows, const batch::Batch& batch) {
  int64_t total = 0;
  double float_total = 0.0;
  bool floats = false;
  double gaps = 0.0;
  int known = 0, interrupted = 0;
  for (const Row& r : rows) {
    total += r.length;
    float_total += r.float_length.value_or(static_cast<double>(r.length));
    floats |= r.float_length.has_value();
    if (r.optimum) gaps += gap_percent(r.length, *r.optimum), ++known;
    interrupted += r.result->stop_reason == "interrupted" ? 1 : 0;
  }
  std::string line = concat("solved ", rows.size(), rows.size() == 1 ? " instance" : " instances", " in ",
                            fixed(batch.seconds, 2), " s on ", to_string(batch.backend), " (", batch.device, "), ",
                            batch.walks, batch.walks == 1 ? " walk" : " walks", " each: total length ",
                            floats ? Row::significant(float_total) : std::to_string(total));
  if (known > 0) line += concat(", mean gap ", fixed(gaps / known, 2), "% over ", known, " with a known optimum");
  if (interrupted > 0) line += concat(", ", interrupted, " interrupted");
  return line;
}

/// Seconds kept for writing each output file of a batch (a temporary, its permissions, a rename:
/// 0.36 ms a file measured for 4,000 tours on 2 busy cores).
constexpr double kWriteSecondsPerFile = 4e-4;

int run_solve_batch(const BatchOptionsCli& o) {
  // The time limit counts from here: reading the inputs and checking thousands of outputs are part
  // of the run.
  const auto command_start = std::chrono::steady_clock::now();
  batch::BatchConfig config;
  for (const auto& [name, value] : o.values) batch::set_batch_parameter(config, name, value);
  for (const std::string& setting : o.settings) {
    const size_t equals = setting.find('=');
    FORMICA_EXPECTS(equals != std::string::npos && equals > 0, "--set '", setting, "': expected key=value");
    batch::set_batch_parameter(config, setting.substr(0, equals), setting.substr(equals + 1));
  }
  config.validate();
  // The outputs are checked before any work, and --out-dir is made only when its tours are written.
  FORMICA_EXPECTS(!o.summary || fs::path(*o.summary).extension() == ".csv" || fs::path(*o.summary).extension() == ".json",
                  "--summary ", io::printable(*o.summary), ": the file name must end in .csv or .json");
  // Ctrl-C or SIGTERM from here to the last file written: the batch then stops at once (or has
  // stopped) and what it has is written, as for a signal during the search; without the guard a
  // signal while thousands of outputs were checked or written ended the process with nothing.
  std::optional<InterruptGuard> interrupt_guard(std::in_place);
  RunInputs inputs{{"the input", o.input}};
  const std::optional<io::OutputPath> summary = checked_output("--summary", o.summary, inputs);
  if (o.out_dir) check_output_folder("--out-dir", *o.out_dir);
  const io::BatchInput input = io::load_batch_input(o.input);
  int started = 0;
  const std::vector<batch::InstanceLimits> limits =
      o.start_tours.empty() ? std::vector<batch::InstanceLimits>{} : read_start_tours(o.start_tours, input, started);
  batch::validate_batch(input.instances, config, limits);
  // The instances every output is checked against, looked up once (once an output: quadratic in
  // the batch's size). The start tours are not among them: a tour may replace its own start tour
  // (--start-tours DIR --out-dir DIR continues a run), read whole before the search and replaced
  // by a rename.
  if (fs::is_directory(o.input))
    for (const std::string& name : input.names) inputs.emplace_back("an input instance", fs::path(o.input) / (name + ".tsp"));
  const io::RunInputFiles input_files(inputs);
  if (summary) io::expect_not_an_input(*summary, input_files);
  // Each instance's NAME.tour where the folder is there already (links, special files, inputs).
  std::vector<io::OutputPath> tour_files;
  if (o.out_dir) {
    const bool there = fs::is_directory(*o.out_dir);
    for (const std::string& name : input.names) {
      const std::string file = (fs::path(*o.out_dir) / (name + ".tour")).string();
      if (!there) {  // made with the folder at the end: only a name that no folder takes can fail
        FORMICA_EXPECTS(name.size() + 5 <= NAME_MAX, "--out-dir ", io::printable(file), ": the file name is longer than ",
                        NAME_MAX, " bytes");
        tour_files.push_back(io::OutputPath{"--out-dir", file, file, false});
        continue;
      }
      tour_files.push_back(io::check_output_path("--out-dir", file));
      io::expect_not_an_input(tour_files.back(), input_files);
    }
    if (summary) {
      std::vector<io::OutputPath> all = tour_files;
      all.push_back(*summary);
      io::expect_distinct_outputs(all);
    }
  }

  const bool tty = ::isatty(STDERR_FILENO) != 0;
  if (!o.quiet) {
    int smallest = input.instances.front().n(), largest = smallest;
    for (const Instance& instance : input.instances) smallest = std::min(smallest, instance.n()), largest = std::max(largest, instance.n());
    std::cerr << "formica: " << input.instances.size() << " instances from " << o.input << " (n = " << smallest
              << (smallest == largest ? std::string() : concat(" to ", largest)) << "), seed " << config.seed
              << (limits.empty() ? std::string() : concat(", start tours for ", started, " of them"))
              << " (Ctrl-C or SIGTERM stops early and keeps every instance's best tour)\n";
  }

  batch::BatchOptions options;
  options.interrupt = interrupt_guard->flag();
  options.start = command_start;
  options.write_reserve = kWriteSecondsPerFile * static_cast<double>(tour_files.size() + (summary ? 1 : 0));
  options.gpu_exit_seconds = cuda::kContextReleaseSeconds;
  double last_print = -kProgressEvery;
  if (!o.quiet)
    options.on_progress = [&](const batch::BatchProgress& p) {
      if (p.done < p.total && p.seconds - last_print < kProgressEvery) return;
      last_print = p.seconds;
      std::cerr << (tty ? "\r" : "") << "formica: " << p.done << "/" << p.total << " instances solved, "
                << fixed(p.seconds, 1) << " s" << (tty && p.done < p.total ? "" : "\n") << std::flush;
    };
  const batch::Batch batch = batch::solve_batch(input.instances, config, limits, options);

  std::vector<Row> rows;
  bool interrupted = false;
  io::OutputSet files;  // every tour and the summary, all or none
  if (o.out_dir) files.create_folder(*o.out_dir);
  for (size_t i = 0; i < input.instances.size(); ++i) {
    const Instance& instance = input.instances[i];
    const batch::BatchResult& r = batch.results[i];
    const std::optional<double> scale = input.scales[i];
    rows.push_back({input.names[i], instance.n(), r.tour.length(),
                    scale ? std::nullopt : known_optimum(instance.name(), instance.n()), &r,
                    scale ? std::optional(io::float_tour_length(instance, r.tour.order(), *scale)) : std::nullopt});
    interrupted |= r.stop_reason == "interrupted";
    // The COMMENT gives the length the summary gives: for float coordinates the true one, not
    // the fixed-point length the search compared.
    if (o.out_dir)
      files.add(tour_files[i], io::tour_text(input.names[i], r.tour.order(),
                                             concat("Length ", rows.back().length_text(), ", found by formica")));
  }
  if (summary)
    files.add(*summary, summary->given.extension() == ".csv" ? summary_csv(rows) : summary_json(rows, batch, config));
  files.commit();
  interrupted |= interrupt_guard->flag()->load();
  interrupt_guard.reset();
  (summary_on_stderr({&summary}) ? std::cerr : std::cout) << total_line(rows, batch) << "\n";
  return interrupted ? InterruptGuard::exit_code() : 0;
}

}  // namespace

Command add_solve_batch_command(CLI::App& app) {
  auto o = std::make_shared<BatchOptionsCli>();
  CLI::App* sub = app.add_subcommand(
      "solve-batch", "Solve many small instances at once: a folder of .tsp files, or an .npy / .npz file of coordinates");
  sub->add_option("input", o->input,
                  "A folder of .tsp files (sorted by name), an .npy file of one (B, n, 2) float array, or an .npz "
                  "file of (n, 2) arrays (named by their keys) or of one (B, n, 2) array")
      ->required();
  for (const batch::BatchParameter& p : batch::batch_parameters()) {
    const std::string name(p.name);
    sub->add_option_function<std::string>(
        "--" + name, [o, name](const std::string& text) { o->values[name] = text; }, p.help);
  }
  sub->add_option("--set", o->settings, "Any batch parameter as key=value (repeatable), e.g. --set ls-neighbours=8");
  sub->add_option("--out-dir", o->out_dir, "Write one TSPLIB .tour per instance into this folder (NAME.tour)");
  sub->add_option("--start-tours", o->start_tours,
                  "A folder of TSPLIB .tour files: an instance with a NAME.tour there starts every walk from it "
                  "(e.g. an earlier --out-dir); the others start as usual");
  sub->add_option("--summary", o->summary,
                  "Write a summary of every instance (name, n, length, optimum, gap, seconds, kicks, stop_reason) "
                  "to FILE.csv or FILE.json");
  sub->add_flag("--quiet", o->quiet, "No progress on stderr");
  return {sub, [o] { return run_solve_batch(*o); }};
}

}  // namespace formica::cli
