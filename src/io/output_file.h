// SPDX-License-Identifier: MIT
// Output files that never destroy what was there by mistake, and a run's outputs written all or
// none.
//
// Every output path is checked before the work it reports on starts (check_output_path): not an
// empty name, not a folder, not in a kernel interface (/proc, /sys), a folder to put it in that
// exists and that the user may write, not one of the run's inputs (expect_not_an_input), and no
// two outputs one file once links are followed (expect_distinct_outputs). A regular file is
// replaced through a temporary file beside it (named to fit the folder's longest name) and a
// rename, so that a failure or a kill never leaves a partial file under its name; only one the
// user may write is replaced (root too keeps off a file that no one may write), and the new file
// keeps the old one's permissions. A symbolic link is followed: its target is written, the link
// stays. A device or FIFO is written in place, never replaced by a regular file: it is opened when
// checked and held open until written, so that a FIFO without a reader is refused before the
// work and a reader that is there gets the output at the end. An output that is this process's
// stdout or stderr (`--tour-out /dev/stdout`, or the file the shell redirected it to) is written
// to that stream, where the shell's redirection points, never replaced under it.
//
// OutputSet writes a run's outputs together: every regular file goes to its temporary first, the
// special files next, and only when all of them are written are the temporaries renamed; a
// failure before that leaves none of them behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace formica::io {

/// An output path as checked: what the user named and the file that will be written.
struct OutputPath {
  std::string option;           ///< the option that named it ("--tour-out"), empty for a library call
  std::filesystem::path given;  ///< as given
  std::filesystem::path target; ///< the file written: `given` with its symbolic links followed
  bool special = false;         ///< an existing device or FIFO, or a standard stream: written in place
  int stream = -1;              ///< 1 or 2 when it is this process's stdout or stderr: written to that descriptor
  std::shared_ptr<const int> held{};  ///< a device or FIFO opened when checked, written at the end

  /// Written to this process's stdout: its summary lines then go to stderr.
  bool is_stdout() const { return stream == 1; }

  /// "--tour-out PATH" (non-printable bytes escaped), the prefix of its error messages.
  std::string label() const;
};

/// Checks `path` as an output of `option` (InputError "OPTION PATH: reason" when it cannot be
/// written) and returns where it goes. Creates nothing.
OutputPath check_output_path(std::string_view option, const std::string& path);

/// InputError when `output` is the same file as one of `inputs` (an option and the path it
/// names): same device and inode, or the same path once its links are followed.
void expect_not_an_input(const OutputPath& output,
                         const std::vector<std::pair<std::string, std::filesystem::path>>& inputs);

/// A run's inputs as expect_not_an_input compares them, each looked up once: a batch checks
/// thousands of outputs against thousands of inputs (4,000 of each: 8 million look-ups, 13 s).
class RunInputFiles {
 public:
  explicit RunInputFiles(const std::vector<std::pair<std::string, std::filesystem::path>>& inputs);
  /// What `output` is of the run's inputs ("the input"), or null when none.
  const std::string* find(const OutputPath& output) const;

 private:
  std::map<std::pair<uint64_t, uint64_t>, std::string> files_;  // (device, inode) -> what it is
};

/// expect_not_an_input against inputs looked up once.
void expect_not_an_input(const OutputPath& output, const RunInputFiles& inputs);

/// InputError when two of `outputs` are the same file: "--tour-out and --json name the same file".
/// Named alike, or, neither a device, FIFO or stream (they take one output after another), the same
/// device and inode once links are followed (the same folder and name for files not there yet).
/// Each output is looked up once (O(n log n), not a look-up per pair).
void expect_distinct_outputs(const std::vector<OutputPath>& outputs);

class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  ~OutputSet();

  /// Queues `text` for `path`; nothing is written before commit().
  void add(OutputPath path, std::string text);
  /// Creates `folder` (and its parents) at commit, before the files; removed again if the commit
  /// fails and it was not there before.
  void create_folder(std::filesystem::path folder);
  /// Writes every queued file, all or none (InputError naming the one that failed).
  void commit();

 private:
  struct Pending {
    OutputPath path;
    std::string text;
    std::filesystem::path temp;  // the regular file's temporary, once written
  };
  void roll_back();
  std::vector<Pending> pending_;
  std::vector<std::filesystem::path> folders_, created_;
};

/// Writes `text` to `path` by the rules above: a regular file through a temporary file and a
/// rename, a special file in place, a link's target rather than the link.
void write_text_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace formica::io
