// SPDX-License-Identifier: MIT
// Very large tours (docs/large-instances.md): the Lin-Kernighan host threads over the whole tour
// (localsearch/cpu/iterated_lin_kernighan.h) against the same threads over stretches
// (decomposition/stretch_lin_kernighan.h), from the same start tour, for the same wall time.
// The start is what the focused colonies start from (aco/cpu/focused_construction.h), or with
// --nearest a nearest-neighbour tour climbed whole with 2-opt + Or-opt + 3-opt over 10 neighbours. Prints the
// length every --every seconds for each.
// --batch-stretches adds a third run: the whole-tour threads with the batch solver's walks over
// stretches beside them (batch/stretch_batch.h; on the GPU where there is one), the two searches'
// tours merged (population::merge_tours) and handed to both every --exchange seconds.
//   large_tour_bench --cities 1000000 --seconds 60 [--threads 0] [--stretch 1000] [--kicks 0]
//   large_tour_bench --instance pcb3038 --seconds 20 --threads 1 --whole-only   (a TSPLIB instance)
//   large_tour_bench --cities 200000 --seconds 60 --whole-only --batch-stretches --lk-step 3opt
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "aco/colony_config.h"
#include "aco/colony_merge.h"
#include "aco/cpu/focused_construction.h"
#include "batch/stretch_batch.h"
#include "bench_support.h"
#include "bounds/alpha_nearness.h"
#include "core/candidates.h"
#include "core/nearest_neighbour.h"
#include "core/tour.h"
#include "decomposition/stretch_lin_kernighan.h"
#include "io/generator.h"
#include "io/tsplib.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "solver/solver.h"

namespace {

using namespace formica;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"very large tours: whole-tour Lin-Kernighan threads against stretch threads"};
  int cities = 200000, threads = 0, stretch = decomposition::kDefaultStretchCities, kicks = 0;
  double seconds = 30, every = 5;
  uint64_t seed = 1;
  bool stretches_only = false, whole_only = false, nearest = false, seconds_only_start = false;
  std::string instance_spec;
  app.add_option("--cities", cities, "uniform instance size")->check(CLI::Range(2000, 10000000));
  app.add_option("--seed", seed, "instance seed (and the threads')");
  app.add_option("--seconds", seconds, "wall time of each")->check(CLI::Range(0.1, 3600.0));
  app.add_option("--every", every, "seconds between printed lengths")->check(CLI::Range(0.1, 3600.0));
  app.add_option("--threads", threads, "Lin-Kernighan threads, 0 for all hardware threads");
  app.add_option("--stretch", stretch, "cities per stretch")->check(CLI::Range(8, 10000000));
  app.add_option("--kicks", kicks,
                 "kicks per stretch and round, 0 for as many as it has cities (at most 5,000)");
  app.add_option("--instance", instance_spec, "a TSPLIB name or path (or uniform:N[:seed]) instead of --cities");
  app.add_flag("--stretches-only", stretches_only, "leave out the whole-tour threads");
  app.add_flag("--whole-only", whole_only, "leave out the stretch threads");
  app.add_flag("--nearest", nearest, "start from the nearest-neighbour tour climbed whole (the colonies' start below 500,000 cities)");
  std::string step = "2opt";
  app.add_option("--lk-step", step, "the Lin-Kernighan chains' step: 2opt, 3opt or 5opt (sequential moves)")
      ->check(CLI::IsMember({"2opt", "3opt", "5opt"}));
  std::vector<int> breadth;
  app.add_option("--lk-breadth", breadth, "alternatives the chains try at their first three levels")
      ->expected(3)
      ->check(CLI::Range(1, 8));  // default: the step's (localsearch::cpu::lin_kernighan_options)
  int depth = 50, step_neighbours = 5, alpha = 0;
  app.add_option("--alpha", alpha,
                 "the Lin-Kernighan threads' lists: the K alpha-nearest of a Held-Karp ascent "
                 "(its time counted in the set-up) instead of --lists")
      ->check(CLI::Range(0, 10));
  int alpha_period = 0, alpha_neighbours = bounds::BoundOptions{}.neighbours;
  app.add_option("--alpha-period", alpha_period, "with --alpha: the ascent's first period, 0 for the default")
      ->check(CLI::Range(0, 100000));
  app.add_option("--alpha-neighbours", alpha_neighbours,
                 "with --alpha: nearest and quadrant neighbours per city in the ascent's sparse graph")
      ->check(CLI::Range(3, 20));
  std::string shape = "nearest";
  int list_size = 10;
  app.add_option("--lists", shape, "the Lin-Kernighan threads' lists when not alpha: nearest or quadrant")
      ->check(CLI::IsMember({"nearest", "quadrant"}));
  app.add_option("--neighbours", list_size, "cities per nearest or quadrant list")->check(CLI::Range(4, 20));
  app.add_option("--lk-neighbours", step_neighbours, "5opt: the first this many neighbours of each list")
      ->check(CLI::Range(1, 10));
  app.add_option("--lk-depth", depth, "steps of one chain at most")->check(CLI::Range(1, 1000));
  int max_reversal = -1;
  app.add_option(
         "--lk-max-reversal", max_reversal,
         "3opt on arrays (walks below 10,000 cities, whose tours are arrays): no step further along the "
         "tour than this many positions, 0 for no bound (default: the solver's, by n)")
      ->check(CLI::Range(0, 10000000));
  std::string start_file;
  app.add_option("--start", start_file, "start from this TSPLIB tour file instead");
  app.add_flag("--start-only", seconds_only_start, "only build the start tour");
  bool batch_stretches = false;
  int batch_stretch = batch::kDefaultBatchStretch, batch_walks = 0;
  double round_seconds = 2.0, exchange = 0.5;
  std::string batch_backend = "auto";
  app.add_flag("--batch-stretches", batch_stretches,
               "also run the whole-tour threads with the batch's walks over stretches beside them");
  app.add_option("--batch-stretch", batch_stretch, "cities per batch stretch")->check(CLI::Range(8, 100000));
  app.add_option("--batch-walks", batch_walks, "walks per batch stretch, 0 for the batch's choice")
      ->check(CLI::Range(0, 1024));
  app.add_option("--round-seconds", round_seconds, "seconds per batch round, set-up included")
      ->check(CLI::Range(0.05, 600.0));
  app.add_option("--exchange", exchange, "seconds between merges of the two searches' tours")
      ->check(CLI::Range(0.05, 600.0));
  app.add_option("--batch-backend", batch_backend, "the batch's backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  CLI11_PARSE(app, argc, argv);
  if (threads <= 0) threads = hardware_threads();

  auto start = std::chrono::steady_clock::now();
  const Instance instance =
      instance_spec.empty() ? io::generate_instance(cities, io::InstanceKind::Uniform, seed) : bench::load(instance_spec);
  const CandidateLists lists =
      alpha > 0 ? bounds::alpha_candidate_lists(
                      instance, alpha,
                      bounds::BoundOptions{
                          .threads = threads, .neighbours = alpha_neighbours, .initial_period = alpha_period})
                : build_candidate_lists(instance, list_size, threads, *parse_neighbour_shape(shape));
  const double setup = seconds_since(start);
  start = std::chrono::steady_clock::now();
  std::vector<int32_t> tour;
  if (!start_file.empty()) {
    try {
      tour = io::read_tour(start_file);
      validate_permutation(tour, instance.n());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", start_file.c_str(), e.what());
      return 1;
    }
  } else if (nearest) {
    tour = nearest_neighbour_tour(instance, 0);
    localsearch::cpu::NeighbourClimber(instance, lists,
                                       localsearch::cpu::climb_options(localsearch::LocalSearchKind::ThreeOpt, true))
        .climb(tour);
  } else {
    aco::ColonyConfig config;
    config.local_search = localsearch::LocalSearchKind::ThreeOpt;
    config.threads = threads;
    tour = aco::focused_start_tour(instance, config, &lists);
  }
  const int64_t length = tour_length(instance, tour);
  std::printf(
      "%s, %d cities, seed %llu (instance and lists %.1f s): start tour (%s) %lld in %.1f s; %d threads, "
      "%.0f s each\n",
      instance.name().c_str(), instance.n(), static_cast<unsigned long long>(seed), setup,
      !start_file.empty() ? start_file.c_str()
      : nearest           ? "nearest neighbour, 3-opt"
                          : "the colonies' focused_start_tour",
      static_cast<long long>(length), seconds_since(start), threads, seconds);
  if (seconds_only_start) return 0;
  // Offers the start to every search, prints the shortest published length every `every`
  // seconds and, with several searches, merges their tours every `exchange` seconds and offers the
  // merge to all of them.
  const auto run_all = [&](const char* name, std::vector<localsearch::cpu::TourCompanion*> searches) {
    const auto t0 = std::chrono::steady_clock::now();
    for (auto* search : searches) search->offer(tour, length);
    int64_t best = length;
    std::vector<int32_t> best_tour = tour;
    const auto exchange_tours = [&] {
      std::vector<std::vector<int32_t>> tours(searches.size());
      std::vector<population::LengthTour> donors;
      for (size_t i = 0; i < searches.size(); ++i) {
        const int64_t l = searches[i]->best(tours[i]);
        if (l >= 0) donors.emplace_back(l, tours[i]);
      }
      std::vector<int32_t> merged;
      const int64_t merged_length = population::merge_tours(instance, donors, merged);
      if (merged_length < best) {
        best = merged_length;
        best_tour = merged;
      }
      for (auto* search : searches) search->offer(best_tour, best);
    };
    const double interval = searches.size() > 1 ? std::min(exchange, every) : every;
    double next_print = every;
    for (double at = interval; at <= seconds + 1e-9; at += interval) {
      std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(at)));
      if (searches.size() > 1) exchange_tours();
      for (auto* search : searches) best = std::min(best, search->best_length());
      if (at + 1e-9 < next_print) continue;
      next_print += every;
      int64_t kicked = 0;
      for (auto* search : searches) kicked += search->kicks();
      std::printf("%-34s %7.1f s %14lld %8.3f %% below the start %12lld kicks\n", name, at, static_cast<long long>(best),
                  100.0 * static_cast<double>(length - best) / static_cast<double>(length), static_cast<long long>(kicked));
      std::fflush(stdout);
    }
    for (auto* search : searches) {
      search->stop();
      std::vector<int32_t> published;
      const int64_t final_length = search->best(published);
      if (final_length >= 0 && tour_length(instance, published) != final_length) {
        std::fprintf(stderr, "%s: the published length does not match its tour\n", name);
        std::exit(1);
      }
    }
  };
  const auto run = [&](const char* name, localsearch::cpu::TourCompanion& companion) { run_all(name, {&companion}); };
  const auto whole_options = [&] {
    localsearch::cpu::LinKernighanOptions lk =
        localsearch::cpu::lin_kernighan_options(*localsearch::parse_lk_step(step), instance.n());
    if (max_reversal >= 0) lk.max_reversal = max_reversal;
    if (!breadth.empty()) lk.breadth = {breadth[0], breadth[1], breadth[2]};
    lk.max_depth = depth;
    lk.step_neighbours = step_neighbours;
    return lk;
  };
  if (!stretches_only) {
    localsearch::cpu::IteratedLinKernighan whole(instance, lists, threads, seed, false, whole_options());
    run("whole tour", whole);
    if (whole.replayed() + whole.refused() > 0)
      std::printf("shared tour: %lld shortening kicks replayed, %lld refused\n",
                  static_cast<long long>(whole.replayed()), static_cast<long long>(whole.refused()));
  }
  if (batch_stretches) {
    batch::BatchConfig config;
    config.backend = *parse_backend(batch_backend);
    config.walks = batch_walks;
    config.seed = seed;
    config.threads = threads;
    localsearch::cpu::IteratedLinKernighan whole(instance, lists, threads, seed, false, whole_options());
    batch::StretchBatchSearch stretches(instance, config, batch_stretch, round_seconds);
    run_all("whole tour + batch stretches", {&whole, &stretches});
    if (const std::exception_ptr failure = stretches.failure()) std::rethrow_exception(failure);
    std::printf("batch stretch rounds: %lld, %lld kicks\n", static_cast<long long>(stretches.rounds()),
                static_cast<long long>(stretches.kicks()));
  }
  if (whole_only) return 0;
  decomposition::StretchLinKernighan stretches(instance, threads, seed, stretch, kicks, 0, {},
                                               *localsearch::parse_lk_step(step),
                                               *parse_neighbour_shape(shape));
  char name[64];
  std::snprintf(name, sizeof name, "stretches of %d, %d kicks", stretch,
                kicks > 0 ? kicks : std::min(stretch, decomposition::kMaxRoundKicks));
  run(name, stretches);
  std::printf("stretch rounds: %lld\n", static_cast<long long>(stretches.rounds()));
  return 0;
}
