// Merging the colonies' best tours (see colony_merge.h).
#include "aco/colony_merge.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "bounds/alpha_nearness.h"
#include "localsearch/cpu/eax_companion.h"
#include "localsearch/cpu/stretch_hand_over.h"
#include "localsearch/partition_merge.h"

namespace formica::aco {

NeighbourShape threads_shape(LkLists lists, NeighbourShape colonies) {
  switch (lists) {
    case LkLists::Nearest:
      return NeighbourShape::Nearest;
    case LkLists::Quadrant:
    case LkLists::Alpha:  // until the ascent's lists come
      return NeighbourShape::Quadrant;
    case LkLists::Colonies:
      break;
  }
  return colonies;
}

int64_t merge_tours(const Instance& instance, std::vector<LengthTour>& donors, std::vector<int32_t>& current) {
  std::stable_sort(donors.begin(), donors.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  // One donor after another, each merged into the tour the ones before it left.
  current.assign(donors.front().second.begin(), donors.front().second.end());
  int64_t length = donors.front().first;
  std::vector<localsearch::Edge> added, removed;
  std::optional<localsearch::MergeBase> base;  // built again only when a donor changed the tour
  for (size_t d = 1; d < donors.size(); ++d) {
    if (!base) base.emplace(instance, current, length);
    base->difference(donors[d].second, added, removed);
    localsearch::MergedTour result = base->merge(base->improving_exchanges(added, removed));
    if (!result.tour.empty()) {
      current = std::move(result.tour);
      length = result.length;
      base.reset();
    }
    // What the partition merge left: the donor's shorter pieces that hold the same cities.
    result = localsearch::segment_merge(instance, current, length, donors[d].second);
    if (!result.tour.empty()) {
      current = std::move(result.tour);
      length = result.length;
      base.reset();
    }
  }
  return length;
}

ThreadListsAscent::ThreadListsAscent(const Instance& instance,
                                     localsearch::cpu::IteratedLinKernighan& search) {
  thread_ = std::thread([this, &instance, &search] {
    try {
      bounds::BoundOptions options;
      options.threads = 1;
      options.interrupt = &stop_;
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

ColonyMerger::ColonyMerger() = default;
ColonyMerger::ColonyMerger(ColonyMerger&&) noexcept = default;
ColonyMerger& ColonyMerger::operator=(ColonyMerger&&) noexcept = default;

ColonyMerger::~ColonyMerger() { ascent_.reset(); }

ColonyMerger::ColonyMerger(const Instance& instance, const ColonyConfig& config,
                           const CandidateLists* lists) {
  if (config.lk_threads == 0) return;
  if (config.host_search == HostSearch::Eax) {
    host_ = Finder::Eax;
    localsearch::cpu::EdgeAssemblyConfig eax = config.eax;
    eax.threads = config.lk_threads;
    eax.seed = config.seed;
    companion_ = std::make_unique<localsearch::cpu::EaxCompanion>(instance, eax);
    return;
  }
  // The whole-tour threads: at once, or after the stretches (with a copy of the lists, when given,
  // since the caller's need not outlive the stretch rounds). The colonies' lists serve them when
  // asked for, or when they are the very lists the threads would build.
  const NeighbourShape shape = threads_shape(config.lk_lists, config.neighbour_lists);
  const bool same_lists =
      config.ls_candidates == LsCandidates::Neighbours && config.ls_neighbours == kMergerNeighbours &&
      effective_shape(config.neighbour_lists, instance.type()) == effective_shape(shape, instance.type());
  auto given = lists != nullptr && (config.lk_lists == LkLists::Colonies || same_lists)
                   ? std::make_shared<const CandidateLists>(*lists)
                   : nullptr;
  auto whole_tour = [&instance, config, given, shape] {
    return std::make_unique<localsearch::cpu::IteratedLinKernighan>(
        instance,
        given ? *given
              : build_candidate_lists(instance, std::min(kMergerNeighbours, instance.n() - 1), config.threads,
                                      shape),
        config.lk_threads, config.seed, config.lk_independent,
        localsearch::cpu::lin_kernighan_options(config.lk_step, instance.n()), config.lk_adopt_merged,
        config.lk_replay);
  };
  if (config.lk_stretch > 0 && instance.n() >= 2 * config.lk_stretch) {
    companion_ = std::make_unique<localsearch::cpu::StretchHandOver>(
        instance, config.lk_threads, config.seed, config.lk_stretch, localsearch::cpu::kStretchStallGain,
        whole_tour,
        config.lk_split ? localsearch::cpu::StretchRegion{config.lk_region, config.lk_regions}
                        : localsearch::cpu::StretchRegion{},
        config.lk_step, threads_shape(config.lk_lists, NeighbourShape::Nearest));
    return;
  }
  std::unique_ptr<localsearch::cpu::IteratedLinKernighan> threads = whole_tour();
  if (config.lk_lists == LkLists::Alpha) ascent_ = std::make_unique<ThreadListsAscent>(instance, *threads);
  companion_ = std::move(threads);
}

std::vector<long long> ColonyMerger::lengths(const std::vector<ColonyRecord>& records) const {
  std::vector<long long> lengths;
  for (const ColonyRecord& r : records) lengths.insert(lengths.end(), {r.best_length, r.restart_length});
  if (companion_) lengths.push_back(companion_->best_length());
  return lengths;
}

bool ColonyMerger::due(const std::vector<ColonyRecord>& records, int iteration) const {
  return iteration % kMergeInterval == 0 && lengths(records) != seen_;
}

int ColonyMerger::finish(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
                         std::span<const int32_t> best_tours, std::span<const int32_t> restart_tours,
                         std::vector<int32_t>& merged) {
  if (!companion_) return -1;
  if (ascent_) ascent_->stop();
  companion_->stop();
  return merge(instance, records, iteration, best_tours, restart_tours, merged);
}

int ColonyMerger::merge(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
                        std::span<const int32_t> best_tours, std::span<const int32_t> restart_tours,
                        std::vector<int32_t>& merged) {
  const int n = instance.n(), colonies = static_cast<int>(records.size());
  if (n < 5) return -1;  // every tour of 4 cities or fewer is one tour
  int best = 0;
  for (int c = 1; c < colonies; ++c)
    if (records[c].best_length < records[best].best_length) best = c;
  const auto tour_of = [&](std::span<const int32_t> tours, int c) {
    return tours.subspan(static_cast<size_t>(c) * n, static_cast<size_t>(n));
  };
  // The tours merged in, shortest first: every other colony's best; every restart-best that is not
  // its colony's best; the Lin-Kernighan threads' best and, with independent walks, each walk's
  // best. The shortest of all is merged into.
  std::vector<int32_t> threads_tour;
  const long long threads_length = companion_ ? companion_->best(threads_tour) : -1;
  std::vector<localsearch::cpu::TourCompanion::Walk> walks;
  if (companion_) companion_->walks(walks);
  std::vector<LengthTour> donors;
  for (int c = 0; c < colonies; ++c) {
    const ColonyRecord& r = records[c];
    donors.emplace_back(r.best_length, tour_of(best_tours, c));
    if (r.restart_length != r.best_length && r.restart_length != kNoLength)
      donors.emplace_back(r.restart_length, tour_of(restart_tours, c));
  }
  long long host_length = threads_length;  // the host threads' shortest tour, -1 without one
  if (threads_length >= 0) donors.emplace_back(threads_length, threads_tour);
  for (const auto& walk : walks) {
    if (walk.length != threads_length) donors.emplace_back(walk.length, walk.tour);
    if (host_length < 0 || walk.length < host_length) host_length = walk.length;
  }
  std::vector<int32_t> current;
  const int64_t length = merge_tours(instance, donors, current);
  const long long base = records[best].best_length;
  const int receiver = take(records, best, iteration, current, length, merged);
  if (base != kNoLength) credits_.credit_merge(base, host_length, host_, receiver >= 0 ? length : base);
  seen_ = lengths(records);
  return receiver;
}

int ColonyMerger::adopt(const Instance& instance, std::vector<ColonyRecord>& records, int iteration,
                        std::span<const int32_t> best_tours, std::span<const int32_t> tour, int64_t length,
                        std::vector<int32_t>& merged) {
  const int n = instance.n();
  int best = 0;
  for (int c = 1; c < static_cast<int>(records.size()); ++c)
    if (records[c].best_length < records[best].best_length) best = c;
  std::vector<int32_t> current(tour.begin(), tour.end());
  int64_t result = length;
  // Without a best tour yet (colonies that build whole tours, before their first step), or with
  // fewer than 5 cities (one tour), the tour is taken as it is when shorter.
  const long long base = records[best].best_length;
  if (n >= 5 && base != kNoLength) {
    std::vector<LengthTour> donors = {{length, tour}, {base, best_tours.subspan(static_cast<size_t>(best) * n, n)}};
    result = merge_tours(instance, donors, current);
  }
  const int receiver = take(records, best, iteration, current, result, merged);
  if (base != kNoLength) credits_.credit_merge(base, length, Finder::Ranks, receiver >= 0 ? result : base);
  else if (receiver >= 0) credits_.credit(Finder::Ranks, result);
  return receiver;
}

int ColonyMerger::take(std::vector<ColonyRecord>& records, int best, int iteration, std::vector<int32_t>& current,
                       int64_t length, std::vector<int32_t>& merged) {
  if (companion_) companion_->offer(current, length);  // taken when shorter than theirs
  if (length >= records[best].best_length) return -1;
  ColonyRecord& r = records[best];
  r.best_length = r.restart_length = length;
  r.restart_found = iteration;
  merged = std::move(current);
  return best;
}

}  // namespace formica::aco
