// SPDX-License-Identifier: MIT
// Output files checked before the work and written all or none (see output_file.h).
#include "io/output_file.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <optional>
#include <system_error>
#include <tuple>

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

/// Writes all of `text` to `fd`; false (errno set) on failure. A pipe or FIFO whose reader has
/// gone gives EPIPE rather than the SIGPIPE that would end the process without a word: the signal
/// is blocked for the write and, when the write raised it, taken back before it is unblocked.
bool write_all(int fd, std::string_view text) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  bool written = true;
  while (!text.empty()) {
    const ssize_t count = ::write(fd, text.data(), text.size());
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      written = false;
      break;
    }
    text.remove_prefix(static_cast<size_t>(count));
  }
  const int error = errno;
  if (!written && error == EPIPE && !sigismember(&old, SIGPIPE)) {
    const timespec now{};
    ::sigtimedwait(&pipe_signal, nullptr, &now);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = error;
  return written;
}

[[noreturn]] void fail(const OutputPath& path, const std::string& why) {
  throw InputError(concat(path.label(), ": ", why));
}

/// 1 or 2 when `info` is the file this process's stdout or stderr is (a terminal, a pipe, the
/// file the shell redirected it to), else -1.
int standard_stream(const struct stat& info) {
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat stream {};
    if (::fstat(fd, &stream) == 0 && stream.st_dev == info.st_dev && stream.st_ino == info.st_ino) return fd;
  }
  return -1;
}

/// The kernel interface that `path` lies in (/proc, /sys and their kin, where a write changes the
/// kernel's settings rather than a file), or null for an ordinary file system.
const char* kernel_interface(const fs::path& path) {
  static constexpr struct {
    decltype(statfs::f_type) magic;
    const char* name;
  } kInterfaces[] = {{PROC_SUPER_MAGIC, "/proc"},       {SYSFS_MAGIC, "/sys"},
                     {DEBUGFS_MAGIC, "debugfs"},        {TRACEFS_MAGIC, "tracefs"},
                     {SECURITYFS_MAGIC, "securityfs"},  {CGROUP_SUPER_MAGIC, "a cgroup file system"},
                     {CGROUP2_SUPER_MAGIC, "a cgroup file system"}, {BPF_FS_MAGIC, "the BPF file system"},
                     {EFIVARFS_MAGIC, "efivarfs"}};
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) return nullptr;
  for (const auto& interface : kInterfaces)
    if (info.f_type == interface.magic) return interface.name;
  return nullptr;
}

/// A device or FIFO opened for writing, without waiting: a FIFO that no process reads is refused
/// now (ENXIO) rather than waited on; one that has a reader keeps it until the output is written.
std::shared_ptr<const int> open_in_place(const OutputPath& path) {
  const int fd = ::open(path.target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    fail(path, errno == ENXIO ? std::string("a FIFO that no process reads (start its reader first)")
                              : concat("cannot write (", std::strerror(errno), ")"));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a slow reader is waited for once it is there
  return std::shared_ptr<const int>(new int(fd), [](const int* held) {
    ::close(*held);
    delete held;
  });
}

/// A device, FIFO or standard stream, written in place.
void write_in_place(const OutputPath& path, std::string_view text) {
  std::shared_ptr<const int> opened = path.held;
  if (path.stream < 0 && !opened) opened = open_in_place(path);  // one that check_output_path did not open
  if (!write_all(path.stream >= 0 ? path.stream : *opened, text))
    fail(path, concat("write failed (", std::strerror(errno), ")"));
}

/// Temporaries this process has made: with the process id, a name no other temporary has.
std::atomic<unsigned> temporaries_made{0};

/// Writes `text` to a new temporary file beside `path`'s target with the target's permissions
/// (the default ones for a new file); returns its name. The name is the target's, cut to leave
/// room within the folder's longest name (NAME_MAX, 255 bytes on most) for ".tmp.PID.N": a
/// leftover of a killed run says whose it was. It is created anew (O_EXCL), never an existing file.
fs::path write_temporary(const OutputPath& path, std::string_view text) {
  const fs::path folder = folder_of(path.target);
  const long longest = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  const std::string name = path.target.filename().string();
  fs::path temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {  // a leftover of an earlier process of this id is passed by
    const std::string suffix = concat(".tmp.", ::getpid(), ".", temporaries_made++);
    const size_t room = static_cast<size_t>(longest > 0 ? longest : NAME_MAX) - suffix.size();
    temp = folder / (name.substr(0, room) + suffix);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
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
    out.stream = standard_stream(*info);
    if (out.stream >= 0) {  // written where the shell pointed the stream, whatever that is
      out.special = true;
      return out;
    }
    if (const char* interface = kernel_interface(out.target))
      fail(out, concat("is in ", interface, ", a kernel interface, not a file formica writes"));
    if (S_ISSOCK(info->st_mode) || S_ISBLK(info->st_mode))
      fail(out, concat("is a ", S_ISSOCK(info->st_mode) ? "socket" : "block device",
                       ": formica writes a regular file, a character device or a FIFO"));
    if (::access(out.target.c_str(), W_OK) != 0) fail(out, concat("cannot write (", std::strerror(errno), ")"));
    out.special = is_special(*info);
    if (out.special) {
      out.held = open_in_place(out);
      return out;
    }
    // Root may write anything; a file that grants no one write permission is still not replaced.
    if ((info->st_mode & 0222) == 0) fail(out, "is read-only (no one may write it)");
  } else if (errno != ENOENT) {
    fail(out, errno == ENOTDIR ? std::string("a part of the path is not a folder")
                               : concat("cannot write (", std::strerror(errno), ")"));
  } else if (const auto parent = status_of(folder); !parent) {
    fail(out, concat("the folder ", printable(folder.string()), " does not exist"));
  } else if (!S_ISDIR(parent->st_mode)) {
    fail(out, concat(printable(folder.string()), " is not a folder"));
  } else if (const char* interface = kernel_interface(folder)) {
    fail(out, concat("is in ", interface, ", a kernel interface, not a file formica writes"));
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
  // One key a file: its device and inode when it is there, else its folder's and its name (the
  // folder is there: check_output_path saw to it), however links and "." or ".." spell it.
  using FileKey = std::tuple<uint64_t, uint64_t, std::string>;
  std::map<std::string, size_t> by_name;
  std::map<FileKey, size_t> by_file;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const OutputPath& b = outputs[j];
    std::optional<size_t> first;
    if (const auto [at, fresh] = by_name.emplace(b.given.string(), j); !fresh) first = at->second;
    std::optional<FileKey> key;
    if (const auto info = status_of(b.target)) {
      if (!b.special && !is_special(*info)) key = FileKey(info->st_dev, info->st_ino, "");
    } else if (const auto folder = status_of(folder_of(b.target))) {
      key = FileKey(folder->st_dev, folder->st_ino, b.target.filename().string());
    }
    if (!first && key)
      if (const auto [at, fresh] = by_file.emplace(*key, j); !fresh) first = at->second;
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
