// SPDX-License-Identifier: MIT
// The colony variants on the CPU: MMAS, ACS and GACO over candidate lists, with several colonies
// at once (see aco/colony_config.h for the layout and aco/colony_rules.h for the exact pheromone
// semantics), optionally with local search on every ant's tour before the update and focused
// construction (aco/cpu/focused_construction.h): the hybrid solver's CPU backend. It is the
// sequential baseline of every GPU speed-up and the reference the GPU tests compare with; with
// threads > 1 it gives the same result for the same seed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "aco/candidate_set.h"
#include "aco/colony_config.h"
#include "aco/colony_layout.h"
#include "aco/colony_merge.h"
#include "core/candidates.h"
#include "core/default_init_allocator.h"
#include "core/instance.h"
#include "core/search.h"

namespace formica::aco {

class ColonySearchCpu final : public Search {
 public:
  /// Focused colonies start from `start_tour` when one is given (a permutation of the cities),
  /// else from focused_start_tour(), whose climb ends when `setup_stop` asks; colonies that are not
  /// focused take none. With config.lk_threads > 0, `host_threads` starts the threads beside the
  /// colonies (aco/colony_merge.h; the solver gives hybrid::start_host_threads).
  ColonySearchCpu(const Instance& instance, const ColonyConfig& config, std::vector<int32_t> start_tour = {},
                  const StopFlag* setup_stop = nullptr, const StartHostThreads& host_threads = {});

  bool step(const StopFlag& stop) override;
  int64_t best_length() const override { return best_length_; }
  std::vector<int32_t> best_tour() const override;
  int64_t iteration_best_length() const override { return iteration_best_; }
  StepTimes last_step_times() const override { return times_; }
  Backend backend() const override { return Backend::Cpu; }
  /// --lk-threads: stops the threads and merges their best tour in.
  void finish() override;
  /// Every colony variant takes tours from outside: see adopt().
  bool supports_adoption() const override { return true; }
  /// ColonyMerger::adopt: the tour is merged with the best colony's best; a shorter result becomes
  /// that colony's best and restart-best (it deposits as such) and, for focused colonies, the tour
  /// its ants walk from next iteration; the Lin-Kernighan threads are offered it.
  bool adopt(std::span<const int32_t> tour, int64_t length) override;
  /// The merger's ledger: the colonies, the host threads, the merges, adopted tours.
  const Credits* credits() const override { return &merger_.credits(); }

  const ColonyLayout& layout() const { return layout_; }
  /// Matrix `matrix`'s pheromone, n x width entries over its candidate rows.
  std::span<const float> pheromone(int matrix) const { return matrices_[matrix].tau; }
  const CandidateSet& candidates(int matrix) const { return matrices_[matrix].set; }
  /// The interval the last update clamped `matrix` into.
  Bounds bounds(int matrix) const { return matrices_[matrix].bounds; }
  /// Best-so-far length and tour of every matrix group (one independent run each when the
  /// groups never exchange).
  std::vector<int64_t> group_best_lengths() const;
  std::vector<int32_t> group_best_tour(int matrix) const;
  int restarts() const { return restarts_; }
  /// --merge-tours: merges that shortened the best tour, adoptions (adopt()) among them.
  int merges() const { return merges_; }
  /// The last iteration's tours (ant-major) and exact lengths.
  std::span<const int32_t> tours() const { return tours_; }
  std::span<const int64_t> tour_lengths() const { return lengths_; }
  /// Focused construction: the tour colony `colony`'s ants start from next iteration, its length.
  std::span<const int32_t> source_tour(int colony) const {
    return {source_tours_.data() + static_cast<size_t>(colony) * n_, static_cast<size_t>(n_)};
  }
  int64_t source_length(int colony) const { return source_lengths_[colony]; }

 private:
  struct Matrix {
    CandidateSet set;
    std::vector<float> tau, fitness;
    std::vector<int32_t> crossings;  // GACO: ACS-colony crossings of each entry this iteration
    Bounds bounds{};
  };

  void construct_independent(const StopFlag& stop, bool& abandoned);
  /// false when `stop` asked before the ants were done (a look every 64 steps).
  bool construct_lockstep(int matrix, const StopFlag& stop);
  void construct_focused(const StopFlag& stop, bool& abandoned);
  void improve_tours(const StopFlag& stop, bool& abandoned);
  void start_focused(std::vector<int32_t> tour);
  void set_sources();
  void count_crossings(Matrix& matrix, std::span<const int32_t> tour) const;
  void update_matrix(int matrix);
  void after_iteration();
  /// Copies a merged tour into `colony`'s best and restart-best (nothing when colony < 0).
  void take_merged(int colony, std::span<const int32_t> merged);
  void find_best_colony();
  const int32_t* depositor_tour(int colony) const;

  const Instance& instance_;
  ColonyConfig config_;
  ColonyLayout layout_;
  int n_;
  std::vector<Matrix> matrices_;
  std::vector<ColonyRecord> records_;
  // Ants x n, written ant by ant before it is read: not zeroed when sized (with --threads 64 at
  // 20,000 cities, 1.5 GB of zeros took 0.7 s of a 0.5-s limit).
  std::vector<int32_t, DefaultInitAllocator<int32_t>> tours_;
  std::vector<int64_t> lengths_;
  std::vector<int32_t> colony_best_, colony_restart_best_;  // colonies x n
  std::optional<CandidateLists> ls_lists_;                  // the local search's neighbour lists
  std::vector<int32_t> source_tours_, source_pos_;          // focused: colonies x n
  std::vector<int64_t> source_lengths_;
  std::vector<int> walk_edges_;  // focused: edges each colony's ants re-decide next iteration
  int64_t best_length_ = 0, iteration_best_ = 0;
  int best_colony_ = 0;
  int iteration_ = 0;  // completed iterations; the running one is iteration_ + 1
  int restarts_ = 0, merges_ = 0;
  ColonyMerger merger_;
  StepTimes times_;
};

}  // namespace formica::aco
