// SPDX-License-Identifier: MIT
// A file's bytes as one read-only view, without reading them all first: a regular file is mapped
// into memory and its pages are read only when the parser reaches them, so a reader that fails at
// the first bad line of a 2 GB file has read one page of it. Anything else (a pipe, a FIFO, a
// device, /dev/stdin) is read in chunks, under the same size bound as a regular file, and each
// chunk is looked at as it arrives: a NUL byte in a text file ends the read at once, and so does
// an error the reader's probe finds in the lines read so far, so that `formica info /dev/zero`,
// /dev/urandom or `yes x | formica info /dev/stdin` answer in a moment instead of reading forever;
// a stream that goes on after what the reader needs (`(cat a.tsp; yes) | formica solve /dev/stdin`)
// is read up to there.
// A stream that stays silent longer than stream_timeout_seconds() ends the read with an error: a
// FIFO that no process opens for writing would otherwise hold formica forever.
//
// A text file compressed with gzip (it starts with gzip's magic bytes, whatever its name) is
// inflated whole (gzip.h), under the same size bound, and its text is the inflated text.
//
// A mapped file that another process truncates while it is being parsed ends the process with
// SIGBUS: formica's own files are written whole or not at all (write_text_file_atomically).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace formica::io {

/// The most bytes formica reads from one file, regular or not: more than the largest instance it
/// solves takes (10^8 cities of three coordinates, a 40,000-city FULL_MATRIX).
inline constexpr uint64_t kMaxInputBytes = uint64_t{16} << 30;

/// How long a stream may stay silent (no bytes, no end) before the read gives up, by default.
inline constexpr double kStreamTimeoutSeconds = 10.0;
/// $FORMICA_INPUT_TIMEOUT (seconds) if set, else kStreamTimeoutSeconds; InputError if it is not a
/// positive number.
double stream_timeout_seconds();

class MappedFile {
 public:
  /// What the file should hold: text (a NUL byte is an error at its line) or binary bytes.
  enum class Content { Text, Binary };
  /// Called on a stream's bytes read so far (for text: up to its last line end) while more may
  /// follow; throws when they are already wrong whatever follows, and returns true when they are
  /// all the reader will read (a TSPLIB file up to its EOF line): the read ends there.
  using Probe = std::function<bool(std::string_view)>;

  /// Opens and maps `path`; InputError naming the file if it is a folder, cannot be read or is
  /// larger than kMaxInputBytes.
  explicit MappedFile(const std::filesystem::path& path, Content content = Content::Text, const Probe& probe = {});
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return map_ != nullptr ? std::string_view(map_, size_) : std::string_view(copy_); }

 private:
  void read_stream(int fd, const std::filesystem::path& path, Content content, const Probe& probe);
  /// Replaces the gzip bytes read by the text they inflate to.
  void inflate_whole(const std::filesystem::path& path);

  const char* map_ = nullptr;
  size_t size_ = 0;
  std::string copy_;  // the bytes of a file that cannot be mapped, or the text a gzip file inflates to
};

/// The 1-based line number at the start of an error message "SOURCE:LINE: ...", 0 if it has none.
int64_t error_line(std::string_view message, std::string_view source);

}  // namespace formica::io
