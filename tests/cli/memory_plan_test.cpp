// The memory plan that `formica solve` prints against the peak resident set of the process it ran
// in (wait4's ru_maxrss), on every path a run takes: coordinates, an open path, fixed ends, an
// asymmetric instance, islands, GA-EAX, Ant System's dense matrices, 2-opt. The peak must stay
// within the plan plus 20 %.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "io/generator.h"
#include "io/tsplib.h"
#include "test_support.h"

extern char** environ;

namespace formica {
namespace {

namespace fs = std::filesystem;

/// "host 46.2 MiB (...": the plan's first figure in bytes; 0 when stderr holds no plan.
double planned_bytes(const std::string& err) {
  const size_t at = err.find("formica: memory host ");
  if (at == std::string::npos) return 0.0;
  const char* text = err.c_str() + at + 21;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  const std::string unit(end + 1, end + 4);
  return value * (unit == "GiB" ? 1024.0 * 1024 * 1024 : unit == "MiB" ? 1024.0 * 1024 : unit == "KiB" ? 1024.0 : 1.0);
}

struct Peak {
  int code;
  std::string err;
  double bytes;
  double seconds;  ///< from the spawn to the exit
};

/// Runs `formica solve ARGS` and returns its stderr and its peak resident set.
Peak run_solve(const std::vector<std::string>& args, const fs::path& err) {
  std::vector<std::string> argv_text = {test::cli_path(), "solve"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawn(&pid, argv_text[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {-1, "", 0.0, 0.0};
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::file_bytes(err), usage.ru_maxrss * 1024.0, seconds};
}

TEST(MemoryPlan, PeakResidentSetStaysWithinThePlanOnEveryPath) {
  if (test::kTimeScale > 1.0) GTEST_SKIP() << "a sanitizer's shadow memory is no part of the plan";
  const fs::path dir = fs::temp_directory_path() / ("formica_memory_plan_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cities = (dir / "u3000.tsp").string(), small = (dir / "u1000.tsp").string();
  io::write_tsplib(cities, io::generate_instance(3000, io::InstanceKind::Uniform, 1));
  io::write_tsplib(small, io::generate_instance(1000, io::InstanceKind::Uniform, 2));
  const std::string atsp = test::data_file("br17.atsp").string();
  const std::vector<std::vector<std::string>> runs = {
      {cities},
      {cities, "--open"},
      {cities, "--start-city", "1", "--end-city", "2"},
      {atsp},
      {atsp, "--start-city", "3"},
      {small, "--islands", "2"},
      {small, "--algorithm", "eax"},
      {small, "--algorithm", "as", "--ants", "50"},
      {small, "--algorithm", "two-opt"},
  };
  for (const auto& args : runs) {
    std::vector<std::string> full = args;
    for (const char* a : {"--backend", "cpu", "--time-limit", "0.3"}) full.emplace_back(a);
    const Peak peak = run_solve(full, dir / "stderr.txt");
    std::string named;
    for (const auto& a : args) named += " " + a;
    ASSERT_EQ(peak.code, 0) << named << "\n" << peak.err;
    const double plan = planned_bytes(peak.err);
    ASSERT_GT(plan, 0.0) << "no plan:" << named << "\n" << peak.err;
    EXPECT_LE(peak.bytes, 1.2 * plan) << named << ": peak " << peak.bytes / 1048576 << " MiB, plan "
                                      << plan / 1048576 << " MiB\n" << peak.err;
  }
  fs::remove_all(dir);
}

// Open paths and fixed ends keep the coordinates (the dummy city is implicit): 20,000 cities, set-up
// included, end within the time limit plus max(5 %, 0.5 s) and within the plan plus 20 %, where the
// dense (n + 1)^2 matrix took 48 s and 1.5 GiB.
TEST(MemoryPlan, PathsOfTwentyThousandCitiesKeepTheirTimeLimitAndPlan) {
  if (test::kTimeScale > 1.0) GTEST_SKIP() << "a sanitizer's shadow memory and pace are no part of the plan";
  const fs::path dir = fs::temp_directory_path() / ("formica_path_limits_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cities = (dir / "u20000.tsp").string();
  io::write_tsplib(cities, io::generate_instance(20000, io::InstanceKind::Uniform, 1));
  constexpr double kLimit = 1.0;
  for (const std::vector<std::string>& ends :
       {std::vector<std::string>{"--open"}, std::vector<std::string>{"--start-city", "1", "--end-city", "2"}}) {
    std::vector<std::string> args = {cities, "--backend", "cpu", "--time-limit", std::to_string(kLimit)};
    args.insert(args.end(), ends.begin(), ends.end());
    const Peak peak = run_solve(args, dir / "stderr.txt");
    ASSERT_EQ(peak.code, 0) << ends.front() << "\n" << peak.err;
    EXPECT_NE(peak.err.find("solved as a symmetric instance of 20001 cities"), std::string::npos) << peak.err;
    EXPECT_LE(peak.seconds, kLimit + std::max(0.05 * kLimit, 0.5)) << ends.front() << "\n" << peak.err;
    const double plan = planned_bytes(peak.err);
    ASSERT_GT(plan, 0.0) << peak.err;
    EXPECT_LE(peak.bytes, 1.2 * plan) << ends.front() << ": peak " << peak.bytes / 1048576 << " MiB, plan "
                                      << plan / 1048576 << " MiB\n" << peak.err;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace formica
