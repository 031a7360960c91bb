// SPDX-License-Identifier: MIT
// GA-EAX on host threads (--algorithm eax): a population of tours improved by edge assembly
// crossover (population/edge_assembly.h), after Nagata and Kobayashi's GA-EAX (INFORMS Journal on
// Computing 25(2), 2013: single AB-cycles, then block E-sets, with their entropy-preserving
// selection).
//
// The population starts from local optima of 2-opt and Or-opt over the 10 nearest neighbours,
// climbed from random permutations (or --eax-start's tours), with --eax-climb lin-kernighan then
// climbed on by Lin-Kernighan chains of 3-opt steps; the first from the nearest-neighbour tour, or
// the caller's tour when one is given. Every generation puts it in a random order r, and
// each tour r(i) is crossed as parent A with r(i + 1) as parent B: up to `children` children, each
// from a random AB-cycle, and one of those shorter than A replaces it: the one that loses the least
// of the population's edge entropy per unit of length gained (or the shortest, with greedy
// selection). When no child has shortened the population's shortest tour for 1,500 / children
// generations, or the population has converged, the children come from block E-sets instead
// (edge_assembly.h), until that stalls or converges too (--eax-stages 1 keeps single AB-cycles).
// All pairs of a generation read the population as it was at its start, so they run
// side by side on the threads and the result depends on the seed alone, not on the number of
// threads. A generation of the last stage that changes no tour, or its stall, ends the population; the next
// one is `growth` times as large (twice by default; as large with 1) and holds the best tour so far (or the
// search has finished, with growth 0): a run of any length keeps improving, and a small first population
// gives a good tour early.
//
// Measured on this project's 2-core VM, 2 threads, seed 1 (bench/eax_bench, one population; before
// the joins' union-find, which halved the time): pcb3038 greedy 100 / 300 / 1,000 tours: 0.063 %
// above the optimum in 3.8 s / 0.007 % in 12 s / the optimum in 34 s; entropy 100 / 300: 0.0015 %
// in 12 s / the optimum in 33 s. fnl4461 greedy 300 / 1,000: 0.015 % in 28 s / 0.003 % in 89 s;
// entropy 100: 0.003 % in 47 s. Block E-sets, fnl4461, entropy 100, seeds 1 / 2 / 3: single
// AB-cycles alone converge at 0.0044 / 0.0038 / 0.0044 % in about 20 s, with block E-sets after
// them at 0.0027 % / the optimum / 0.0016 % in about 21 s. On one H100 machine's 16 threads
// (bench/results/2026-11-27-eax-against-lkh3/NOTES.md): pcb3038's optimum in 1.6-4.2 s on 5 of 5
// seeds, fnl4461's in 23-25 s on 2 of 5, usa13509 0.005 % at 60 s.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/candidates.h"
#include "core/instance.h"
#include "core/search.h"
#include "population/config.h"
#include "population/edge_assembly.h"

namespace formica::population {
namespace cuda {
class EaxChildrenCuda;
}

/// The first step builds the population, each further step is one generation; a generation that
/// changes no tour ends the population: the next step builds another (growth), or the search has
/// finished. A stop request cuts a step off between pairs (or start climbs), and
/// a step cut off changes nothing.
class EdgeAssemblySearch final : public Search {
 public:
  /// Builds the lists and the first tour of the population (climbed from the nearest-neighbour tour
  /// from city 0, the climb cut short by `setup_stop`), or takes `start` (a permutation) as that tour, so
  /// that the search has a tour before its first step. Instances of fewer than 8 cities get their optimal
  /// tour here (every order tried) and the search has finished.
  EdgeAssemblySearch(const Instance& instance, const EdgeAssemblyConfig& config,
                     std::vector<int32_t> start = {}, const StopFlag* setup_stop = nullptr);
  ~EdgeAssemblySearch() override;

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override { return best_tour_; }
  int64_t iteration_best_length() const override { return iteration_best_; }
  StepTimes last_step_times() const override { return times_; }
  Backend backend() const override { return Backend::Cpu; }
  bool finished() const override { return converged_; }
  /// A tour found elsewhere (another rank's, or the colonies' beside the threads, eax_companion.h)
  /// joins the population in one slot, the guest's: first in place of its longest tour, then in
  /// place of the tour descended from the guest before, when shorter than that and not already
  /// there; the crossover does the merging. One slot, so that tours offered again and again (the
  /// colonies' merged tour, soon close to the population's best) do not fill the population with
  /// copies of one tour: H100, usa13509, 60 s, seed 1, the GPU colonies' tours offered to 14
  /// threads, each in place of the longest tour: 0.154 % at 30 s, 0.0079 % at 60 s; in the guest's
  /// slot: 0.032 / 0.0046 % (GA-EAX alone on 16 threads: 0.038 / 0.0052 %). A population not built
  /// yet holds it as its first tour when shorter than the search's own; one climbed apart
  /// (restart_apart) holds none: the tour, when shorter, becomes the best, which joins it later.
  bool supports_adoption() const override { return true; }
  bool adopt(std::span<const int32_t> tour, int64_t length) override;

  /// The threads of the next steps, from 1 to the config's (the results stay the seed's alone):
  /// a companion lends some to other work for a while (eax_companion.h).
  void use_threads(int threads);
  /// The shortest of the search's own tours (every slot but the guest's; before the population is
  /// built, the best tour).
  int64_t own_best_length() const { return built_ ? own_shortest_ : best_length_; }

  int generations() const { return generations_; }
  /// 1 while the children come from single AB-cycles, 2 from block E-sets.
  int stage() const { return stage_; }
  /// Populations started again after converging (growth), and the current one's size: growth stops
  /// where the next population's new tours would take more than half of the host memory available
  /// then (core/memory.h, FORMICA_MEMORY_LIMIT_MB included); the first is checked when constructed.
  int restarts() const { return restarts_; }
  int population_size() const { return population_; }
  /// Children made so far.
  int64_t children() const { return children_; }
  /// Start tours whose first climb ran on the GPU (EdgeAssemblyConfig::gpu_climbs).
  int64_t gpu_climbed() const { return gpu_climbed_; }
  /// Pair crossovers that ran on the GPU (EdgeAssemblyConfig::gpu_children).
  int64_t gpu_pairs() const { return gpu_pairs_; }
  /// The seconds their kernels ran (CUDA events), and the shares of that time their blocks spent
  /// on the parents' difference, the AB-cycles and the children.
  double gpu_seconds() const;
  std::array<double, 3> gpu_phase_shares() const;
  /// The population's tours (after the first step), each a permutation, and their lengths.
  const std::vector<std::vector<int32_t>>& population() const { return tours_; }
  const std::vector<int64_t>& lengths() const { return lengths_; }

 private:
  bool build_population(const StopFlag& stop);
  bool generation(const StopFlag& stop);
  /// The population's shortest tour as the iteration's best, and as the best when shorter.
  void take_shortest();
  /// `tour` of `length` in the population's slot `slot`, the edge frequencies kept.
  void replace(int slot, std::span<const int32_t> tour, int64_t length);
  /// restart_apart: the best tour in place of the population's longest (unless the population holds
  /// as short a tour already), and the stages again.
  void join_best();
  /// The size of the population after this one: `growth` times as large, as far as memory allows.
  int next_population_size() const;
  /// The generation's pair crossovers, each pair's best child in taken_ and its tour in next_
  /// (next_lengths_ -1: none), on the host threads or (gpu_children, the first stage) on the GPU;
  /// false when `stop` came first.
  bool crossovers_on_host(const StopFlag& stop, const EdgeAssembly::ChildScore& score);
  /// The random stream of this generation's pair whose first parent is slot `a`, the same on the
  /// host threads and on the GPU.
  uint64_t pair_stream(int a) const {
    return static_cast<uint64_t>(generations_) * static_cast<uint64_t>(population_) + static_cast<uint64_t>(a) + 1;
  }
  bool crossovers_on_gpu(const StopFlag& stop);

  const Instance& instance_;
  const EdgeAssemblyConfig config_;
  const uint64_t seed_;
  const CandidateLists lists_;
  /// EaxClimb::LinKernighan's chains search these (chain_lists in the .cpp); none: lists_.
  const std::optional<CandidateLists> chain_lists_;
  std::vector<std::unique_ptr<EdgeAssembly>> assembly_;  // one per thread
  std::vector<std::unique_ptr<MergeBase>> bases_;        // one per thread: parent A of its pair
  class EdgeFrequency;
  /// The entropy selection's edge counts of `tours`, or null once `stop` asks (looked at between
  /// tours: see the definition).
  static std::unique_ptr<EdgeFrequency> count_edges(int n, const std::vector<std::vector<int32_t>>& tours,
                                                    const StopFlag& stop);
  std::unique_ptr<EdgeFrequency> frequency_;  // how many tours of the population hold each edge
  std::vector<AssembledChild> taken_;         // per tour, the child that replaces it this generation
  std::vector<std::vector<int32_t>> tours_, next_;
  std::vector<int64_t> lengths_, next_lengths_, made_;
  std::vector<int> order_;
  std::vector<int32_t> best_tour_;
  int64_t best_length_ = 0, iteration_best_ = 0, children_ = 0, gpu_climbed_ = 0, gpu_pairs_ = 0;
  /// gpu_children: the population's copy on the GPU (a shared_ptr: its type is complete only in
  /// CUDA builds), which of its slots are behind the host's, and whether it holds this population.
  std::shared_ptr<cuda::EaxChildrenCuda> gpu_;
  std::vector<char> gpu_stale_;
  bool gpu_current_ = false;
  int generations_ = 0, population_ = 0, restarts_ = 0;
  int threads_ = 1;  // the steps' threads (use_threads)
  int stage_ = 1, stall_ = 0;  // the stage, and generations since own_shortest_ fell
  /// The shortest of the search's own tours: every slot but the guest's. The stall is measured on
  /// these, not on the population's shortest: an adopted tour that the crossover has not yet
  /// overtaken would otherwise read as a stall while the population is still closing in on it.
  int64_t own_shortest_ = 0;
  int64_t started_ = 0;  // random starts drawn so far: each population climbs new ones
  int guest_ = -1;       // the population's slot of adopted tours, -1 before the first
  bool apart_ = false;   // restart_apart: the population was built without the best tour, not yet joined
  bool built_ = false, converged_ = false;
  StepTimes times_;
};

}  // namespace formica::population
