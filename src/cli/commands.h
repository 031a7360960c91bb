// The subcommands of the `formica` command line. Each registers its options on the CLI11 app and
// returns the function that runs it; errors propagate as exceptions that main() maps to exit codes.
#pragma once

#include <chrono>
#include <functional>

#include <CLI/CLI.hpp>

namespace formica::cli {

/// A registered subcommand and the function that runs it once parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

/// `formica solve [INSTANCE] ...`; `start` is when the program started (the time limit counts
/// from there).
Command add_solve_command(CLI::App& app, std::chrono::steady_clock::time_point start);
/// `formica solve-batch INPUT ...`: many small instances at once
Command add_solve_batch_command(CLI::App& app);
/// `formica info INSTANCE`
Command add_info_command(CLI::App& app);
/// `formica verify INSTANCE TOUR`
Command add_verify_command(CLI::App& app);
/// `formica generate --cities N --kind K --seed S --output FILE`
Command add_generate_command(CLI::App& app);

}  // namespace formica::cli
