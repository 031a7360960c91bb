// SPDX-License-Identifier: MIT
// Iterated Lin-Kernighan a stretch at a time (see stretch_lin_kernighan.h).
#include "decomposition/stretch_lin_kernighan.h"

#include <algorithm>
#include <numeric>

#include "core/candidates.h"
#include "core/error.h"
#include "core/path_transform.h"
#include "core/rng.h"
#include "core/tour.h"
#include "localsearch/cpu/kicked_tour.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/double_bridge.h"

namespace formica::decomposition {
using localsearch::kMaxKickSegment, localsearch::kMinKickCities, localsearch::LinKernighanStep;
using localsearch::cpu::KickedTour, localsearch::cpu::LinKernighan, localsearch::cpu::lin_kernighan_options,
    localsearch::cpu::LinKernighanOptions, localsearch::cpu::walks_two_level;

Instance stretch_instance(const Instance& instance, std::span<const int32_t> cities) {
  const size_t m = cities.size();
  // A stretch through a path city (which has no coordinates) gets its matrix.
  const bool located = std::none_of(cities.begin(), cities.end(), [&](int32_t c) { return c >= instance.base_n(); });
  if (instance.has_coordinates() && located) {
    std::vector<double> x(m), y(m), z;
    for (size_t i = 0; i < m; ++i) x[i] = instance.x()[cities[i]], y[i] = instance.y()[cities[i]];
    if (!instance.z().empty())
      for (const int32_t c : cities) z.push_back(instance.z()[c]);
    return Instance("stretch", instance.type(), std::move(x), std::move(y), std::move(z));
  }
  std::vector<int32_t> weights(m * m);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j)
      weights[i * m + j] = static_cast<int32_t>(instance.distance(cities[i], cities[j]));
  return Instance::from_matrix("stretch", static_cast<int>(m), std::move(weights));
}

int64_t path_through(const Instance& instance, std::span<const int32_t> cities,
                     std::span<const int32_t> order) {
  int64_t length = 0;
  for (size_t i = 0; i + 1 < order.size(); ++i)
    length += instance.distance(cities[order[i]], cities[order[i + 1]]);
  return length;
}

StretchCut stretch_cut(int n, int stretch, int offset, int s) {
  const int count = n / stretch;
  return {offset + s * stretch, s + 1 == count ? n - s * stretch : stretch};
}

namespace {

/// Neighbours per city of a stretch's chains, from the stretch's own cities (the whole-tour
/// threads take 10; kMaxRoundKicks' measurements ran with 8).
constexpr int kStretchNeighbours = 8;
constexpr uint64_t kStretchStreams = 0x57E7C40000000000ull;
constexpr uint64_t kOffsetStreams = 0x0FF5E70000000000ull;

/// Cities at each end of a stretch that stay unsettled after its walk: their moves could not reach
/// past the stretch's ends, so the next round (cut elsewhere) climbs them again.
constexpr int kSeamCities = 50;

/// One stretch's walk: its kicks, its chains' step and lists' shape, and which cities are settled
/// (by city, 1 where a walk climbed the city and its tour edges have not changed since; empty: none is).
struct StretchWalk {
  int kicks = 0;
  LinKernighanStep step = LinKernighanStep::TwoOpt;
  NeighbourShape shape = NeighbourShape::Nearest;
  std::span<uint8_t> settled;
};

/// Walks the path through `cities` (in tour order, both ends fixed): Lin-Kernighan chains of
/// `walk.step`s from its unsettled cities, then `walk.kicks` kicks of iterated Lin-Kernighan;
/// writes the shortest path found back into `cities` and returns the exact gain (0 when nothing
/// shorter was found). The path is closed into a tour of its own by the edge between its ends,
/// which no chain and no kick removes (LinKernighanOptions::fixed_edge): cut there, every tour of
/// the walk is a path between the same ends, shorter by as much as the tour is.
int64_t improve_stretch(const Instance& instance, std::span<int32_t> cities, const StretchWalk& walk,
                        RandomStream& random, const StopFlag& stop, std::atomic<int64_t>& kicked) {
  // A path city has no coordinates, and a stretch's matrix would grow with its square: the paths
  // either side of it are walked instead, each between fixed ends, the path city kept between them.
  const auto path_city =
      std::find_if(cities.begin(), cities.end(), [&](int32_t c) { return c >= instance.base_n(); });
  if (path_city != cities.end()) {
    const auto at = static_cast<size_t>(path_city - cities.begin());
    int64_t gain = 0;
    for (const std::span<int32_t> part : {cities.first(at), cities.subspan(at + 1)})
      if (static_cast<int>(part.size()) >= kMinKickCities)
        gain += improve_stretch(instance, part, walk, random, stop, kicked);
    return gain;
  }
  const int m = static_cast<int>(cities.size());
  const Instance stretch = stretch_instance(instance, cities);
  const CandidateLists lists = build_candidate_lists(stretch, kStretchNeighbours, 1, walk.shape);
  LinKernighanOptions options = lin_kernighan_options(walk.step, m);
  options.fixed_edge = {m - 1, 0};
  std::vector<int32_t> order(static_cast<size_t>(m)), pos(static_cast<size_t>(m)), active;
  std::iota(order.begin(), order.end(), 0);
  std::iota(pos.begin(), pos.end(), 0);
  for (int i = 0; i < m; ++i)
    if (walk.settled.empty() || walk.settled[cities[i]] == 0) active.push_back(i);
  LinKernighan lk(stretch, lists, options);
  lk.improve(order, pos, active, &stop);
  KickedTour kicked_tour;
  kicked_tour.reset(order, tour_length(stretch, order), walks_two_level(m, walk.step));
  for (int k = 0; k < walk.kicks && !stop.requested(); ++k) {
    kicked_tour.kick(stretch, lk, random, &stop, kMaxKickSegment);
    kicked.fetch_add(1, std::memory_order_relaxed);
  }
  // Cut the walk's tour at the fixed edge: from city 0 away from m - 1, round to m - 1.
  const std::span<const int32_t> closed = kicked_tour.tour();
  const int at = static_cast<int>(std::find(closed.begin(), closed.end(), 0) - closed.begin());
  const int next = closed[(at + 1) % m], previous = closed[(at + m - 1) % m];
  if (next != m - 1 && previous != m - 1) return 0;     // the fixed edge is gone: never (the tests check)
  const int64_t direction = next == m - 1 ? m - 1 : 1;  // m - 1 steps back round the cycle
  std::vector<int32_t> path(static_cast<size_t>(m));
  for (int i = 0; i < m; ++i) path[i] = closed[(at + i * direction) % m];
  const int64_t gain = path_length(instance, cities) - path_through(instance, cities, path);
  if (gain <= 0) return 0;
  std::vector<int32_t> walked(static_cast<size_t>(m));
  for (int i = 0; i < m; ++i) walked[i] = cities[path[i]];
  std::copy(walked.begin(), walked.end(), cities.begin());
  return gain;
}

/// Walks `tour`'s stretch `cut` (improve_stretch, `cities` its scratch), writes the shorter path
/// back into the same positions and, unless stopped, marks the stretch's cities settled but for
/// those near its ends; returns the gain.
int64_t walk_stretch(const Instance& instance, std::span<int32_t> tour, StretchCut cut,
                     const StretchWalk& walk, RandomStream& random, const StopFlag& stop,
                     std::atomic<int64_t>& kicked, std::vector<int32_t>& cities) {
  const int n = static_cast<int>(tour.size());
  cities.resize(static_cast<size_t>(cut.cities));
  for (int i = 0; i < cut.cities; ++i) cities[i] = tour[(cut.first + i) % n];
  const int64_t gain = improve_stretch(instance, cities, walk, random, stop, kicked);
  if (gain > 0)
    for (int i = 0; i < cut.cities; ++i) tour[(cut.first + i) % n] = cities[i];
  if (!walk.settled.empty() && !stop.requested())
    for (int i = 0; i < cut.cities; ++i)
      walk.settled[cities[i]] = i >= kSeamCities && i < cut.cities - kSeamCities ? 1 : 0;
  return gain;
}

/// city_regions' halving: `cities` become regions first .. first + parts - 1.
void halve(const Instance& instance, std::span<int32_t> cities, int first, int parts,
           std::vector<int32_t>& region) {
  if (parts == 1) {
    for (const int32_t c : cities) region[c] = first;
    return;
  }
  const auto [x_low, x_high] = std::minmax_element(
      cities.begin(), cities.end(), [&](int32_t a, int32_t b) { return instance.x()[a] < instance.x()[b]; });
  const auto [y_low, y_high] = std::minmax_element(
      cities.begin(), cities.end(), [&](int32_t a, int32_t b) { return instance.y()[a] < instance.y()[b]; });
  const bool wide =
      instance.x()[*x_high] - instance.x()[*x_low] >= instance.y()[*y_high] - instance.y()[*y_low];
  const std::span<const double> key = wide ? instance.x() : instance.y();
  const int left = parts / 2;
  const size_t cut = cities.size() * static_cast<size_t>(left) / static_cast<size_t>(parts);
  std::nth_element(cities.begin(), cities.begin() + static_cast<std::ptrdiff_t>(cut), cities.end(),
                   [&](int32_t a, int32_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  halve(instance, cities.first(cut), first, left, region);
  halve(instance, cities.subspan(cut), first + left, parts - left, region);
}

}  // namespace

std::vector<int32_t> city_regions(const Instance& instance, int parts) {
  FORMICA_EXPECTS(parts >= 1, "city_regions: at least one region, got ", parts);
  const int n = instance.n();
  std::vector<int32_t> region(static_cast<size_t>(n));
  if (!instance.has_coordinates()) {
    for (int c = 0; c < n; ++c) region[c] = static_cast<int32_t>(static_cast<int64_t>(c) * parts / n);
    return region;
  }
  // The cities with coordinates are halved; a path city joins the first region.
  std::vector<int32_t> cities(static_cast<size_t>(instance.base_n()));
  std::iota(cities.begin(), cities.end(), 0);
  halve(instance, cities, 0, parts, region);
  if (instance.has_path_city()) region[instance.n() - 1] = 0;
  return region;
}

int64_t walk_stretches(const Instance& instance, std::span<int32_t> tour, int stretch, int offset, int kicks,
                       int threads, uint64_t seed, const StopFlag* stop) {
  const int n = static_cast<int>(tour.size());
  stretch = std::max(stretch, kMinKickCities);
  if (n < 2 * stretch) return 0;
  const int count = n / stretch;
  const StopFlag never;
  std::atomic<int> next{0};
  std::atomic<int64_t> gain{0}, kicked{0};
  const auto work = [&] {
    std::vector<int32_t> cities;
    for (int s; (s = next.fetch_add(1)) < count;) {
      if (stop != nullptr && stop->requested()) break;  // the stretches left keep their cities as they are
      RandomStream random(seed, kStretchStreams + static_cast<uint64_t>(s));
      gain.fetch_add(
          walk_stretch(instance, tour, stretch_cut(n, stretch, offset, s), {.kicks = kicks, .settled = {}},
                       random, stop != nullptr ? *stop : never, kicked, cities),
          std::memory_order_relaxed);
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::min(std::max(threads, 1), count); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return gain.load();
}

StretchLinKernighan::StretchLinKernighan(const Instance& instance, int threads, uint64_t seed, int stretch,
                                         int kicks, double stall_gain, StretchRegion region,
                                         LinKernighanStep step, NeighbourShape shape)
    : instance_(instance),
      seed_(seed),
      step_(step),
      shape_(shape),
      stretch_(std::max(stretch, kMinKickCities)),
      kicks_per_stretch_(kicks > 0 ? kicks : std::min(stretch_, kMaxRoundKicks)),
      count_(instance.n() / stretch_),
      stall_gain_(stall_gain),
      region_(region),
      regions_(region.parts > 1 ? city_regions(instance, region.parts) : std::vector<int32_t>{}),
      settled_(static_cast<size_t>(instance.n()), 0) {
  FORMICA_EXPECTS(count_ >= 2, "the stretch Lin-Kernighan threads need at least 2 stretches of ", stretch_,
                  " cities, the instance has ", instance.n());
  FORMICA_EXPECTS(region.parts >= 1 && region.part >= 0 && region.part < region.parts,
                  "the stretch threads' region must be in [0, ", region.parts, "), got ", region.part);
  for (int w = 0; w < std::max(threads, 1); ++w) workers_.emplace_back([this] { work(); });
}

void StretchLinKernighan::offer(std::span<const int32_t> tour, int64_t length) {
  {
    const std::lock_guard lock(mutex_);
    if (length_ < 0) {  // the first tour: the first round starts from it
      tour_.assign(tour.begin(), tour.end());
      best_.publish(tour_, length);
      length_ = length;
      start_round();
    } else {
      offered_.keep_if_shorter(tour, length, best_.length());
    }
  }
  changed_.notify_all();
}

bool StretchLinKernighan::wait_until_stalled() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stop_.load() || stalled_.load(); });
  return stalled_.load();
}

int64_t StretchLinKernighan::best(std::vector<int32_t>& out) const {
  const std::lock_guard lock(mutex_);
  return best_.copy(out);
}

void StretchLinKernighan::stop() {
  localsearch::cpu::request_stop(mutex_, stop_, changed_);
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  // What the round in progress found so far is in tour_: publish it too.
  const std::lock_guard lock(mutex_);
  if (length_ >= 0 && round_gain_ > 0) {
    length_ -= round_gain_;
    round_gain_ = 0;
    best_.publish(tour_, length_);
  }
}

void StretchLinKernighan::start_round() {
  const int n = instance_.n();
  round_stretches_.clear();
  for (int s = 0; s < count_; ++s)
    if (regions_.empty() || regions_[tour_[stretch_cut(n, stretch_, offset_, s).first % n]] == region_.part)
      round_stretches_.push_back(s);
  // A region that starts no stretch this round (tiny instances, many islands) walks them all.
  if (round_stretches_.empty())
    for (int s = 0; s < count_; ++s) round_stretches_.push_back(s);
  next_ = 0;
  returned_ = 0;
}

void StretchLinKernighan::unsettle_changed(std::span<const int32_t> next) {
  const int n = instance_.n();
  std::vector<int32_t> succ(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) succ[tour_[p]] = tour_[(p + 1) % n];
  for (int p = 0; p < n; ++p) {
    const int32_t a = next[p], b = next[(p + 1) % n];
    if (succ[a] != b && succ[b] != a) settled_[a] = settled_[b] = 0;
  }
}

void StretchLinKernighan::end_round() {
  // The stall gain is the whole tour's; a round of a region's stretches is held to its share.
  const double share = static_cast<double>(round_stretches_.size()) / count_;
  const bool stalled = static_cast<double>(round_gain_) < stall_gain_ * share * static_cast<double>(length_);
  length_ -= round_gain_;
  round_gain_ = 0;
  best_.publish(tour_, length_);
  if (offered_.length >= 0 && offered_.length < length_) {
    unsettle_changed(offered_.tour);
    tour_ = std::move(offered_.tour);
    length_ = offered_.length;
  }
  offered_.clear();
  const int64_t round = rounds_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (stalled) {  // the workers end at their next wake-up; best_ is final
    stalled_.store(true, std::memory_order_release);
    changed_.notify_all();
    return;
  }
  RandomStream random(seed_, kOffsetStreams + static_cast<uint64_t>(round));
  offset_ = static_cast<int>(random.below(static_cast<uint32_t>(stretch_)));
  start_round();
  changed_.notify_all();
}

void StretchLinKernighan::work() {
  const int n = instance_.n();
  StopFlag stop;
  stop.interrupt = &stop_;
  std::vector<int32_t> cities;
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] {
      return stop_.load() || stalled_.load() ||
             (length_ >= 0 && next_ < static_cast<int>(round_stretches_.size()));
    });
    if (stop_.load() || stalled_.load()) return;
    const int s = round_stretches_[next_++];
    const StretchCut cut = stretch_cut(n, stretch_, offset_, s);
    const uint64_t round = static_cast<uint64_t>(rounds_.load(std::memory_order_relaxed));
    lock.unlock();
    // This stretch's positions are this thread's until it returns them.
    RandomStream random(seed_, kStretchStreams + (round << 24) + static_cast<uint64_t>(s));
    const StretchWalk walk{.kicks = kicks_per_stretch_, .step = step_, .shape = shape_, .settled = settled_};
    const int64_t gain = walk_stretch(instance_, tour_, cut, walk, random, stop, kicks_, cities);
    lock.lock();
    round_gain_ += gain;
    walked_.fetch_add(1, std::memory_order_relaxed);
    if (++returned_ == static_cast<int>(round_stretches_.size())) end_round();
  }
}

}  // namespace formica::decomposition
