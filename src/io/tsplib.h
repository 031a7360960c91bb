// SPDX-License-Identifier: MIT
// TSPLIB95 files: reading symmetric .tsp instances and .tour files, writing both.
//
// Reads every symmetric form in TSPLIB: EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D and
// EXPLICIT with FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW, UPPER_COL,
// LOWER_COL, UPPER_DIAG_COL and LOWER_DIAG_COL, and asymmetric TYPE: ATSP files (EXPLICIT,
// FULL_MATRIX, the only form TSPLIB's ATSP instances use). Tolerates `KEY: v` and `KEY : v`, a missing EOF,
// blank and trailing-blank lines, tabs and CRLF line ends. Any other deviation is an InputError
// whose message starts with "file:line:".
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/asymmetric.h"
#include "core/instance.h"
#include "core/tour.h"
#include "io/output_file.h"  // write_text_file_atomically, under every writer here

namespace formica::io {

/// The most header lines (NAME, COMMENT, TYPE, ...) a .tsp or .tour file may hold, and the most
/// bytes its COMMENT lines may hold together: TSPLIB's files have a handful; an endless stream of
/// them is refused at this many instead of read up to the size bound.
inline constexpr int64_t kMaxHeaderLines = 10'000;
inline constexpr size_t kMaxCommentBytes = size_t{1} << 20;

/// What a .tsp file holds: a symmetric instance, or the matrix of a TYPE: ATSP one.
using TsplibProblem = std::variant<Instance, AsymmetricMatrix>;

/// Parses the text of a .tsp or .atsp file; `source` names it in error messages.
TsplibProblem parse_tsplib_problem(std::string_view text, const std::string& source);
TsplibProblem read_tsplib_problem(const std::filesystem::path& path);
/// Parses the text of a symmetric .tsp file (an ATSP file is an InputError).
Instance parse_tsplib(std::string_view text, const std::string& source);
/// Reads a symmetric .tsp file from disk.
Instance read_tsplib(const std::filesystem::path& path);

/// Parses the text of a .tour file and returns its cities 0-based, in order (not yet validated
/// against an instance: see validate_permutation).
std::vector<int32_t> parse_tour(std::string_view text, const std::string& source);
std::vector<int32_t> read_tour(const std::filesystem::path& path);

/// The text of a .tour file of `tour` (1-based city numbers), "Length L, found by formica" its
/// comment; non-printable bytes of the name escaped (printable()).
std::string tour_text(const std::string& name, const Tour& tour);
/// The text of a .tour file of `order`, which must be a permutation of 0..n-1 (InputError
/// otherwise), with `comment` as its COMMENT line (none if empty).
std::string tour_text(const std::string& name, std::span<const int32_t> order, std::string_view comment);
/// Writes a .tour file (1-based city numbers) with "Length L, found by formica" as its comment.
/// The file appears whole or not at all.
void write_tour(const std::filesystem::path& path, const std::string& name, const Tour& tour);
/// Writes a .tour file of `order`, which must be a permutation of 0..n-1 (InputError otherwise),
/// with `comment` as its COMMENT line (none if empty).
void write_tour(const std::filesystem::path& path, const std::string& name, std::span<const int32_t> order,
                std::string_view comment);
/// Writes a coordinate instance as a .tsp file. The file appears whole or not at all.
void write_tsplib(const std::filesystem::path& path, const Instance& instance);

/// Reads a whole file into a string; InputError naming the file if it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace formica::io
