// SPDX-License-Identifier: MIT
// `formica solve` in a process of its own, its stderr, peak resident set (wait4's ru_maxrss) and
// wall time, and the memory plan it printed: for the tests of plans and time limits.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

extern char** environ;

namespace formica::test {

/// "host 46.2 MiB (...": the plan's first figure in bytes; 0 when stderr holds no plan.
inline double planned_bytes(const std::string& err) {
  const size_t at = err.find("formica: memory host ");
  if (at == std::string::npos) return 0.0;
  const char* text = err.c_str() + at + 21;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  const std::string unit(end + 1, end + 4);
  return value * (unit == "GiB" ? 1024.0 * 1024 * 1024 : unit == "MiB" ? 1024.0 * 1024 : unit == "KiB" ? 1024.0 : 1.0);
}

struct Peak {
  int code;
  std::string err;
  double bytes;
  double seconds;  ///< from the spawn to the exit
};

/// Runs `formica COMMAND ARGS` and returns its stderr and its peak resident set.
inline Peak run_command(const std::string& command, const std::vector<std::string>& args,
                        const std::filesystem::path& err) {
  std::vector<std::string> argv_text = {cli_path(), command};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawn(&pid, argv_text[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {-1, "", 0.0, 0.0};
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, file_bytes(err), usage.ru_maxrss * 1024.0, seconds};
}

/// Runs `formica solve ARGS` and returns its stderr and its peak resident set.
inline Peak run_solve(const std::vector<std::string>& args, const std::filesystem::path& err) {
  return run_command("solve", args, err);
}

}  // namespace formica::test
