// A file's bytes as one read-only view, without reading them all first: a regular file is mapped
// into memory and its pages are read only when the parser reaches them, so a reader that fails at
// the first bad line of a 2 GB file has read one page of it. Anything else (a pipe, /dev/stdin)
// is read whole.
//
// A mapped file that another process truncates while it is being parsed ends the process with
// SIGBUS: formica's own files are written whole or not at all (write_text_file_atomically).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace formica::io {

class MappedFile {
 public:
  /// Opens and maps `path`; InputError naming the file if it is a directory or cannot be read.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return map_ != nullptr ? std::string_view(map_, size_) : std::string_view(copy_); }

 private:
  const char* map_ = nullptr;
  size_t size_ = 0;
  std::string copy_;  // the bytes of a file that cannot be mapped
};

}  // namespace formica::io
