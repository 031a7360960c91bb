// SPDX-License-Identifier: MIT
// The subcommands of the `formica` command line. Each registers its options on the CLI11 app and
// returns the function that runs it; errors propagate as exceptions that main() maps to exit codes.
#pragma once

#include <chrono>
#include <functional>
#include <initializer_list>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bounds/held_karp.h"

#include "cli/rank_errors.h"
#include "distributed/communicator.h"
#include "io/output_file.h"

namespace formica::cli {

/// A registered subcommand and the function that runs it once parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

/// `formica solve [INSTANCE] ...`; `start` is when the program started (the time limit counts
/// from there). Under mpirun every rank runs it on `ranks` (solver/islands.h); only rank 0 prints
/// progress and the summary and writes files; `errors` agrees on failures (rank_errors.h).
Command add_solve_command(CLI::App& app, std::chrono::steady_clock::time_point start,
                          std::unique_ptr<distributed::Communicator>& ranks, RankErrors& errors);
/// `formica solve-batch INPUT ...`: many small instances at once
Command add_solve_batch_command(CLI::App& app);
/// `formica info INSTANCE`
Command add_info_command(CLI::App& app);
/// `formica verify INSTANCE TOUR`
Command add_verify_command(CLI::App& app);
/// `formica generate --cities N --kind K --seed S --output FILE`
Command add_generate_command(CLI::App& app);
/// `formica bound INSTANCE [--iterations N] [--time-limit S] [--threads N] [--json FILE]`
Command add_bound_command(CLI::App& app);

/// A run's input files, each with what it is ("the instance", "--initial-tour"): no output may be one.
using RunInputs = std::vector<std::pair<std::string, std::filesystem::path>>;
/// The output `option` names, when it was given, checked before any work (io/output_file.h): a
/// file that can be written and is none of `inputs`. A name given empty is an error.
std::optional<io::OutputPath> checked_output(std::string_view option, const std::optional<std::string>& path,
                                             const RunInputs& inputs);
/// checked_output for a picture (--svg, --plot-history): also a file named .svg, the one format
/// formica draws (a device or stream takes it as it is).
std::optional<io::OutputPath> checked_picture(std::string_view option, const std::optional<std::string>& path,
                                              const RunInputs& inputs);
/// Whether a command's summary lines go to stderr: they do when one of `outputs` is written to
/// stdout (`--tour-out /dev/stdout`, or the file stdout is redirected to), so that stdout holds that
/// output alone (`formica solve --json /dev/stdout | jq`).
bool summary_on_stderr(std::initializer_list<const std::optional<io::OutputPath>*> outputs);
/// An output folder (solve-batch --out-dir): the folder, or the nearest one above it that exists
/// (it is made there at the end), is a folder the user may write in.
void check_output_folder(std::string_view option, const std::string& folder);

/// What `formica bound` and `formica solve --bound` ask of the Held-Karp bound.
struct BoundRequest {
  int64_t iterations = 0;   ///< 0: until the step schedule ends
  double time_limit = 0.0;  ///< 0: bounds::default_bound_time(n)
  int threads = 0;
  const std::atomic<bool>* interrupt = nullptr;
  /// Where a time limit counts from (the command's start); the epoch: the call.
  std::chrono::steady_clock::time_point start{};
};
bounds::LowerBound compute_bound(const Instance& instance, const BoundRequest& request);
/// "lower bound B (Held-Karp, ...)", with the optimum and a tour's proven gap when given.
std::string bound_line(const bounds::LowerBound& bound, std::optional<int64_t> length, std::optional<int64_t> optimum);
/// Throws std::logic_error (an internal error, exit 1) when the bound is above `length`, the exact
/// length of a verified tour of the same instance: such a bound is wrong and is never reported.
void check_bound_below(const bounds::LowerBound& bound, int64_t length);
/// How far `length` is above the bound, in percent of the bound; std::logic_error for a bound
/// above `length` (never a negative "proven" gap).
double gap_to_bound_percent(int64_t length, int64_t bound);
/// Adds "lower_bound", "lower_bound_value", "lower_bound_is_optimum", "gap_to_bound_percent" (of
/// `length`, null without one) and "bound" (method, iterations, seconds, history) to a report.
void add_bound_json(nlohmann::json& doc, const bounds::LowerBound& bound, std::optional<int64_t> length);

}  // namespace formica::cli
