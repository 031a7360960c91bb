// SPDX-License-Identifier: MIT
// The default solver on a loaded machine: `formica solve pr1002 --backend cpu --time-limit 10`
// with every core kept busy by other processes must end well below its start tour (the
// nearest-neighbour tour climbed by 2-opt and Or-opt over 10 nearest neighbours, as GA-EAX starts
// from it). Before GA-EAX sized its first population by its timed climbs, such a run returned the
// start tour after 0 iterations. Labelled "load" in CTest (about 10 s): `ctest -LE load` leaves it out;
// and `uninstrumented`: the sanitizer runs leave it out.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/candidates.h"
#include "core/tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/start_tour.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;

/// Processes that spin on every core until the object goes.
class BusyCores {
 public:
  explicit BusyCores(int count) {
    for (int i = 0; i < count; ++i) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        volatile unsigned long spin = 0;
        for (;;) {
          const unsigned long next = spin + 1;
          spin = next;
        }
      }
      if (pid > 0) pids_.push_back(pid);
    }
  }
  ~BusyCores() {
    for (const pid_t pid : pids_) ::kill(pid, SIGKILL);
    for (const pid_t pid : pids_) ::waitpid(pid, nullptr, 0);
  }
  BusyCores(const BusyCores&) = delete;
  BusyCores& operator=(const BusyCores&) = delete;

 private:
  std::vector<pid_t> pids_;
};

TEST(AnytimeUnderLoad, DefaultSolveEndsWellBelowItsStartTourOnBusyCores) {
  const auto dir = test::tsplib_dir();
  if (!dir) GTEST_SKIP() << "TSPLIB folder not found";
  const fs::path file = *dir / "tsp" / "pr1002.tsp";
  const Instance instance = io::read_tsplib(file);
  std::vector<int32_t> start = localsearch::start_tour(instance, localsearch::StartKind::NearestNeighbour, 1, 0);
  const CandidateLists lists = build_candidate_lists(instance, 10);
  localsearch::cpu::NeighbourClimber(instance, lists, {.or_opt = true}).climb(start);
  const int64_t start_length = tour_length(instance, start);

  const fs::path json = fs::temp_directory_path() / ("formica_anytime_" + std::to_string(::getpid()) + ".json");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int status = 0;
  {
    const BusyCores busy(2 * cores);  // twice as many spinning processes as cores
    const std::string command = test::cli_path() + " solve " + file.string() +
                                " --backend cpu --time-limit 10" +
                                " --quiet --json " + json.string() + " >/dev/null";
    status = std::system(command.c_str());
  }
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const nlohmann::json report = nlohmann::json::parse(test::file_bytes(json));
  fs::remove(json);
  const int64_t length = report["best_length"].get<int64_t>();
  EXPECT_LE(static_cast<double>(length), 0.98 * static_cast<double>(start_length))
      << "start tour " << start_length << ", result " << length << " after " << report["iterations"] << " iterations";
}

}  // namespace
}  // namespace formica
