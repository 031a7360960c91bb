// SPDX-License-Identifier: MIT
// The lines of a text, one at a time, as the TSPLIB reader walks them, and the field helpers it
// splits them with.
//
// The split is lazy: a reader that stops at the first bad line has looked at nothing after it,
// so a 2 GB file of garbage costs its first line. A NUL byte, which no text file holds, is an
// InputError at its line rather than a scan on through binary data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace formica::io {

struct Line {
  int64_t number;         ///< 1-based line number in the text
  std::string_view text;  ///< trimmed of blanks and '\r'
};

bool is_blank(char c);
std::string_view trim(std::string_view s);

/// The blank-separated field that starts at or after `at` in `s`, with `at` moved past it; empty
/// when none is left. Walks a line's fields without storing them.
std::string_view next_field(std::string_view s, size_t& at);
/// The blank-separated fields of `s`, at most `limit` of them (the first ones).
std::vector<std::string_view> split_fields(std::string_view s,
                                           size_t limit = std::numeric_limits<size_t>::max());
/// The first blank-separated field of `s` and what follows it; empty when `s` is blank.
std::string_view first_field(std::string_view s);
/// How many blank-separated fields `s` holds.
size_t count_fields(std::string_view s);

/// `text` (bytes from a file or a command line) as a message or an output file quotes it: control
/// characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN, valid UTF-8 as it is, so that a
/// message stays one line, sends no escape sequence to a terminal and decodes in Python.
std::string printable(std::string_view text);

/// `s` as an error message quotes it: whole up to 40 bytes, else its first 40 and "...", so that
/// one bad token of a megabyte still makes one readable line; printable() either way.
std::string excerpt(std::string_view s);

/// A run of blank lines longer than this ends the read: no TSPLIB file holds one, and a stream of
/// nothing but blank lines (`yes ''`) would otherwise be read up to the size bound.
inline constexpr int64_t kMaxBlankLines = int64_t{1} << 20;

class LineReader {
 public:
  /// `source` names the text in errors ("file:line: reason"). A UTF-8 byte-order mark at the start
  /// (which some editors write) is skipped.
  LineReader(std::string_view text, std::string source)
      : rest_(text.starts_with("\xef\xbb\xbf") ? text.substr(3) : text), source_(std::move(source)) {}

  /// The next non-blank line, not yet consumed; nullopt at the end of the text.
  std::optional<Line> peek();
  /// Moves past the line peek() returned.
  void consume() { next_.reset(); }
  /// The number of the last line looked at (1 for an empty text): where "the file ends early".
  int64_t last_line() const { return lines_seen_ == 0 ? 1 : lines_seen_; }

 private:
  std::string_view rest_;
  std::string source_;
  int64_t lines_seen_ = 0;
  std::optional<Line> next_;
};

}  // namespace formica::io
