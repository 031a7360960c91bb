// SPDX-License-Identifier: MIT
// The `formica` command line end to end: exit codes, one-line error messages, output files
// (tour, JSON report, pictures), the time limit and Ctrl-C.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

#include "aco/colony_config.h"
#include "aco/config.h"
#include "cli/shell_outcome.h"
#include "core/asymmetric.h"
#include "core/tour.h"
#include "io/generator.h"
#include "io/numpy_writer.h"
#include "io/tsplib.h"
#include "solver/portfolio.h"
#include "cuda_support.h"
#include "test_support.h"

extern char** environ;

namespace formica {
namespace {

namespace fs = std::filesystem;

using test::Outcome;
using test::slurp;

/// The prefix of this test process's temporary files, so that tests running in parallel never share one.
std::string temp_prefix() { return "formica_cli_" + std::to_string(::getpid()) + "_"; }

/// A file name of this test process's own.
fs::path temp(const std::string& name) { return fs::temp_directory_path() / (temp_prefix() + name); }

/// Removes every temp() file and folder of this process when its tests end.
class RemoveTempFiles : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code error;
    std::vector<fs::path> ours;
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), error))
      if (entry.path().filename().string().starts_with(temp_prefix())) ours.push_back(entry.path());
    for (const fs::path& path : ours) fs::remove_all(path, error);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveTempFiles =
    ::testing::AddGlobalTestEnvironment(new RemoveTempFiles);

Outcome formica(const std::string& args) {
  return test::run_shell(test::cli_path() + " " + args, temp("stdout"), temp("stderr"));
}

std::string data(const std::string& name) { return test::data_file(name).string(); }

/// Runs the command line with `args` (stdout into `out`), sends it `signal` (Ctrl-C by default)
/// after `delay` and returns its exit code (-1 if it did not exit by itself).
int interrupted_run(std::vector<std::string> args, const fs::path& out, std::chrono::milliseconds delay,
                    int signal = SIGINT) {
  const std::string cli = test::cli_path();
  args.insert(args.begin(), cli);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, cli.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  std::this_thread::sleep_for(delay);
  kill(pid, signal);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct ErrorCase {
  std::string args;
  std::string message;  // the whole stderr line after "formica: error: "
};

class CliErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(CliErrors, OneLineAndExitCodeTwo) {
  const Outcome run = formica(GetParam().args);
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_EQ(run.err, "formica: error: " + GetParam().message + "\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliErrors,
    ::testing::Values(
        ErrorCase{"info " + data("truncated.tsp"),
                  data("truncated.tsp") + ":8: DIMENSION is 5 but NODE_COORD_SECTION has only 3 cities (the file ends early)"},
        ErrorCase{"info " + data("malformed_coordinate.tsp"), data("malformed_coordinate.tsp") + ":8: coordinate 'ten' is not a number"},
        ErrorCase{"info " + data("unknown_edge_weight_type.tsp"),
                  data("unknown_edge_weight_type.tsp") +
                      ":4: unknown EDGE_WEIGHT_TYPE 'XRAY1' (formica reads EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, "
                      "EUC_3D and EXPLICIT)"},
        ErrorCase{"info " + data("dimension_too_large.tsp"),
                  data("dimension_too_large.tsp") + ":10: DIMENSION is 5 but NODE_COORD_SECTION has only 4 cities"},
        ErrorCase{"solve " + data("too_few_cities.tsp"), data("too_few_cities.tsp") + ":3: DIMENSION is 2; at least 3 cities are needed"},
        ErrorCase{"solve " + data("nan_coordinate.tsp"), data("nan_coordinate.tsp") + ":7: coordinate 'nan' is not a number"},
        ErrorCase{"verify " + data("square.tsp") + " " + data("repeated_city.tour"),
                  data("repeated_city.tour") + ": not a tour of square: tour visits city 2 twice"},
        ErrorCase{"verify " + data("square.tsp") + " " + data("out_of_range_city.tour"),
                  data("out_of_range_city.tour") + ": not a tour of square: tour position 4 holds city 5, outside 1..4"},
        ErrorCase{"verify " + data("square.tsp") + " " + data("too_short.tour"),
                  data("too_short.tour") + ": not a tour of square: tour has 3 cities but the instance has 4"},
        ErrorCase{"solve --frobnicate", "The following argument was not expected: --frobnicate (see formica --help)"},
        ErrorCase{"solve " + data("square.tsp") + " --rho 2", "--rho must be in (0, 1], got 2"},
        ErrorCase{"solve " + data("square.tsp") + " --iterations 0", "--iterations must be at least 1, got 0"},
        ErrorCase{"solve " + data("square.tsp") + " --alpha -1", "--alpha must be in [0, 20], got -1"},
        ErrorCase{"solve " + data("square.tsp") + " --selection best",
                  "unknown --selection 'best' (valid: roulette, compression, stochastic-trial, hybrid, i-roulette, "
                  "tile-roulette)"},
        ErrorCase{"solve " + data("square.tsp") + " --construction queen",
                  "unknown --construction 'queen' (valid: auto, warp-per-ant, block-per-ant, thread-per-ant, stc, "
                  "st-dynamic)"},
        ErrorCase{"solve " + data("square.tsp") + " --launch ke-some", "unknown --launch 'ke-some' (valid: ke-all, ke-one)"},
        ErrorCase{"solve " + data("square.tsp") + " --pheromone-update gather",
                  "unknown --pheromone-update 'gather' (valid: atomic, atomic-tiled, scatter-gather, "
                  "scatter-gather-tiled, scatter-gather-reduction, symmetrize)"},
        ErrorCase{"solve " + data("square.tsp") + " --block-size 48",
                  "--block-size must be 0 (by n) or a power of two from 16 to 1024, got 48"},
        ErrorCase{"solve " + data("square.tsp") + " --construction stc --selection hybrid",
                  "--construction stc does not take --selection hybrid (supported: " +
                      aco::supported_combinations() + ")"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm as --backend cpu --construction st-dynamic --launch ke-one",
                  "--construction st-dynamic, --launch ke-one: GPU-only choices, but this run uses the cpu backend "
                  "(one thread per ant, one pheromone update); use --backend cuda or leave them at their defaults"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm as --backend cpu --pheromone-update atomic",
                  "--pheromone-update atomic: GPU-only choice, but this run uses the cpu backend (one thread per ant, "
                  "one pheromone update); use --backend cuda or leave them at their defaults"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm acs --pheromone-update scatter-gather",
                  "--pheromone-update scatter-gather: Ant System construction choices, but --algorithm acs builds "
                  "its tours from candidate lists (its GPU construction is --ant-construction)"},
        ErrorCase{"solve " + data("square.tsp") + " --backend tpu", "unknown --backend 'tpu' (valid: auto, cpu, cuda)"},
        ErrorCase{"solve " + data("square.tsp") + " --neighbour-lists octant",
                  "unknown --neighbour-lists 'octant' (valid: nearest, quadrant)"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm aco", "unknown --algorithm 'aco' (valid: auto, as, mmas, acs, gaco, two-opt, eax)"},
        ErrorCase{"solve " + data("square.tsp") + " --tour-out a.svg --svg a.svg", "--tour-out and --svg name the same file"},
        ErrorCase{"solve " + data("square.tsp") + " --json b.svg --plot-history b.svg",
                  "--json and --plot-history name the same file"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm two-opt --k-swap 0",
                  "--k-swap: '0' is not a positive integer or inf"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm two-opt --start greedy",
                  "unknown --start 'greedy' (valid: random, nearest-neighbour, space-filling-curve)"},
        ErrorCase{"solve " + data("square.tsp") + " --algorithm two-opt --restarts 0",
                  "--restarts must be at least 1, got 0"},
        ErrorCase{"generate --cities 2 --output " + temp("two.tsp").string(),
                  "--cities: must be in [3, 50000000], got 2 (see formica --help)"},
        ErrorCase{"info /nonexistent/x.tsp", "/nonexistent/x.tsp: no such file"},
        ErrorCase{"solve " + data("square.tsp") + " --start-city 5",
                  "--start-city 5: no such city; the instance's cities are 1..4"},
        ErrorCase{"solve " + data("square.tsp") + " --end-city 0",
                  "--end-city 0: no such city; the instance's cities are 1..4"},
        ErrorCase{"solve " + data("square.tsp") + " --start-city x", "--start-city: 'x' is not a number"},
        ErrorCase{"solve " + data("square.tsp") + " --start-city 2 --end-city 2",
                  "--start-city and --end-city name the same city 2: a path from a city back to itself is a closed "
                  "tour (leave out --end-city)"},
        ErrorCase{"solve " + data("square.tsp") + " --open --initial-tour " + data("square.tour"),
                  "--initial-tour starts a closed tour of a symmetric instance; it does not apply to an open path"},
        ErrorCase{"solve " + data("atsp6.atsp") + " --initial-tour " + data("square.tour"),
                  "--initial-tour starts a closed tour of a symmetric instance; it does not apply to an asymmetric "
                  "instance"},
        ErrorCase{"solve " + data("atsp6.atsp") + " --svg a.svg",
                  "--svg: atsp6 has no coordinates to draw (an asymmetric instance)"},
        ErrorCase{"info " + data("atsp6.atsp"),
                  data("atsp6.atsp") + ": atsp6 is an asymmetric (ATSP) instance; `formica solve` and formica.solve "
                  "read those, this needs a symmetric one"}));

TEST(Cli, SolveHelpDescribesAutoInThePortfoliosWords) {
  const Outcome run = formica("solve --help");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("auto: " + std::string(portfolio_description()) + "\n"), std::string::npos) << run.out;
}

TEST(Cli, SolveHelpNamesEveryStrategyWithItsPaperSection) {
  const Outcome run = formica("solve --help");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto lists = [&](const std::vector<NamedValue>& names) {
    for (const auto& name : names) {
      const std::string line = "  " + std::string(name.name) + ": ";
      EXPECT_NE(run.out.find(line), std::string::npos) << "--help does not list " << name.name;
    }
  };
  lists(aco::selection_names());
  lists(aco::construction_names());
  lists(aco::launch_names());
  lists(aco::pheromone_update_names());
  for (const char* section : {"Cecilia 3.1.2", "Cecilia 3.2.2", "Cecilia 3.2.3", "Zhou B.4.1", "Zhou B.4.2",
                              "Algorithm B4", "Algorithm B1", "Algorithm B2", "Cecilia Figure 4", "Figure 5",
                              "version 1", "version 3", "version 4", "Uchida 4.3"})
    EXPECT_NE(run.out.find(section), std::string::npos) << section;
  EXPECT_NE(run.out.find("--block-size"), std::string::npos);
}

TEST(Cli, ErrorLeavesNoPartialOutput) {
  const fs::path tour = temp("partial.tour"), json = temp("partial.json"), svg = temp("partial.svg"),
                 history = temp("partial_history.svg");
  for (const auto& f : {tour, json, svg, history}) fs::remove(f);
  const Outcome run = formica("solve " + data("nan_coordinate.tsp") + " --tour-out " + tour.string() + " --json " +
                              json.string() + " --svg " + svg.string() + " --plot-history " + history.string());
  EXPECT_EQ(run.code, 2);
  for (const auto& f : {tour, json, svg, history}) EXPECT_FALSE(fs::exists(f)) << f;
}

TEST(Cli, PicturesOfTheTourAndTheConvergence) {
  const fs::path svg = temp("pictures.svg"), history = temp("pictures_history.svg"), json = temp("pictures.json");
  const Outcome run = formica("solve " + data("square.tsp") + " --iterations 3 --quiet --svg " + svg.string() +
                              " --plot-history " + history.string() + " --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string tour_picture = slurp(svg), history_picture = slurp(history);
  for (const std::string* picture : {&tour_picture, &history_picture}) {
    EXPECT_EQ(picture->rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u) << *picture;
    EXPECT_TRUE(picture->ends_with("</svg>\n"));
    EXPECT_NE(picture->find(">square: length 40</text>"), std::string::npos) << *picture;
  }
  EXPECT_NE(tour_picture.find("<polygon"), std::string::npos);
  EXPECT_NE(history_picture.find(">best tour length</text>"), std::string::npos);
  EXPECT_NE(history_picture.find("log scale"), std::string::npos);
}

TEST(Cli, PlotHistoryShowsTheGapWhenTheOptimumIsKnown) {
  FORMICA_REQUIRE_TSPLIB();
  const fs::path history = temp("eil51_history.svg");
  const Outcome run = formica("solve " + (*test::tsplib_dir() / "tsp" / "eil51.tsp").string() +
                              " --iterations 3 --quiet --plot-history " + history.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string picture = slurp(history);
  EXPECT_NE(picture.find(">gap above the optimum (%)</text>"), std::string::npos);
  EXPECT_NE(picture.find(", gap "), std::string::npos);
}

TEST(Cli, SvgOfAnInstanceWithoutCoordinatesIsRefusedBeforeSolving) {
  const fs::path instance = temp("matrix.tsp"), svg = temp("matrix.svg");
  fs::remove(svg);
  std::ofstream(instance) << "NAME: tri\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
                             "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n3\nEOF\n";
  const Outcome run = formica("solve " + instance.string() + " --iterations 1 --svg " + svg.string());
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.err,
            "formica: error: --svg: tri has no coordinates to draw (an EXPLICIT instance without "
            "DISPLAY_DATA_SECTION)\n");
  EXPECT_FALSE(fs::exists(svg));
  // The convergence plot needs no coordinates.
  const fs::path history = temp("matrix_history.svg");
  EXPECT_EQ(formica("solve " + instance.string() + " --iterations 1 --quiet --plot-history " + history.string()).code, 0);
  EXPECT_TRUE(fs::exists(history));
}

TEST(Cli, GenerateInfoSolveVerify) {
  const fs::path instance = temp("gen.tsp"), tour = temp("gen.tour"), json = temp("gen.json");
  Outcome run = formica("generate --cities 60 --kind clustered --seed 5 --output " + instance.string());
  ASSERT_EQ(run.code, 0) << run.err;
  run = formica("info " + instance.string());
  EXPECT_EQ(run.code, 0);
  EXPECT_NE(run.out.find("name: clustered60-s5\nn: 60\nedge_weight_type: EUC_2D\noptimum: unknown"), std::string::npos) << run.out;

  run = formica("solve " + instance.string() + " --iterations 5 --backend cpu --seed 3 --tour-out " + tour.string() +
                " --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("iter"), std::string::npos);  // progress on stderr
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["instance"], "clustered60-s5");
  EXPECT_EQ(doc["n"], 60);
  EXPECT_EQ(doc["algorithm"], "mmas");  // the default, auto, reports what it resolved to
  EXPECT_EQ(doc["parameters"]["algorithm"], "mmas");
  EXPECT_EQ(doc["parameters"]["local_search"], "three-opt");
  EXPECT_GT(doc["parameters"]["ants"].get<int>(), 0);
  EXPECT_EQ(doc["backend"], "cpu");
  EXPECT_EQ(doc["iterations"], 5);
  EXPECT_EQ(doc["parameters"]["seed"], 3);
  EXPECT_EQ(doc["parameters"]["rho"], 0.5);
  EXPECT_TRUE(doc["gap"].is_null());
  EXPECT_EQ(doc["tour"].size(), 60u);
  EXPECT_FALSE(doc["history"].empty());
  EXPECT_EQ(doc["history"].back()["length"], doc["best_length"]);

  run = formica("verify " + instance.string() + " " + tour.string());
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.out, "valid tour of clustered60-s5, length " + std::to_string(doc["best_length"].get<int64_t>()) + "\n");
  // The one-line summary names the length too.
  const Outcome again = formica("solve " + instance.string() + " --iterations 5 --backend cpu --seed 3 --quiet");
  EXPECT_EQ(again.code, 0);
  EXPECT_TRUE(again.err.empty()) << again.err;
  EXPECT_NE(again.out.find("best " + std::to_string(doc["best_length"].get<int64_t>())), std::string::npos) << again.out;
}

TEST(Cli, AutoSaysWhatItPickedAndTheMemoryItNeeds) {
  const Outcome run = formica("solve --iterations 2 --backend cpu");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("formica: auto: n = 1000 on the CPU: mmas with "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("formica: memory host "), std::string::npos) << run.err;
  // Without a stopping rule the default budget for the size is named.
  const Outcome timed = formica("solve --backend cpu --time-limit 0.5");
  EXPECT_EQ(timed.code, 0) << timed.err;
  EXPECT_NE(timed.err.find("stops after 0.5 s (Ctrl-C"), std::string::npos) << timed.err;
  // A time limit in which GA-EAX's population converges (portfolio.h) makes it GA-EAX on the CPU
  // (the target, far above any tour, ends the run after its first step).
  const Outcome longer = formica("solve --backend cpu --time-limit 5 --target 1000000000000");
  EXPECT_EQ(longer.code, 0) << longer.err;
  EXPECT_NE(longer.err.find("formica: auto: n = 1000 on the CPU: GA-EAX on "), std::string::npos) << longer.err;
  EXPECT_NE(longer.err.find("formica: algorithm eax on the CPU"), std::string::npos) << longer.err;
}

TEST(Cli, InitialTourContinuesAnEarlierRun) {
  const fs::path first = temp("initial.tour"), json = temp("initial.json");
  const Outcome earlier = formica("solve --backend cpu --iterations 3 --quiet --tour-out " + first.string());
  ASSERT_EQ(earlier.code, 0) << earlier.err;
  const Instance builtin = io::generate_instance(1000, io::InstanceKind::Uniform, 1);
  const int64_t start = Tour(builtin, io::read_tour(first)).length();
  std::vector<std::string> backends = {"cpu"};
  if (cuda::built_with_cuda() && cuda::find_device()) backends.push_back("cuda");
  for (const std::string& backend : backends) {
    // Every colony starts from the earlier tour: the history never rises above it.
    const Outcome run = formica("solve --backend " + backend + " --iterations 2 --initial-tour " + first.string() +
                                " --json " + json.string());
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_NE(run.err.find("formica: starting from " + first.string() + " (length " + std::to_string(start) + ")"),
              std::string::npos)
        << run.err;
    const auto doc = nlohmann::json::parse(slurp(json));
    ASSERT_FALSE(doc["history"].empty());
    EXPECT_LE(doc["history"][0]["length"].get<int64_t>(), start) << backend;
    EXPECT_LE(doc["best_length"].get<int64_t>(), start) << backend;
    EXPECT_EQ(doc["backend"], backend);
  }
  // Tours of another instance and searches that do not start from a tour are refused up front.
  const Outcome wrong = formica("solve --iterations 1 --initial-tour " + data("square.tour"));
  EXPECT_EQ(wrong.code, 2);
  EXPECT_EQ(wrong.err, "formica: error: --initial-tour " + data("square.tour") +
                           ": not a tour of uniform1000-s1: tour has 4 cities but the instance has 1000\n");
  const Outcome repeated = formica("solve " + data("square.tsp") + " --iterations 1 --initial-tour " +
                                   data("repeated_city.tour"));
  EXPECT_EQ(repeated.code, 2);
  EXPECT_NE(repeated.err.find("not a tour of square: tour visits city 2 twice"), std::string::npos) << repeated.err;
  for (const std::string algorithm : {"as", "two-opt", "mmas"}) {
    const Outcome refused = formica("solve " + data("square.tsp") + " --iterations 1 --algorithm " + algorithm +
                                    " --initial-tour " + data("square.tour"));
    EXPECT_EQ(refused.code, 2) << algorithm;
    EXPECT_EQ(refused.err, "formica: error: " + std::string(aco::kStartTourNeedsFocusedColonies) + "\n") << algorithm;
  }
}

/// The shortest route over every order of `n` cities measured by `length` (n <= 9).
int64_t brute_force(int n, const std::function<int64_t(std::span<const int32_t>)>& length) {
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do best = std::min(best, length(order));
  while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(Cli, SolvesOpenPathsWithFixedEnds) {
  const Instance instance = io::generate_instance(8, io::InstanceKind::Uniform, 4);
  const fs::path tsp = temp("path8.tsp"), tour = temp("path8.tour"), json = temp("path8.json"), svg = temp("path8.svg");
  io::write_tsplib(tsp, instance);
  const auto path_length = [&](std::span<const int32_t> order) {
    int64_t length = 0;
    for (size_t i = 1; i < order.size(); ++i) length += instance.distance(order[i - 1], order[i]);
    return length;
  };
  const int64_t optimum = brute_force(8, [&](std::span<const int32_t> order) {
    return order.front() == 2 && order.back() == 6 ? path_length(order) : std::numeric_limits<int64_t>::max();
  });
  const Outcome run = formica("solve " + tsp.string() + " --start-city 3 --end-city 7 --iterations 20 --backend cpu "
                              "--tour-out " + tour.string() + " --json " + json.string() + " --svg " + svg.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("path from city 3 to city 7"), std::string::npos) << run.err;
  const std::vector<int32_t> order = io::read_tour(tour);
  ASSERT_EQ(order.size(), 8u);
  EXPECT_EQ(order.front(), 2);
  EXPECT_EQ(order.back(), 6);
  EXPECT_EQ(path_length(order), optimum);
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["best_length"], optimum);
  EXPECT_EQ(doc["open"], true);
  EXPECT_EQ(doc["start"], 2);
  EXPECT_EQ(doc["end"], 6);
  EXPECT_EQ(doc["asymmetric"], false);
  EXPECT_EQ(doc["n"], 8);
  EXPECT_NE(run.out.find(": best " + std::to_string(optimum) + " "), std::string::npos) << run.out;
  EXPECT_NE(slurp(svg).find("<polyline"), std::string::npos);  // a path is drawn open

  const Outcome open = formica("solve " + tsp.string() + " --open --iterations 20 --backend cpu --quiet --json " +
                               json.string());
  ASSERT_EQ(open.code, 0) << open.err;
  const auto open_doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(open_doc["best_length"], brute_force(8, path_length));
  EXPECT_TRUE(open_doc["start"].is_null());
}

TEST(Cli, SolvesAsymmetricFiles) {
  const io::TsplibProblem problem = io::read_tsplib_problem(data("atsp6.atsp"));
  const AsymmetricMatrix& matrix = std::get<AsymmetricMatrix>(problem);
  const int64_t optimum =
      brute_force(6, [&](std::span<const int32_t> order) { return directed_length(matrix, order, true); });
  const fs::path tour = temp("atsp6.tour"), json = temp("atsp6.json");
  const Outcome run = formica("solve " + data("atsp6.atsp") + " --iterations 20 --backend cpu --quiet --tour-out " +
                              tour.string() + " --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const std::vector<int32_t> order = io::read_tour(tour);
  EXPECT_EQ(directed_length(matrix, order, true), optimum);
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["best_length"], optimum);
  EXPECT_EQ(doc["asymmetric"], true);
  EXPECT_EQ(doc["open"], false);
  EXPECT_EQ(doc["n"], 6);
  // A directed path ending at city 1.
  const int64_t to_one = brute_force(6, [&](std::span<const int32_t> o) {
    return o.back() == 0 ? directed_length(matrix, o, false) : std::numeric_limits<int64_t>::max();
  });
  const Outcome path = formica("solve " + data("atsp6.atsp") + " --end-city 1 --iterations 20 --backend cpu --quiet "
                               "--tour-out " + tour.string());
  ASSERT_EQ(path.code, 0) << path.err;
  const std::vector<int32_t> path_order = io::read_tour(tour);
  EXPECT_EQ(path_order.back(), 0);
  EXPECT_EQ(directed_length(matrix, path_order, false), to_one);
}

TEST(Cli, ReachesTheTsplibOptimumOfBr17) {
  // br17 from TSPLIB's ATSP library (Repetto; tests/data/br17.atsp), its published optimum 39.
  for (const int seed : {1, 2}) {
    const Outcome run = formica("solve " + data("br17.atsp") + " --iterations 20 --backend cpu --quiet --seed " +
                                std::to_string(seed));
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_NE(run.out.find("br17: best 39 "), std::string::npos) << run.out;
  }
}

TEST(Cli, OpenPathTooLargeForMemoryExitsWithThree) {
  // On the CPU the dummy city needs no matrix: the search over the 1001 cities is what does not fit.
  const fs::path err = temp("path_memory_stderr");
  const std::string command =
      "FORMICA_MEMORY_LIMIT_MB=0 " + test::cli_path() + " solve --open --iterations 1 --backend cpu --quiet";
  const int status = std::system((command + " 2>" + err.string()).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const std::string message = slurp(err);
  EXPECT_EQ(message.rfind("formica: out of memory: mmas on the CPU for n = 1001 needs ", 0), 0u) << message;
  EXPECT_NE(message.find(" but only 0.0 KiB are available"), std::string::npos) << message;
}

TEST(Cli, TooLittleMemoryExitsWithThree) {
  const Outcome run = formica("solve --iterations 1 --backend cpu --quiet");
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string command =
      "FORMICA_MEMORY_LIMIT_MB=0 " + test::cli_path() + " solve --iterations 1 --backend cpu --quiet";
  const fs::path err = temp("memory_stderr");
  const int status = std::system((command + " 2>" + err.string()).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const std::string message = slurp(err);
  EXPECT_EQ(message.rfind("formica: out of memory: mmas on the CPU for n = 1000 needs ", 0), 0u) << message;
  EXPECT_NE(message.find(" but only 0.0 KiB are available"), std::string::npos) << message;
}

TEST(Cli, GapIsPrintedForTsplibInstances) {
  FORMICA_REQUIRE_TSPLIB();
  const Outcome run = formica("solve " + (*test::tsplib_dir() / "tsp" / "eil51.tsp").string() +
                          " --iterations 5 --backend cpu --quiet");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("gap "), std::string::npos) << run.out;
}

TEST(Cli, BoundPrintsTheHeldKarpBoundAndWritesJson) {
  FORMICA_REQUIRE_TSPLIB();
  const std::string eil51 = (*test::tsplib_dir() / "tsp" / "eil51.tsp").string();
  const fs::path json = temp("bound.json");
  const Outcome run = formica("bound " + eil51 + " --threads 2 --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("eil51: lower bound 423 (Held-Karp"), std::string::npos) << run.out;  // 422.5 rounded up
  EXPECT_NE(run.out.find("of the optimum 426"), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["lower_bound"], 423);
  EXPECT_EQ(doc["optimum"], 426);
  EXPECT_TRUE(doc["gap_to_bound_percent"].is_null());
  EXPECT_GT(doc["bound"]["iterations"].get<int>(), 0);
  fs::remove(json);
}

TEST(Cli, SolveWithBoundReportsTheProvenGap) {
  FORMICA_REQUIRE_TSPLIB();
  const std::string eil51 = (*test::tsplib_dir() / "tsp" / "eil51.tsp").string();
  const fs::path json = temp("solve_bound.json");
  const Outcome run = formica("solve " + eil51 + " --iterations 5 --backend cpu --quiet --bound --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("lower bound 423"), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["lower_bound"], 423);
  const double gap = doc["gap_to_bound_percent"].get<double>();
  EXPECT_NEAR(gap, 100.0 * (doc["best_length"].get<double>() - 423.0) / 423.0, 1e-9);
  EXPECT_GE(gap, 0.0);
  fs::remove(json);
  // Without --bound the report has no bound and no time goes to it.
  const Outcome plain = formica("solve " + eil51 + " --iterations 5 --backend cpu --quiet --json " + json.string());
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(slurp(json)).contains("lower_bound"));
  fs::remove(json);
}

/// Ctrl-C ends the ascent early; the bound of the penalties reached is printed, still proven.
TEST(Cli, CtrlCEndsTheBoundsAscentWithAProvenBound) {
  const fs::path instance = temp("bound20000.tsp"), out = temp("bound_interrupted.out");
  ASSERT_EQ(formica("generate --cities 20000 --seed 3 --output " + instance.string()).code, 0);
  EXPECT_EQ(interrupted_run({"bound", instance.string(), "--threads", "1"}, out, std::chrono::milliseconds(1500)), 130);
  const std::string printed = slurp(out);
  EXPECT_NE(printed.find(": lower bound "), std::string::npos) << printed;
  EXPECT_NE(printed.find("ascent stopped by a signal"), std::string::npos) << printed;
  fs::remove(instance);
}

/// 400 cities stacked on two or three far corners (+-5e8, the largest coordinates the reader
/// takes, and +-4e8): `bound` once printed about 7.6e16 there, above the tour `verify` accepts, and
/// `solve --bound` a gap of -100 % "(proven)".
TEST(Cli, BoundOfCitiesOnFarCornersIsBelowTheVerifiedTour) {
  const fs::path instance = temp("corners.tsp"), tour = temp("corners.tour"), json = temp("corners.json");
  for (const double scale : {5e8, 4e8})
    for (const int corners : {2, 3}) {
      std::vector<double> x, y;
      for (int i = 0; i < 400; ++i) {
        const int corner = i % corners;
        x.push_back(corner == 1 ? -scale : scale);
        y.push_back(corner == 2 ? -scale : scale);
      }
      io::write_tsplib(instance, Instance("corners", EdgeWeightType::Ceil2D, x, y));
      const std::string what = std::to_string(scale) + ", " + std::to_string(corners) + " corners";
      const Outcome bound = formica("bound " + instance.string() + " --threads 1 --json " + json.string());
      ASSERT_EQ(bound.code, 0) << what << ": " << bound.err;
      const int64_t lower = nlohmann::json::parse(slurp(json))["lower_bound"].get<int64_t>();
      const Outcome solve = formica("solve " + instance.string() + " --iterations 3 --backend cpu --threads 1 --quiet --bound" +
                                    " --tour-out " + tour.string() + " --json " + json.string());
      ASSERT_EQ(solve.code, 0) << what << ": " << solve.err;
      const Outcome verify = formica("verify " + instance.string() + " " + tour.string());
      ASSERT_EQ(verify.code, 0) << what << ": " << verify.err;
      const int64_t length = std::stoll(verify.out.substr(verify.out.rfind("length ") + 7));
      EXPECT_GE(lower, static_cast<int64_t>(scale)) << what;  // the tree's one long edge at least
      EXPECT_LE(lower, length) << what;
      const auto doc = nlohmann::json::parse(slurp(json));
      EXPECT_EQ(doc["lower_bound"].get<int64_t>(), lower) << what;
      EXPECT_GE(doc["gap_to_bound_percent"].get<double>(), 0.0) << what;
      EXPECT_NE(solve.out.find("(proven)"), std::string::npos) << what << ": " << solve.out;
      EXPECT_EQ(solve.out.find("within -"), std::string::npos) << what << ": " << solve.out;
    }
  fs::remove(instance), fs::remove(tour), fs::remove(json);
}

TEST(Cli, BoundBadInputIsOneLineAndExitTwo) {
  for (const std::string& args : {"bound " + data("nan_coordinate.tsp"), "bound " + data("square.tsp") + " --iterations -1",
                                 std::string("bound no_such_instance_anywhere"), "solve " + data("square.tsp") + " --open --bound"}) {
    const Outcome run = formica(args);
    EXPECT_EQ(run.code, 2) << args << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << args << ": " << run.err;
  }
}

TEST(Cli, AlphaCandidatesRunTheDefaultSolver) {
  FORMICA_REQUIRE_TSPLIB();
  const Outcome run = formica("solve " + (*test::tsplib_dir() / "tsp" / "eil51.tsp").string() +
                              " --iterations 20 --backend cpu --ls-candidates alpha");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("over 5 alpha-nearest neighbours"), std::string::npos) << run.err;
  const Outcome bad = formica("solve --iterations 1 --ls-candidates farthest");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("valid: neighbours, alpha"), std::string::npos) << bad.err;
}

TEST(Cli, LkStepPicksTheLinKernighanThreadsStep) {
  const fs::path json = temp("lk_step.json");
  for (const std::string step : {"2opt", "3opt", "5opt"}) {
    const Outcome run = formica("solve --backend cpu --iterations 30 --merge-tours true --lk-threads 1 --lk-step " +
                                step + " --quiet --json " + json.string());
    ASSERT_EQ(run.code, 0) << run.err;
    const auto doc = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(doc["parameters"]["lk_step"], step);
    EXPECT_EQ(doc["parameters"]["lk_threads"], 1);
  }
  fs::remove(json);
  const Outcome bad = formica("solve --iterations 1 --lk-step 4opt");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("valid: 2opt, 3opt, 5opt"), std::string::npos) << bad.err;
}

TEST(Cli, LkListsPicksTheLinKernighanThreadsLists) {
  const fs::path json = temp("lk_lists.json");
  for (const std::string lists : {"colonies", "nearest", "quadrant", "alpha"}) {
    const Outcome run =
        formica("solve --backend cpu --iterations 30 --merge-tours true --lk-threads 1 --lk-lists " + lists +
                " --quiet --json " + json.string());
    ASSERT_EQ(run.code, 0) << run.err;
    const auto doc = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(doc["parameters"]["lk_lists"], lists);
  }
  fs::remove(json);
  const Outcome bad = formica("solve --iterations 1 --lk-lists delaunay");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("valid: colonies, nearest, quadrant, alpha"), std::string::npos) << bad.err;
  // Alpha lists are the whole-tour threads'.
  const Outcome stretches =
      formica("solve --iterations 1 --merge-tours true --lk-threads 2 --lk-stretch 100 --lk-lists alpha");
  EXPECT_EQ(stretches.code, 2);
  EXPECT_EQ(std::count(stretches.err.begin(), stretches.err.end(), '\n'), 1) << stretches.err;
  EXPECT_NE(stretches.err.find("--lk-lists alpha: the whole-tour threads take alpha lists"),
            std::string::npos)
      << stretches.err;
}

TEST(Cli, IslandsInOneProcessExchangeAndWriteOneTour) {
  const fs::path json = temp("islands.json"), tour = temp("islands.tour");
  const Outcome run = formica("solve " + data("square.tsp") + " --backend cpu --islands 2 --threads 1 --time-limit 2 " +
                              "--island-interval 0.3 --json " + json.string() + " --tour-out " + tour.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("2 islands in this process (seeds 1 to 2, 1 CPU thread each)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("exchange "), std::string::npos) << run.err;
  EXPECT_NE(run.out.find(" x 2 islands ("), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["ranks"], 2);
  EXPECT_EQ(doc["gpus"], 0);
  EXPECT_EQ(doc["transport"], "threads (host memory)");
  EXPECT_GE(doc["exchanges"].get<int>(), 2);
  EXPECT_EQ(doc["parameters"]["islands"], 2);
  const Outcome verified = formica("verify " + data("square.tsp") + " " + tour.string());
  EXPECT_EQ(verified.code, 0) << verified.err;
  EXPECT_NE(verified.out.find("length " + std::to_string(doc["best_length"].get<int64_t>())), std::string::npos)
      << verified.out;
  fs::remove(json);
  fs::remove(tour);
  const Outcome gpus = formica("solve --backend cpu --gpus 2 --iterations 1");
  EXPECT_EQ(gpus.code, 2);
  EXPECT_EQ(std::count(gpus.err.begin(), gpus.err.end(), '\n'), 1) << gpus.err;
  EXPECT_NE(gpus.err.find("--gpus 2: the run is on the CPU"), std::string::npos) << gpus.err;
}

TEST(Cli, TimeLimitStopsTheRun) {
  const auto start = std::chrono::steady_clock::now();
  // The built-in 1,000 cities: a run of up to 12 cities would end at once, solved exactly.
  const Outcome run = formica("solve --time-limit 1.5 --backend cpu --quiet");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("stopped by time limit"), std::string::npos) << run.out;
  EXPECT_LT(seconds, 6.0);
}

struct StopSignal {
  int signal;
  int exit_code;  // 128 + the signal, as a shell reports a process the signal ended
};

class CliSignals : public ::testing::TestWithParam<StopSignal> {};

/// Ctrl-C and SIGTERM (what `kill`, `timeout` and job schedulers send) both stop cleanly: the best
/// tour and the JSON report are written whole, and the exit code names the signal.
TEST_P(CliSignals, StopCleanlyAndWriteTheBestTour) {
  const std::string tag = std::to_string(GetParam().signal);
  const fs::path tour = temp("interrupted" + tag + ".tour"), report = temp("interrupted" + tag + ".json"),
                 out = temp("interrupted" + tag + ".out");
  fs::remove(tour);
  fs::remove(report);
  EXPECT_EQ(interrupted_run({"solve", "--time-limit", "60", "--backend", "cpu", "--quiet", "--tour-out", tour.string(),
                             "--json", report.string()},
                            out, std::chrono::milliseconds(2500), GetParam().signal),
            GetParam().exit_code);
  EXPECT_NE(slurp(out).find("stopped by interrupted"), std::string::npos) << slurp(out);
  ASSERT_TRUE(fs::exists(tour));
  const std::vector<int32_t> order = io::read_tour(tour);
  EXPECT_EQ(order.size(), 1000u);
  const nlohmann::json json = nlohmann::json::parse(slurp(report));
  EXPECT_EQ(json["stop_reason"], "interrupted");
  EXPECT_EQ(json["tour"].get<std::vector<int32_t>>(), order);
}

INSTANTIATE_TEST_SUITE_P(CtrlCAndTerm, CliSignals, ::testing::Values(StopSignal{SIGINT, 130}, StopSignal{SIGTERM, 143}),
                         [](const auto& test) { return test.param.signal == SIGINT ? "sigint" : "sigterm"; });

/// A fresh folder of this test process's own.
fs::path temp_folder(const std::string& name) {
  const fs::path dir = temp(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Coordinates of `b` seeded uniform instances of n cities, flattened as a (b, n, 2) array.
std::vector<double> batch_coordinates(int b, int n) {
  std::vector<double> xy;
  for (int i = 0; i < b; ++i) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, 10 + i);
    for (int c = 0; c < n; ++c) xy.push_back(instance.x()[c]), xy.push_back(instance.y()[c]);
  }
  return xy;
}

TEST(CliBatch, StartToursFromAFolderOfTourFilesAreWhereTheirInstancesWalksStart) {
  const fs::path in = temp_folder("batch_start_in"), first = temp_folder("batch_start_first"),
                 second = temp_folder("batch_start_second"), empty = temp_folder("batch_start_empty");
  io::write_tsplib(in / "a.tsp", io::generate_instance(150, io::InstanceKind::Uniform, 3));
  io::write_tsplib(in / "b.tsp", io::generate_instance(120, io::InstanceKind::Uniform, 4));
  const std::string common = " --backend cpu --threads 2 --quiet --summary ";
  const Outcome long_run = formica("solve-batch " + in.string() + " --kicks 3000" + common +
                                   (first / "s.csv").string() + " --out-dir " + first.string());
  ASSERT_EQ(long_run.code, 0) << long_run.err;
  fs::remove(first / "b.tour");  // b starts as usual
  const Outcome warm = formica("solve-batch " + in.string() + " --kicks 0 --start-tours " + first.string() +
                               " --backend cpu --threads 2 --summary " + (second / "s.csv").string());
  ASSERT_EQ(warm.code, 0) << warm.err;
  EXPECT_NE(warm.err.find(", start tours for 1 of them"), std::string::npos) << warm.err;
  const Outcome cold = formica("solve-batch " + in.string() + " --kicks 0" + common + (empty / "s.csv").string());
  ASSERT_EQ(cold.code, 0) << cold.err;
  const auto length_of = [](const fs::path& csv, int row) {
    std::vector<std::string> fields;
    std::istringstream line(lines_of(slurp(csv))[row]);
    for (std::string field; std::getline(line, field, ',');) fields.push_back(field);
    return std::stoll(fields[2]);
  };
  EXPECT_LE(length_of(second / "s.csv", 1), length_of(first / "s.csv", 1)) << "a: climbed from the long run's tour";
  EXPECT_GT(length_of(empty / "s.csv", 1), length_of(first / "s.csv", 1)) << "a: a nearest-neighbour start, no kicks";
  EXPECT_EQ(length_of(second / "s.csv", 2), length_of(empty / "s.csv", 2)) << "b: no tour file, its own start";

  // A folder with none of the names, a tour of the wrong instance, no folder: one line, exit 2.
  const Outcome none = formica("solve-batch " + in.string() + " --kicks 1 --start-tours " + empty.string());
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find(": no NAME.tour for any of the 2 instances (a.tour, ...)"), std::string::npos) << none.err;
  fs::copy_file(first / "a.tour", empty / "b.tour");
  const Outcome wrong = formica("solve-batch " + in.string() + " --kicks 1 --start-tours " + empty.string());
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.err.find((empty / "b.tour").string() + ": tour has 150 cities but the instance has 120"),
            std::string::npos)
      << wrong.err;
  const Outcome missing = formica("solve-batch " + in.string() + " --kicks 1 --start-tours " + (in / "nowhere").string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find(": not a folder"), std::string::npos) << missing.err;
}

TEST(CliBatch, FolderOfTspFilesGivesVerifiedToursAndACsvSummary) {
  const fs::path in = temp_folder("batch_in"), out = temp_folder("batch_out"), csv = temp("batch.csv");
  io::write_tsplib(in / "b-uniform.tsp", io::generate_instance(60, io::InstanceKind::Uniform, 1));
  io::write_tsplib(in / "a-clustered.tsp", io::generate_instance(150, io::InstanceKind::Clustered, 2));
  fs::copy_file(data("square.tsp"), in / "c-square.tsp");
  const Outcome run = formica("solve-batch " + in.string() + " --kicks 30 --backend cpu --threads 2 --out-dir " +
                              out.string() + " --summary " + csv.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("solved 3 instances in ", 0), 0u) << run.out;
  EXPECT_NE(run.out.find(" on cpu (CPU, 2 threads), "), std::string::npos) << run.out;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1);
  EXPECT_NE(run.err.find("formica: 3 instances from " + in.string() + " (n = 4 to 150)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("formica: 3/3 instances solved, "), std::string::npos) << run.err;

  const std::vector<std::string> rows = lines_of(slurp(csv));
  ASSERT_EQ(rows.size(), 4u) << slurp(csv);
  EXPECT_EQ(rows[0], "name,n,length,optimum,gap,seconds,kicks,stop_reason");
  const std::string names[] = {"a-clustered", "b-uniform", "c-square"};  // sorted by file name
  int64_t total = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<std::string> fields;
    std::istringstream row(rows[i + 1]);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 8u) << rows[i + 1];
    EXPECT_EQ(fields[0], names[i]);
    const fs::path tour = out / (names[i] + ".tour");
    const Outcome verified = formica("verify " + (in / (names[i] + ".tsp")).string() + " " + tour.string());
    EXPECT_EQ(verified.code, 0) << verified.err;
    EXPECT_NE(verified.out.find(", length " + fields[2] + "\n"), std::string::npos) << verified.out << rows[i + 1];
    EXPECT_EQ(fields[7], i == 2 ? "exact" : "kicks");
    total += std::stoll(fields[2]);
  }
  EXPECT_EQ(rows[3].rfind("c-square,4,40,", 0), 0u) << rows[3];
  EXPECT_NE(run.out.find("total length " + std::to_string(total)), std::string::npos) << run.out;
}

TEST(CliBatch, FloatCoordinatesKeepExactFloatLengths) {
  // Points in the unit square: rounded to TSPLIB's integers, most distances would be 0.
  const fs::path dir = temp_folder("batch_floats"), out = dir / "tours", csv = dir / "summary.csv";
  std::vector<double> xy = batch_coordinates(2, 50);
  for (double& v : xy) v = v / 1e6 + 0.0001;
  test::write_bytes(dir / "f.npy", test::npy_bytes(xy, "(2, 50, 2)"));
  const Outcome run = formica("solve-batch " + (dir / "f.npy").string() + " --kicks 50 --backend cpu --quiet " +
                              "--out-dir " + out.string() + " --summary " + csv.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const std::vector<std::string> rows = lines_of(slurp(csv));
  ASSERT_EQ(rows.size(), 3u);
  double total = 0.0;
  for (int i = 0; i < 2; ++i) {
    std::vector<std::string> fields;
    std::istringstream row(rows[static_cast<size_t>(i) + 1]);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    const std::string name = "batch-0000" + std::to_string(i);
    const std::vector<int32_t> tour = io::read_tour(out / (name + ".tour"));
    double exact = 0.0;
    for (size_t k = 0; k < tour.size(); ++k) {
      const size_t a = 100 * static_cast<size_t>(i) + 2 * static_cast<size_t>(tour[k]);
      const size_t b = 100 * static_cast<size_t>(i) + 2 * static_cast<size_t>(tour[(k + 1) % tour.size()]);
      exact += std::hypot(xy[b] - xy[a], xy[b + 1] - xy[a + 1]);
    }
    EXPECT_NEAR(std::stod(fields[2]), exact, 1e-8 * exact) << rows[static_cast<size_t>(i) + 1];
    EXPECT_GT(exact, 3.0);  // 50 points in the unit square: a tour about 5 long, never 0
    total += std::stod(fields[2]);
  }
  const size_t at = run.out.find("total length ");
  ASSERT_NE(at, std::string::npos) << run.out;
  EXPECT_NEAR(std::stod(run.out.substr(at + 13)), total, 1e-8 * total) << run.out;
}

TEST(CliBatch, NpyAndNpzInputsWithAJsonSummary) {
  const fs::path dir = temp_folder("batch_arrays"), out = dir / "tours", json = dir / "summary.json";
  test::write_bytes(dir / "b.npy", test::npy_bytes(batch_coordinates(3, 40), "(3, 40, 2)"));
  const Outcome run = formica("solve-batch " + (dir / "b.npy").string() + " --kicks 20 --seed 5 --backend cpu " +
                              "--set walks=2 --set ls_neighbours=8 --quiet --out-dir " + out.string() + " --summary " +
                              json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(run.err.empty()) << run.err;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["backend"], "cpu");
  EXPECT_EQ(doc["walks"], 2);
  EXPECT_EQ(doc["layout"], "a thread a walk");
  EXPECT_EQ(doc["parameters"]["ls_neighbours"], 8);
  EXPECT_EQ(doc["parameters"]["seed"], 5);
  ASSERT_EQ(doc["instances"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& row = doc["instances"][i];
    const std::string name = "batch-0000" + std::to_string(i);
    EXPECT_EQ(row["name"], name);
    EXPECT_EQ(row["n"], 40);
    EXPECT_EQ(row["seed"], 5 + i);
    EXPECT_EQ(row["kicks"], 40);
    EXPECT_TRUE(row["gap"].is_null());
    const std::vector<int32_t> tour = io::read_tour(out / (name + ".tour"));
    const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 10 + i);
    EXPECT_EQ(Tour(instance, tour).length(), row["length"].get<int64_t>());
  }

  // An .npz of jagged (n, 2) arrays is named by its keys.
  const std::vector<double> xy = batch_coordinates(1, 30);
  test::write_bytes(dir / "j.npz", test::zip_stored({{"small.npy", test::npy_bytes({0, 0, 3, 0, 3, 4}, "(3, 2)")},
                                                     {"thirty.npy", test::npy_bytes(xy, "(30, 2)")}}));
  const Outcome jagged = formica("solve-batch " + (dir / "j.npz").string() + " --kicks 10 --backend cpu --quiet " +
                                 "--out-dir " + out.string());
  ASSERT_EQ(jagged.code, 0) << jagged.err;
  EXPECT_EQ(jagged.out.rfind("solved 2 instances", 0), 0u) << jagged.out;
  EXPECT_EQ(io::read_tour(out / "small.tour").size(), 3u);
  EXPECT_EQ(io::read_tour(out / "thirty.tour").size(), 30u);
}

// .npz keys name the .tour files of --out-dir: a key that leads out of the folder, or a name taken
// twice, is refused before anything is solved or written (before, tests/data/npz_key_parent_folder.npz
// wrote escaped.tour beside the folder, and npz_key_taken.npz overwrote one of its three tours).
TEST(CliBatch, KeysThatCannotNameATourFileAreRefused) {
  const fs::path dir = temp_folder("batch_keys"), out = dir / "tours";
  const std::pair<std::string, std::string> cases[] = {
      {"npz_key_parent_folder.npz",
       ": instance 1: key '../escaped' is not a plain file name (an instance's key names its .tour file)"},
      {"npz_key_taken.npz", ": instance 2: the name 'a-00001' is taken by instance 1 (an instance's name is its .tour file's)"},
  };
  for (const auto& [file, message] : cases) {
    const fs::path input = test::data_file(file);
    const Outcome run = formica("solve-batch " + input.string() + " --kicks 5 --out-dir " + out.string());
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_EQ(run.err, "formica: error: " + input.string() + message + "\n");
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(dir / "escaped.tour"));
}

TEST(CliBatch, BadInputIsOneLineNamingTheFileAndTheInstance) {
  const fs::path dir = temp_folder("batch_bad"), out = dir / "tours";
  std::vector<double> xy = batch_coordinates(3, 10);
  xy[10 * 2 + 2 * 2] = std::nan("");
  test::write_bytes(dir / "nan.npy", test::npy_bytes(xy, "(3, 10, 2)"));
  const std::string full = test::npy_bytes(batch_coordinates(2, 10), "(2, 10, 2)");
  test::write_bytes(dir / "short.npy", full.substr(0, full.size() - 16));
  const std::pair<std::string, std::string> cases[] = {
      {"nan.npy", "nan.npy: instance 1 (batch-00001): city 3 has a non-finite x coordinate"},
      {"short.npy", "short.npy: shape (2, 10, 2) declares 40 values (320 bytes) but the file holds 304 bytes of data"},
  };
  for (const auto& [file, message] : cases) {
    const Outcome run = formica("solve-batch " + (dir / file).string() + " --kicks 5 --out-dir " + out.string());
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_EQ(run.err, "formica: error: " + (dir / message).string() + "\n");
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
  EXPECT_FALSE(fs::exists(out)) << "nothing is written before the batch is checked";
  const Outcome unknown = formica("solve-batch " + (dir / "nan.npy").string() + " --set rho=0.5");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err,
            "formica: error: unknown batch parameter 'rho' (valid: backend, time-limit, kicks, seed, threads, walks, "
            "kick-segment, ls-neighbours, neighbour-lists, local-search)\n");
  const Outcome summary = formica("solve-batch " + dir.string() + " --summary x.txt");
  EXPECT_EQ(summary.code, 2);
  EXPECT_EQ(summary.err, "formica: error: --summary x.txt: the file name must end in .csv or .json\n");
}

TEST(CliBatch, GapIsGivenForTsplibInstances) {
  FORMICA_REQUIRE_TSPLIB();
  const fs::path in = temp_folder("batch_tsplib"), csv = temp("batch_tsplib.csv");
  for (const char* name : {"eil51", "berlin52"}) fs::copy_file(*test::tsplib_dir() / "tsp" / (std::string(name) + ".tsp"), in / (std::string(name) + ".tsp"));
  const Outcome run = formica("solve-batch " + in.string() + " --kicks 200 --backend cpu --quiet --summary " + csv.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find(", mean gap "), std::string::npos) << run.out;
  const std::vector<std::string> rows = lines_of(slurp(csv));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].rfind("berlin52,52,", 0), 0u) << rows[1];
  EXPECT_NE(rows[1].find(",7542,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find(",426,"), std::string::npos) << rows[2];
}

TEST(CliBatch, CtrlCWritesWhatIsDone) {
  const fs::path dir = temp_folder("batch_interrupt"), out = dir / "tours", csv = dir / "summary.csv",
                 stdout_file = dir / "stdout";
  test::write_bytes(dir / "b.npy", test::npy_bytes(batch_coordinates(2, 400), "(2, 400, 2)"));
  EXPECT_EQ(interrupted_run({"solve-batch", (dir / "b.npy").string(), "--time-limit", "60", "--backend", "cpu", "--quiet",
                             "--out-dir", out.string(), "--summary", csv.string()},
                            stdout_file, std::chrono::milliseconds(1500)),
            130);
  EXPECT_NE(slurp(stdout_file).find(", 2 interrupted"), std::string::npos) << slurp(stdout_file);
  const std::vector<std::string> rows = lines_of(slurp(csv));
  ASSERT_EQ(rows.size(), 3u);
  for (int i = 1; i <= 2; ++i) EXPECT_TRUE(rows[i].ends_with(",interrupted")) << rows[i];
  EXPECT_EQ(io::read_tour(out / "batch-00000.tour").size(), 400u);
  EXPECT_EQ(io::read_tour(out / "batch-00001.tour").size(), 400u);
}

TEST(Cli, HelpListsEverySelectionAndStart) {
  const Outcome run = formica("solve --help");
  EXPECT_EQ(run.code, 0);
  for (const char* name : {"roulette", "compression", "stochastic-trial", "hybrid", "two-opt", "--k-swap",
                           "--restarts", "--queue", "nearest-neighbour", "space-filling-curve"})
    EXPECT_NE(run.out.find(name), std::string::npos) << name;
}

TEST(Cli, TwoOptFinishesAfterItsRestarts) {
  const fs::path instance = temp("two_opt.tsp"), json = temp("two_opt.json");
  ASSERT_EQ(formica("generate --cities 80 --kind uniform --seed 2 --output " + instance.string()).code, 0);
  const Outcome run = formica("solve " + instance.string() + " --algorithm two-opt --backend cpu --restarts 4 " +
                              "--k-swap 2 --start space-filling-curve --quiet --json " + json.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("stopped by finished"), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["algorithm"], "two-opt");
  EXPECT_EQ(doc["parameters"]["k_swap"], "2");
  EXPECT_EQ(doc["parameters"]["restarts"], 4);
  EXPECT_EQ(doc["parameters"]["start"], "space-filling-curve");
}

TEST(Cli, EaxRunsItsPopulationOnTheCpuAndStartsFromATour) {
  const fs::path instance = temp("eax.tsp"), json = temp("eax.json"), tour = temp("eax.tour");
  ASSERT_EQ(formica("generate --cities 150 --kind clustered --seed 3 --output " + instance.string()).code, 0);
  // Without --backend: a GPU machine runs it on the CPU too; it ends when its population converges.
  const Outcome run = formica("solve " + instance.string() + " --algorithm eax --population 40 --children 20 " +
                              "--eax-selection greedy --eax-growth 0 --time-limit 60 --json " + json.string() + " --tour-out " +
                              tour.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("GA-EAX: population 40, 20 children per pair (then block E-sets), greedy selection"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("stopped by finished"), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(doc["algorithm"], "eax");
  EXPECT_EQ(doc["backend"], "cpu");
  EXPECT_EQ(doc["parameters"]["population"], 40);
  EXPECT_EQ(doc["parameters"]["eax_selection"], "greedy");
  const int64_t best = doc["best_length"].get<int64_t>();
  const Outcome verified = formica("verify " + instance.string() + " " + tour.string());
  EXPECT_EQ(verified.out, "valid tour of clustered150-s3, length " + std::to_string(best) + "\n");
  // From that tour again: never longer.
  const Outcome again =
      formica("solve " + instance.string() + " --algorithm eax --population 10 --iterations 3 " +
              "--eax-start space-filling-curve --eax-climb lin-kernighan --initial-tour " + tour.string() +
              " --json " + json.string());
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("GA-EAX: population 10 climbed by Lin-Kernighan"), std::string::npos) << again.err;
  const auto continued = nlohmann::json::parse(slurp(json));
  EXPECT_LE(continued["best_length"].get<int64_t>(), best);
  EXPECT_EQ(continued["parameters"]["eax_start"], "space-filling-curve");
  EXPECT_EQ(continued["parameters"]["eax_climb"], "lin-kernighan");
  EXPECT_EQ(continued["parameters"]["eax_restart_kicks"], 30);  // the default
  EXPECT_EQ(continued["parameters"]["eax_first_kicks"], 0);     // the default
  EXPECT_EQ(continued["parameters"]["eax_chain_neighbours"], 10);  // the default
  // Bad settings are refused in one line.
  const Outcome small = formica("solve " + instance.string() + " --algorithm eax --population 1");
  EXPECT_EQ(small.code, 2);
  EXPECT_EQ(small.err, "formica: error: --population must be in [2, 10000], got 1\n");
  const Outcome selection = formica("solve " + instance.string() + " --algorithm eax --eax-selection best");
  EXPECT_EQ(selection.code, 2);
  EXPECT_EQ(selection.err, "formica: error: unknown --eax-selection 'best' (valid: greedy, entropy)\n");
  const Outcome climb = formica("solve " + instance.string() + " --algorithm eax --eax-climb three-opt");
  EXPECT_EQ(climb.code, 2);
  EXPECT_EQ(climb.err, "formica: error: unknown --eax-climb 'three-opt' (valid: or-opt, lin-kernighan)\n");
  const Outcome stages = formica("solve " + instance.string() + " --algorithm eax --eax-stages 3");
  EXPECT_EQ(stages.code, 2);
  EXPECT_EQ(stages.err, "formica: error: --eax-stages must be 1 or 2, got 3\n");
  const Outcome kicks = formica("solve " + instance.string() + " --algorithm eax --eax-restart-kicks -1");
  EXPECT_EQ(kicks.code, 2);
  EXPECT_EQ(kicks.err, "formica: error: --eax-restart-kicks must be in [0, 100000], got -1\n");
  const Outcome first_kicks = formica("solve " + instance.string() + " --algorithm eax --eax-first-kicks -3");
  EXPECT_EQ(first_kicks.code, 2);
  EXPECT_EQ(first_kicks.err, "formica: error: --eax-first-kicks must be in [0, 100000], got -3\n");
  const Outcome chain = formica("solve " + instance.string() + " --algorithm eax --eax-chain-neighbours 51");
  EXPECT_EQ(chain.code, 2);
  EXPECT_EQ(chain.err, "formica: error: --eax-chain-neighbours must be in [0, 50], got 51\n");
  const Outcome apart = formica("solve " + instance.string() + " --algorithm eax --eax-restart-apart maybe");
  EXPECT_EQ(apart.code, 2);
  EXPECT_EQ(apart.err, "formica: error: --eax-restart-apart: 'maybe' is not true or false\n");
  if (cuda::built_with_cuda() && cuda::find_device()) {
    // Lent the GPU, GA-EAX climbs its start tours and makes its first stage's children there.
    const Outcome gpu = formica("solve " + instance.string() + " --algorithm eax --backend cuda --population 10 " +
                                "--iterations 20 --eax-gpu-climbs true --eax-gpu-children true --json " + json.string());
    ASSERT_EQ(gpu.code, 0) << gpu.err;
    EXPECT_NE(gpu.err.find("start climbs on the GPU, children on the GPU"), std::string::npos) << gpu.err;
    const auto on_gpu = nlohmann::json::parse(slurp(json));
    EXPECT_EQ(on_gpu["backend"], "cuda");
    EXPECT_EQ(on_gpu["parameters"]["eax_gpu_children"], true);
  }
}

// Hostile sizes: files that claim far more than they hold, or hold what no instance
// can, get one line and exit 2 or 3 at once. The reader stops at the first line it cannot use
// and allocates for what arrives, not for what a header claims.
struct HostileCase {
  std::string name;
  std::string text;           // the file's text
  uintmax_t zeros_after = 0;  // then grown to this many bytes, zeros, sparse on disk
  int code;
  std::string message;        // stderr holds "<file>:" followed by this
};

class HostileInput : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileInput, OneLineAtOnce) {
  const HostileCase& c = GetParam();
  const fs::path file = temp(c.name + ".tsp");
  {
    std::ofstream out(file, std::ios::binary);
    out << c.text;
  }
  if (c.zeros_after > 0) fs::resize_file(file, c.zeros_after);
  const auto start = std::chrono::steady_clock::now();
  const Outcome run = formica("info " + file.string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::remove(file);
  EXPECT_EQ(run.code, c.code) << run.err;
  EXPECT_NE(run.err.find(file.string() + ":" + c.message), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_LT(seconds, 2.0);
}

const std::string kHeader = "NAME: hostile\nTYPE: TSP\n";

INSTANTIATE_TEST_SUITE_P(
    Sizes, HostileInput,
    ::testing::Values(
        HostileCase{"dimension_1e12", kHeader + "DIMENSION: 1000000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n",
                    0, 2, "3: DIMENSION 1000000000000 is more than formica reads (100000000 cities)"},
        HostileCase{"coordinates_claim_1e8",
                    kHeader + "DIMENSION: 100000000\nEDGE_WEIGHT_TYPE: EUC_3D\nNODE_COORD_SECTION\n1 0 0 0\n2 1 1 1\nEOF\n", 0, 2,
                    "8: DIMENSION is 100000000 but NODE_COORD_SECTION has only 2 cities"},
        HostileCase{"explicit_claim_1e6",
                    kHeader + "DIMENSION: 1000000\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
                              "EDGE_WEIGHT_SECTION\n0 1 2\nEOF\n",
                    0, 3, "6: the EXPLICIT matrix of 1000000 cities needs "},
        HostileCase{"coordinate_1e300",
                    kHeader + "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1e300 0\n3 1 1\nEOF\n", 0,
                    2, "7: coordinate '1e300' is beyond +-5e+08 (distances must fit in 32 bits)"},
        HostileCase{"zeros_2gb", "", uintmax_t{2} << 30, 2, "1: a NUL byte: not a text file"},
        HostileCase{"garbage_2gb", "garbage \x01\x02 first line\n", uintmax_t{2} << 30, 2, "1: unknown keyword 'garbage'"}),
    [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace formica
