// SPDX-License-Identifier: MIT
// formica's command line: subcommand dispatch and the mapping of errors to exit codes
// (2 bad input, 3 out of memory, 1 internal error, 130 interrupted by Ctrl-C, 143 by SIGTERM). Under
// mpirun every rank runs it: start_ranks() says which rank this is, and rank_errors.h keeps errors to
// one line and one exit code.
#include <chrono>
#include <exception>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/rank_errors.h"
#include "core/error.h"
#include "cuda/device.h"
#include "distributed/start_ranks.h"

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  // Whatever the exit path, the process does not end while the driver is creating a context.
  struct ContextGuard {
    ~ContextGuard() { formica::cuda::finish_context(); }
  } context_guard;
  std::unique_ptr<formica::distributed::Communicator> ranks;
  try {
    ranks = formica::distributed::start_ranks(argc, argv);  // before any CUDA call: it picks the rank's GPU
  } catch (const std::exception& e) {
    std::cerr << "formica: error: " << e.what() << "\n";
    return 1;
  }
  formica::cli::RankErrors errors(*ranks);
  const bool speaker = ranks->rank() == 0;  // help and argument errors are the same on every rank
  CLI::App app("formica: a GPU solver for the symmetric Traveling Salesman Problem", "formica");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show the help of every subcommand");
  try {
    const formica::cli::Command commands[] = {
        formica::cli::add_solve_command(app, start, ranks, errors), formica::cli::add_solve_batch_command(app),
        formica::cli::add_info_command(app),
        formica::cli::add_verify_command(app), formica::cli::add_generate_command(app),
        formica::cli::add_bound_command(app)};
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      if (speaker) std::cout << app.help();
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      if (speaker) std::cout << app.help("", CLI::AppFormatMode::All);
      return 0;
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return speaker ? app.exit(e) : 0;
      if (speaker) std::cerr << "formica: error: " << e.what() << " (see formica --help)\n";
      return 2;
    }
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 2;
  } catch (...) {
    return errors.fail(std::current_exception());
  }
}
