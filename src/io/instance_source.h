// SPDX-License-Identifier: MIT
// Where instances come from: TSPLIB files on disk, found by path, or by name in the TSPLIB folder
// (environment variable FORMICA_TSPLIB_DIR, default ../shared/tsplib) and then among the TSPLIB
// instances formica ships (data/tsplib/), so that the examples in its documentation run from any
// folder.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/instance.h"
#include "io/tsplib.h"

namespace formica::io {

/// NAME of a TSPLIB instance file named NAME.tsp or NAME.tsp.gz (as formica ships them), NAME
/// possibly empty; nullopt for any other file name. The one place that knows these suffixes.
std::optional<std::string> tsp_file_stem(std::string_view file);

/// The TSPLIB folder: $FORMICA_TSPLIB_DIR if set, else ../shared/tsplib; nullopt if absent.
std::optional<std::filesystem::path> tsplib_dir();

/// The folder of the TSPLIB instances formica ships (NAME.tsp.gz): `tsplib` beside the Python
/// extension (the installed package's data), `../data/tsplib` beside the command line (a build
/// folder at the top of the source tree), or data/tsplib in the source tree formica was built
/// from; nullopt if none of them is there.
std::optional<std::filesystem::path> shipped_tsplib_dir();

/// `spec` as a file if it exists; otherwise a TSPLIB name ("pr1002", "pr1002.tsp" or
/// "pr1002.tsp.gz") looked up as NAME.tsp or NAME.tsp.gz in tsplib_dir()/tsp, then in
/// shipped_tsplib_dir(). Throws InputError saying where it looked and how to reach all of TSPLIB.
std::filesystem::path resolve_instance_path(const std::string& spec);

/// Reads the instance `spec` names (see resolve_instance_path).
Instance load_instance(const std::string& spec);
/// Reads the symmetric instance or the ATSP matrix `spec` names (see resolve_instance_path).
TsplibProblem load_problem(const std::string& spec);

}  // namespace formica::io
