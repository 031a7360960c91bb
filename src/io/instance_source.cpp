// SPDX-License-Identifier: MIT
// Instance lookup by path or TSPLIB name (see instance_source.h).
#include "io/instance_source.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "core/error.h"
#include "io/line_reader.h"

namespace formica::io {
namespace {

namespace fs = std::filesystem;

/// Any object of this library: dladdr finds the file it was loaded from.
constexpr char kThisLibrary = 0;

/// The folder of the file (executable or shared object) that holds formica's code, if known.
std::optional<fs::path> code_folder() {
  Dl_info info{};
  if (dladdr(&kThisLibrary, &info) == 0 || info.dli_fname == nullptr || *info.dli_fname == '\0')
    return std::nullopt;
  return fs::path(info.dli_fname).parent_path();
}

/// The folder of the running program (/proc/self/exe), if known.
std::optional<fs::path> program_folder() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return exe.parent_path();
}

/// The suffixes of a TSPLIB instance file, the uncompressed one first.
constexpr std::array<std::string_view, 2> kTspSuffixes = {".tsp", ".tsp.gz"};

/// The file NAME.tsp or NAME.tsp.gz in `dir`, if there.
std::optional<fs::path> instance_in(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  for (const std::string_view suffix : kTspSuffixes)
    if (const fs::path file = dir / (name + std::string(suffix)); fs::is_regular_file(file, ec)) return file;
  return std::nullopt;
}

/// The names of the instances in `dir` (NAME.tsp or NAME.tsp.gz), sorted.
std::vector<std::string> instance_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (auto name = tsp_file_stem(entry.path().filename().string())) names.push_back(std::move(*name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::optional<std::string> tsp_file_stem(std::string_view file) {
  for (const std::string_view suffix : kTspSuffixes)
    if (file.ends_with(suffix)) return std::string(file.substr(0, file.size() - suffix.size()));
  return std::nullopt;
}

std::optional<fs::path> tsplib_dir() {
  const char* env = std::getenv("FORMICA_TSPLIB_DIR");
  const fs::path dir = env != nullptr && *env != '\0' ? env : "../shared/tsplib";
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return dir;
  return std::nullopt;
}

std::optional<fs::path> shipped_tsplib_dir() {
  std::vector<fs::path> candidates;
  if (const auto code = code_folder()) candidates.push_back(*code / "tsplib");
  if (const auto program = program_folder()) candidates.push_back(*program / ".." / "data" / "tsplib");
#ifdef FORMICA_SHIPPED_TSPLIB_DIR
  candidates.emplace_back(FORMICA_SHIPPED_TSPLIB_DIR);
#endif
  std::error_code ec;
  for (const fs::path& dir : candidates)
    if (fs::is_regular_file(dir / "README.md", ec)) return fs::weakly_canonical(dir, ec);
  return std::nullopt;
}

fs::path resolve_instance_path(const std::string& spec) {
  FORMICA_EXPECTS(!spec.empty(), "no instance given (the file name is empty)");
  std::error_code ec;
  if (fs::exists(spec, ec)) return spec;
  if (spec.find('/') != std::string::npos) throw InputError(concat(printable(spec), ": no such file"));
  const std::string name = tsp_file_stem(spec).value_or(spec);
  const auto full = tsplib_dir();
  if (full)
    if (const auto file = instance_in(*full / "tsp", name)) return *file;
  const auto shipped = shipped_tsplib_dir();
  if (shipped)
    if (const auto file = instance_in(*shipped, name)) return *file;

  const char* env = std::getenv("FORMICA_TSPLIB_DIR");
  const bool env_set = env != nullptr && *env != '\0';
  const char* absent = full && fs::is_directory(*full / "tsp", ec) ? "" : ": no such folder";
  std::string looked = env_set ? concat("$FORMICA_TSPLIB_DIR/tsp (", printable(env), "/tsp", absent, ")")
                               : concat("../shared/tsplib/tsp", *absent ? " (no such folder)" : "");
  if (shipped) {
    std::string names;
    for (const std::string& n : instance_names(*shipped)) names += (names.empty() ? "" : " ") + n;
    looked += concat(" and among formica's own in ", printable(shipped->string()), " (", names, ")");
  }
  throw InputError(
      concat(printable(spec), ": no such file, nor a TSPLIB instance of that name in ", looked,
             "; for all of TSPLIB (Reinelt, Heidelberg: comopt.ifi.uni-heidelberg.de/software/TSPLIB95),"
             " set FORMICA_TSPLIB_DIR to a folder holding tsp/NAME.tsp"));
}

Instance load_instance(const std::string& spec) { return read_tsplib(resolve_instance_path(spec)); }

TsplibProblem load_problem(const std::string& spec) { return read_tsplib_problem(resolve_instance_path(spec)); }

}  // namespace formica::io
