// Instance lookup by path or TSPLIB name (see instance_source.h).
#include "io/instance_source.h"

#include <cstdlib>

#include "core/error.h"

namespace formica::io {

std::optional<std::filesystem::path> tsplib_dir() {
  const char* env = std::getenv("FORMICA_TSPLIB_DIR");
  const std::filesystem::path dir = env != nullptr && *env != '\0' ? env : "../shared/tsplib";
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return dir;
  return std::nullopt;
}

std::filesystem::path resolve_instance_path(const std::string& spec) {
  std::error_code ec;
  if (std::filesystem::exists(spec, ec)) return spec;
  const bool plain_name = spec.find('/') == std::string::npos;
  if (plain_name) {
    if (const auto dir = tsplib_dir()) {
      const std::string file = spec.ends_with(".tsp") ? spec : spec + ".tsp";
      const auto candidate = *dir / "tsp" / file;
      if (std::filesystem::exists(candidate, ec)) return candidate;
    }
  }
  throw InputError(concat(spec, ": no such file",
                          plain_name ? " (nor a TSPLIB instance of that name in $FORMICA_TSPLIB_DIR)" : ""));
}

Instance load_instance(const std::string& spec) { return read_tsplib(resolve_instance_path(spec)); }

TsplibProblem load_problem(const std::string& spec) { return read_tsplib_problem(resolve_instance_path(spec)); }

}  // namespace formica::io
