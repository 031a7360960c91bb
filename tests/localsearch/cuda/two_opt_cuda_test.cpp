// SPDX-License-Identifier: MIT
// The CUDA 2-opt against its CPU references: start tours, one pass (block and grid versions, fast
// and exact policies, every metric), the k-swap selection and reversal, the neighbour-list pass,
// and whole climbs that must end in a 2-opt local optimum checked independently; then determinism,
// every launch parameter, stopping, and the large instances the issue names.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <tuple>

#include "core/candidates.h"
#include "core/error.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "cuda_support.h"
#include "io/generator.h"
#include "localsearch/cpu/best_improvement_pass.h"
#include "localsearch/start_tour.h"
#include "solver/solver.h"
#include "localsearch/two_opt_check.h"

#if FORMICA_HAVE_CUDA
#include "localsearch/cuda/device_instance.h"
#include "localsearch/cuda/grid_climb.h"
#include "localsearch/cuda/restart_climb.h"
#include "localsearch/cuda/two_opt_cuda.h"
#endif

namespace formica::localsearch::cuda {
namespace {

#if FORMICA_HAVE_CUDA

/// Side of the test instances whose float distances must be exact: below 2^11 a rounded
/// approximate root cannot land on the wrong side of x.5 for integer coordinates.
constexpr double kExactSide = 200;

std::string metric_name(EdgeWeightType type) {
  std::string name(to_string(type));
  std::erase(name, '_');
  return name;
}

TEST(TwoOptCudaStart, DeviceRandomStartsEqualTheHostOnes) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {3, 4, 5, 17, 1000, 4097})
    for (int64_t restart : {0, 1, 77}) EXPECT_EQ(device_random_start(n, 9, restart), random_start(n, 9, restart)) << n;
}

/// Every candidate's gain is its move's exact gain, and the best is the best move of the tour.
void expect_true_candidates(const Instance& instance, const std::vector<int32_t>& tour,
                            const std::vector<Candidate>& found, const std::string& what) {
  const int n = instance.n();
  for (const Candidate& c : found) {
    ASSERT_TRUE(is_move(n, c.move.i, c.move.j)) << what << ": (" << c.move.i << ", " << c.move.j << ")";
    EXPECT_EQ(c.gain, two_opt_gain(instance, tour, c.move)) << what;
  }
  const int64_t best = test::best_two_opt_gain(instance, tour);
  if (best == 0) {
    EXPECT_TRUE(found.empty()) << what;
  } else {
    ASSERT_FALSE(found.empty()) << what;
    EXPECT_EQ(found.front().gain, best) << what;
  }
}

class TwoOptCudaPass : public ::testing::TestWithParam<EdgeWeightType> {};

TEST_P(TwoOptCudaPass, BlockPassFindsTheBestMoveWithExactGains) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {3, 4, 5, 17, 200, 1000, 1500}) {
    const Instance instance = test::metric_instance(GetParam(), n, 13 * n, kExactSide);
    const DeviceInstance device(instance);
    const std::vector<int32_t> tour = random_start(n, 4, n);
    for (const BlockShape shape : {BlockShape{32, 64}, BlockShape{64, 2048}, BlockShape{256, 1024},
                                   BlockShape{1024, 4096}}) {
      for (const bool exact : {false, true}) {
        const std::string what = concat(metric_name(GetParam()), " n=", n, " T=", shape.threads, " S=", shape.tile,
                                        exact ? " exact" : " fast");
        expect_true_candidates(instance, tour, device_pass_candidates(device, tour, exact, shape), what);
      }
    }
  }
}

TEST_P(TwoOptCudaPass, GridPassFindsTheBestMoveWithExactGains) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {3, 4, 5, 17, 200, 3000}) {
    const Instance instance = test::metric_instance(GetParam(), n, 17 * n, kExactSide);
    const DeviceInstance device(instance);
    TwoOptConfig config;
    config.neighbours = 0;
    GridClimber grid(device, instance, config);
    const std::vector<int32_t> tour = random_start(n, 5, n);
    for (const bool exact : {false, true})
      expect_true_candidates(instance, tour, grid.pass_candidates(tour, exact),
                             concat(metric_name(GetParam()), " n=", n, exact ? " exact" : " fast"));
  }
}

INSTANTIATE_TEST_SUITE_P(AllMetrics, TwoOptCudaPass, ::testing::ValuesIn(test::all_metrics()),
                         [](const auto& param_info) { return metric_name(param_info.param); });

TEST(TwoOptCudaKSwap, DeviceSelectionIsTheHostGreedyAndGainsAdd) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {5, 17, 200, 1000, 5000}) {
    const Instance instance = io::generate_instance(n, io::InstanceKind::Uniform, n);
    const DeviceInstance device(instance);
    TwoOptConfig config;
    config.neighbours = 0;
    GridClimber grid(device, instance, config);
    for (int k : {1, 3, kUnlimitedSwaps}) {
      const std::vector<int32_t> start = random_start(n, 6, k);
      // Many overlapping candidates: the best move of every row, and of every row on shifted tours.
      std::vector<Candidate> ranked = cpu::improving_moves(instance, start, 2);
      if (ranked.empty()) continue;  // a tiny random tour can be a local optimum
      const std::vector<Candidate> host = select_disjoint(ranked, k);
      std::vector<int32_t> tour = start;
      const std::vector<Candidate> kept = grid.select_and_apply(tour, ranked, k);
      ASSERT_EQ(kept.size(), host.size()) << "n = " << n << ", k = " << k;
      for (size_t s = 0; s < kept.size(); ++s) EXPECT_EQ(kept[s].move, host[s].move);
      std::vector<int32_t> expected = start;
      apply_moves(expected, host);
      EXPECT_EQ(tour, expected);
      const int64_t gained = std::accumulate(host.begin(), host.end(), int64_t{0},
                                             [](int64_t s, const Candidate& c) { return s + c.gain; });
      EXPECT_EQ(tour_length(instance, start) - Tour(instance, tour).length(), gained);
    }
  }
}

TEST(TwoOptCudaKSwap, OverlappingCandidatesAreSkipped) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(64, io::InstanceKind::Uniform, 3);
  const DeviceInstance device(instance);
  TwoOptConfig config;
  config.neighbours = 0;
  GridClimber grid(device, instance, config);
  const std::vector<Candidate> ranked = {{50, {10, 20}}, {40, {20, 30}}, {30, {21, 25}}, {20, {12, 14}},
                                         {15, {0, 40}},  {10, {2, 8}},   {5, {9, 11}},   {4, {26, 28}},
                                         {3, {31, 62}},  {2, {29, 35}}};
  std::vector<int32_t> tour(64);
  std::iota(tour.begin(), tour.end(), 0);
  const std::vector<Candidate> kept = grid.select_and_apply(tour, ranked, kUnlimitedSwaps);
  std::vector<Move> moves;
  for (const Candidate& c : kept) moves.push_back(c.move);
  EXPECT_EQ(moves, (std::vector<Move>{{10, 20}, {21, 25}, {2, 8}, {26, 28}, {31, 62}}));
  std::vector<int32_t> expected(64);
  std::iota(expected.begin(), expected.end(), 0);
  apply_moves(expected, kept);
  EXPECT_EQ(tour, expected);
}

TEST(TwoOptCudaNeighbourLists, EveryCityOffersItsBestListedMove) {
  FORMICA_REQUIRE_CUDA();
  for (int n : {5, 17, 300, 2000}) {
    const Instance instance = test::metric_instance(EdgeWeightType::Euc2D, n, 5 * n, kExactSide);
    const DeviceInstance device(instance);
    TwoOptConfig config;
    config.neighbours = 8;
    GridClimber grid(device, instance, config);
    const CandidateLists lists = build_candidate_lists(instance, 8);
    const std::vector<int32_t> tour = random_start(n, 3, 0);
    std::vector<int64_t> host;
    for (int64_t gain : test::listed_move_gains(instance, lists, tour))
      if (gain > 0) host.push_back(gain);
    std::vector<int64_t> device_gains;
    for (const Candidate& c : grid.neighbour_candidates(tour)) {
      EXPECT_EQ(c.gain, two_opt_gain(instance, tour, c.move));
      device_gains.push_back(c.gain);
    }
    std::sort(host.begin(), host.end());
    std::sort(device_gains.begin(), device_gains.end());
    EXPECT_EQ(device_gains, host) << "n = " << n;
  }
}

/// Runs the CUDA search to the end.
std::unique_ptr<TwoOptSearch> run_cuda(const Instance& instance, const TwoOptConfig& config) {
  auto search = make_two_opt_cuda(instance, config);
  while (!search->finished()) EXPECT_TRUE(search->step(StopFlag{}));
  return search;
}

TwoOptConfig cuda_config(int64_t restarts, int k, int queue, StartKind start, Layout layout, uint64_t seed = 1) {
  TwoOptConfig c;
  c.restarts = restarts;
  c.k_swap = k;
  c.queue = queue;
  c.start = start;
  c.layout = layout;
  c.seed = seed;
  c.threads = 2;
  return c;
}

// One test per metric and size, so that a tool's slowdown of the 1,000-city climbs holds back no
// other and each can run in a process of its own.
class TwoOptCudaEveryRestart : public ::testing::TestWithParam<std::tuple<EdgeWeightType, int>> {};

TEST_P(TwoOptCudaEveryRestart, EndsInALocalOptimum) {
  FORMICA_REQUIRE_CUDA();
  const auto [type, n] = GetParam();
  // Coordinates up to 10^5: float distances are often rounded the wrong way, which the exact
  // passes must repair.
  const Instance instance = test::metric_instance(type, n, 3 * n, 100'000);
  for (int k : {1, 4, kUnlimitedSwaps})
    for (Layout layout : {Layout::BlockPerTour, Layout::GridPerTour}) {
      const auto search = run_cuda(instance, cuda_config(3, k, 1, StartKind::Random, layout));
      SCOPED_TRACE(concat(metric_name(type), " n=", n, " k=", k, " ", to_string(layout)));
      EXPECT_EQ(search->stats().restarts, 3);
      EXPECT_EQ(search->stats().evaluations, search->stats().passes * moves_per_pass(n));
      FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
      EXPECT_EQ(Tour(instance, search->best_tour()).length(), search->best_length());
    }
}

INSTANTIATE_TEST_SUITE_P(Metrics, TwoOptCudaEveryRestart,
                         ::testing::Combine(::testing::Values(EdgeWeightType::Euc2D, EdgeWeightType::Ceil2D,
                                                              EdgeWeightType::Att, EdgeWeightType::Geo,
                                                              EdgeWeightType::Euc3D, EdgeWeightType::Explicit),
                                            ::testing::Values(3, 4, 5, 17, 200, 1000)),
                         [](const auto& param_info) {
                           return std::string(metric_name(std::get<0>(param_info.param))) + "_" +
                                  test::size_name(std::get<1>(param_info.param));
                         });

// Small enough for compute-sanitizer's memcheck, racecheck and synccheck: every kernel of both
// layouts, both selections (k = 1 and k-swap), both queue modes, a start tour from the host.
TEST(TwoOptCudaClimb, TinyClimbsForTheSanitizers) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(70, io::InstanceKind::Uniform, 2);
  for (Layout layout : {Layout::BlockPerTour, Layout::GridPerTour})
    for (int k : {1, kUnlimitedSwaps})
      for (int queue : {0, 2}) {
        TwoOptConfig config = cuda_config(3, k, queue, queue == 0 ? StartKind::Random : StartKind::NearestNeighbour,
                                          layout);
        config.threads_per_block = 64;
        const auto search = run_cuda(instance, config);
        FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
      }
  TwoOptConfig config;
  config.neighbours = 6;
  const DeviceInstance device(instance);
  GridClimber grid(device, instance, config);
  std::vector<int32_t> tour = random_start(70, 1, 0);
  GridClimbResult result;
  ASSERT_TRUE(grid.climb(tour, true, StopFlag{}, result));
  EXPECT_GT(result.neighbour_passes, 0);
  EXPECT_EQ(result.length, tour_length(instance, tour));
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, tour);
}

// The block climber's neighbour-list pre-climb on a tour small enough for the sanitizers (the
// solver uses it from kBlockNeighbourListMinCities cities; the climber takes lists of any size).
TEST(TwoOptCudaClimb, TinyPreClimbsForTheSanitizers) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(70, io::InstanceKind::Uniform, 12);
  const DeviceInstance device(instance);
  const CandidateLists lists = build_candidate_lists(instance, 6);
  for (int k : {1, kUnlimitedSwaps}) {
    BlockPerTourClimber climber(device, cuda_config(3, k, 1, StartKind::Random, Layout::BlockPerTour), {64, 512},
                                lists.data(), lists.k());
    RestartBatchResult result;
    ASSERT_TRUE(climber.climb(0, 3, {}, StopFlag{}, result));
    SCOPED_TRACE(concat("k = ", k));
    EXPECT_GT(result.neighbour_passes, 0);
    if (k == 1) {  // a move per pass, then two empty full passes per climb (empty list passes are not counted)
      EXPECT_EQ(result.moves + 2 * 3, result.neighbour_passes + result.passes);
    }
    FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, result.best_tour);
    for (int64_t restart = 0; restart < 3; ++restart)
      EXPECT_GE(result.lengths[static_cast<size_t>(restart)], result.best_length);
    EXPECT_EQ(tour_length(instance, result.best_tour), result.best_length);
  }
}

TEST(TwoOptCudaClimb, NeighbourListPreClimbLeavesFewFullPasses) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(1500, io::InstanceKind::Uniform, 13);
  TwoOptConfig with_lists = cuda_config(8, kUnlimitedSwaps, 1, StartKind::Random, Layout::BlockPerTour);
  TwoOptConfig paper = with_lists;
  paper.block_neighbours = 0;
  const auto pre = run_cuda(instance, with_lists);
  const auto full = run_cuda(instance, paper);
  EXPECT_NE(pre->describe_launch().find("neighbour lists k=5"), std::string::npos) << pre->describe_launch();
  EXPECT_EQ(full->describe_launch().find("neighbour lists"), std::string::npos) << full->describe_launch();
  EXPECT_GT(pre->stats().neighbour_passes, 0);
  EXPECT_EQ(full->stats().neighbour_passes, 0);
  EXPECT_LT(pre->stats().passes * 3, full->stats().passes);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, pre->best_tour());
  EXPECT_EQ(Tour(instance, pre->best_tour()).length(), pre->best_length());
  // Another path to a 2-opt local optimum, not a worse one: the best of 8 within 3 % of the paper's.
  EXPECT_LT(static_cast<double>(pre->best_length()), 1.03 * static_cast<double>(full->best_length()));
}

TEST(TwoOptCudaClimb, TheBestRestartIsTheShortestOfTheirExactLengths) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(300, io::InstanceKind::Clustered, 4);
  const auto search = run_cuda(instance, cuda_config(40, 8, 1, StartKind::Random, Layout::BlockPerTour));
  // Each restart's local optimum is reproducible on the host from the same start, but the climbs
  // may differ (float ties); what must hold is that no restart's climb beats the reported best.
  EXPECT_EQ(search->restarts_done(), 40);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
  const int64_t random_length = tour_length(instance, random_start(300, 1, 0));
  EXPECT_LT(search->best_length() * 5, random_length);
}

// One test per queue size, per block size and per layout below, so that a tool's slowdown of the
// 600- and 777-city climbs (racecheck's) holds back no other and each runs in a process of its own.
class ClimbQueues : public ::testing::TestWithParam<int> {};

TEST_P(ClimbQueues, EveryStartEndsInALocalOptimum) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(777, io::InstanceKind::Uniform, 5);
  const int queue = GetParam();
  for (StartKind start : {StartKind::Random, StartKind::NearestNeighbour, StartKind::SpaceFillingCurve}) {
    const auto search = run_cuda(instance, cuda_config(7, kUnlimitedSwaps, queue, start, Layout::BlockPerTour));
    SCOPED_TRACE(concat("queue ", queue, " start ", to_string(start)));
    EXPECT_EQ(search->stats().restarts, 7);
    FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
  }
}

INSTANTIATE_TEST_SUITE_P(TwoOptCudaClimb, ClimbQueues, ::testing::Values(0, 1, 3, 100),
                         [](const auto& param_info) { return "queue" + std::to_string(param_info.param); });

class ClimbLaunchShapes : public ::testing::TestWithParam<int> {};

TEST_P(ClimbLaunchShapes, EveryTileEndsInALocalOptimum) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(777, io::InstanceKind::Uniform, 5);
  const int threads = GetParam();
  for (int tile : {0, threads + 64, 8 * threads}) {
    TwoOptConfig config = cuda_config(5, 16, 1, StartKind::Random, Layout::BlockPerTour);
    config.threads_per_block = threads;
    config.tile = tile;
    const auto search = run_cuda(instance, config);
    SCOPED_TRACE(concat("T=", threads, " S=", tile, ": ", search->describe_launch()));
    FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
  }
}

INSTANTIATE_TEST_SUITE_P(TwoOptCudaClimb, ClimbLaunchShapes, ::testing::Values(32, 64, 128, 512, 1024),
                         [](const auto& param_info) { return "threads" + std::to_string(param_info.param); });

class ClimbSameSeed : public ::testing::TestWithParam<Layout> {};

TEST_P(ClimbSameSeed, SameResult) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(600, io::InstanceKind::Clustered, 6);
  const Layout layout = GetParam();
  const auto a = run_cuda(instance, cuda_config(6, 32, 1, StartKind::Random, layout, 11));
  const auto b = run_cuda(instance, cuda_config(6, 32, 1, StartKind::Random, layout, 11));
  const auto c = run_cuda(instance, cuda_config(6, 32, 1, StartKind::Random, layout, 12));
  EXPECT_EQ(a->best_tour(), b->best_tour());
  EXPECT_EQ(a->stats().passes, b->stats().passes);
  EXPECT_NE(a->best_tour(), c->best_tour());
}

INSTANTIATE_TEST_SUITE_P(TwoOptCudaClimb, ClimbSameSeed, ::testing::Values(Layout::BlockPerTour, Layout::GridPerTour),
                         [](const auto& param_info) { return test::test_name(to_string(param_info.param)); });

TEST(TwoOptCudaClimb, QueueOrderDoesNotChangeTheResult) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(600, io::InstanceKind::Clustered, 6);
  // The queue hands restarts to blocks in any order; the result must not care.
  const auto q1 = run_cuda(instance, cuda_config(20, 4, 1, StartKind::Random, Layout::BlockPerTour, 5));
  const auto q0 = run_cuda(instance, cuda_config(20, 4, 0, StartKind::Random, Layout::BlockPerTour, 5));
  EXPECT_EQ(q1->best_tour(), q0->best_tour());
}

TEST(TwoOptCudaClimb, InfinitySwapNeedsFewerPassesThanOneSwap) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Uniform, 7);
  TwoOptConfig one_swap = cuda_config(4, 1, 1, StartKind::Random, Layout::BlockPerTour);
  one_swap.block_neighbours = 0;  // the paper's climb: full passes only
  TwoOptConfig infinity_swap = one_swap;
  infinity_swap.k_swap = kUnlimitedSwaps;
  const auto one = run_cuda(instance, one_swap);
  const auto many = run_cuda(instance, infinity_swap);
  EXPECT_EQ(one->stats().moves + 2 * 4, one->stats().passes);  // k = 1: a move per pass, then two empty passes
  EXPECT_LT(many->stats().passes * 4, one->stats().passes);
}

TEST(TwoOptCudaClimb, StopRequestKeepsNothingOfTheBatch) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 8);
  for (Layout layout : {Layout::BlockPerTour, Layout::GridPerTour}) {
    auto search = make_two_opt_cuda(instance, cuda_config(50, 1, 1, StartKind::Random, layout));
    std::atomic<bool> interrupt{true};
    StopFlag stop;
    stop.interrupt = &interrupt;
    EXPECT_FALSE(search->step(stop)) << to_string(layout);
    EXPECT_TRUE(search->best_tour().empty());
    EXPECT_EQ(search->restarts_done(), 0);
  }
}

TEST(TwoOptCudaClimb, SolverRunsTheCudaBackend) {
  FORMICA_REQUIRE_CUDA();
  const Instance instance = io::generate_instance(500, io::InstanceKind::Uniform, 9);
  SolverConfig config;
  config.algorithm = Algorithm::TwoOpt;
  config.backend = Backend::Cuda;
  config.two_opt.restarts = 50;
  const Result result = solve(instance, config);
  EXPECT_EQ(result.backend, Backend::Cuda);
  EXPECT_EQ(result.stop_reason, "finished");
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, result.tour.order());
}

/// A whole GPU on one large TSPLIB tour from the space-filling curve: neighbour-list pre-climb,
/// then full passes; the result must be a 2-opt local optimum.
void climb_large(const char* name) {
  FORMICA_REQUIRE_CUDA();
  FORMICA_REQUIRE_TSPLIB();
  const Instance instance = test::tsplib_instance(name);
  TwoOptConfig config = cuda_config(1, kUnlimitedSwaps, 1, StartKind::SpaceFillingCurve, Layout::Auto);
  const auto start = std::chrono::steady_clock::now();
  const auto search = run_cuda(instance, config);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::testing::Test::RecordProperty("seconds", std::to_string(seconds));
  ::testing::Test::RecordProperty("length", std::to_string(search->best_length()));
  ::testing::Test::RecordProperty("launch", search->describe_launch());
  EXPECT_GT(search->stats().neighbour_passes, 0);
  FORMICA_EXPECT_TWO_OPT_OPTIMUM(instance, search->best_tour());
  const int64_t curve = tour_length(instance, space_filling_curve_tour(instance));
  EXPECT_LT(search->best_length(), curve);
}

TEST(TwoOptCudaLarge, Pla33810FromTheCurve) { climb_large("pla33810"); }
TEST(TwoOptCudaLarge, Pla85900FromTheCurve) { climb_large("pla85900"); }

#endif  // FORMICA_HAVE_CUDA

TEST(TwoOptCudaBuild, BackendIsThere) {
  FORMICA_REQUIRE_CUDA();
  EXPECT_EQ(resolve_backend(Algorithm::TwoOpt, Backend::Auto), Backend::Cuda);
}

}  // namespace
}  // namespace formica::localsearch::cuda
