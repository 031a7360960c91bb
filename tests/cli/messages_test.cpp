// SPDX-License-Identifier: MIT
// Hostile option values on the command line: each ends with exit code 2 and one line on stderr
// that names the option, the value as given and what it must be (nan, inf, negatives, values
// beyond the option's range or its type's, empty text, fractions for counts), and a file's
// values that are not numbers are named with the file and line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <string>

#include "cli/shell_outcome.h"
#include "cuda/device.h"
#include "test_support.h"

namespace formica {
namespace {

namespace fs = std::filesystem;

test::Outcome formica(const std::string& args) {
  const fs::path base = fs::temp_directory_path() / ("formica_messages_" + std::to_string(::getpid()));
  return test::run_shell(test::cli_path() + " " + args, base.string() + ".out", base.string() + ".err");
}

std::string data(const std::string& name) { return test::data_file(name).string(); }

struct MessageCase {
  std::string args;
  std::string message;  // the whole stderr line after "formica: error: "
};

class Messages : public ::testing::TestWithParam<MessageCase> {};

TEST_P(Messages, OneLineNamingTheValueAndExitCodeTwo) {
  const test::Outcome run = formica(GetParam().args);
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_EQ(run.err, "formica: error: " + GetParam().message + "\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
}

const std::string kSquare = data("square.tsp");
/// CLI11's parse errors end with a pointer to the help.
const std::string kHelp = " (see formica --help)";

INSTANTIATE_TEST_SUITE_P(
    HostileValues, Messages,
    ::testing::Values(
        // A value that is not a number where a file's numbers are, with the file and line.
        MessageCase{"info " + data("nan_weight.tsp"), data("nan_weight.tsp") + ":7: weight 'nan' is not a number"},
        MessageCase{"info " + data("nan_coordinate.tsp"), data("nan_coordinate.tsp") + ":7: coordinate 'nan' is not a number"},
        // GEO coordinates off the globe, naming the city (89.99 is 89 degrees and 99 "minutes").
        MessageCase{"info " + data("geo_latitude_beyond_90.tsp"),
                    data("geo_latitude_beyond_90.tsp") + ":7: city 2: latitude 89.99 is 90.65 degrees, beyond +-90 "
                    "degrees (GEO coordinates are latitude and longitude in DDD.MM: degrees, then minutes)"},
        // formica bound's options (read by CLI11 with formica's checks).
        MessageCase{"bound " + kSquare + " --time-limit nan", "--time-limit: 'nan' is not a number" + kHelp},
        MessageCase{"bound " + kSquare + " --time-limit 10000001",
                    "--time-limit: must be in (0, 10000000] seconds, got 10000001" + kHelp},
        MessageCase{"bound " + kSquare + " --time-limit inf", "--time-limit: 'inf' is not finite" + kHelp},
        MessageCase{"bound " + kSquare + " --time-limit 0", "--time-limit: must be in (0, 10000000] seconds, got 0" + kHelp},
        MessageCase{"bound " + kSquare + " --time-limit ''", "--time-limit: no value (an empty text)" + kHelp},
        MessageCase{"bound " + kSquare + " --iterations -1",
                    "--iterations: must be in [0, 9223372036854775807], got -1" + kHelp},
        MessageCase{"bound " + kSquare + " --iterations 1.5", "--iterations: '1.5' is not a whole number" + kHelp},
        MessageCase{"bound " + kSquare + " --threads 1e400", "--threads: '1e400' is out of range (-2147483648 to "
                    "2147483647)" + kHelp},
        MessageCase{"bound " + kSquare + " --threads -1", "--threads: must be in [0, 2048], got -1" + kHelp},
        // formica generate: a negative seed is refused, not taken as 2^64 - 1.
        MessageCase{"generate --cities 10 --seed -1 --output /dev/null",
                    "--seed: must be in [0, 18446744073709551615], got -1" + kHelp},
        MessageCase{"generate --cities 10 --seed 18446744073709551616 --output /dev/null",
                    "--seed: '18446744073709551616' is out of range (0 to 18446744073709551615)" + kHelp},
        MessageCase{"generate --cities 1e30 --output /dev/null", "--cities: must be in [3, 50000000], got 1e30" + kHelp},
        MessageCase{"generate --cities nan --output /dev/null", "--cities: 'nan' is not a number" + kHelp},
        // formica solve's parameters (read by the parameter table).
        MessageCase{"solve " + kSquare + " --time-limit 10000001",
                    "--time-limit must be in (0, 10000000] seconds, got 10000001"},
        MessageCase{"solve " + kSquare + " --time-limit nan", "--time-limit: 'nan' is not a number"},
        MessageCase{"solve " + kSquare + " --time-limit -inf", "--time-limit: '-inf' is not finite"},
        MessageCase{"solve " + kSquare + " --alpha nan", "--alpha: 'nan' is not a number"},
        MessageCase{"solve " + kSquare + " --gpus -1", "--gpus must be 'all' or in [0, 1024], got -1"},
        MessageCase{"solve " + kSquare + " --start-city ''", "--start-city: no value (an empty text)"},
        MessageCase{"solve " + kSquare + " --end-city 1.5", "--end-city: '1.5' is not a whole number"},
        MessageCase{"solve " + kSquare + " --start-city -9223372036854775808",
                    "--start-city -9223372036854775808: no such city (cities are numbered from 1)"},
        MessageCase{"solve " + kSquare + " --seed -1",
                    "--seed: '-1' is negative (0 to 18446744073709551615)"},
        MessageCase{"solve " + kSquare + " --threads 1.5", "--threads: '1.5' is not a whole number"},
        MessageCase{"solve " + kSquare + " --iterations 1e400",
                    "--iterations: '1e400' is out of range (-9223372036854775808 to 9223372036854775807)"},
        MessageCase{"solve " + kSquare + " --ants 1e3", "--ants: '1e3' is not written as a whole number (digits only)"},
        MessageCase{"solve " + kSquare + " --island-interval 1e30",
                    "--island-interval must be in [0, 10000000] seconds, got 1e+30"},
        // formica solve-batch's parameters.
        MessageCase{"solve-batch " + data("") + " --time-limit 1e30",
                    "time-limit must be in (0, 10000000] seconds, got 1e+30"},
        MessageCase{"solve-batch " + data("") + " --seed ''", "--seed: no value (an empty text)"},
        MessageCase{"solve-batch " + data("") + " --kicks inf", "--kicks: 'inf' is not a whole number"}),
    [](const ::testing::TestParamInfo<MessageCase>& case_info) {
      // The command and its last option, in letters and digits ("bound_time_limit_nan"), after the index.
      std::string name = std::to_string(case_info.index) + "_";
      const std::string& args = case_info.param.args;
      const size_t option = args.rfind(" --");
      const std::string words = args.substr(0, args.find(' ')) + (option == std::string::npos ? "" : args.substr(option));
      for (const char c : words) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(Messages, GaEaxsGpuStepsOnTheCpuAreRefusedBeforeAnyWork) {
  const std::string where = cuda::find_device() ? "--backend cpu" : "no CUDA device found";
  for (const std::string option : {"--eax-gpu-climbs", "--eax-gpu-children"}) {
    const test::Outcome run = formica("solve " + kSquare + " --backend cpu --time-limit 5 " + option + " true");
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_EQ(run.err, "formica: error: " + option + " true needs the CUDA backend, but this run is on the CPU (" +
                           where + ")\n");
  }
}

}  // namespace
}  // namespace formica
