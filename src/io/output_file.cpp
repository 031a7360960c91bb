// SPDX-License-Identifier: MIT
// Output files checked before the work and written all or none (see output_file.h).
#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include "core/error.h"
#include "io/line_reader.h"

namespace formica::io {
namespace {

namespace fs = std::filesystem;

/// Symbolic links followed by hand before giving up (as the kernel's ELOOP limit).
constexpr int kMostLinks = 40;

std::optional<struct stat> status_of(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return info;
}

bool is_special(const struct stat& info) { return !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode); }

fs::path folder_of(const fs::path& file) { return file.has_parent_path() ? file.parent_path() : fs::path("."); }

/// Writes all of `text` to `fd`; false (errno set) on failure.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    text.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

[[noreturn]] void fail(const OutputPath& path, const std::string& why) {
  throw InputError(concat(path.label(), ": ", why));
}

/// A special file, written in place: a FIFO without a reader is refused rather than waited on.
void write_in_place(const OutputPath& path, std::string_view text) {
  const int fd = ::open(path.target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    fail(path, errno == ENXIO ? std::string("a FIFO that no process reads") : concat("cannot write (", std::strerror(errno), ")"));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a slow reader is waited for once it is there
  const bool written = write_all(fd, text);
  const int error = errno;
  ::close(fd);
  if (!written) fail(path, concat("write failed (", std::strerror(error), ")"));
}

/// Writes `text` to a new temporary file beside `path`'s target with the target's permissions
/// (the default ones for a new file); returns its name.
fs::path write_temporary(const OutputPath& path, std::string_view text) {
  const fs::path temp = path.target.string() + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  ::unlink(temp.c_str());  // a leftover of an earlier process of this id
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, concat("cannot write (", std::strerror(errno), ")"));
  if (const auto old = status_of(path.target); old && S_ISREG(old->st_mode)) ::fchmod(fd, old->st_mode & 07777);
  const bool written = write_all(fd, text);
  int error = errno;
  const bool closed = ::close(fd) == 0;
  if (written && !closed) error = errno;
  if (!written || !closed) {
    ::unlink(temp.c_str());
    fail(path, concat("write failed (", std::strerror(error), ")"));
  }
  return temp;
}

}  // namespace

std::string OutputPath::label() const {
  return option.empty() ? printable(given.string()) : concat(option, " ", printable(given.string()));
}

OutputPath check_output_path(std::string_view option, const std::string& path) {
  OutputPath out{std::string(option), path, path, false};
  if (path.empty()) throw InputError(concat(option.empty() ? "output" : std::string(option), ": the file name is empty"));
  // Follow symbolic links to the file they name, so that the link stays and its target is written.
  // A link to a special file stays as it is: opening it follows it (/proc/self/fd/1 names a pipe
  // that no path reaches).
  for (int hops = 0;; ++hops) {
    struct stat link {};
    if (::lstat(out.target.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) break;
    if (const auto info = status_of(out.target)) {
      if (!is_special(*info)) {
        std::error_code ec;
        const fs::path real = fs::canonical(out.target, ec);
        if (!ec) out.target = real;
      }
      break;
    }
    if (hops == kMostLinks) fail(out, "too many levels of symbolic links");
    std::error_code ec;
    const fs::path next = fs::read_symlink(out.target, ec);  // a dangling link: its target is created
    if (ec) fail(out, concat("cannot follow the link (", ec.message(), ")"));
    out.target = next.is_absolute() ? next : folder_of(out.target) / next;
  }
  const fs::path folder = folder_of(out.target);
  if (const auto info = status_of(out.target)) {
    if (S_ISDIR(info->st_mode)) fail(out, "is a folder");
    if (S_ISSOCK(info->st_mode) || S_ISBLK(info->st_mode))
      fail(out, concat("is a ", S_ISSOCK(info->st_mode) ? "socket" : "block device",
                       ": formica writes a regular file, a character device or a FIFO"));
    if (::access(out.target.c_str(), W_OK) != 0) fail(out, concat("cannot write (", std::strerror(errno), ")"));
    out.special = is_special(*info);
    if (out.special) return out;
    // Root may write anything; a file that grants no one write permission is still not replaced.
    if ((info->st_mode & 0222) == 0) fail(out, "is read-only (no one may write it)");
  } else if (errno != ENOENT) {
    fail(out, errno == ENOTDIR ? std::string("a part of the path is not a folder")
                               : concat("cannot write (", std::strerror(errno), ")"));
  } else if (const auto parent = status_of(folder); !parent) {
    fail(out, concat("the folder ", printable(folder.string()), " does not exist"));
  } else if (!S_ISDIR(parent->st_mode)) {
    fail(out, concat(printable(folder.string()), " is not a folder"));
  }
  // A regular file is made beside its target, then renamed over it.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    fail(out, concat("cannot write in the folder ", printable(folder.string()), " (", std::strerror(errno), ")"));
  return out;
}

void expect_not_an_input(const OutputPath& output, const std::vector<std::pair<std::string, fs::path>>& inputs) {
  const auto out = status_of(output.target);
  if (!out) return;  // not there yet: no input can be it
  for (const auto& [what, path] : inputs) {
    const auto in = status_of(path);
    if (in && in->st_dev == out->st_dev && in->st_ino == out->st_ino)
      fail(output, concat("is ", what, " of this run (an output never replaces an input)"));
  }
}

RunInputFiles::RunInputFiles(const std::vector<std::pair<std::string, fs::path>>& inputs) {
  for (const auto& [what, path] : inputs)
    if (const auto in = status_of(path)) files_.emplace(std::pair<uint64_t, uint64_t>(in->st_dev, in->st_ino), what);
}

const std::string* RunInputFiles::find(const OutputPath& output) const {
  const auto out = status_of(output.target);
  if (!out) return nullptr;  // not there yet: no input can be it
  const auto at = files_.find({out->st_dev, out->st_ino});
  return at == files_.end() ? nullptr : &at->second;
}

void expect_not_an_input(const OutputPath& output, const RunInputFiles& inputs) {
  if (const std::string* what = inputs.find(output))
    fail(output, concat("is ", *what, " of this run (an output never replaces an input)"));
}

void expect_distinct_outputs(const std::vector<OutputPath>& outputs) {
  // Two outputs are one file when named alike, or (neither written in place) when both exist as
  // the same device and inode, or neither exists and their canonical paths agree: one key each.
  std::map<std::string, size_t> by_name, by_file;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const OutputPath& b = outputs[j];
    std::optional<size_t> first;
    if (const auto [at, fresh] = by_name.emplace(b.given.string(), j); !fresh) first = at->second;
    if (!first && !b.special) {
      std::string key;
      if (const auto info = status_of(b.target)) {
        key = concat("file ", info->st_dev, " ", info->st_ino);
      } else {
        std::error_code error;
        const fs::path canonical = fs::weakly_canonical(b.target, error);
        if (!error) key = concat("path ", canonical.string());
      }
      if (!key.empty())
        if (const auto [at, fresh] = by_file.emplace(key, j); !fresh) first = at->second;
    }
    if (first) throw InputError(concat(outputs[*first].option, " and ", b.option, " name the same file"));
  }
}

OutputSet::~OutputSet() { roll_back(); }

void OutputSet::add(OutputPath path, std::string text) { pending_.push_back({std::move(path), std::move(text), {}}); }

void OutputSet::create_folder(fs::path folder) { folders_.push_back(std::move(folder)); }

void OutputSet::roll_back() {
  for (Pending& p : pending_)
    if (!p.temp.empty()) ::unlink(p.temp.c_str()), p.temp.clear();
  for (auto folder = created_.rbegin(); folder != created_.rend(); ++folder) ::rmdir(folder->c_str());
  created_.clear();
}

void OutputSet::commit() {
  try {
    for (const fs::path& folder : folders_) {
      std::vector<fs::path> missing;  // the folder and the parents it needs, innermost first
      for (fs::path f = folder; !f.empty() && !status_of(f); f = f.parent_path()) missing.push_back(f);
      for (auto f = missing.rbegin(); f != missing.rend(); ++f) {
        if (::mkdir(f->c_str(), 0777) != 0 && errno != EEXIST)
          throw InputError(concat(printable(folder.string()), ": cannot create the folder (", std::strerror(errno), ")"));
        created_.push_back(*f);
      }
    }
    for (Pending& p : pending_)
      if (!p.path.special) p.temp = write_temporary(p.path, p.text);
    for (const Pending& p : pending_)
      if (p.path.special) write_in_place(p.path, p.text);
  } catch (...) {
    roll_back();
    throw;
  }
  created_.clear();  // kept from here on
  for (Pending& p : pending_) {
    if (p.temp.empty()) continue;
    if (::rename(p.temp.c_str(), p.path.target.c_str()) != 0) {
      const int error = errno;
      roll_back();
      fail(p.path, concat("cannot write (", std::strerror(error), ")"));
    }
    p.temp.clear();
  }
  pending_.clear();
}

void write_text_file_atomically(const fs::path& path, std::string_view text) {
  OutputSet outputs;
  outputs.add(check_output_path("", path.string()), std::string(text));
  outputs.commit();
}

}  // namespace formica::io
