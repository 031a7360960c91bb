// SPDX-License-Identifier: MIT
// A shell command's exit code, stdout and stderr: how the command-line tests run `formica`.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace formica::test {

struct Outcome {
  int code;  ///< the exit code, -1 when the command did not exit by itself
  std::string out, err;
};

/// The bytes of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `command` through the shell, its stdout and stderr kept in the files `out` and `err`.
inline Outcome run_shell(const std::string& command, const std::filesystem::path& out,
                         const std::filesystem::path& err) {
  const int status = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace formica::test
