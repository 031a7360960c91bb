// SPDX-License-Identifier: MIT
// io::write_text_file_atomically, the writer under --tour-out, --json, --svg and the batch summary:
// a process killed with SIGKILL in the middle of writing leaves the previous file whole, never a
// partial one under the target's name.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <csignal>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;

TEST(AtomicWrite, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const test::ScratchDir scratch("atomic");
  const fs::path& dir = scratch.path();
  const fs::path target = dir / "a.tour";
  io::write_text_file_atomically(target, "first\n");
  io::write_text_file_atomically(target, "second\n");
  EXPECT_EQ(test::file_bytes(target), "second\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

/// Forks a child that rewrites `target` with `text` and kills it with SIGKILL once its temporary
/// file has bytes in it (before the rename). Returns false if the child finished first.
bool kill_while_writing(const fs::path& target, const std::string& text) {
  const pid_t child = ::fork();
  if (child == 0) {
    io::write_text_file_atomically(target, text);
    ::_exit(0);
  }
  if (child < 0) return false;
  // The child's temporary: the target's name, ".tmp.", its process id and a count.
  const std::string temp_prefix = target.filename().string() + ".tmp." + std::to_string(static_cast<long>(child)) + ".";
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool killed = false;
  while (std::chrono::steady_clock::now() < give_up) {
    std::error_code ec;
    std::uintmax_t size = 0;
    for (const auto& entry : fs::directory_iterator(target.parent_path(), ec))
      if (entry.path().filename().string().starts_with(temp_prefix)) size = fs::file_size(entry.path(), ec);
    if (size > 0 && size < text.size()) {
      ::kill(child, SIGKILL);
      killed = true;
      break;
    }
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) return false;  // it finished: too fast to catch
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  if (!killed) ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  return killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(AtomicWrite, TheTemporaryOfTheLongestNameFitsBesideIt) {
  const test::ScratchDir scratch("atomic_long");
  const fs::path target = scratch.path() / std::string(255, 'n');  // NAME_MAX
  io::write_text_file_atomically(target, "first\n");
  io::write_text_file_atomically(target, "second\n");
  EXPECT_EQ(test::file_bytes(target), "second\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(scratch.path()), fs::directory_iterator()), 1);
}

TEST(AtomicWrite, KillNineWhileWritingLeavesThePreviousFileIntact) {
  const test::ScratchDir scratch("atomic_kill");
  const fs::path& dir = scratch.path();
  const fs::path target = dir / "best.tour";
  const std::string previous = "NAME : best.tour\nTYPE : TOUR\nDIMENSION : 3\nTOUR_SECTION\n1\n2\n3\n-1\nEOF\n";
  io::write_text_file_atomically(target, previous);

  // 256 MB, built before the fork so that the child only writes; doubled if a child outruns the poll.
  std::string text(size_t{256} << 20, '7');
  bool caught = false;
  for (int attempt = 0; attempt < 3 && !caught; ++attempt) {
    caught = kill_while_writing(target, text);
    ASSERT_EQ(test::file_bytes(target), caught ? previous : text) << "attempt " << attempt;
    if (!caught) {
      io::write_text_file_atomically(target, previous);
      text += text;
    }
  }
  ASSERT_TRUE(caught) << "the child wrote " << text.size() << " bytes before it could be killed";
  EXPECT_EQ(test::file_bytes(target), previous);
  // The killed writer's temporary file is what remains beside it, under its own name, never the target's.
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path() != target) {
      EXPECT_NE(entry.path().filename().string().find("best.tour.tmp."), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace formica
