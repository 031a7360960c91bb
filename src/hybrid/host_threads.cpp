// SPDX-License-Identifier: MIT
// The host threads beside the colonies (see host_threads.h).
#include "hybrid/host_threads.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "bounds/alpha_nearness.h"
#include "decomposition/stretch_hand_over.h"
#include "population/eax_companion.h"

namespace formica::hybrid {
namespace {

/// Whole-tour Lin-Kernighan threads with the Held-Karp ascent that hands them alpha lists: the
/// ascent is stopped before the threads, and ends before them when both go, since it hands its
/// lists to them.
class ThreadsWithAscent final : public localsearch::cpu::TourCompanion {
 public:
  ThreadsWithAscent(const Instance& instance, std::unique_ptr<localsearch::cpu::IteratedLinKernighan> threads)
      : threads_(std::move(threads)), ascent_(std::make_unique<ThreadListsAscent>(instance, *threads_)) {}
  ~ThreadsWithAscent() override { ascent_.reset(); }

  void offer(std::span<const int32_t> tour, int64_t length) override { threads_->offer(tour, length); }
  int64_t best(std::vector<int32_t>& out) const override { return threads_->best(out); }
  int64_t best_length() const override { return threads_->best_length(); }
  void stop() override {
    ascent_->stop();
    threads_->stop();
  }
  void walks(std::vector<Walk>& out) const override { threads_->walks(out); }
  int64_t kicks() const override { return threads_->kicks(); }
  bool alpha_lists() const override { return ascent_->handed_over(); }

 private:
  std::unique_ptr<localsearch::cpu::IteratedLinKernighan> threads_;
  std::unique_ptr<ThreadListsAscent> ascent_;  // after threads_: destroyed first
};

}  // namespace

NeighbourShape threads_shape(aco::LkLists lists, NeighbourShape colonies) {
  switch (lists) {
    case aco::LkLists::Nearest:
      return NeighbourShape::Nearest;
    case aco::LkLists::Quadrant:
    case aco::LkLists::Alpha:  // until the ascent's lists come
      return NeighbourShape::Quadrant;
    case aco::LkLists::Colonies:
      break;
  }
  return colonies;
}

ThreadListsAscent::ThreadListsAscent(const Instance& instance,
                                     localsearch::cpu::IteratedLinKernighan& search) {
  thread_ = std::thread([this, &instance, &search] {
    try {
      bounds::BoundOptions options;
      options.threads = 1;
      options.interrupt = &stop_;
      options.certify_when_interrupted = false;  // its lists are dropped once the run stops
      const bounds::LowerBound bound = bounds::lower_bound(instance, options);
      if (stop_.load()) return;  // the run ends: no lists from an interrupted ascent
      CandidateLists lists = bounds::alpha_candidate_lists(instance, bound, kThreadsAlphaNeighbours, 1);
      if (stop_.load()) return;
      search.use_lists(std::move(lists));
      handed_over_.store(true, std::memory_order_release);
    } catch (...) {
      failure_ = std::current_exception();
    }
  });
}

void ThreadListsAscent::end() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void ThreadListsAscent::stop() {
  end();
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

aco::HostThreads start_host_threads(const Instance& instance, const aco::ColonyConfig& config,
                                    const CandidateLists* lists, const StopFlag* stop) {
  using aco::kMergerNeighbours, aco::LkLists;
  if (config.lk_threads == 0) return nullptr;
  if (config.host_search == aco::HostSearch::Eax) {
    population::EdgeAssemblyConfig eax = config.eax;
    eax.threads = config.lk_threads;
    eax.seed = config.seed;
    return std::make_unique<population::EaxCompanion>(instance, eax);
  }
  // The whole-tour threads: at once, or after the stretches (with a copy of the lists, when given,
  // since the caller's need not outlive the stretch rounds). The colonies' lists serve them when
  // asked for, or when they are the very lists the threads would build.
  const NeighbourShape shape = threads_shape(config.lk_lists, config.neighbour_lists);
  const bool same_lists =
      config.ls_candidates == aco::LsCandidates::Neighbours && config.ls_neighbours == kMergerNeighbours &&
      effective_shape(config.neighbour_lists, instance.type()) == effective_shape(shape, instance.type());
  auto given = lists != nullptr && (config.lk_lists == LkLists::Colonies || same_lists)
                   ? std::make_shared<const CandidateLists>(*lists)
                   : nullptr;
  // `lists_stop`: for the lists built now, at the set-up; none for those built after the stretches.
  auto whole_tour = [&instance, config, given, shape](const StopFlag* lists_stop) {
    return std::make_unique<localsearch::cpu::IteratedLinKernighan>(
        instance,
        given ? *given
              : build_candidate_lists(instance, std::min(kMergerNeighbours, instance.n() - 1), config.threads,
                                      shape, lists_stop),
        config.lk_threads, config.seed, config.lk_independent,
        localsearch::cpu::lin_kernighan_options(config.lk_step, instance.n()), config.lk_adopt_merged,
        config.lk_replay);
  };
  if (config.lk_stretch > 0 && instance.n() >= 2 * config.lk_stretch) {
    return std::make_unique<decomposition::StretchHandOver>(
        instance, config.lk_threads, config.seed, config.lk_stretch, decomposition::kStretchStallGain,
        [whole_tour] { return whole_tour(nullptr); },
        config.lk_split ? decomposition::StretchRegion{config.lk_region, config.lk_regions}
                        : decomposition::StretchRegion{},
        config.lk_step, threads_shape(config.lk_lists, NeighbourShape::Nearest));
  }
  std::unique_ptr<localsearch::cpu::IteratedLinKernighan> threads = whole_tour(stop);
  if (config.lk_lists == LkLists::Alpha)
    return std::make_unique<ThreadsWithAscent>(instance, std::move(threads));
  return threads;
}

}  // namespace formica::hybrid
