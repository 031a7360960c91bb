// SPDX-License-Identifier: MIT
// Helpers shared by the tests: where the TSPLIB data is, skipping with a reason, and statistics.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/instance.h"
#include "core/rng.h"
#include "io/tsplib.h"

namespace formica::test {

/// The cities 0 .. n - 1 in a random order drawn from RandomStream(seed, stream).
inline std::vector<int32_t> random_tour(int n, uint64_t seed, uint64_t stream = 0x5EED) {
  std::vector<int32_t> tour(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) tour[i] = i;
  RandomStream rng(seed, stream);
  for (int i = n - 1; i > 0; --i) std::swap(tour[i], tour[rng.below(static_cast<uint32_t>(i + 1))]);
  return tour;
}

/// $FORMICA_TSPLIB_DIR if set, else ../shared/tsplib beside the source tree; nullopt if absent.
inline std::optional<std::filesystem::path> tsplib_dir() {
  const char* env = std::getenv("FORMICA_TSPLIB_DIR");
  const std::filesystem::path dir =
      env != nullptr && *env != '\0' ? std::filesystem::path(env)
                                     : std::filesystem::path(FORMICA_SOURCE_DIR) / ".." / "shared" / "tsplib";
  if (std::filesystem::is_directory(dir / "tsp")) return dir;
  return std::nullopt;
}

/// The undirected edges of a tour (a visiting order) as (min, max) pairs.
inline std::set<std::pair<int, int>> tour_edges(std::span<const int32_t> tour) {
  std::set<std::pair<int, int>> edges;
  const size_t n = tour.size();
  for (size_t p = 0; p < n; ++p) edges.insert(std::minmax(tour[p], tour[(p + 1) % n]));
  return edges;
}

/// Edges of `tour` that are not in `edges`.
inline int edges_outside(std::span<const int32_t> tour, const std::set<std::pair<int, int>>& edges) {
  int outside = 0;
  for (const auto& e : tour_edges(tour)) outside += edges.count(e) == 0 ? 1 : 0;
  return outside;
}

/// The bytes of a file ("" if it cannot be read).
inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh folder of a test's own in the temporary directory, "formica_<tag>_<pid>", emptied when
/// made and removed with everything in it when the test ends, a failed assertion's return too.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() / ("formica_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

/// Reads an environment variable, or `fallback` when it is unset (lets a build made on one
/// machine run its tests on another, e.g. the GPU machine, from a different folder).
inline std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

inline std::filesystem::path data_file(const std::string& name) {
  return std::filesystem::path(env_or("FORMICA_TEST_DATA_DIR", FORMICA_TEST_DATA_DIR)) / name;
}

/// How much slower than a plain build this one runs: the sanitizer builds (scripts/sanitize) run
/// instrumented code a few times slower. The build's part of time_scale() (below), by which tests
/// that give the code a time budget and expect work done within it scale the budget (and their
/// bound on the elapsed time); use time_scale(), not this.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeScale = 10.0;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
inline constexpr double kTimeScale = 10.0;
#else
inline constexpr double kTimeScale = 1.0;
#endif
#else
inline constexpr double kTimeScale = 1.0;
#endif

/// kTimeScale times FORMICA_TEST_TIME_SCALE (default 1, at least 1): scripts/gpu_sanitize sets the
/// variable for runs under compute-sanitizer, which slows GPU work 10 to 100 times, so that the tests
/// that give a solve a time budget (and bound its wall time) scale both.
inline double time_scale() {
  const double extra = std::stod(env_or("FORMICA_TEST_TIME_SCALE", "1"));
  if (!(extra >= 1.0)) throw std::invalid_argument("FORMICA_TEST_TIME_SCALE must be at least 1");
  return kTimeScale * extra;
}

/// The ants of a heavy GPU construction test that would run m: m, or FORMICA_TEST_MAX_ANTS where
/// that is smaller (at least 1). For racecheck, whose cost grows with every block's shared-memory
/// accesses: the kernels, block sizes and city counts stay, fewer blocks (or groups) run them.
inline int test_ants(int m) {
  const int cap = std::stoi(env_or("FORMICA_TEST_MAX_ANTS", "0"));
  if (cap < 0) throw std::invalid_argument("FORMICA_TEST_MAX_ANTS must be 0 (no cap) or more");
  return cap > 0 && cap < m ? cap : m;
}

/// The formica executable under test.
inline std::string cli_path() { return env_or("FORMICA_CLI", FORMICA_CLI_PATH); }

/// "atomic_tiled", "mmas_warp_per_ant": a name from the command line as a parameterized test's name,
/// which gtest takes only in letters, digits and '_' ('-' and ' ' become '_').
inline std::string test_name(std::string_view name) {
  std::string out(name);
  for (char& c : out)
    if (c == '-' || c == ' ') c = '_';
  return out;
}

/// "n33": a parameterized test's name for size n (built by appending: GCC 12 warns falsely on
/// "n" + std::to_string(...)).
inline std::string size_name(int n) {
  std::string name = "n";
  name += std::to_string(n);
  return name;
}

/// Polls `done` for up to `seconds`; true once it holds.
template <class Done>
bool wait_for(Done done, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

/// Reads a TSPLIB instance by name from the data folder.
inline Instance tsplib_instance(const std::string& name) {
  return io::read_tsplib(*tsplib_dir() / "tsp" / (name + ".tsp"));
}

/// Cities at random integer coordinates in [0, side) (degrees for GEO; z too for EUC_3D). Small
/// sides make ties common, which tests must survive.
inline Instance random_instance(EdgeWeightType type, int n, uint64_t seed, double side) {
  RandomStream rng(seed, 0);
  std::vector<double> x(n), y(n), z;
  for (int i = 0; i < n; ++i) {
    x[i] = type == EdgeWeightType::Geo ? rng.next_double() * 120 - 60 : std::floor(rng.next_double() * side);
    y[i] = type == EdgeWeightType::Geo ? rng.next_double() * 300 - 150 : std::floor(rng.next_double() * side);
  }
  if (type == EdgeWeightType::Euc3D) {
    z.resize(n);
    for (int i = 0; i < n; ++i) z[i] = std::floor(rng.next_double() * side);
  }
  return Instance("random", type, x, y, z);
}

/// Upper tail probability of the chi-square distribution with k degrees of freedom, through the
/// regularized incomplete gamma function Q(k/2, x/2) (series below a + 1, continued fraction above).
inline double chi_square_p_value(double x, int k) {
  const double a = 0.5 * k, z = 0.5 * x;
  if (z <= 0) return 1.0;
  const double log_prefix = a * std::log(z) - z - std::lgamma(a);
  if (z < a + 1) {
    double term = 1.0 / a, sum = term;
    for (int i = 1; i < 10000 && term > sum * 1e-16; ++i) sum += term *= z / (a + i);
    return 1.0 - sum * std::exp(log_prefix);
  }
  double b = z + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::fabs(d) < 1e-300 ? 1e-300 : d;
    c = b + an / c;
    c = std::fabs(c) < 1e-300 ? 1e-300 : c;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-15) break;
  }
  return std::exp(log_prefix) * h;
}

/// Pearson's chi-square statistic of `counts` against `probabilities` (cells with p = 0 must be
/// empty; they are checked, not counted). Returns the p-value. Neighbouring cells whose expected
/// count is below 5 are pooled (in index order, until the pool expects 5 or more; a short last pool
/// joins the one before), Cochran's rule, so that the statistic's chi-square law still holds when a
/// run draws few samples per cell (the sanitizer runs' FORMICA_TEST_DRAWS_PER_CITY).
inline double chi_square_test(const std::vector<long>& counts, const std::vector<double>& probabilities) {
  long total = 0;
  for (long c : counts) total += c;
  std::vector<std::pair<double, double>> cells;  // (observed, expected) of each cell or pool
  double observed = 0, expected = 0;
  for (size_t j = 0; j < counts.size(); ++j) {
    if (probabilities[j] == 0) {
      EXPECT_EQ(counts[j], 0) << "drew city " << j << " whose probability is 0";
      continue;
    }
    observed += static_cast<double>(counts[j]);
    expected += probabilities[j] * static_cast<double>(total);
    if (expected >= 5.0) {
      cells.emplace_back(observed, expected);
      observed = expected = 0;
    }
  }
  if (expected > 0) {
    if (cells.empty()) cells.emplace_back(0.0, 0.0);
    cells.back().first += observed;
    cells.back().second += expected;
  }
  if (cells.size() < 2) return 1.0;  // too few draws to tell one distribution from another
  double statistic = 0;
  for (const auto& [o, e] : cells) statistic += (o - e) * (o - e) / e;
  return chi_square_p_value(statistic, static_cast<int>(cells.size()) - 1);
}

/// The InputError message of `f()`, checked to be one line; a test failure when there is none.
template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    return message;
  }
  ADD_FAILURE() << "expected an InputError";
  return "";
}

}  // namespace formica::test

/// Skips the current test, saying why, when the TSPLIB folder is absent.
#define FORMICA_REQUIRE_TSPLIB()                                                              \
  do {                                                                                        \
    if (!::formica::test::tsplib_dir())                                                       \
      GTEST_SKIP() << "skipped: TSPLIB data not found (set FORMICA_TSPLIB_DIR; default "       \
                      "../shared/tsplib)";                                                    \
  } while (false)
