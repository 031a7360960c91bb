// The subcommands of the `formica` command line. Each registers its options on the CLI11 app and
// returns the function that runs it; errors propagate as exceptions that main() maps to exit codes.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/rank_errors.h"
#include "distributed/communicator.h"

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

}  // namespace formica::cli
