// SPDX-License-Identifier: MIT
// TSPLIB names on the command line from any folder: the instances formica ships (data/tsplib/)
// without FORMICA_TSPLIB_DIR, that folder first when it is set, and an unknown name as one line that
// says where formica looked and how to reach all of TSPLIB (exit 2).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli/shell_outcome.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;
using test::Outcome;

/// A fresh folder of this test process's own, outside the source and build trees.
class InstanceLookup : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("formica_lookup_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// `formica ARGS` run in the folder, with FORMICA_TSPLIB_DIR unset or set to `tsplib_dir`.
  Outcome formica(const std::string& args, const std::string& tsplib_dir = "") const {
    const std::string env =
        tsplib_dir.empty() ? "env -u FORMICA_TSPLIB_DIR" : "env FORMICA_TSPLIB_DIR=" + tsplib_dir;
    return test::run_shell("cd " + dir_.string() + " && " + env + " " + test::cli_path() + " " + args,
                           dir_ / "stdout.txt", dir_ / "stderr.txt");
  }

  fs::path dir_;
};

TEST_F(InstanceLookup, ShippedInstancesSolveByNameFromAnyFolder) {
  const Outcome run = formica("solve pr2392 --time-limit 1 --tour-out pr2392.tour");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("pr2392"), std::string::npos) << run.out;
  const Outcome verify = formica("verify pr2392.tsp.gz pr2392.tour");
  EXPECT_EQ(verify.code, 0) << verify.err;
}

TEST_F(InstanceLookup, TheTsplibFolderComesFirst) {
  fs::create_directories(dir_ / "full" / "tsp");
  fs::copy_file(fs::path(FORMICA_TEST_DATA_DIR) / "square.tsp", dir_ / "full" / "tsp" / "pr2392.tsp");
  const Outcome run = formica("info pr2392", (dir_ / "full").string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("n: 4\n"), std::string::npos) << run.out;
}

TEST_F(InstanceLookup, AnUnknownNameIsOneLineSayingWhereFormicaLooked) {
  const Outcome run = formica("solve pr9999 --time-limit 1");
  EXPECT_EQ(run.code, 2);
  ASSERT_FALSE(run.err.empty());
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "one line: " << run.err;
  for (const std::string part :
       {"pr9999: no such file, nor a TSPLIB instance of that name in ../shared/tsplib/tsp "
        "(no such folder) and among formica's own in ",
        "data/tsplib (fnl4461 kroA200 pcb3038 pr1002 pr2392 pr76 usa13509)",
        "set FORMICA_TSPLIB_DIR to a folder holding tsp/NAME.tsp"})
    EXPECT_NE(run.err.find(part), std::string::npos) << part << "\nnot in: " << run.err;
  const Outcome named = formica("info pr9999", (dir_ / "absent").string());
  EXPECT_EQ(named.code, 2);
  EXPECT_NE(
      named.err.find("in $FORMICA_TSPLIB_DIR/tsp (" + (dir_ / "absent").string() + "/tsp: no such folder)"),
      std::string::npos)
      << named.err;
}

}  // namespace
}  // namespace formica
