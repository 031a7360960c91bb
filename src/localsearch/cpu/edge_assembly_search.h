// GA-EAX on host threads (--algorithm eax): a population of tours improved by edge assembly
// crossover (localsearch/edge_assembly.h), after Nagata and Kobayashi's GA-EAX (INFORMS Journal on
// Computing 25(2), 2013; its first stage, single AB-cycles, with greedy selection).
//
// The population starts from local optima of 2-opt and Or-opt over the 10 nearest neighbours,
// climbed from random permutations (the first from the caller's tour when one is given). Every
// generation puts it in a random order r, and each tour r(i) is crossed as parent A with r(i + 1)
// as parent B: up to `children` children, each from a random AB-cycle, and the shortest replaces A
// when it is shorter. All pairs of a generation read the population as it was at its start, so
// they run side by side on the threads and the result depends on the seed alone, not on the
// number of threads. The search has finished when a generation changes no tour.
//
// Measured on pcb3038 (this project's 2-core VM, 2 threads, bench/eax_bench, seed 1): a population
// of 100 converges at 0.063 % above the optimum in 3.8 s, 300 at 0.007 % in 12.6 s, 1,000 reaches
// the optimum in 34 s; fnl4461: 300 0.015 % in 28 s, 1,000 0.003 % in 89 s.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "localsearch/edge_assembly.h"

namespace formica::localsearch::cpu {

struct EdgeAssemblyConfig {
  int population = 300;  ///< tours (at least 2)
  int children = 30;     ///< children per pair at most (Nagata and Kobayashi's N_ch)
  int neighbours = 10;   ///< nearest neighbours per city: the start climbs' lists and the joins'
  int threads = 1;
  uint64_t seed = 1;

  /// Throws InputError naming the first value out of range.
  void validate() const;
  /// One line, e.g. "GA-EAX: population 300, 30 children per pair, 10 nearest neighbours".
  std::string describe() const;
};

/// The first step builds the population, each further step is one generation; finished() once a
/// generation changed no tour. A stop request cuts a step off between pairs (or start climbs), and
/// a step cut off changes nothing.
class EdgeAssemblySearch final : public Search {
 public:
  /// Builds the lists and the first tour of the population (climbed from a random permutation), or
  /// takes `start` (a permutation) as that tour, so that the search has a tour before its first step.
  EdgeAssemblySearch(const Instance& instance, const EdgeAssemblyConfig& config,
                     std::vector<int32_t> start = {});
  ~EdgeAssemblySearch() override;

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override { return best_tour_; }
  int64_t iteration_best_length() const override { return iteration_best_; }
  StepTimes last_step_times() const override { return times_; }
  Backend backend() const override { return Backend::Cpu; }
  bool finished() const override { return converged_; }

  int generations() const { return generations_; }
  /// Children made so far.
  int64_t children() const { return children_; }
  /// The population's tours (after the first step), each a permutation, and their lengths.
  const std::vector<std::vector<int32_t>>& population() const { return tours_; }
  const std::vector<int64_t>& lengths() const { return lengths_; }

 private:
  bool build_population(const StopFlag& stop);
  bool generation(const StopFlag& stop);
  /// The population's shortest tour as the iteration's best, and as the best when shorter.
  void take_shortest();

  const Instance& instance_;
  const EdgeAssemblyConfig config_;
  const uint64_t seed_;
  const CandidateLists lists_;
  std::vector<std::unique_ptr<EdgeAssembly>> assembly_;  // one per thread
  std::vector<std::vector<int32_t>> tours_, next_;
  std::vector<int64_t> lengths_, next_lengths_, made_;
  std::vector<int> order_;
  std::vector<int32_t> best_tour_;
  int64_t best_length_ = 0, iteration_best_ = 0, children_ = 0;
  int generations_ = 0;
  bool built_ = false, converged_ = false;
  StepTimes times_;
};

}  // namespace formica::localsearch::cpu
