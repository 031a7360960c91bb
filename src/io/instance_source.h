// Where instances come from: TSPLIB files on disk, found directly or by name in the TSPLIB folder
// (environment variable FORMICA_TSPLIB_DIR, default ../shared/tsplib).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/instance.h"
#include "io/tsplib.h"

namespace formica::io {

/// The TSPLIB folder: $FORMICA_TSPLIB_DIR if set, else ../shared/tsplib; nullopt if absent.
std::optional<std::filesystem::path> tsplib_dir();

/// `spec` as a file if it exists; otherwise a TSPLIB name ("pr1002" or "pr1002.tsp") looked up in
/// tsplib_dir()/tsp. Throws InputError naming what was tried.
std::filesystem::path resolve_instance_path(const std::string& spec);

/// Reads the instance `spec` names (see resolve_instance_path).
Instance load_instance(const std::string& spec);
/// Reads the symmetric instance or the ATSP matrix `spec` names (see resolve_instance_path).
TsplibProblem load_problem(const std::string& spec);

}  // namespace formica::io
