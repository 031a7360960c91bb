// SPDX-License-Identifier: MIT
// The output options of every subcommand, checked before any work (see commands.h).
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "cli/commands.h"
#include "core/error.h"
#include "io/line_reader.h"

namespace formica::cli {

std::optional<io::OutputPath> checked_output(std::string_view option, const std::optional<std::string>& path,
                                             const RunInputs& inputs) {
  if (!path) return std::nullopt;
  io::OutputPath output = io::check_output_path(option, *path);
  io::expect_not_an_input(output, inputs);
  return output;
}

std::optional<io::OutputPath> checked_picture(std::string_view option, const std::optional<std::string>& path,
                                              const RunInputs& inputs) {
  std::optional<io::OutputPath> output = checked_output(option, path, inputs);
  if (!output || output->special) return output;  // a device or a stream has no name to keep
  std::string extension = output->given.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  FORMICA_EXPECTS(extension == ".svg", output->label(),
                  ": formica writes SVG pictures only, name the file .svg (Python's formica.plot writes PNG too)");
  return output;
}

bool summary_on_stderr(std::initializer_list<const std::optional<io::OutputPath>*> outputs) {
  for (const std::optional<io::OutputPath>* output : outputs)
    if (*output && (*output)->is_stdout()) return true;
  return false;
}

void check_output_folder(std::string_view option, const std::string& folder) {
  FORMICA_EXPECTS(!folder.empty(), option, ": the folder name is empty");
  const std::string label = concat(option, " ", io::printable(folder));
  // The folder itself if it is there, else the nearest folder above it, where it will be made.
  std::filesystem::path at = folder;
  struct stat info {};
  while (::stat(at.c_str(), &info) != 0) {
    FORMICA_EXPECTS(errno == ENOENT, label, ": cannot use the folder (", std::strerror(errno), ")");
    at = at.has_parent_path() && at.parent_path() != at ? at.parent_path() : std::filesystem::path(".");
  }
  FORMICA_EXPECTS(S_ISDIR(info.st_mode), label, ": ", at == folder ? std::string("is not a folder")
                                                                    : concat(io::printable(at.string()), " is not a folder"));
  FORMICA_EXPECTS(::access(at.c_str(), W_OK | X_OK) == 0, label, ": cannot write in the folder ",
                  io::printable(at.string()), " (", std::strerror(errno), ")");
}

}  // namespace formica::cli
