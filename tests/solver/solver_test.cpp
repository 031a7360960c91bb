// SPDX-License-Identifier: MIT
// The solver's defaults: what Algorithm::Auto runs (the portfolio), the default stopping rule, a
// Result that reports the configuration that actually ran, the final polish, the memory plan.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "aco/colony_memory.h"
#include "bounds/held_karp.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/nearest_neighbour.h"
#include "core/space_filling_curve.h"
#include "core/tour.h"
#include "io/generator.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/or_opt_check.h"
#include "localsearch/three_opt_check.h"
#include "solver/parameters.h"
#include "solver/portfolio.h"
#include "solver/report.h"
#include "solver/solver.h"
#include "test_support.h"

namespace formica {
namespace {

/// The default run with --host-search lin-kernighan named: what auto chooses for the colonies,
/// where a long enough time limit would otherwise have the host threads run GA-EAX (the GPU) or
/// the run be GA-EAX (the CPU); the tests of that choice name nothing.
SolverConfig colonies() {
  SolverConfig config;
  config.named = {"host-search"};
  return config;
}

TEST(Solver, AutoIsTheDefaultAndResolvesToAConcreteAlgorithm) {
  EXPECT_EQ(SolverConfig{}.algorithm, Algorithm::Auto);
  EXPECT_EQ(parse_algorithm("auto"), Algorithm::Auto);
  EXPECT_EQ(to_string(Algorithm::Auto), "auto");
  EXPECT_EQ(resolve_algorithm(colonies(), 1000, Backend::Cpu), Algorithm::Mmas);
  SolverConfig ant_system;
  ant_system.algorithm = Algorithm::AntSystem;
  EXPECT_EQ(resolve_algorithm(ant_system, 1000, Backend::Cpu), Algorithm::AntSystem);
  for (const Backend backend : {Backend::Cpu, Backend::Cuda})
    for (const int n : {5, 1000, 200'000}) {  // 2,000 <= n < 4,000: Or-opt (below)
      const SolverConfig c = resolve_config(colonies(), n, backend);
      EXPECT_EQ(c.algorithm, Algorithm::Mmas);
      EXPECT_EQ(c.colony.local_search, localsearch::LocalSearchKind::ThreeOpt);
      EXPECT_GT(c.colony.focused_edges, 0);
      EXPECT_EQ(c.colony.neighbour_lists, n < 2000 ? NeighbourShape::Quadrant : NeighbourShape::Nearest);
      EXPECT_GT(c.ant_system.ants, 0);
      EXPECT_TRUE(c.polish);
      EXPECT_NO_THROW(c.validate());
      const std::string summary = portfolio_summary(c, n, EdgeWeightType::Euc2D, backend);
      EXPECT_NE(summary.find(concat("n = ", n)), std::string::npos) << summary;
      EXPECT_NE(summary.find(backend == Backend::Cuda ? "GPU" : "CPU"), std::string::npos) << summary;
      EXPECT_NE(summary.find(n < 2000 ? "quadrant neighbours" : "nearest neighbours"), std::string::npos)
          << summary;
    }
  // Below 2,000 cities the GPU runs 32 independent colonies of 32 ants; up to 4,000, given 2 ms per
  // city or more (the default 10 s), 8 colonies of 128 whose best tours are merged; one colony else.
  const SolverConfig small = resolve_config(colonies(), 1000, Backend::Cuda);
  EXPECT_EQ(small.colony.colony_count(), 32);
  EXPECT_EQ(small.ant_system.ants, 32);
  EXPECT_EQ(resolve_config(colonies(), 1000, Backend::Cpu).colony.colony_count(), 1);
  const SolverConfig band = resolve_config(colonies(), 2392, Backend::Cuda);
  EXPECT_EQ(band.colony.colony_count(), 8);
  EXPECT_EQ(band.ant_system.ants, 128);
  EXPECT_TRUE(band.colony.merge_tours);
  EXPECT_NE(
      portfolio_summary(band, 2392, EdgeWeightType::Euc2D, Backend::Cuda).find("best tours merged every 10"),
      std::string::npos);
  SolverConfig timed = colonies();
  timed.time_limit = 4.8;  // 2 ms per city of pr2392
  EXPECT_TRUE(resolve_config(timed, 2392, Backend::Cuda).colony.merge_tours);
  timed.iterations = 100;
  EXPECT_TRUE(resolve_config(timed, 2392, Backend::Cuda).colony.merge_tours);
  SolverConfig counted = colonies();
  counted.iterations = 100;
  EXPECT_TRUE(resolve_config(counted, 3999, Backend::Cuda).colony.merge_tours);
  SolverConfig brief = colonies();
  brief.time_limit = 4.7;
  const SolverConfig short_run = resolve_config(brief, 2392, Backend::Cuda);
  EXPECT_EQ(short_run.colony.colony_count(), 1);
  EXPECT_EQ(short_run.ant_system.ants, 1024);
  // Quadrant lists in the band with merged colonies only; nearest ones for one colony or the CPU.
  EXPECT_EQ(resolve_config(timed, 2392, Backend::Cuda).colony.neighbour_lists, NeighbourShape::Quadrant);
  EXPECT_EQ(short_run.colony.neighbour_lists, NeighbourShape::Nearest);
  EXPECT_EQ(resolve_config(colonies(), 2392, Backend::Cuda).colony.neighbour_lists,
            NeighbourShape::Quadrant);
  EXPECT_EQ(resolve_config(colonies(), 2392, Backend::Cpu).colony.neighbour_lists,
            NeighbourShape::Nearest);
  EXPECT_EQ(resolve_config(colonies(), 4000, Backend::Cuda).colony.neighbour_lists,
            NeighbourShape::Nearest);
  // On the GPU from 8 cities, iterated Lin-Kernighan threads on the host's other cores,
  // exchanging tours through the merge. On the CPU, in a run bounded by time, half of the run's
  // threads, the colonies keeping the others; none in a run of counted iterations (repeatable from
  // its seed) or of one thread.
  for (const int n : {5, 7}) {
    const SolverConfig tiny_gpu = resolve_config(colonies(), n, Backend::Cuda);
    EXPECT_EQ(tiny_gpu.colony.lk_threads, 0) << n;
    EXPECT_FALSE(tiny_gpu.colony.merge_tours) << n;
  }
  for (const int n : {8, 1000, 1999, 2000, 2392, 4000, 29999, 30000, 200000}) {
    const SolverConfig gpu = resolve_config(colonies(), n, Backend::Cuda);
    EXPECT_GE(gpu.colony.lk_threads, 1) << n;
    EXPECT_TRUE(gpu.colony.merge_tours) << n;
    EXPECT_EQ(gpu.colony.lk_independent, n < 4000) << n;  // independent walks below 4,000 cities
    // From 30,000 cities the threads search quadrant lists of their own (nearest ones where the
    // instance has no planar coordinates).
    EXPECT_EQ(gpu.colony.lk_lists, n >= 30000 ? aco::LkLists::Quadrant : aco::LkLists::Colonies) << n;
    EXPECT_EQ(portfolio_summary(gpu, n, EdgeWeightType::Euc2D, Backend::Cuda).find("over quadrant lists") !=
                  std::string::npos,
              n >= 30000)
        << n;
    EXPECT_EQ(portfolio_summary(gpu, n, EdgeWeightType::Explicit, Backend::Cuda).find("over nearest lists") !=
                  std::string::npos,
              n >= 30000)
        << n;
    EXPECT_NE(
        portfolio_summary(gpu, n, EdgeWeightType::Euc2D, Backend::Cuda).find("Lin-Kernighan host thread"),
        std::string::npos);
    SolverConfig five = colonies();
    set_parameter(five, "threads", "5");
    const SolverConfig cpu = resolve_config(five, n, Backend::Cpu);
    EXPECT_EQ(cpu.colony.lk_threads, 2) << n;
    EXPECT_EQ(cpu.threads, 3) << n;  // the colonies'
    EXPECT_TRUE(cpu.colony.merge_tours) << n;
    EXPECT_EQ(cpu.colony.lk_independent, n < 4000) << n;
    EXPECT_NE(portfolio_summary(cpu, n, EdgeWeightType::Euc2D, Backend::Cpu)
                  .find("with 2 iterated Lin-Kernighan host threads"),
              std::string::npos);
    SolverConfig fifty = five;
    fifty.iterations = 50;
    const SolverConfig repeatable = resolve_config(fifty, n, Backend::Cpu);
    EXPECT_EQ(repeatable.colony.lk_threads, 0) << n;
    EXPECT_EQ(repeatable.threads, 5) << n;
    EXPECT_FALSE(repeatable.colony.lk_independent) << n;
    EXPECT_FALSE(repeatable.colony.merge_tours) << n;
    EXPECT_EQ(portfolio_summary(repeatable, n, EdgeWeightType::Euc2D, Backend::Cpu).find("merged"),
              std::string::npos);
    SolverConfig one = colonies();
    set_parameter(one, "threads", "1");
    EXPECT_EQ(resolve_config(one, n, Backend::Cpu).colony.lk_threads, 0) << n;
  }
  SolverConfig tiny_cpu = colonies();
  set_parameter(tiny_cpu, "threads", "4");
  EXPECT_EQ(resolve_config(tiny_cpu, 7, Backend::Cpu).colony.lk_threads, 0);
  EXPECT_TRUE(short_run.colony.merge_tours);
  SolverConfig without_threads = colonies();
  set_parameter(without_threads, "lk-threads", "0");
  EXPECT_FALSE(resolve_config(without_threads, 4000, Backend::Cuda).colony.merge_tours);
  EXPECT_TRUE(resolve_config(without_threads, 2392, Backend::Cuda).colony.merge_tours);  // the band's merge
  SolverConfig without_merge = colonies();
  set_parameter(without_merge, "merge-tours", "false");
  EXPECT_EQ(resolve_config(without_merge, 4000, Backend::Cuda).colony.lk_threads, 0);
  EXPECT_EQ(resolve_config(colonies(), 4000, Backend::Cuda).colony.colony_count(), 1);
  EXPECT_EQ(resolve_config(colonies(), 2392, Backend::Cpu).colony.colony_count(), 1);
  EXPECT_NE(portfolio_summary(small, 1000, EdgeWeightType::Euc2D, Backend::Cuda)
                .find("32 ants in each of 32 independent colonies"),
            std::string::npos);
  // The summary names the lists that are built: GEO has quadrants, EUC_3D and EXPLICIT do not.
  EXPECT_NE(portfolio_summary(small, 1000, EdgeWeightType::Geo, Backend::Cuda).find("quadrant neighbours"),
            std::string::npos);
  for (const EdgeWeightType type : {EdgeWeightType::Euc3D, EdgeWeightType::Explicit})
    EXPECT_NE(portfolio_summary(small, 1000, type, Backend::Cuda).find("12 nearest neighbours"),
              std::string::npos);
  EXPECT_EQ(resolve_config(colonies(), 4461, Backend::Cuda).ant_system.ants, 1024);
  // 3-opt in the ants' local search, except from 2,000 to 4,000 cities (one colony of 1,024 ants);
  // 12 neighbours on the GPU below 2,000 cities, 10 from then on and on the CPU.
  EXPECT_EQ(resolve_config(colonies(), 1999, Backend::Cuda).colony.ls_neighbours, 12);
  EXPECT_EQ(resolve_config(colonies(), 2000, Backend::Cuda).colony.ls_neighbours, 10);
  EXPECT_EQ(resolve_config(colonies(), 1999, Backend::Cpu).colony.ls_neighbours, 10);
  for (const Backend backend : {Backend::Cpu, Backend::Cuda}) {
    EXPECT_EQ(resolve_config(colonies(), 1999, backend).colony.local_search,
              localsearch::LocalSearchKind::ThreeOpt);
    EXPECT_EQ(resolve_config(colonies(), 2000, backend).colony.local_search,
              localsearch::LocalSearchKind::OrOpt);
    EXPECT_EQ(resolve_config(colonies(), 3999, backend).colony.local_search,
              localsearch::LocalSearchKind::OrOpt);
    EXPECT_EQ(resolve_config(colonies(), 4000, backend).colony.local_search,
              localsearch::LocalSearchKind::ThreeOpt);
  }
  EXPECT_EQ(resolve_config(colonies(), 13509, Backend::Cuda).ant_system.ants, 2048);
  // From 150,000 cities two or more Lin-Kernighan threads walk stretches of n / threads cities,
  // one a thread; below, or with one thread, the whole tour. A named --lk-stretch is kept.
  for (const Backend backend : {Backend::Cpu, Backend::Cuda}) {
    EXPECT_EQ(resolve_config(colonies(), 149'999, backend).colony.lk_stretch, 0);
    for (const int n : {150'000, 200'000, 1'000'000}) {
      SolverConfig large = colonies();
      set_parameter(large, "time-limit", "60");  // on the CPU, Lin-Kernighan threads in timed runs
      set_parameter(large, "threads", "4");
      const aco::ColonyConfig c = resolve_config(large, n, backend).colony;
      ASSERT_GT(c.lk_threads, 0) << n;
      if (c.lk_threads == 1) {
        EXPECT_EQ(c.lk_stretch, 0) << n;
        continue;
      }
      EXPECT_EQ(c.lk_stretch, n / c.lk_threads) << n;
      EXPECT_EQ(n / c.lk_stretch, c.lk_threads) << "a stretch for every thread";
    }
  }
  // On the CPU from 10,000 to 100,000 cities the whole-tour threads take alpha lists (quadrant
  // until the ascent ends); the GPU's keep quadrant lists, and a named --lk-lists stays.
  for (const int n : {9999, 10000, 85900, 99999, 100000}) {
    SolverConfig request_cpu = colonies();
    set_parameter(request_cpu, "time-limit", "20");
    set_parameter(request_cpu, "threads", "4");
    const SolverConfig cpu = resolve_config(request_cpu, n, Backend::Cpu);
    ASSERT_GT(cpu.colony.lk_threads, 0) << n;
    const bool alpha = n >= 10000 && n < 100000;
    EXPECT_EQ(cpu.colony.lk_lists, alpha        ? aco::LkLists::Alpha
                                   : n >= 30000 ? aco::LkLists::Quadrant
                                                : aco::LkLists::Colonies)
        << n;
    EXPECT_EQ(portfolio_summary(cpu, n, EdgeWeightType::Euc2D, Backend::Cpu)
                      .find("over quadrant lists, then the 5 alpha-nearest") != std::string::npos,
              alpha)
        << n;
    EXPECT_NE(resolve_config(request_cpu, n, Backend::Cuda).colony.lk_lists, aco::LkLists::Alpha) << n;
    set_parameter(request_cpu, "lk-lists", "nearest");
    EXPECT_EQ(resolve_config(request_cpu, n, Backend::Cpu).colony.lk_lists, aco::LkLists::Nearest) << n;
  }
  SolverConfig one_thread = colonies();
  set_parameter(one_thread, "time-limit", "60");
  set_parameter(one_thread, "threads", "2");  // on the CPU: one Lin-Kernighan thread
  const aco::ColonyConfig single = resolve_config(one_thread, 200'000, Backend::Cpu).colony;
  EXPECT_EQ(single.lk_threads, 1);
  EXPECT_EQ(single.lk_stretch, 0) << "one thread walks the whole tour";
  // Islands that split the decomposition between their regions keep one stretch a thread each.
  const SolverConfig request = colonies();
  SolverConfig split = colonies();
  split.colony.lk_stretch = 70000;  // auto's
  EXPECT_EQ(island_stretch(request, split, 1), 70000);
  EXPECT_EQ(island_stretch(request, split, 2), 35000);
  EXPECT_EQ(island_stretch(request, split, 100000), localsearch::cpu::kMinKickCities);
  split.colony.lk_split = false;
  EXPECT_EQ(island_stretch(request, split, 2), 70000) << "every island walks every stretch";
  split.colony.lk_split = true;
  EXPECT_EQ(island_stretch(split, split, 2), 70000) << "a stretch the request gave stays";
  SolverConfig whole;
  set_parameter(whole, "lk-stretch", "0");
  EXPECT_EQ(resolve_config(whole, 1'000'000, Backend::Cuda).colony.lk_stretch, 0);
  // Alpha lists are the whole-tour threads': asking for them keeps the whole tour.
  SolverConfig alpha;
  set_parameter(alpha, "lk-lists", "alpha");
  const aco::ColonyConfig alpha_colony = resolve_config(alpha, 200'000, Backend::Cuda).colony;
  EXPECT_EQ(alpha_colony.lk_stretch, 0);
  EXPECT_EQ(alpha_colony.lk_lists, aco::LkLists::Alpha);
  SolverConfig stretches;
  set_parameter(stretches, "lk-stretch", "1000");
  const SolverConfig huge = resolve_config(stretches, 1'000'000, Backend::Cuda);
  EXPECT_EQ(huge.colony.lk_stretch, 1000);
  EXPECT_NE(portfolio_summary(huge, 1'000'000, EdgeWeightType::Euc2D, Backend::Cuda)
                .find("(3opt steps over quadrant lists) over stretches of 1000 cities, then the whole tour"),
            std::string::npos);
  // The GPU runs many ants at once, the CPU a few dozen.
  EXPECT_GT(resolve_config(colonies(), 100'000, Backend::Cuda).ant_system.ants,
            resolve_config(colonies(), 100'000, Backend::Cpu).ant_system.ants);
}

TEST(Solver, AutoKeepsEveryParameterTheUserSet) {
  SolverConfig request;
  set_parameter(request, "ants", "7");
  set_parameter(request, "local-search", "two-opt");
  set_parameter(request, "focused-edges", "3");
  set_parameter(request, "mmas-rho", "0.1");
  const SolverConfig c = resolve_config(request, 5000, Backend::Cpu);
  EXPECT_EQ(c.ant_system.ants, 7);
  EXPECT_EQ(c.colony.local_search, localsearch::LocalSearchKind::TwoOpt);
  EXPECT_EQ(c.colony.focused_edges, 3);
  EXPECT_EQ(c.colony.mmas_rho, 0.1);
  // A value named explicitly is kept also where it equals the default.
  SolverConfig plain;
  set_parameter(plain, "local-search", "none");
  set_parameter(plain, "focused_edges", "0");
  set_parameter(plain, "neighbour-lists", "nearest");
  SolverConfig unmerged;
  set_parameter(unmerged, "merge-tours", "false");
  EXPECT_FALSE(resolve_config(unmerged, 2392, Backend::Cuda).colony.merge_tours);
  EXPECT_THROW(set_parameter(unmerged, "merge-tours", "yes"), InputError);
  const SolverConfig p = resolve_config(plain, 5000, Backend::Cpu);
  EXPECT_EQ(p.colony.local_search, localsearch::LocalSearchKind::None);
  EXPECT_EQ(p.colony.focused_edges, 0);
  EXPECT_EQ(p.colony.neighbour_lists, NeighbourShape::Nearest);
  EXPECT_GT(p.ant_system.ants, 0);  // what nobody named is still the portfolio's
  // An explicit algorithm is run as given.
  SolverConfig as;
  as.algorithm = Algorithm::AntSystem;
  EXPECT_EQ(resolve_config(as, 5000, Backend::Cpu).ant_system.ants, 0);
  EXPECT_EQ(resolve_config(as, 5000, Backend::Cpu).colony.local_search, localsearch::LocalSearchKind::None);
}

TEST(Solver, ALimitShorterThanTheSetUpRunsTheQuickSearchAndKeepsTheLimit) {
  // The colonies' lists of 100,000 cities take seconds on 2 cores; a 0.6-s limit cuts them at half
  // the time left and gives the rest to stretch walks from a space-filling-curve tour. The limit
  // is not scaled by time_scale(): under a sanitizer the lists take longer still, while a scaled
  // limit (6 s) let them finish; only the bound on the elapsed time is scaled.
  const Instance instance = io::generate_instance(100'000, io::InstanceKind::Uniform, 9);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.time_limit = 0.6;
  const auto start = std::chrono::steady_clock::now();
  SolveOptions options;
  options.start = start;
  const Result result = solve(instance, config, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.setup_stopped) << "set up in " << result.phase_seconds.setup << " s";
  validate_permutation(result.tour.order(), instance.n());
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
  EXPECT_EQ(result.stop_reason, "time limit");
  EXPECT_NE(result.searched_by.find("stretch walks"), std::string::npos) << result.searched_by;
  EXPECT_LT(seconds, *config.time_limit + 0.5 * test::time_scale()) << "the limit holds, set-up included";
  // The walks improved the start tour, and the ledger says they did.
  EXPECT_LT(result.tour.length(), result.credits.first());
  EXPECT_GT(result.credits.gain(Finder::Search), 0);
  EXPECT_EQ(result.credits.first() - result.tour.length(),
            result.credits.gain(Finder::Search) + result.credits.gain(Finder::Polish));
}

TEST(Solver, ATourThatMeetsTheTargetEndsTheRunByItsTargetEvenWhenTheLimitFiredFirst) {
  // The limit ends the run before its first step (as a GPU context created in a fresh process
  // can): a tour that meets the target still says "target", one that does not "time limit".
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Uniform, 4);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.time_limit = 1e-5;
  config.target = std::numeric_limits<int64_t>::max() / 4;
  const Result met = solve(instance, config);
  validate_permutation(met.tour.order(), instance.n());
  EXPECT_EQ(met.iterations, 0);
  EXPECT_EQ(met.stop_reason, "target");
  config.target = 1;
  EXPECT_EQ(solve(instance, config).stop_reason, "time limit");
}

TEST(Solver, StretchThreadsSolveAndNeedThreads) {
  const Instance instance = io::generate_instance(1200, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.time_limit = 1.0;
  config.threads = 2;
  set_parameter(config, "lk-threads", "2");
  set_parameter(config, "merge-tours", "true");
  set_parameter(config, "lk-stretch", "200");
  const Result result = solve(instance, config);
  validate_permutation(result.tour.order(), instance.n());
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
  EXPECT_EQ(result.config.colony.lk_stretch, 200);
  EXPECT_NE(result.config.describe_algorithm().find("lk-stretch=200"), std::string::npos);
  SolverConfig alone;
  set_parameter(alone, "algorithm", "mmas");
  set_parameter(alone, "lk-stretch", "200");
  EXPECT_THROW(alone.validate(), InputError);
  set_parameter(alone, "lk-stretch", "5");
  set_parameter(alone, "lk-threads", "2");
  set_parameter(alone, "merge-tours", "true");
  EXPECT_THROW(alone.validate(), InputError);
}

TEST(Solver, AutoRunsGaEaxOnceItsPopulationOvertakesTheColonies) {
  // The crossing grows as n^1.5 and with fewer threads, the same on both backends below the
  // nearest-neighbour starts' band, and far below the budget in which a population converges.
  EXPECT_NEAR(eax_crossing(3038, 16, Backend::Cpu), 5e-7 * std::pow(3038.0, 1.5), 1e-9);
  EXPECT_NEAR(eax_crossing(3038, 16, Backend::Cuda), eax_crossing(3038, 16, Backend::Cpu), 1e-9);
  EXPECT_GT(eax_crossing(13509, 16, Backend::Cpu), eax_crossing(3038, 16, Backend::Cpu));
  EXPECT_NEAR(eax_crossing(3038, 4, Backend::Cpu), 2 * eax_crossing(3038, 16, Backend::Cpu), 1e-9);
  EXPECT_NEAR(eax_budget(3038, 16, Backend::Cpu), 0.9e-5 * std::pow(3038.0, 1.5), 1e-9);
  EXPECT_LT(eax_crossing(13509, 2, Backend::Cpu), eax_budget(13509, 2, Backend::Cpu) / 10);
  // Where measured (2 threads): usa13509 from 2.2 s, pla33810 from 8.8 s, fnl4461 from 0.42 s.
  EXPECT_NEAR(eax_crossing(13509, 2, Backend::Cpu), 2.22, 0.01);
  EXPECT_NEAR(eax_crossing(33810, 2, Backend::Cpu), 8.79, 0.01);
  EXPECT_NEAR(eax_crossing(4461, 2, Backend::Cpu), 0.42, 0.01);
  const int threads = hardware_threads();
  const double budget = eax_crossing(3038, threads, Backend::Cpu);
  SolverConfig config;
  config.time_limit = budget * 1.01;
  // The CPU: the run is GA-EAX, all of its settings its own defaults.
  const SolverConfig cpu = resolve_config(config, 3038, Backend::Cpu);
  EXPECT_EQ(cpu.algorithm, Algorithm::Eax);
  EXPECT_EQ(cpu.eax.population, SolverConfig{}.eax.population);
  EXPECT_EQ(cpu.eax.climb, population::EaxClimb::LinKernighan);  // its start tours climbed by Lin-Kernighan
  const std::string summary = portfolio_summary(cpu, 3038, EdgeWeightType::Euc2D, Backend::Cpu);
  EXPECT_NE(summary.find("GA-EAX"), std::string::npos) << summary;
  EXPECT_NE(summary.find("100 tours climbed by Lin-Kernighan, 30 children per pair"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("on the CPU"), std::string::npos) << summary;
  // The GPU, wherever the CPU runs GA-EAX alone: the colonies, their host threads run GA-EAX as the
  // CPU does (its climbs, its population), sharing one population with them.
  const SolverConfig gpu = resolve_config(config, 3038, Backend::Cuda);
  EXPECT_EQ(gpu.algorithm, Algorithm::Mmas);
  EXPECT_GE(gpu.colony.lk_threads, 1);
  EXPECT_EQ(gpu.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(gpu.eax.climb, population::EaxClimb::LinKernighan);
  EXPECT_FALSE(gpu.colony.lk_independent);
  EXPECT_NO_THROW(gpu.validate());
  const std::string on_gpu = portfolio_summary(gpu, 3038, EdgeWeightType::Euc2D, Backend::Cuda);
  EXPECT_NE(on_gpu.find("of GA-EAX"), std::string::npos) << on_gpu;
  for (const int n : {400, 759, 999}) {  // below the band beside the colonies: still where the CPU runs it
    EXPECT_EQ(resolve_config(config, n, Backend::Cpu).algorithm, Algorithm::Eax) << n;
    EXPECT_EQ(resolve_config(config, n, Backend::Cuda).colony.host_search, aco::HostSearch::Eax) << n;
  }
  EXPECT_EQ(resolve_config(config, 399, Backend::Cuda).colony.host_search, aco::HostSearch::LinKernighan);
  SolverConfig ample = config;
  ample.time_limit = eax_crossing(3038, 1, Backend::Cuda) * 1.01;  // enough for one thread
  EXPECT_EQ(resolve_config(ample, 3038, Backend::Cuda).colony.host_search, aco::HostSearch::Eax);
  // Less time, or outside the band measured (on the CPU 400 to 90,000 cities): the colonies.
  SolverConfig brief = config;
  brief.time_limit = budget * 0.99;
  EXPECT_EQ(resolve_config(brief, 3038, Backend::Cpu).algorithm, Algorithm::Mmas);
  EXPECT_EQ(resolve_config(config, 999, Backend::Cpu).algorithm, Algorithm::Eax);
  EXPECT_EQ(resolve_config(config, 399, Backend::Cpu).algorithm, Algorithm::Mmas);
  SolverConfig huge;
  huge.time_limit = 3600;
  EXPECT_EQ(resolve_config(huge, 90'001, Backend::Cpu).algorithm, Algorithm::Mmas);
  EXPECT_EQ(resolve_config(huge, 90'000, Backend::Cpu).algorithm, Algorithm::Eax);
  // On the GPU the host threads beside the colonies run GA-EAX inside the band, Lin-Kernighan above it.
  SolverConfig long_gpu;
  long_gpu.time_limit = 7200;  // past pla85900's crossing even on one host thread (561 s)
  EXPECT_EQ(resolve_config(long_gpu, 85'900, Backend::Cuda).colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(resolve_config(long_gpu, 90'001, Backend::Cuda).colony.host_search, aco::HostSearch::LinKernighan);
  // A run bounded by iterations, or one where the user chose anything of the colonies, islands or
  // the host threads, keeps the colonies; general settings do not.
  SolverConfig counted = config;
  counted.iterations = 100;
  EXPECT_EQ(resolve_config(counted, 3038, Backend::Cpu).algorithm, Algorithm::Mmas);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"ants", "32"}, {"rho", "0.5"}, {"local-search", "three-opt"}, {"islands", "1"}, {"host-search", "eax"}}) {
    SolverConfig named = config;
    set_parameter(named, name, value);
    EXPECT_EQ(resolve_config(named, 3038, Backend::Cpu).algorithm, Algorithm::Mmas) << name;
  }
  SolverConfig general = config;
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"algorithm", "auto"}, {"seed", "3"}, {"target", "137694"}, {"polish", "false"}, {"backend", "cpu"}})
    set_parameter(general, name, value);
  EXPECT_EQ(resolve_config(general, 3038, Backend::Cpu).algorithm, Algorithm::Eax);
  SolverConfig focused = config;
  focused.colony.focused_edges = 8;  // set in code, not named: still a choice of the colonies
  EXPECT_EQ(resolve_config(focused, 3038, Backend::Cpu).algorithm, Algorithm::Mmas);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"host-search", "lin-kernighan"}, {"lk-step", "5opt"}}) {
    SolverConfig kept = ample;
    set_parameter(kept, name, value);
    EXPECT_EQ(resolve_config(kept, 3038, Backend::Cuda).colony.host_search, aco::HostSearch::LinKernighan) << name;
  }
}

/// resolve_algorithm says what auto runs, GA-EAX included, and auto_eax how GA-EAX runs.
TEST(Solver, ResolveAlgorithmSaysWhatAutoRuns) {
  SolverConfig request;
  request.time_limit = 1000.0;  // past eax_budget on 5,000 cities on the CPU and beside the GPU's colonies
  EXPECT_EQ(auto_eax(request, 5000, Backend::Cpu), AutoEax::Alone);
  EXPECT_EQ(resolve_algorithm(request, 5000, Backend::Cpu), Algorithm::Eax);
  EXPECT_EQ(auto_eax(request, 5000, Backend::Cuda), AutoEax::BesideColonies);
  EXPECT_EQ(resolve_algorithm(request, 5000, Backend::Cuda), Algorithm::Mmas);
  EXPECT_EQ(resolve_config(request, 5000, Backend::Cuda).colony.host_search, aco::HostSearch::Eax);
  // Below 400 cities, or a run of counted iterations: the colonies, and no GA-EAX.
  EXPECT_EQ(auto_eax(request, 399, Backend::Cpu), AutoEax::None);
  EXPECT_EQ(resolve_algorithm(request, 399, Backend::Cpu), Algorithm::Mmas);
  EXPECT_EQ(auto_eax(request, 400, Backend::Cpu), AutoEax::Alone);
  EXPECT_EQ(auto_eax(request, 999, Backend::Cuda), AutoEax::BesideColonies);  // where the CPU runs it alone
  EXPECT_EQ(auto_eax(request, 399, Backend::Cuda), AutoEax::None);
  SolverConfig counted;
  counted.iterations = 10;
  EXPECT_EQ(auto_eax(counted, 5000, Backend::Cpu), AutoEax::None);
  EXPECT_EQ(resolve_algorithm(counted, 5000, Backend::Cpu), Algorithm::Mmas);
  // A named algorithm is what runs.
  SolverConfig acs = request;
  acs.algorithm = Algorithm::Acs;
  EXPECT_EQ(auto_eax(acs, 5000, Backend::Cpu), AutoEax::None);
  EXPECT_EQ(resolve_algorithm(acs, 5000, Backend::Cpu), Algorithm::Acs);
}

TEST(Solver, AutoStartsGaEaxFromFewToursWhenTheRunEndsAtATarget) {
  // Alone on the CPU, a run given a target starts from 50 tours (grown as they converge) up to
  // 5,000 cities, whatever the time limit; without a target the time limit sizes the population.
  SolverConfig config;
  config.time_limit = 100;
  const SolverConfig sized = resolve_config(config, 1002, Backend::Cpu);
  ASSERT_EQ(sized.algorithm, Algorithm::Eax);
  EXPECT_GT(sized.eax.population, 100);
  SolverConfig targeted = config;
  set_parameter(targeted, "target", "259045");
  const SolverConfig to_target = resolve_config(targeted, 1002, Backend::Cpu);
  EXPECT_EQ(to_target.eax.population, 50);
  EXPECT_FALSE(to_target.eax.restart_apart);
  EXPECT_EQ(to_target.eax.climb, population::EaxClimb::LinKernighan);
  EXPECT_GT(resolve_config(targeted, 5001, Backend::Cpu).eax.population, 50);
  SolverConfig named = targeted;
  set_parameter(named, "population", "120");
  EXPECT_EQ(resolve_config(named, 1002, Backend::Cpu).eax.population, 120);
  // An asymmetric instance's form: GA-EAX from 300 of its cities (150 of the instance's), and with a
  // target the populations after the first climbed apart.
  SolverConfig asymmetric = targeted;
  asymmetric.asymmetric_form = true;
  EXPECT_EQ(resolve_config(asymmetric, 299, Backend::Cpu).algorithm, Algorithm::Mmas);
  const SolverConfig form = resolve_config(asymmetric, 400, Backend::Cpu);
  ASSERT_EQ(form.algorithm, Algorithm::Eax);
  EXPECT_EQ(form.eax.population, 50);
  EXPECT_TRUE(form.eax.restart_apart);
  EXPECT_EQ(resolve_config(targeted, 399, Backend::Cpu).algorithm, Algorithm::Mmas);
  // On the GPU the host threads beside the colonies start GA-EAX as the CPU alone does.
  const SolverConfig gpu_target = resolve_config(targeted, 1002, Backend::Cuda);
  EXPECT_EQ(gpu_target.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(gpu_target.eax.population, 50);
  EXPECT_EQ(gpu_target.eax.climb, population::EaxClimb::LinKernighan);
  const SolverConfig gpu_form = resolve_config(asymmetric, 400, Backend::Cuda);
  EXPECT_EQ(gpu_form.colony.host_search, aco::HostSearch::Eax);
  EXPECT_TRUE(gpu_form.eax.restart_apart);
}

TEST(Solver, AutoJoinsGaEaxsSubtoursOverQuadrantListsOnSmallInstances) {
  // Below 1,000 cities GA-EAX's climbs and joins search quadrant neighbours (a clustered
  // instance's joins need the links out of its clusters), on the CPU alone and beside the GPU's
  // colonies; from 1,000 the nearest; a named --eax-lists is kept. docs/tuning.md#eax-lists
  SolverConfig config;
  config.time_limit = 100;
  const SolverConfig small = resolve_config(config, 999, Backend::Cpu);
  ASSERT_EQ(small.algorithm, Algorithm::Eax);
  EXPECT_EQ(small.eax.lists, NeighbourShape::Quadrant);
  EXPECT_NE(portfolio_summary(small, 999, EdgeWeightType::Euc2D, Backend::Cpu).find("over quadrant lists"),
            std::string::npos);
  EXPECT_NE(small.eax.describe().find("10 quadrant neighbours"), std::string::npos) << small.eax.describe();
  EXPECT_EQ(resolve_config(config, 1000, Backend::Cpu).eax.lists, NeighbourShape::Nearest);
  const SolverConfig beside = resolve_config(config, 999, Backend::Cuda);
  ASSERT_EQ(beside.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(beside.eax.lists, NeighbourShape::Quadrant);
  SolverConfig named = config;
  set_parameter(named, "eax-lists", "nearest");
  const SolverConfig nearest = resolve_config(named, 999, Backend::Cpu);
  EXPECT_EQ(nearest.eax.lists, NeighbourShape::Nearest);
  // GA-EAX's own parameters set it up and leave auto's choice as it was: GA-EAX alone still.
  EXPECT_EQ(nearest.algorithm, Algorithm::Eax);
  set_parameter(named, "population", "30");
  set_parameter(named, "eax-climb", "or-opt");
  const SolverConfig chosen = resolve_config(named, 999, Backend::Cpu);
  EXPECT_EQ(chosen.algorithm, Algorithm::Eax);
  EXPECT_EQ(chosen.eax.population, 30);
  EXPECT_EQ(chosen.eax.climb, population::EaxClimb::OrOpt);  // kept, not auto's Lin-Kernighan
  EXPECT_THROW(set_parameter(named, "eax-lists", "alpha"), InputError);
}

TEST(Solver, TheGpusDrivingThreadSleepsWhereHostThreadsTakeTheCores) {
  // auto: host threads beside the GPU search take every core but the driving thread's, which
  // blocks; spin leaves it one more core; a run without host threads spins.
  SolverConfig config;
  config.time_limit = 1;
  const SolverConfig waits = resolve_config(config, 20'000, Backend::Cuda);
  EXPECT_EQ(waits.colony.lk_threads, std::max(1, hardware_threads() - 1));
  EXPECT_TRUE(gpu_waits_blocking(waits));
  SolverConfig spin = config;
  set_parameter(spin, "gpu-wait", "spin");
  const SolverConfig spins = resolve_config(spin, 20'000, Backend::Cuda);
  EXPECT_EQ(spins.colony.lk_threads, std::max(1, hardware_threads() - 2));
  EXPECT_FALSE(gpu_waits_blocking(spins));
  SolverConfig alone = config;
  set_parameter(alone, "lk-threads", "0");
  EXPECT_FALSE(gpu_waits_blocking(resolve_config(alone, 20'000, Backend::Cuda)));
  set_parameter(alone, "gpu-wait", "block");
  EXPECT_TRUE(gpu_waits_blocking(resolve_config(alone, 20'000, Backend::Cuda)));
  EXPECT_THROW(set_parameter(alone, "gpu-wait", "sleep"), InputError);
}

TEST(Solver, AutoSizesGaEaxsPopulationByTheTimeLimit) {
  // 100 tours (the default) up to twice the budget in which 100 converge, then in proportion to
  // the time limit, at most 1,000.
  const int first = SolverConfig{}.eax.population;
  const double budget = eax_budget(13509, 14, Backend::Cpu);
  EXPECT_EQ(eax_population(13509, 14, budget, Backend::Cpu), first);
  EXPECT_EQ(eax_population(13509, 14, 2 * budget, Backend::Cpu), first);
  EXPECT_EQ(eax_population(13509, 14, 6.02 * budget, Backend::Cpu), 3 * first);
  EXPECT_EQ(eax_population(13509, 14, 1e6, Backend::Cpu), 1000);
  EXPECT_EQ(eax_population(13509, 14, 1e300, Backend::Cpu), 1000);  // no overflow (found by fuzz_parameters)
  EXPECT_LT(eax_population(13509, 4, 6.02 * budget, Backend::Cpu),
            3 * first);  // fewer threads, a slower population
  EXPECT_EQ(eax_population(13509, 14, 5.01 * budget, Backend::Cpu) % 10, 0);
  // Both backends' auto take it; a population the user named stays.
  SolverConfig config;
  config.time_limit = 6 * eax_budget(3038, hardware_threads(), Backend::Cpu);
  const SolverConfig cpu = resolve_config(config, 3038, Backend::Cpu);
  ASSERT_EQ(cpu.algorithm, Algorithm::Eax);
  EXPECT_EQ(cpu.eax.population, eax_population(3038, hardware_threads(), *config.time_limit, Backend::Cpu));
  EXPECT_GT(cpu.eax.population, first);
  const SolverConfig gpu = resolve_config(config, 3038, Backend::Cuda);
  ASSERT_GE(gpu.colony.lk_threads, 1);  // the GPU keeps at least one host thread beside its colonies
  ASSERT_EQ(gpu.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(gpu.eax.population,
            eax_population(3038, gpu.colony.lk_threads, *config.time_limit, Backend::Cuda));
  const std::string summary = portfolio_summary(gpu, 3038, EdgeWeightType::Euc2D, Backend::Cuda);
  EXPECT_NE(summary.find(concat("a population of ", gpu.eax.population, " tours")), std::string::npos)
      << summary;
  SolverConfig named = config;
  set_parameter(named, "population", "40");
  EXPECT_EQ(resolve_config(named, 3038, Backend::Cuda).eax.population, 40);
  // The colonies' runs keep the default: no GA-EAX there.
  SolverConfig brief;
  brief.time_limit = 1;
  EXPECT_EQ(resolve_config(brief, 3038, Backend::Cuda).eax.population, first);
}

TEST(Solver, AutoClimbsGaEaxsPopulationFromNearestNeighbourToursBesideTheGpusColoniesOnLargeInstances) {
  // From 50,000 cities on the GPU: nearest-neighbour starts climbed by Lin-Kernighan, a crossing at
  // 60 s on 14 threads (pla85900) instead of 485 s (242 s on the CPU), 50 tours there and 100 at 120 s; the
  // CPU, and smaller instances, as before.
  EXPECT_TRUE(eax_nearest_starts(50'000, Backend::Cuda));
  EXPECT_FALSE(eax_nearest_starts(49'999, Backend::Cuda));
  EXPECT_FALSE(eax_nearest_starts(85'900, Backend::Cpu));
  EXPECT_NEAR(eax_budget(85'900, 14, Backend::Cuda), 60, 0.5);
  EXPECT_NEAR(eax_budget(85'900, 14, Backend::Cpu), 242.3, 0.5);
  EXPECT_NEAR(eax_budget(33'810, 14, Backend::Cuda), eax_budget(33'810, 14, Backend::Cpu), 1e-6);
  EXPECT_EQ(eax_population(85'900, 14, 60, Backend::Cuda), 50);
  EXPECT_EQ(eax_population(85'900, 14, 120, Backend::Cuda), 100);
  EXPECT_EQ(eax_population(85'900, 14, 40, Backend::Cuda), 50);  // a user's --host-search eax below it
  EXPECT_EQ(eax_population(85'900, 14, 300, Backend::Cpu), 100);

  SolverConfig config;
  const SolverConfig probe = resolve_config(config, 85'900, Backend::Cuda);
  ASSERT_GE(probe.colony.lk_threads, 1);  // the GPU keeps at least one host thread beside its colonies
  const int threads = probe.colony.lk_threads;
  config.time_limit = eax_budget(85'900, threads, Backend::Cuda) * 1.01;
  const SolverConfig gpu = resolve_config(config, 85'900, Backend::Cuda);
  EXPECT_EQ(gpu.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(gpu.eax.start, localsearch::StartKind::NearestNeighbour);
  EXPECT_EQ(gpu.eax.climb, population::EaxClimb::LinKernighan);
  EXPECT_EQ(gpu.eax.population, eax_population(85'900, threads, *config.time_limit, Backend::Cuda));
  EXPECT_NO_THROW(gpu.validate());
  const std::string summary = portfolio_summary(gpu, 85'900, EdgeWeightType::Ceil2D, Backend::Cuda);
  EXPECT_NE(summary.find("climbed by Lin-Kernighan from nearest-neighbour tours"), std::string::npos)
      << summary;
  // Below the crossing the Lin-Kernighan threads, their start untouched; a start the user named stays.
  SolverConfig brief = config;
  brief.time_limit = eax_budget(85'900, threads, Backend::Cuda) * 0.99;
  const SolverConfig lk = resolve_config(brief, 85'900, Backend::Cuda);
  EXPECT_EQ(lk.colony.host_search, aco::HostSearch::LinKernighan);
  EXPECT_EQ(lk.eax.start, SolverConfig{}.eax.start);
  EXPECT_EQ(lk.eax.climb, SolverConfig{}.eax.climb);
  SolverConfig named = config;
  set_parameter(named, "eax-start", "space-filling-curve");
  set_parameter(named, "eax-climb", "or-opt");
  const SolverConfig chosen = resolve_config(named, 85'900, Backend::Cuda);
  EXPECT_EQ(chosen.eax.start, localsearch::StartKind::SpaceFillingCurve);
  EXPECT_EQ(chosen.eax.climb, population::EaxClimb::OrOpt);
  // Smaller instances keep random starts at any budget, climbed by Lin-Kernighan as the host alone
  // climbs them, their first climbs on the GPU.
  SolverConfig long_run;
  long_run.time_limit = 3600;
  const SolverConfig mid = resolve_config(long_run, 33'810, Backend::Cuda);
  EXPECT_EQ(mid.colony.host_search, aco::HostSearch::Eax);
  EXPECT_EQ(mid.eax.start, localsearch::StartKind::Random);
  EXPECT_EQ(mid.eax.climb, population::EaxClimb::LinKernighan);
  EXPECT_TRUE(mid.eax.gpu_climbs);
  EXPECT_FALSE(resolve_config(long_run, 33'810, Backend::Cpu).eax.gpu_climbs);
  SolverConfig on_host = long_run;
  set_parameter(on_host, "eax-gpu-climbs", "false");
  EXPECT_FALSE(resolve_config(on_host, 33'810, Backend::Cuda).eax.gpu_climbs);
  // No bridge there: the population of random starts overtakes the colonies within seconds.
  EXPECT_EQ(mid.eax.bridge_threads, 0);
}

TEST(Solver, BridgeThreadsNeedGaEaxBesideTheColoniesAndLeaveItOne) {
  SolverConfig config;
  set_parameter(config, "eax-bridge-threads", "2");
  EXPECT_NO_THROW(config.validate());  // auto: checked as the colonies it may run
  set_parameter(config, "algorithm", "eax");
  EXPECT_THROW(config.validate(), InputError);
  set_parameter(config, "algorithm", "mmas");
  EXPECT_THROW(config.validate(), InputError);  // the host threads run Lin-Kernighan
  set_parameter(config, "host-search", "eax");
  set_parameter(config, "merge-tours", "true");
  set_parameter(config, "lk-threads", "3");
  EXPECT_NO_THROW(config.validate());
  set_parameter(config, "lk-threads", "2");
  EXPECT_THROW(config.validate(), InputError);
  set_parameter(config, "eax-bridge-threads", "-1");
  EXPECT_THROW(config.validate(), InputError);
}

TEST(Solver, TheHostThreadsRunGaEaxBesideTheColonies) {
  const Instance instance = io::generate_instance(1200, io::InstanceKind::Uniform, 5);
  SolverConfig config;
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"algorithm", "mmas"}, {"backend", "cpu"}, {"threads", "1"}, {"local-search", "two-opt"},
           {"focused-edges", "32"}, {"merge-tours", "true"}, {"lk-threads", "2"}, {"host-search", "eax"}})
    set_parameter(config, name, value);
  // Well below the nearest-neighbour tour after the exact 2-opt + Or-opt + 3-opt polish: the bar is
  // the target, so the run ends once there; the sanitizer builds get their slowdown's time for it.
  std::vector<int32_t> polished = nearest_neighbour_tour(instance, 0);
  localsearch::cpu::polish_tour(instance, polished, 1);
  const auto bar = static_cast<int64_t>(0.98 * static_cast<double>(tour_length(instance, polished)));
  config.target = bar;
  config.time_limit = 3.0 * test::time_scale();
  const Result result = solve(instance, config);
  EXPECT_EQ(result.config.colony.host_search, aco::HostSearch::Eax);
  EXPECT_NE(result.config.describe_algorithm().find("host-search=eax"), std::string::npos);
  validate_permutation(result.tour.order(), instance.n());
  EXPECT_EQ(result.tour.length(), tour_length(instance, result.tour.order()));
  EXPECT_LE(result.tour.length(), bar);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"lk-stretch", "100"}, {"lk-independent", "true"}}) {
    SolverConfig bad = config;
    set_parameter(bad, name, value);
    EXPECT_THROW(bad.validate(), InputError) << name;
  }
}

TEST(Solver, DefaultStoppingRuleGrowsWithTheInstance) {
  SolverConfig config;
  EXPECT_EQ(resolve_config(config, 1000, Backend::Cpu).time_limit, 10.0);
  EXPECT_EQ(resolve_config(config, 100'000, Backend::Cpu).time_limit, 50.0);
  EXPECT_EQ(resolve_config(config, 200'000, Backend::Cpu).time_limit, 60.0);
  EXPECT_EQ(resolve_config(config, 1'000'000, Backend::Cpu).time_limit, 60.0);
  config.target = 5;  // a target may never be reached: it does not replace the default
  EXPECT_EQ(resolve_config(config, 1000, Backend::Cpu).time_limit, 10.0);
  config.iterations = 3;
  EXPECT_FALSE(resolve_config(config, 1000, Backend::Cpu).time_limit);
  config = SolverConfig{};
  config.time_limit = 2.5;
  EXPECT_EQ(resolve_config(config, 1000, Backend::Cpu).time_limit, 2.5);
  EXPECT_FALSE(resolve_config(config, 1000, Backend::Cpu).iterations);
}

TEST(Solver, ResultReportsWhatRan) {
  const Instance instance = io::generate_instance(40, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.iterations = 3;
  config.backend = Backend::Cpu;
  const Result result = solve(instance, config);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_EQ(result.config.algorithm, Algorithm::Mmas);
  EXPECT_EQ(result.config.backend, Backend::Cpu);
  EXPECT_EQ(result.config.threads, hardware_threads());
  EXPECT_EQ(result.config.ant_system.ants, resolve_config(config, 40, Backend::Cpu).ant_system.ants);
  EXPECT_EQ(result.config.iterations, 3);
  EXPECT_FALSE(result.config.time_limit);

  const auto report = nlohmann::json::parse(result_json(instance, result, std::nullopt));
  EXPECT_EQ(report["algorithm"], "mmas");
  EXPECT_EQ(report["parameters"], parameters_json(result.config));
  EXPECT_EQ(report["parameters"]["local_search"], "three-opt");
  EXPECT_EQ(report["parameters"]["polish"], true);
}

/// The time limit counts from program start, setup included: on 200,000 cities and 2 cores the
/// colonies' setup (lists, the climbed start tour) and their first iteration took 2.8-5.8 s of a
/// 2-s limit before the setup's climb and the first iteration of a search that already holds a tour
/// obeyed it. A limit already spent when solve() starts leaves the start tour, all but unclimbed,
/// unpolished, and no iteration.
TEST(Solver, TimeLimitSpentBeforeTheSearchStartsReturnsTheStartTour) {
  const Instance instance = io::generate_instance(2000, io::InstanceKind::Uniform, 3);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.time_limit = 1.0;
  SolveOptions options;
  options.start = std::chrono::steady_clock::now() - std::chrono::seconds(5);
  const Result late = solve(instance, config, options);
  EXPECT_EQ(late.stop_reason, "time limit");
  EXPECT_EQ(late.iterations, 0);
  ASSERT_EQ(late.history.size(), 1u);
  EXPECT_EQ(late.history[0].length, late.tour.length());
  // The nearest-neighbour tour, its climb stopped at the first poll of the limit (every 1024 moves looked at).
  EXPECT_LE(late.tour.length(), tour_length(instance, nearest_neighbour_tour(instance, 0)));

  config.time_limit.reset();
  config.iterations = 1;
  EXPECT_LT(solve(instance, config).tour.length(), late.tour.length());
}

/// A search that has no tour when its time runs out (2-opt restarts in their first climbs) ends on
/// the space-filling curve's tour, a sort, instead of the nearest-neighbour tour's n k-d tree
/// queries after the deadline (200,000 cities: 0.22 s past a 1-s limit on 2 cores).
TEST(Solver, ASearchWithoutATourAtItsDeadlineEndsOnTheSpaceFillingCurvesTour) {
  const Instance instance = io::generate_instance(20000, io::InstanceKind::Uniform, 7);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.algorithm = Algorithm::TwoOpt;
  config.time_limit = 0.2;
  config.polish = false;
  const Result result = solve(instance, config);
  ASSERT_EQ(result.iterations, 0) << "a restart's climb ended within the limit: the case needs more cities";
  EXPECT_EQ(result.stop_reason, "time limit");
  EXPECT_EQ(result.tour.length(), tour_length(instance, space_filling_curve_tour(instance, 0, config.seed)));
  EXPECT_LT(result.phase_seconds.finish, 0.05 * test::time_scale());
}

/// The phases of a run (set-up, iterations, finish, polish) follow each other and together take
/// nearly all of its seconds; the JSON report carries them.
TEST(Solver, PhaseSecondsAddUpToTheRun) {
  const Instance instance = io::generate_instance(3000, io::InstanceKind::Uniform, 5);
  SolverConfig config;
  config.backend = Backend::Cpu;
  config.iterations = 3;
  const Result result = solve(instance, config);
  const Result::Phases& p = result.phase_seconds;
  EXPECT_GT(p.setup, 0.0);   // lists and the climbed start tour
  EXPECT_GT(p.search, 0.0);  // three iterations
  EXPECT_GE(p.finish, 0.0);
  EXPECT_GT(p.polish, 0.0);  // the polish builds its lists
  const double sum = p.setup + p.search + p.finish + p.polish;
  EXPECT_LE(sum, result.seconds + 1e-9);
  EXPECT_GE(sum, 0.9 * result.seconds - 0.01);
  const auto report = nlohmann::json::parse(result_json(instance, result, std::nullopt));
  EXPECT_DOUBLE_EQ(report["phase_seconds"]["setup"].get<double>(), p.setup);
  EXPECT_DOUBLE_EQ(report["phase_seconds"]["search"].get<double>(), p.search);
  EXPECT_DOUBLE_EQ(report["phase_seconds"]["finish"].get<double>(), p.finish);
  EXPECT_DOUBLE_EQ(report["phase_seconds"]["polish"].get<double>(), p.polish);
}

TEST(Solver, AutoGivesTheSameRunAsItsResolvedConfig) {
  const Instance instance = io::generate_instance(60, io::InstanceKind::Clustered, 2);
  SolverConfig automatic;
  automatic.iterations = 4;
  automatic.backend = Backend::Cpu;
  const SolverConfig explicit_config = resolve_config(automatic, 60, Backend::Cpu);
  const Result a = solve(instance, automatic), b = solve(instance, explicit_config);
  EXPECT_TRUE(std::equal(a.tour.order().begin(), a.tour.order().end(), b.tour.order().begin()));
  EXPECT_EQ(parameters_json(a.config), parameters_json(b.config));
}

TEST(Solver, PolishLeavesALocalOptimumOfTwoOptOrOptAndThreeOpt) {
  // Ant System's tours after two iterations are far from any local optimum; the polish takes the
  // best one all the way, exactly, and says so in the history.
  const Instance instance = io::generate_instance(300, io::InstanceKind::Uniform, 5);
  SolverConfig config;
  config.algorithm = Algorithm::AntSystem;
  config.backend = Backend::Cpu;
  config.iterations = 2;
  config.polish = false;
  const Result rough = solve(instance, config);
  config.polish = true;
  const Result polished = solve(instance, config);
  EXPECT_LT(polished.tour.length(), rough.tour.length());
  EXPECT_EQ(polished.history.back().length, polished.tour.length());
  std::vector<int32_t> again(polished.tour.order().begin(), polished.tour.order().end());
  EXPECT_EQ(localsearch::cpu::polish_tour(instance, again, 1).moves, 0);
  const CandidateLists lists = build_candidate_lists(instance, localsearch::cpu::kPolishNeighbours);
  EXPECT_EQ(test::best_listed_or_opt_gain(instance, lists, again, false), 0);
  EXPECT_EQ(test::best_listed_three_opt_gain(instance, lists, again), 0);
}

TEST(Solver, MemoryPlanNamesHostAndDevice) {
  const Instance instance = io::generate_instance(1000, io::InstanceKind::Uniform, 1);
  const SolverConfig c = resolve_config(colonies(), 1000, Backend::Cpu);
  const std::string cpu = memory_plan(instance, c, Backend::Cpu);
  EXPECT_NE(cpu.find("host "), std::string::npos) << cpu;
  EXPECT_EQ(cpu.find("GPU"), std::string::npos) << cpu;
  const std::string gpu =
      memory_plan(instance, resolve_config(colonies(), 1000, Backend::Cuda), Backend::Cuda);
  EXPECT_NE(gpu.find("GPU "), std::string::npos) << gpu;
  // Every algorithm has a plan: Ant System's dense matrices on the CPU too.
  SolverConfig as;
  as.algorithm = Algorithm::AntSystem;
  EXPECT_NE(memory_plan(instance, as, Backend::Cpu).find("(Ant System's dense matrices)"), std::string::npos);
}

TEST(Solver, TooLittleMemoryIsAnOutOfMemoryError) {
  // 200,000 cities with 4096 ants need gigabytes; a budget of 1 MiB refuses them before allocating.
  aco::ColonyConfig config;
  config.ants = 4096;
  config.local_search = localsearch::LocalSearchKind::OrOpt;
  config.focused_edges = 8;
  EXPECT_GT(aco::colony_memory(200'000, config, false).host, size_t{1} << 30);
  EXPECT_GT(aco::colony_memory(200'000, config, true).device, size_t{1} << 30);
  EXPECT_THROW(expect_memory(aco::colony_memory(200'000, config, false).host, size_t{1} << 20, "test"),
               OutOfMemoryError);
  EXPECT_NO_THROW(expect_memory(100, size_t{1} << 20, "test"));
  // The Lin-Kernighan threads' host memory grows with their count, and with independent walks.
  config.merge_tours = true;
  config.lk_threads = 4;
  const size_t shared = aco::colony_memory(200'000, config, true).host;
  EXPECT_GT(shared, 200'000 * size_t{4} * 17);
  config.lk_independent = true;
  EXPECT_EQ(aco::colony_memory(200'000, config, true).host - shared, 200'000 * size_t{4} * 8);
  // Alpha lists: the ascent that runs beside the threads until it hands them over.
  config.lk_independent = false;
  config.lk_lists = aco::LkLists::Alpha;
  EXPECT_EQ(aco::colony_memory(200'000, config, true).host - shared, 200'000 * bounds::kAscentBytesPerCity);
  config.lk_lists = aco::LkLists::Colonies;
  // GA-EAX's threads hold a population of tours: 100 tours and the next generation's, 8 bytes a
  // city each, beyond what the Lin-Kernighan threads need.
  config.host_search = aco::HostSearch::Eax;
  const size_t hundred = aco::colony_memory(200'000, config, true).host;
  EXPECT_GT(hundred, shared + size_t{200'000} * 100 * 8);
  config.eax.population = 300;  // --population with --host-search eax
  EXPECT_EQ(aco::colony_memory(200'000, config, true).host - hundred, size_t{200'000} * 200 * 8);
  EXPECT_NO_THROW(expect_memory(size_t{1} << 40, std::nullopt, "unknown availability"));
}

}  // namespace
}  // namespace formica
