// SPDX-License-Identifier: MIT
// The command line's outputs and reads against what a user's file system may hold: FIFOs, links,
// read-only files, missing folders, an output that is an input, endless streams, and the bytes of
// hostile files in messages. Special files are made in a temporary folder of the test's own
// (mkfifo, symlink, chmod); nothing under /dev is touched.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "io/numpy_writer.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;

using test::file_bytes;

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// The exit code, stdout, stderr and wall time of `formica ARGS`, run by the shell (so that `args`
/// may pipe into it), cut off after 20 s by timeout(1).
struct Ran {
  int code;
  std::string out, err;
  double seconds;
};

/// A temporary folder of this test's own, removed at its end.
class OutputSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("formica_outputs_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(dir_, ignored);
  }
  fs::path at(const std::string& name) const { return dir_ / name; }
  std::string square() const { return test::data_file("square.tsp").string(); }

  /// `before` (a command feeding formica's stdin, may be empty) | formica `args`, run in the
  /// test's folder when `here` (so that `args` may name its files relative to it).
  Ran formica(const std::string& args, const std::string& before = "", bool here = false) const {
    const fs::path out = at("stdout.txt"), err = at("stderr.txt");
    const std::string command = (here ? "cd " + dir_.string() + " && " : std::string()) +
                                (before.empty() ? "" : before + " | ") + "timeout 20 " + test::cli_path() + " " + args +
                                " >" + out.string() + " 2>" + err.string();
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, file_bytes(out), file_bytes(err), seconds};
  }

  fs::path dir_;
};

bool is_a_fifo(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && S_ISFIFO(info.st_mode);
}

/// Makes the FIFO `fifo` and opens a reader of the test's own on it, without waiting for a writer
/// and not inherited by formica: the reader's descriptor, or -1 if either step failed.
int fifo_with_reader(const fs::path& fifo) {
  if (::mkfifo(fifo.c_str(), 0644) != 0) return -1;
  return ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == text.size() - 1; }

TEST_F(OutputSafety, FifoIsWrittenInPlaceNotReplaced) {
  const fs::path fifo = at("tour.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader, so that the write does not wait
  ASSERT_GE(reader, 0);
  const Ran run = formica("solve " + square() + " --iterations 1 --quiet --tour-out " + fifo.string());
  EXPECT_EQ(run.code, 0) << run.err;
  std::string got(4096, '\0');
  const ssize_t n = ::read(reader, got.data(), got.size());
  ::close(reader);
  ASSERT_GT(n, 0);
  got.resize(static_cast<size_t>(n));
  EXPECT_NE(got.find("TOUR_SECTION"), std::string::npos) << got;
  EXPECT_TRUE(is_a_fifo(fifo));
}

TEST_F(OutputSafety, FifoWithoutReaderIsRefusedAndTheOtherOutputsAreNotLeftBehind) {
  const fs::path fifo = at("report.fifo"), tour = at("t.tour");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const Ran run = formica("solve " + square() + " --iterations 1 --quiet --tour-out " + tour.string() + " --json " +
                          fifo.string());
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.err, "formica: error: --json " + fifo.string() + ": a FIFO that no process reads (start its reader first)\n");
  EXPECT_TRUE(is_a_fifo(fifo));
  EXPECT_FALSE(fs::exists(tour));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3);  // the FIFO, stdout, stderr
}

TEST_F(OutputSafety, FifoWithoutReaderIsRefusedBeforeTheSearch) {
  const fs::path fifo = at("tour.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  for (const std::string option : {"--tour-out", "--json", "--svg", "--plot-history"}) {
    const Ran run = formica("solve --time-limit 30 " + option + " " + fifo.string());
    EXPECT_EQ(run.code, 2) << option;
    EXPECT_EQ(run.err, "formica: error: " + option + " " + fifo.string() +
                           ": a FIFO that no process reads (start its reader first)\n");
    EXPECT_LT(run.seconds, 1.0 * test::time_scale()) << option;
  }
  EXPECT_TRUE(is_a_fifo(fifo));
}

TEST_F(OutputSafety, FifoReaderThereAtTheStartGetsTheOutputAtTheEnd) {
  // A reader there before the run (this test's, opened without waiting for a writer) gets the tour
  // after a search of half a second; formica holds the FIFO open from its check to its write.
  const fs::path fifo = at("tour.fifo");
  const int reader = fifo_with_reader(fifo);
  ASSERT_GE(reader, 0);
  const Ran run = formica("solve --time-limit 0.5 --quiet --tour-out " + fifo.string());
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_GE(run.seconds, 0.5);
  std::string got;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) got.append(buffer, static_cast<size_t>(n));
  ::close(reader);
  EXPECT_TRUE(got.starts_with("NAME : uniform1000-s1.tour\n") && got.ends_with("-1\nEOF\n")) << got;
  EXPECT_TRUE(is_a_fifo(fifo));
}

TEST_F(OutputSafety, FifoWhoseReaderLeftIsOneLineNotASignal) {
  // The reader is there when the outputs are checked and gone when the tour is written: the write
  // fails with EPIPE and one line, not with the SIGPIPE that ends a process without a word.
  const fs::path fifo = at("tour.fifo");
  const int reader = fifo_with_reader(fifo);
  ASSERT_GE(reader, 0);
  std::thread leaves([reader] {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    ::close(reader);
  });
  const Ran run = formica("solve --time-limit 2 --quiet --tour-out " + fifo.string());
  leaves.join();
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_EQ(run.err, "formica: error: --tour-out " + fifo.string() + ": write failed (Broken pipe)\n");
}

TEST_F(OutputSafety, KernelInterfacesAreRefusedBeforeTheSearch) {
  const struct {
    std::string option, path, where;
  } cases[] = {{"--tour-out", "/proc/self/status", "/proc"},
               {"--json", "/sys/kernel/formica.json", "/sys"},
               {"--plot-history", "/proc/self/history.svg", "/proc"},
               {"--tour-out", "/proc/sys/vm/drop_caches", "/proc"}};
  for (const auto& c : cases) {
    const Ran run = formica("solve --time-limit 30 " + c.option + " " + c.path);
    EXPECT_EQ(run.code, 2) << c.path;
    EXPECT_EQ(run.err, "formica: error: " + c.option + " " + c.path + ": is in " + c.where +
                           ", a kernel interface, not a file formica writes\n");
    EXPECT_LT(run.seconds, 1.0 * test::time_scale()) << c.path;
  }
  EXPECT_EQ(formica("bound " + square() + " --json /proc/self/status").code, 2);
  EXPECT_EQ(formica("generate --cities 5 --output /sys/kernel/x.tsp").code, 2);
}

TEST_F(OutputSafety, OutputsThatLinksMakeOneFileAreRefusedBeforeTheSearch) {
  // A link from one output to another, a file not there yet spelled two ways, a link to the
  // instance: each refused in one line before any work, nothing created or changed.
  const fs::path instance = at("x.tsp");
  fs::copy_file(square(), instance);
  fs::create_symlink("t.tour", at("j.json"));  // dangling: its target is the tour not yet written
  fs::create_symlink("x.tsp", at("to_instance.json"));
  fs::create_directories(at("sub"));
  const struct {
    std::string args, error;
  } cases[] = {
      {"--tour-out t.tour --json j.json", "--tour-out and --json name the same file"},
      {"--tour-out t.svg --svg sub/../t.svg", "--tour-out and --svg name the same file"},
      {"--json ./t.svg --plot-history " + at("t.svg").string(), "--json and --plot-history name the same file"},
      {"--json to_instance.json", "--json to_instance.json: is the instance of this run (an output never replaces an input)"},
  };
  for (const auto& c : cases) {
    const Ran run = formica("solve x.tsp --time-limit 30 " + c.args, "", true);
    EXPECT_EQ(run.code, 2) << c.args;
    EXPECT_EQ(run.err, "formica: error: " + c.error + "\n") << c.args;
    EXPECT_LT(run.seconds, 1.0 * test::time_scale()) << c.args;
  }
  EXPECT_FALSE(fs::exists(at("t.tour")));
  EXPECT_FALSE(fs::exists(at("t.svg")));
  // The tour there already, the JSON a link to it: the tour is kept as it was.
  put(at("t.tour"), "keep\n");
  const Ran there = formica("solve x.tsp --time-limit 30 --tour-out t.tour --json j.json", "", true);
  EXPECT_EQ(there.err, "formica: error: --tour-out and --json name the same file\n");
  EXPECT_EQ(file_bytes(at("t.tour")), "keep\n");
  EXPECT_EQ(file_bytes(instance), file_bytes(square()));
}

TEST_F(OutputSafety, TheLongestFileNameIsWritten) {
  // NAME_MAX (255 bytes) for the name itself; its temporary is cut to fit beside it.
  const std::string longest = std::string(250, 't') + ".tour", json = std::string(250, 'j') + ".json";
  const Ran run = formica("solve " + square() + " --iterations 1 --quiet --tour-out " + longest + " --json " + json, "", true);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(file_bytes(at(longest)).find("TOUR_SECTION"), std::string::npos);
  EXPECT_NE(file_bytes(at(json)).find("\"tour\""), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 4);  // no temporary left
  // Rewritten in place of the old one, and one byte longer is refused before any work.
  EXPECT_EQ(formica("solve " + square() + " --iterations 1 --quiet --tour-out " + longest, "", true).code, 0);
  const Ran too_long = formica("solve --time-limit 30 --tour-out " + longest + "x", "", true);
  EXPECT_EQ(too_long.code, 2);
  EXPECT_EQ(too_long.err, "formica: error: --tour-out " + longest + "x: cannot write (File name too long)\n");
  EXPECT_LT(too_long.seconds, 1.0 * test::time_scale());
  fs::create_directories(at("batch"));
  fs::copy_file(square(), at("batch") / (std::string(251, 'b') + ".tsp"));
  const Ran batch = formica("solve-batch batch --time-limit 30 --out-dir new_folder", "", true);
  EXPECT_EQ(batch.code, 2);
  EXPECT_TRUE(one_line(batch.err)) << batch.err;
  EXPECT_NE(batch.err.find(": the file name is longer than 255 bytes"), std::string::npos) << batch.err;
  EXPECT_LT(batch.seconds, 1.0 * test::time_scale());
}

TEST_F(OutputSafety, AnOutputOnStdoutKeepsItAndTheSummaryGoesToStderr) {
  // stdout redirected to a file, as a shell's `>` does: the tour is written to it (not a new file
  // renamed over it, which took the summary with the old one), and the summary goes to stderr.
  const Ran tour = formica("solve " + square() + " --iterations 1 --quiet --tour-out /dev/stdout");
  ASSERT_EQ(tour.code, 0) << tour.err;
  EXPECT_TRUE(tour.out.starts_with("NAME : square.tour\n")) << tour.out;
  EXPECT_TRUE(tour.out.ends_with("-1\nEOF\n")) << tour.out;
  EXPECT_TRUE(tour.err.starts_with("square: best 40 after ")) << tour.err;
  const Ran json = formica("solve " + square() + " --iterations 1 --quiet --bound --json /dev/stdout");
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_TRUE(json.out.starts_with("{") && json.out.ends_with("}\n")) << json.out;
  EXPECT_NE(json.err.find("square: best 40 after "), std::string::npos) << json.err;
  EXPECT_NE(json.err.find("square: lower bound "), std::string::npos) << json.err;
  // A pipe: the tour alone goes down it.
  const Ran piped = formica("solve " + square() + " --iterations 1 --quiet --tour-out /dev/stdout | grep -c TOUR_SECTION");
  EXPECT_EQ(piped.out, "1\n") << piped.err;
  // Without an output on stdout the summary stays there.
  const Ran plain = formica("solve " + square() + " --iterations 1 --quiet --tour-out " + at("t.tour").string());
  EXPECT_TRUE(plain.out.starts_with("square: best 40 after ")) << plain.out;
  const Ran generate = formica("generate --cities 5 --output /dev/stdout");
  EXPECT_TRUE(generate.out.starts_with("NAME : ")) << generate.out;
  EXPECT_TRUE(generate.err.starts_with("wrote /dev/stdout: ")) << generate.err;
}

TEST_F(OutputSafety, PicturesAreSvgAndOtherNamesAreRefusedBeforeTheSearch) {
  for (const std::string option : {"--svg", "--plot-history"})
    for (const std::string name : {"h.png", "h.PNG", "h.jpg", "h"}) {
      const Ran run = formica("solve --time-limit 30 " + option + " " + at(name).string());
      EXPECT_EQ(run.code, 2) << option << " " << name;
      EXPECT_EQ(run.err, "formica: error: " + option + " " + at(name).string() +
                             ": formica writes SVG pictures only, name the file .svg (Python's formica.plot writes "
                             "PNG too)\n");
      EXPECT_LT(run.seconds, 1.0 * test::time_scale());
      EXPECT_FALSE(fs::exists(at(name)));
    }
  const Ran svg = formica("solve " + square() + " --iterations 1 --quiet --svg " + at("t.SVG").string() +
                          " --plot-history /dev/null");
  EXPECT_EQ(svg.code, 0) << svg.err;
  EXPECT_TRUE(file_bytes(at("t.SVG")).starts_with("<svg") || file_bytes(at("t.SVG")).starts_with("<?xml"));
}

TEST_F(OutputSafety, FloatBatchToursGiveTheSummarysLength) {
  // Points in the unit square: the search compares fixed-point lengths, every output gives the float one.
  const std::vector<double> xy = {0.0, 0.0, 0.5, 0.0, 0.5, 0.25, 0.1, 0.3, 0.0, 0.2};
  test::write_bytes(at("f.npy"), test::npy_bytes(xy, "(1, 5, 2)"));
  const Ran run = formica("solve-batch " + at("f.npy").string() + " --kicks 5 --quiet --out-dir " +
                          at("tours").string() + " --summary " + at("s.csv").string());
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string row = file_bytes(at("s.csv")).substr(file_bytes(at("s.csv")).find('\n') + 1);
  const std::string length = row.substr(row.find(",5,") + 3, row.find(",,") - row.find(",5,") - 3);
  EXPECT_NEAR(std::stod(length), 1.4945, 1e-4) << row;  // the points in the order given, the optimum
  EXPECT_NE(file_bytes(at("tours/batch-00000.tour")).find("COMMENT : Length " + length + ", found by formica\n"),
            std::string::npos)
      << file_bytes(at("tours/batch-00000.tour")) << row;
}

TEST_F(OutputSafety, BatchSummaryEscapesTheBytesOfFileNames) {
  fs::create_directories(at("in"));
  fs::copy_file(square(), at("in") / "a\x1b[31m\x07,\"\xffx.tsp");
  const Ran csv = formica("solve-batch " + at("in").string() + " --quiet --summary " + at("s.csv").string());
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_TRUE(file_bytes(at("s.csv")).starts_with("name,n,length,optimum,gap,seconds,kicks,stop_reason\n"
                                                  "\"a\\x1b[31m\\x07,\"\"\\xffx\",4,40,,,"))
      << file_bytes(at("s.csv"));
  // JSON takes no bytes that are not UTF-8: the same escapes, not an internal error.
  const Ran json = formica("solve-batch " + at("in").string() + " --quiet --summary " + at("s.json").string());
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(file_bytes(at("s.json")).find(R"("name": "a\\x1b[31m\\x07,\"\\xffx")"), std::string::npos)
      << file_bytes(at("s.json"));
}

TEST_F(OutputSafety, ARunContinuesFromItsOwnTourFile) {
  // docs/cli.md: `--initial-tour a.tour --tour-out a.tour`. The start tour is read whole before
  // the search and the new tour replaces it by a rename; it ends a valid tour, no longer.
  ASSERT_EQ(formica("generate --cities 300 --seed 4 --output x.tsp", "", true).code, 0);
  const Ran first = formica("solve x.tsp --algorithm eax --iterations 2 --quiet --tour-out a.tour", "", true);
  ASSERT_EQ(first.code, 0) << first.err;
  const auto length = [&] {
    const Ran verify = formica("verify x.tsp a.tour", "", true);
    EXPECT_EQ(verify.code, 0) << verify.err;
    const size_t at_length = verify.out.find("length ");
    return at_length == std::string::npos ? -1 : std::stoll(verify.out.substr(at_length + 7));
  };
  const long long before = length();
  const Ran again =
      formica("solve x.tsp --algorithm eax --iterations 2 --quiet --initial-tour a.tour --tour-out a.tour", "", true);
  ASSERT_EQ(again.code, 0) << again.err;
  const long long after = length();
  EXPECT_GT(after, 0);
  EXPECT_LE(after, before);
  // Every other output is still refused on an input: the JSON on the start tour, the tour on the instance.
  const Ran json = formica("solve x.tsp --algorithm eax --time-limit 30 --initial-tour a.tour --json a.tour", "", true);
  EXPECT_EQ(json.err, "formica: error: --json a.tour: is --initial-tour of this run (an output never replaces an input)\n");
  const Ran instance = formica("solve x.tsp --algorithm eax --time-limit 30 --initial-tour a.tour --tour-out x.tsp", "", true);
  EXPECT_EQ(instance.err, "formica: error: --tour-out x.tsp: is the instance of this run (an output never replaces an input)\n");
  const Ran both = formica("solve x.tsp --algorithm eax --time-limit 30 --initial-tour a.tour --tour-out a.tour --json a.tour",
                           "", true);
  EXPECT_EQ(both.code, 2);
  EXPECT_TRUE(one_line(both.err)) << both.err;
  // A stream is not read and written at once: the exception is for a regular file.
  const Ran stream = formica("solve x.tsp --algorithm eax --time-limit 30 --initial-tour /dev/stdout --tour-out /dev/stdout",
                             "", true);
  EXPECT_EQ(stream.err, "formica: error: --tour-out /dev/stdout: is --initial-tour of this run (an output never "
                        "replaces an input)\n");
  EXPECT_LT(stream.seconds, 1.0 * test::time_scale());
  // solve-batch: --start-tours DIR --out-dir DIR continues every instance the same way.
  fs::create_directories(at("in"));
  fs::copy_file(at("x.tsp"), at("in/x.tsp"));
  ASSERT_EQ(formica("solve-batch in --kicks 5 --quiet --out-dir tours", "", true).code, 0);
  const Ran batch = formica("solve-batch in --kicks 5 --quiet --start-tours tours --out-dir tours", "", true);
  EXPECT_EQ(batch.code, 0) << batch.err;
  EXPECT_EQ(formica("verify x.tsp tours/x.tour", "", true).code, 0);
}

TEST_F(OutputSafety, SymlinkTargetIsWrittenAndTheLinkStays) {
  const fs::path target = at("real.tour"), link = at("link.tour"), dangling = at("dangling.json");
  put(target, "old\n");
  fs::create_symlink(target, link);
  fs::create_symlink(at("made.json"), dangling);
  const Ran run = formica("solve " + square() + " --iterations 1 --quiet --tour-out " + link.string() + " --json " +
                          dangling.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_NE(file_bytes(target).find("TOUR_SECTION"), std::string::npos);
  EXPECT_NE(file_bytes(at("made.json")).find("\"length\""), std::string::npos);
}

TEST_F(OutputSafety, ReadOnlyFileIsRefusedBeforeTheSearchAsRootToo) {
  const fs::path file = at("locked.tour");
  put(file, "keep\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  // A time limit the check must not wait for.
  const Ran run = formica("solve " + square() + " --time-limit 30 --tour-out " + file.string());
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(one_line(run.err)) << run.err;
  EXPECT_TRUE(run.err.starts_with("formica: error: --tour-out " + file.string() + ": ")) << run.err;
  EXPECT_LT(run.seconds, 10.0);
  EXPECT_EQ(file_bytes(file), "keep\n");
}

TEST_F(OutputSafety, ReplacedFileKeepsItsPermissions) {
  const fs::path file = at("private.tour");
  put(file, "old\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  ASSERT_EQ(formica("solve " + square() + " --iterations 1 --quiet --tour-out " + file.string()).code, 0);
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_NE(file_bytes(file).find("TOUR_SECTION"), std::string::npos);
}

TEST_F(OutputSafety, AnOutputThatIsAnInputIsRefusedBeforeAnyWork) {
  const fs::path instance = at("x.tsp"), tour = at("x.tour"), alias = at("alias.tour");
  fs::copy_file(square(), instance);
  fs::copy_file(test::data_file("square.tour"), tour);
  fs::create_hard_link(instance, alias);
  const std::string before = file_bytes(instance);
  for (const std::string& output : {instance.string(), alias.string()}) {
    const Ran run = formica("solve " + instance.string() + " --time-limit 30 --tour-out " + output);
    EXPECT_EQ(run.code, 2);
    EXPECT_EQ(run.err, "formica: error: --tour-out " + output +
                           ": is the instance of this run (an output never replaces an input)\n");
    EXPECT_LT(run.seconds, 10.0);
  }
  const Ran initial = formica("solve " + instance.string() + " --algorithm eax --time-limit 30 --initial-tour " +
                              tour.string() + " --json " + tour.string());
  EXPECT_EQ(initial.err, "formica: error: --json " + tour.string() +
                             ": is --initial-tour of this run (an output never replaces an input)\n");
  const Ran bound = formica("bound " + instance.string() + " --json " + instance.string());
  EXPECT_EQ(bound.code, 2);
  EXPECT_EQ(file_bytes(instance), before);
}

TEST_F(OutputSafety, EveryOutputPathIsCheckedBeforeTheSearch) {
  const std::string missing = at("nope/t.out").string(), folder = dir_.string();
  for (const std::string option : {"--tour-out", "--json", "--svg", "--plot-history"}) {
    const Ran run = formica("solve " + square() + " --time-limit 30 " + option + " " + missing);
    EXPECT_EQ(run.code, 2) << option;
    EXPECT_EQ(run.err, "formica: error: " + option + " " + missing + ": the folder " + at("nope").string() +
                           " does not exist\n");
    EXPECT_LT(run.seconds, 10.0) << option;
    const Ran directory = formica("solve " + square() + " --time-limit 30 " + option + " " + folder);
    EXPECT_EQ(directory.err, "formica: error: " + option + " " + folder + ": is a folder\n");
    const Ran empty = formica("solve " + square() + " --time-limit 30 " + option + " ''");
    EXPECT_EQ(empty.err, "formica: error: " + option + ": the file name is empty\n");
  }
  EXPECT_EQ(formica("bound " + square() + " --json " + missing).code, 2);
  const Ran generate = formica("generate --cities 5 --output " + missing);
  EXPECT_EQ(generate.err, "formica: error: --output " + missing + ": the folder " + at("nope").string() +
                              " does not exist\n");
}

TEST_F(OutputSafety, BatchOutputsAreCheckedFirstAndWrittenAllOrNone) {
  const fs::path input = at("in");
  fs::create_directories(input);
  fs::copy_file(square(), input / "a.tsp");
  const fs::path out_dir = at("tours"), summary = at("nope/summary.csv");
  const Ran bad_summary =
      formica("solve-batch " + input.string() + " --out-dir " + out_dir.string() + " --summary " + summary.string());
  EXPECT_EQ(bad_summary.code, 2);
  EXPECT_EQ(bad_summary.err, "formica: error: --summary " + summary.string() + ": the folder " + at("nope").string() +
                                 " does not exist\n");
  EXPECT_FALSE(fs::exists(out_dir));
  // A summary that cannot be written (a FIFO nobody reads) is refused first: no tour, no folder.
  const fs::path fifo = at("summary.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const Ran late = formica("solve-batch " + input.string() + " --quiet --kicks 10 --out-dir " + out_dir.string() +
                           " --summary " + fifo.string());
  EXPECT_EQ(late.code, 2) << late.err;
  EXPECT_FALSE(fs::exists(out_dir));
  EXPECT_TRUE(is_a_fifo(fifo));
  const Ran good = formica("solve-batch " + input.string() + " --quiet --kicks 10 --out-dir " + out_dir.string());
  EXPECT_EQ(good.code, 0) << good.err;
  EXPECT_TRUE(fs::exists(out_dir / "a.tour"));
}

TEST_F(OutputSafety, EndlessStreamsEndAtOnce) {
  // Lines of garbage, NUL bytes: each ends at its first line, however much more would follow;
  // blank lines after a million of them (a megabyte).
  const struct {
    std::string feed, args, error;
  } cases[] = {
      {"yes x", "info /dev/stdin", "/dev/stdin:1: unknown keyword 'x'"},
      {"yes '' | tr '\\n' '\\0'", "info /dev/stdin", "/dev/stdin:1: a NUL byte: not a text file"},
      {"yes x", "verify " + square() + " /dev/stdin", "/dev/stdin:1: unknown keyword 'x'"},
      {"yes ''", "info /dev/stdin", "/dev/stdin:1048577: more than 1048576 blank lines in a row: not a TSPLIB file"},
      {"(printf 'NAME : a\\n'; yes '  ')", "info /dev/stdin",
       "/dev/stdin:1048578: more than 1048576 blank lines in a row: not a TSPLIB file"},
  };
  for (const auto& c : cases) {
    const Ran run = formica(c.args, c.feed);
    EXPECT_EQ(run.code, 2) << c.feed;
    EXPECT_EQ(run.err, "formica: error: " + c.error + "\n") << c.feed;
    EXPECT_LT(run.seconds, 1.0 * test::time_scale()) << c.feed;
  }
  // A FIFO named as an array file, fed by a writer process that never stops.
  const fs::path fifo = at("endless.npy");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const Ran npy = formica("solve-batch " + fifo.string(), "(timeout 20 yes x > " + fifo.string() + " &) ; true");
  EXPECT_EQ(npy.code, 2);
  EXPECT_EQ(npy.err, "formica: error: " + fifo.string() + ": not an .npy file (its first bytes are not an .npy file's)\n");
  EXPECT_LT(npy.seconds, 1.0 * test::time_scale());
  // A whole instance through a pipe still reads.
  const Ran piped = formica("info /dev/stdin", "cat " + square());
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_NE(piped.out.find("n: 4"), std::string::npos) << piped.out;
}

TEST_F(OutputSafety, EndlessHeaderLinesEndAtTheirCap) {
  // Header lines are valid one at a time: a stream of them ends at the cap, not at the size bound.
  const std::string error = ":10001: more than 10000 header lines (NAME, COMMENT, ...): not a TSPLIB file";
  for (const std::string feed : {"yes COMMENT", "yes 'COMMENT : again'", "yes 'NAME : a'"}) {
    const Ran run = formica("solve /dev/stdin", feed);
    EXPECT_EQ(run.code, 2) << feed;
    EXPECT_EQ(run.err, "formica: error: /dev/stdin" + error + "\n") << feed;
    EXPECT_LT(run.seconds, 2.0 * test::time_scale()) << feed;
  }
  const Ran tour = formica("verify " + square() + " /dev/stdin", "yes COMMENT");
  EXPECT_EQ(tour.err, "formica: error: /dev/stdin" + error + "\n");
  const fs::path file = at("comments.tsp");
  std::string comments;
  for (int i = 0; i < 20000; ++i) comments += "COMMENT : line\n";
  put(file, comments);
  const Ran info = formica("info " + file.string());
  EXPECT_EQ(info.code, 2);
  EXPECT_EQ(info.err, "formica: error: " + file.string() + error + "\n");
}

TEST_F(OutputSafety, AStreamThatGoesOnAfterEofIsReadUpToIt) {
  // The reader stops at EOF: whatever a stream sends after it is not waited for.
  for (const std::string tail : {"yes", "yes COMMENT", "yes 1 2"}) {
    const Ran info = formica("info /dev/stdin", "(cat " + square() + "; " + tail + ")");
    EXPECT_EQ(info.code, 0) << tail << ": " << info.err;
    EXPECT_NE(info.out.find("n: 4"), std::string::npos) << info.out;
    EXPECT_LT(info.seconds, 2.0 * test::time_scale()) << tail;
  }
  const Ran verify = formica("verify " + square() + " /dev/stdin", "(cat " + test::data_file("square.tour").string() + "; yes)");
  EXPECT_EQ(verify.code, 0) << verify.err;
  EXPECT_LT(verify.seconds, 2.0 * test::time_scale());
}

/// Sets FORMICA_INPUT_TIMEOUT for the commands a test runs, and clears it at the test's end.
struct InputTimeout {
  explicit InputTimeout(const char* seconds) { ::setenv("FORMICA_INPUT_TIMEOUT", seconds, 1); }
  ~InputTimeout() { ::unsetenv("FORMICA_INPUT_TIMEOUT"); }
};

TEST_F(OutputSafety, FifoWithoutWriterIsRefusedAfterTheTimeout) {
  const InputTimeout timeout("1");
  const fs::path fifo = at("silent.tsp");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::string error = "formica: error: " + fifo.string() +
                            ": nothing to read for 1 s (a FIFO or pipe that no process writes to?); "
                            "FORMICA_INPUT_TIMEOUT=SECONDS waits longer\n";
  for (const std::string args : {"info ", "solve ", "bound "}) {
    const Ran run = formica(args + fifo.string());
    EXPECT_EQ(run.code, 2) << args;
    EXPECT_EQ(run.err, error) << args;
    EXPECT_LT(run.seconds, 5.0 * test::time_scale()) << args;
  }
  const Ran verify = formica("verify " + square() + " " + fifo.string());
  EXPECT_EQ(verify.err, error);
  // A start tour of solve-batch that is a FIFO without a writer.
  const fs::path batch = at("batch"), starts = at("starts");
  fs::create_directories(batch);
  fs::create_directories(starts);
  fs::copy_file(square(), batch / "square.tsp");
  const fs::path start = starts / "square.tour";
  ASSERT_EQ(::mkfifo(start.c_str(), 0644), 0);
  const Ran batch_run = formica("solve-batch " + batch.string() + " --start-tours " + starts.string());
  EXPECT_EQ(batch_run.code, 2);
  EXPECT_EQ(batch_run.err, "formica: error: --start-tours " + start.string() + ": " + start.string() +
                               ": nothing to read for 1 s (a FIFO or pipe that no process writes to?); "
                               "FORMICA_INPUT_TIMEOUT=SECONDS waits longer\n");
  // A writer that comes within the timeout is waited for, and its instance read.
  const Ran late = formica("info " + fifo.string(), "(sleep 0.3; cat " + square() + " > " + fifo.string() + ") & true");
  EXPECT_EQ(late.code, 0) << late.err;
  EXPECT_NE(late.out.find("n: 4"), std::string::npos) << late.out;
  const InputTimeout wrong("soon");
  const Ran bad = formica("info " + fifo.string());
  EXPECT_EQ(bad.err, "formica: error: FORMICA_INPUT_TIMEOUT 'soon' is not a number of seconds in (0, 1e6]\n");
}

TEST_F(OutputSafety, SymbolicLinkLoopsAreOneLine) {
  const fs::path batch = at("batch");
  fs::create_directories(batch);
  fs::copy_file(square(), batch / "square.tsp");
  fs::create_symlink("b.tsp", batch / "a.tsp");
  fs::create_symlink("a.tsp", batch / "b.tsp");
  const Ran run = formica("solve-batch " + batch.string());
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.err, "formica: error: " + (batch / "a.tsp").string() + ": cannot open (Too many levels of symbolic links)\n");
  // A start-tours folder that is a link in a loop, and a start tour that is one.
  fs::remove(batch / "a.tsp");
  fs::remove(batch / "b.tsp");
  fs::create_symlink(at("loop2"), at("loop1"));
  fs::create_symlink(at("loop1"), at("loop2"));
  const Ran folder = formica("solve-batch " + batch.string() + " --start-tours " + at("loop1").string());
  EXPECT_EQ(folder.code, 2);
  EXPECT_EQ(folder.err, "formica: error: --start-tours " + at("loop1").string() +
                            ": not a folder (Too many levels of symbolic links)\n");
  const fs::path starts = at("starts");
  fs::create_directories(starts);
  fs::create_symlink("square.tour", starts / "square.tour");
  const Ran tour = formica("solve-batch " + batch.string() + " --start-tours " + starts.string());
  EXPECT_EQ(tour.code, 2);
  EXPECT_TRUE(one_line(tour.err)) << tour.err;
  EXPECT_NE(tour.err.find("Too many levels of symbolic links"), std::string::npos) << tour.err;
}

TEST_F(OutputSafety, ThreadAndAntCountsHaveLimits) {
  const Ran bound = formica("bound " + square() + " --threads 100000");
  EXPECT_EQ(bound.code, 2);
  EXPECT_EQ(bound.err, "formica: error: --threads: must be in [0, 2048], got 100000 (see formica --help)\n");
  const Ran ants = formica("solve " + square() + " --ants 200000000");
  EXPECT_EQ(ants.code, 2);
  EXPECT_EQ(ants.err, "formica: error: --ants must be in [1, 100000000] (0: the default), got 200000000\n");
  const Ran as_ants = formica("solve " + square() + " --algorithm as --ants 200000000");
  EXPECT_EQ(as_ants.err, ants.err);
  // Each island's threads are capped at the machine's before the islands are counted: 8 islands of
  // --threads 2048 start 8 x (hardware threads), refused only past 2048 in all.
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const Ran islands = formica("solve " + square() + " --islands 8 --threads 2048 --time-limit 0.2");
  if (hardware * 8 <= 2048) {
    EXPECT_EQ(islands.code, 0) << islands.err;
    EXPECT_NE(islands.err.find("--threads 2048: more than this machine's"), std::string::npos) << islands.err;
  } else {
    EXPECT_EQ(islands.code, 2);
    EXPECT_TRUE(one_line(islands.err)) << islands.err;
  }
  fs::create_directories(at("batch"));
  fs::copy_file(square(), at("batch") / "square.tsp");
  const Ran batch = formica("solve-batch " + at("batch").string() + " --threads 100000");
  EXPECT_EQ(batch.code, 2);
  EXPECT_NE(batch.err.find("threads must be from 0 (every hardware thread) to 2048, got 100000"), std::string::npos)
      << batch.err;
  const Ran lk = formica("solve " + square() + " --lk-threads 5000");
  EXPECT_EQ(lk.code, 2);
  EXPECT_TRUE(one_line(lk.err)) << lk.err;
  // 1,024 islands of two threads each or more (their own and a Lin-Kernighan thread): past 2048
  // on any machine of more than one hardware thread.
  const Ran lk_islands =
      formica("solve " + square() + " --algorithm mmas --islands 1024 --threads 2048 --lk-threads 2048 --merge-tours true");
  if (hardware > 1) {
    EXPECT_EQ(lk_islands.code, 2);
    const std::string on_this = concat(" (", hardware, " on this machine)");
    EXPECT_EQ(lk_islands.err, concat("formica: error: --lk-threads 2048", on_this, " beside --threads 2048", on_this,
                                     " for each of --islands 1024 is ", 2 * hardware * 1024,
                                     " threads, more than the 2048 formica starts\n"));
  }
}

TEST_F(OutputSafety, HostileBytesAreEscapedInMessagesAndOutputs) {
  const fs::path file = at("escape.tsp"), tour = at("escape.tour");
  put(file, "NAME : a\x1b[31mred\x07\xff\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
            "1 0 0\n2 1 0\n3 0 1\nEOF\n");
  const Ran info = formica("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("name: a\\x1b[31mred\\x07\\xff\n"), std::string::npos) << info.out;
  ASSERT_EQ(formica("solve " + file.string() + " --iterations 1 --quiet --tour-out " + tour.string()).code, 0);
  EXPECT_NE(file_bytes(tour).find("NAME : a\\x1b[31mred\\x07\\xff.tour\n"), std::string::npos);
  const fs::path binary = at("binary.tsp");
  put(binary, std::string("\x1b]0;title\x07\x9b\x01junk\n", 16));
  const Ran junk = formica("info " + binary.string());
  EXPECT_EQ(junk.err, "formica: error: " + binary.string() + ":1: unknown keyword '\\x1b]0;title\\x07\\x9b\\x01junk'\n");
}

TEST_F(OutputSafety, ReaderMessagesNameTheFileAndLine) {
  const std::string header = "NAME : t\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : ";
  const struct {
    std::string text, args, stdout_has, error;
  } cases[] = {
      {"\xef\xbb\xbf" + header + "EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nEOF\n", "info", "n: 3", ""},
      {header + "EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nNODE_COORD_SECTION\n1 0 0\nEOF\n", "info", "",
       ":9: a second NODE_COORD_SECTION (a file gives each section once)"},
      {header + "GEO\nNODE_COORD_SECTION\n1 95 0\n2 1 0\n3 0 1\nEOF\n", "info", "",
       ":6: city 1: latitude 95 is beyond +-90 degrees (GEO coordinates are latitude and longitude in DDD.MM: "
       "degrees, then minutes)"},
      {header + "GEO\nNODE_COORD_SECTION\n1 5 0\n2 1 200\n3 0 1\nEOF\n", "info", "",
       ":7: city 2: longitude 200 is beyond +-180 degrees (GEO coordinates are latitude and longitude in DDD.MM: "
       "degrees, then minutes)"},
      {"NAME : a\nTYPE : ATSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\n"
       "EDGE_WEIGHT_SECTION\n0 1 2\n3 0 2000000000\n1 1 0\nEOF\n",
       "solve", "",
       ":8: weight '2000000000' is more than an asymmetric (ATSP) instance may hold (1073741822: its symmetric form "
       "doubles the weights)"},
  };
  int index = 0;
  for (const auto& c : cases) {
    const fs::path file = at("case" + std::to_string(index++) + ".tsp");
    put(file, c.text);
    const Ran run = formica(c.args + " " + file.string());
    if (c.error.empty()) {
      EXPECT_EQ(run.code, 0) << run.err;
      EXPECT_NE(run.out.find(c.stdout_has), std::string::npos) << run.out;
    } else {
      EXPECT_EQ(run.code, 2);
      EXPECT_EQ(run.err, "formica: error: " + file.string() + c.error + "\n");
    }
  }
}

TEST_F(OutputSafety, FixedEdgesAreKeptOrTheFileRefused) {
  // 40 cities on a 8 x 5 grid; the fixed edges join far corners, which no search takes unprompted.
  std::string text = "NAME : grid\nTYPE : TSP\nDIMENSION : 40\nEDGE_WEIGHT_TYPE : EUC_2D\nFIXED_EDGES_SECTION\n"
                     "1 40\n40 8\n33 17\n-1\nNODE_COORD_SECTION\n";
  for (int i = 0; i < 40; ++i) text += std::to_string(i + 1) + " " + std::to_string(10 * (i % 8)) + " " + std::to_string(10 * (i / 8)) + "\n";
  const fs::path file = at("grid.tsp"), tour = at("grid.tour");
  put(file, text + "EOF\n");
  const Ran solve = formica("solve " + file.string() + " --iterations 20 --backend cpu --tour-out " + tour.string());
  ASSERT_EQ(solve.code, 0) << solve.err;
  std::vector<int> order;
  std::istringstream lines(file_bytes(tour).substr(file_bytes(tour).find("TOUR_SECTION\n") + 13));
  for (int city = 0; lines >> city && city > 0;) order.push_back(city);
  ASSERT_EQ(order.size(), 40u);
  const auto adjacent = [&](int a, int b) {
    const auto i = std::find(order.begin(), order.end(), a) - order.begin(), j = std::find(order.begin(), order.end(), b) - order.begin();
    return std::abs(i - j) == 1 || std::abs(i - j) == 39;
  };
  EXPECT_TRUE(adjacent(1, 40) && adjacent(40, 8) && adjacent(33, 17)) << file_bytes(tour);
  const Ran verify = formica("verify " + file.string() + " " + tour.string());
  EXPECT_EQ(verify.code, 0) << verify.err;
  // A tour without them is not a tour of this instance (1 to 40 closes 40-1, and lacks 40-8).
  std::string identity = "TYPE : TOUR\nDIMENSION : 40\nTOUR_SECTION\n";
  for (int i = 1; i <= 40; ++i) identity += std::to_string(i) + "\n";
  put(at("identity.tour"), identity + "-1\nEOF\n");
  const Ran lacking = formica("verify " + file.string() + " " + at("identity.tour").string());
  EXPECT_EQ(lacking.code, 2);
  EXPECT_EQ(lacking.err, "formica: error: " + at("identity.tour").string() +
                             ": not a tour of grid: it lacks the fixed edge 40-8 (FIXED_EDGES_SECTION)\n");
  // Where they cannot be kept, the file is refused in one line.
  const Ran open = formica("solve " + file.string() + " --open --iterations 2");
  EXPECT_EQ(open.code, 2);
  EXPECT_EQ(open.err, "formica: error: grid has fixed edges (FIXED_EDGES_SECTION): formica keeps them in closed tours "
                      "only, not with --start-city, --end-city or an open path\n");
  // The bound is one of the tours through them, below the tour found (a non-negative proven gap).
  const Ran bound = formica("solve " + file.string() + " --bound --iterations 20 --backend cpu");
  EXPECT_EQ(bound.code, 0) << bound.err;
  EXPECT_NE(bound.out.find(", of the tours through the fixed edges"), std::string::npos) << bound.out;
  EXPECT_NE(bound.out.find("(proven)"), std::string::npos) << bound.out;
  const Ran alone = formica("bound " + file.string());
  EXPECT_EQ(alone.code, 0) << alone.err;
  EXPECT_NE(alone.out.find(", of the tours through the fixed edges"), std::string::npos) << alone.out;
  const fs::path folder = at("batch");
  fs::create_directories(folder);
  fs::copy_file(file, folder / "grid.tsp");
  const Ran batch = formica("solve-batch " + folder.string());
  EXPECT_EQ(batch.code, 2);
  EXPECT_TRUE(one_line(batch.err)) << batch.err;
  EXPECT_NE(batch.err.find("which the batch solver does not keep"), std::string::npos) << batch.err;
  // A bad section is one line naming the file and line, never skipped.
  put(file, "NAME : g\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nFIXED_EDGES_SECTION\n1 2\n2 3\n2 4\n-1\n"
            "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n");
  const Ran degree = formica("solve " + file.string());
  EXPECT_EQ(degree.code, 2);
  EXPECT_EQ(degree.err, "formica: error: " + file.string() +
                            ":7: fixed edge: city 2 would have 3 fixed edges (a tour has 2 at each city)\n");
}

TEST_F(OutputSafety, ParameterMessagesNameWhatTheUserGaveAndTheRealBound) {
  const Ran threads = formica("solve " + square() + " --threads 100000");
  EXPECT_EQ(threads.err, "formica: error: --threads must be in [0, 2048] (0: all of this machine's), got 100000\n");
  const Ran time = formica("solve " + square() + " --time-limit 1e30");
  EXPECT_EQ(time.err, "formica: error: --time-limit must be in (0, 10000000] seconds, got 1e+30\n");
  // --ants 0 is the default: the summary names the ants that run (25 with local search), not 0.
  const Ran ants = formica("solve --ants 0 --iterations 1 --backend cpu");
  EXPECT_EQ(ants.code, 0) << ants.err;
  EXPECT_NE(ants.err.find("formica: auto: n = 1000 on the CPU: mmas with 25 ants,"), std::string::npos) << ants.err;
}

TEST_F(OutputSafety, VerifyChecksTheTourOfAnAsymmetricSolve) {
  const std::string atsp = test::data_file("atsp6.atsp").string();
  const fs::path tour = at("atsp.tour");
  const Ran solve = formica("solve " + atsp + " --iterations 2 --tour-out " + tour.string());
  ASSERT_EQ(solve.code, 0) << solve.err;
  const Ran verify = formica("verify " + atsp + " " + tour.string());
  EXPECT_EQ(verify.code, 0) << verify.err;
  const std::string best = solve.out.substr(solve.out.find("best ") + 5);
  EXPECT_EQ(verify.out.rfind("valid directed tour of the asymmetric ", 0), 0u) << verify.out;
  EXPECT_NE(verify.out.find(", length " + best.substr(0, best.find(' '))), std::string::npos) << verify.out << solve.out;
  const Ran bound = formica("bound " + atsp);
  EXPECT_EQ(bound.code, 2);
  EXPECT_TRUE(one_line(bound.err)) << bound.err;
  EXPECT_NE(bound.err.find("asymmetric (ATSP)"), std::string::npos);
}

}  // namespace
}  // namespace formica
