// SPDX-License-Identifier: MIT
// Merging the colonies' best tours (see colony_merge.h).
#include "aco/colony_merge.h"

#include <stdexcept>
#include <utility>

#include "population/partition_merge.h"

namespace formica::aco {

ColonyMerger::ColonyMerger(const StartHostThreads& start, const Instance& instance,
                           const ColonyConfig& config, const CandidateLists* lists, const StopFlag* stop) {
  if (config.lk_threads == 0) return;
  host_ = config.host_search == HostSearch::Eax ? Finder::Eax : Finder::LinKernighan;
  if (!start)
    throw std::logic_error(
        "colony search: --lk-threads needs the host threads' starter (hybrid/host_threads.h)");
  companion_ = start(instance, config, lists, stop);
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
  std::vector<population::LengthTour> donors;
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
  const int64_t length = population::merge_tours(instance, donors, current);
  const long long base = records[best].best_length;
  const int receiver = take(records, best, iteration, current, length, merged);
  const Finder host = companion_ && companion_->best_by_lin_kernighan() ? Finder::LinKernighan : host_;
  if (base != kNoLength) credits_.credit_merge(base, host_length, host, receiver >= 0 ? length : base);
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
    std::vector<population::LengthTour> donors = {{length, tour},
                                                  {base, best_tours.subspan(static_cast<size_t>(best) * n, n)}};
    result = population::merge_tours(instance, donors, current);
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
