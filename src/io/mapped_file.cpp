// SPDX-License-Identifier: MIT
// Read-only file mapping and bounded stream reads for the readers (see mapped_file.h).
#include "io/mapped_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/memory.h"
#include "io/gzip.h"
#include "io/line_reader.h"

namespace formica::io {
namespace {

/// A stream is read this much at a time, and probed each time what was read doubles from here.
constexpr size_t kChunk = size_t{1} << 16;

struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string too_large(const std::filesystem::path& path) {
  return concat(printable(path.string()), ": more than ", kMaxInputBytes >> 30, " GiB, more than formica reads from a file");
}

}  // namespace

double stream_timeout_seconds() {
  const char* env = std::getenv("FORMICA_INPUT_TIMEOUT");
  if (env == nullptr || *env == '\0') return kStreamTimeoutSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(env, &end);
  FORMICA_EXPECTS(*end == '\0' && std::isfinite(seconds) && seconds > 0 && seconds <= 1e6, "FORMICA_INPUT_TIMEOUT '",
                  printable(env), "' is not a number of seconds in (0, 1e6]");
  return seconds;
}

int64_t error_line(std::string_view message, std::string_view source) {
  if (!message.starts_with(source) || message.size() <= source.size() || message[source.size()] != ':') return 0;
  int64_t line = 0;
  size_t at = source.size() + 1;
  for (; at < message.size() && message[at] >= '0' && message[at] <= '9'; ++at)
    line = std::min<int64_t>(line * 10 + (message[at] - '0'), int64_t{1} << 60);
  return at < message.size() && message[at] == ':' ? line : 0;
}

MappedFile::MappedFile(const std::filesystem::path& path, Content content, const Probe& probe) {
  FORMICA_EXPECTS(!path.empty(), "no file given (the file name is empty)");
  // Non-blocking: opening a FIFO that no process writes to would otherwise wait for a writer forever.
  const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  FORMICA_EXPECTS(file.fd >= 0, printable(path.string()), ": cannot open (", std::strerror(errno), ")");
  struct stat info {};
  FORMICA_EXPECTS(::fstat(file.fd, &info) == 0, printable(path.string()), ": cannot read (", std::strerror(errno), ")");
  FORMICA_EXPECTS(!S_ISDIR(info.st_mode), printable(path.string()), ": is a directory");
  if (!S_ISREG(info.st_mode)) {
    read_stream(file.fd, path, content, probe);
  } else {
    FORMICA_EXPECTS(static_cast<uint64_t>(info.st_size) <= kMaxInputBytes, too_large(path));
    if (info.st_size == 0) return;
    void* map = ::mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (map != MAP_FAILED) {
      map_ = static_cast<const char*>(map);
      size_ = static_cast<size_t>(info.st_size);
    } else {
      read_stream(file.fd, path, content, probe);  // a file system that cannot map: read it as a stream
    }
  }
  if (content == Content::Text && is_gzip(text())) inflate_whole(path);
}

void MappedFile::inflate_whole(const std::filesystem::path& path) {
  std::string inflated = gunzip(text(), printable(path.string()), kMaxInputBytes);
  if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
  map_ = nullptr;
  size_ = 0;
  copy_ = std::move(inflated);
}

void MappedFile::read_stream(int fd, const std::filesystem::path& path, Content content, const Probe& probe) {
  const std::optional<size_t> memory = available_host_memory();
  const double timeout = stream_timeout_seconds();
  size_t probe_at = kChunk, lines = 0;
  for (;;) {
    // The descriptor does not block: wait for bytes (or the writer's end) at most `timeout`.
    pollfd ready{fd, POLLIN, 0};
    const int polled = ::poll(&ready, 1, static_cast<int>(std::min(timeout * 1000.0, 2e9)));
    if (polled < 0 && errno == EINTR) continue;
    FORMICA_EXPECTS(polled >= 0, printable(path.string()), ": read error (", std::strerror(errno), ")");
    if (polled == 0)
      throw InputError(concat(printable(path.string()), ": nothing to read for ", timeout,
                              " s (a FIFO or pipe that no process writes to?); FORMICA_INPUT_TIMEOUT=SECONDS waits longer"));
    const size_t before = copy_.size();
    if (before + kChunk > kMaxInputBytes) throw InputError(too_large(path));
    // The bytes read are held in memory: at most half of what is free.
    if (memory && before + kChunk > *memory / 2)
      expect_memory(2 * (before + kChunk), memory, concat(printable(path.string()), ": reading this stream whole"));
    copy_.resize(before + kChunk);
    const ssize_t got = ::read(fd, copy_.data() + before, kChunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
      copy_.resize(before);
      continue;
    }
    FORMICA_EXPECTS(got >= 0, printable(path.string()), ": read error (", std::strerror(errno), ")");
    copy_.resize(before + static_cast<size_t>(got));
    if (got == 0) return;
    // A gzip stream is binary until it is inflated whole (inflate_whole), and not probed.
    const bool compressed = content == Content::Text && is_gzip(copy_);
    if (content == Content::Text && !compressed) {
      const std::string_view chunk(copy_.data() + before, static_cast<size_t>(got));
      const size_t nul = chunk.find('\0');
      lines += static_cast<size_t>(std::count(chunk.begin(), nul == std::string_view::npos ? chunk.end() : chunk.begin() + nul, '\n'));
      if (nul != std::string_view::npos)
        throw InputError(concat(printable(path.string()), ":", lines + 1, ": a NUL byte: not a text file"));
    }
    if (probe && !compressed && copy_.size() >= probe_at) {
      probe_at = 2 * copy_.size();
      const std::string_view text(copy_);
      if (probe(content == Content::Text ? text.substr(0, text.rfind('\n') + 1) : text)) return;
    }
  }
}

MappedFile::~MappedFile() {
  if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
}

}  // namespace formica::io
