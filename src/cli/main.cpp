// formica's command line: subcommand dispatch and the mapping of errors to exit codes
// (2 bad input, 3 out of memory, 1 internal error, 130 interrupted by Ctrl-C, 143 by SIGTERM).
#include <chrono>
#include <exception>
#include <iostream>

#include "cli/commands.h"
#include "core/error.h"
#include "cuda/device.h"

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  // Whatever the exit path, the process does not end while the driver is creating a context.
  struct ContextGuard {
    ~ContextGuard() { formica::cuda::finish_context(); }
  } context_guard;
  CLI::App app("formica: a GPU solver for the symmetric Traveling Salesman Problem", "formica");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show the help of every subcommand");
  try {
    const formica::cli::Command commands[] = {
        formica::cli::add_solve_command(app, start), formica::cli::add_solve_batch_command(app),
        formica::cli::add_info_command(app),
        formica::cli::add_verify_command(app), formica::cli::add_generate_command(app)};
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::cout << app.help();
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      std::cout << app.help("", CLI::AppFormatMode::All);
      return 0;
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);
      std::cerr << "formica: error: " << e.what() << " (see formica --help)\n";
      return 2;
    }
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 2;
  } catch (const formica::InputError& e) {
    std::cerr << "formica: error: " << e.what() << "\n";
    return 2;
  } catch (const formica::OutOfMemoryError& e) {
    std::cerr << "formica: out of memory: " << e.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "formica: out of memory: host allocation failed\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "formica: internal error: " << e.what() << "\n";
    return 1;
  }
}
