// SPDX-License-Identifier: MIT
// gzip-compressed instances: the shipped TSPLIB files (data/tsplib/) read as the plain ones, from a
// file of any name or a stream, and damaged gzip data refused with one line.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/error.h"
#include "io/batch_input.h"
#include "io/gzip.h"
#include "io/known_optima.h"
#include "io/tsplib.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;

const fs::path kShipped = fs::path(FORMICA_SOURCE_DIR) / "data" / "tsplib";

/// The shipped pr76, gzipped.
std::string pr76_gz() { return io::read_text_file(kShipped / "pr76.tsp.gz"); }

/// A file of this test process's own, written with `bytes`.
fs::path temp_file(const std::string& name, const std::string& bytes) {
  const fs::path path =
      fs::temp_directory_path() / ("formica_gzip_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

/// Skips the test in a build without zlib, where gunzip refuses every input.
#define REQUIRE_ZLIB()                                                                               \
  do {                                                                                               \
    try {                                                                                            \
      io::gunzip(pr76_gz(), "pr76", uint64_t{1} << 20);                                              \
    } catch (const InputError& e) {                                                                  \
      if (std::string(e.what()).find("without zlib") != std::string::npos) GTEST_SKIP() << e.what(); \
    }                                                                                                \
  } while (false)

TEST(Gzip, ShippedInstancesReadWithTheirNamesAndSizes) {
  REQUIRE_ZLIB();
  for (const auto& [name, n] : {std::pair{"pr76", 76},
                                {"kroA200", 200},
                                {"pr1002", 1002},
                                {"pr2392", 2392},
                                {"pcb3038", 3038},
                                {"fnl4461", 4461},
                                {"usa13509", 13509}}) {
    const Instance instance = io::read_tsplib(kShipped / (std::string(name) + ".tsp.gz"));
    EXPECT_EQ(instance.name(), name);
    EXPECT_EQ(instance.n(), n);
    EXPECT_TRUE(known_optimum(instance.name(), instance.n())) << name;
  }
}

TEST(Gzip, InflatesToTheOriginalFile) {
  REQUIRE_ZLIB();
  FORMICA_REQUIRE_TSPLIB();
  const std::string plain = io::read_text_file(*test::tsplib_dir() / "tsp" / "pr2392.tsp");
  EXPECT_EQ(io::gunzip(io::read_text_file(kShipped / "pr2392.tsp.gz"), "pr2392", uint64_t{1} << 30), plain);
}

TEST(Gzip, TheBytesDecideNotTheName) {
  REQUIRE_ZLIB();
  const fs::path path = temp_file("named.tsp", pr76_gz());
  EXPECT_EQ(io::read_tsplib(path).n(), 76);
  fs::remove(path);
}

TEST(Gzip, ReadsFromAStream) {
  REQUIRE_ZLIB();
  const fs::path fifo = fs::temp_directory_path() / ("formica_gzip_" + std::to_string(::getpid()) + "_fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << pr76_gz(); });
  const Instance instance = io::read_tsplib(fifo);
  writer.join();
  fs::remove(fifo);
  EXPECT_EQ(instance.n(), 76);
}

TEST(Gzip, MembersOneAfterTheOtherInflateOneAfterTheOther) {
  REQUIRE_ZLIB();
  const std::string one = io::gunzip(pr76_gz(), "pr76", uint64_t{1} << 20);
  EXPECT_EQ(io::gunzip(pr76_gz() + pr76_gz(), "pr76", uint64_t{1} << 20), one + one);
}

TEST(Gzip, DamagedDataGetOneLine) {
  REQUIRE_ZLIB();
  const std::string gz = pr76_gz();
  const auto error = [](const std::string& bytes, uint64_t limit = uint64_t{1} << 20) {
    return test::input_error_of([&] { io::gunzip(bytes, "x.tsp.gz", limit); });
  };
  EXPECT_EQ(error(gz.substr(0, gz.size() / 2)), "x.tsp.gz: the gzip data end early (the file is cut short)");
  std::string bad_crc = gz;
  bad_crc[gz.size() - 8] ^= 1;  // the trailer's CRC-32
  EXPECT_EQ(error(bad_crc).rfind("x.tsp.gz: corrupt gzip data", 0), 0u) << error(bad_crc);
  EXPECT_EQ(error(gz + "junk"), "x.tsp.gz: bytes after the end of the gzip data");
  EXPECT_EQ(error(gz, 100), "x.tsp.gz: inflates to more than 100 bytes, more than formica reads from a file");
  // A file of zero bytes: refused at its first NUL, not inflated on to the bound (1 MiB here).
  const std::string zeros = io::read_text_file(test::data_file("zeros.tsp.gz"));
  EXPECT_EQ(error(zeros, 4096), "x.tsp.gz:2: a NUL byte: not a text file");
  // Through the reader: the file and the reason.
  const fs::path cut = temp_file("cut.tsp.gz", gz.substr(0, gz.size() - 20));
  EXPECT_EQ(test::input_error_of([&] { io::read_tsplib(cut); }),
            cut.string() + ": the gzip data end early (the file is cut short)");
  fs::remove(cut);
}

TEST(Gzip, ABatchFolderTakesCompressedInstancesByTheirNames) {
  REQUIRE_ZLIB();
  const fs::path dir = fs::temp_directory_path() / ("formica_gzip_batch_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(kShipped / "pr76.tsp.gz", dir / "pr76.tsp.gz");
  fs::copy_file(kShipped / "kroA200.tsp.gz", dir / "kroA200.tsp.gz");
  std::ofstream(dir / "kroA200.gz") << "not a .tsp.gz: left out";
  const io::BatchInput batch = io::load_batch_input(dir);
  EXPECT_EQ(batch.names, (std::vector<std::string>{"kroA200", "pr76"}));
  EXPECT_EQ(batch.instances[0].n(), 200);
  EXPECT_EQ(batch.instances[1].n(), 76);
  EXPECT_EQ(batch.files, (std::vector<fs::path>{dir / "kroA200.tsp.gz", dir / "pr76.tsp.gz"}));
  // The same name twice, compressed and not: one .tour file each cannot be, so it is refused.
  std::ofstream(dir / "pr76.tsp") << io::gunzip(pr76_gz(), "pr76", uint64_t{1} << 20);
  std::string message;
  try {
    io::load_batch_input(dir);
  } catch (const InputError& e) {
    message = e.what();
  }
  EXPECT_EQ(message, (dir / "pr76.tsp.gz").string() + ": the name 'pr76' is taken by " + (dir / "pr76.tsp").string() +
                         " (an instance's name is its .tour file's)");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace formica
