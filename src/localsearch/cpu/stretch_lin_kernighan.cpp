// Iterated Lin-Kernighan a stretch at a time (see stretch_lin_kernighan.h).
#include "localsearch/cpu/stretch_lin_kernighan.h"

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

namespace formica::localsearch::cpu {

Instance stretch_instance(const Instance& instance, std::span<const int32_t> cities) {
  const size_t m = cities.size();
  if (instance.has_coordinates()) {
    std::vector<double> x(m), y(m), z;
    for (size_t i = 0; i < m; ++i) x[i] = instance.x()[cities[i]], y[i] = instance.y()[cities[i]];
    if (!instance.z().empty())
      for (const int32_t c : cities) z.push_back(instance.z()[c]);
    return Instance("stretch", instance.type(), std::move(x), std::move(y), std::move(z));
  }
  std::vector<int32_t> weights(m * m);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j) weights[i * m + j] = static_cast<int32_t>(instance.distance(cities[i], cities[j]));
  return Instance::from_matrix("stretch", static_cast<int>(m), std::move(weights));
}

int64_t path_through(const Instance& instance, std::span<const int32_t> cities, std::span<const int32_t> order) {
  int64_t length = 0;
  for (size_t i = 0; i + 1 < order.size(); ++i) length += instance.distance(cities[order[i]], cities[order[i + 1]]);
  return length;
}

StretchCut stretch_cut(int n, int stretch, int offset, int s) {
  const int count = n / stretch;
  return {offset + s * stretch, s + 1 == count ? n - s * stretch : stretch};
}

namespace {

/// Neighbours per city of a stretch's chains (the whole-tour threads take 10; a stretch's lists
/// are built from its matrix, so fewer cost less).
constexpr int kStretchNeighbours = 8;
constexpr uint64_t kStretchStreams = 0x57E7C40000000000ull;
constexpr uint64_t kOffsetStreams = 0x0FF5E70000000000ull;

/// Walks the path through `cities` (in tour order, both ends fixed) with `kicks` kicks of iterated
/// Lin-Kernighan; writes the shortest path found back into `cities` and returns the exact gain (0
/// when nothing shorter was found).
int64_t improve_stretch(const Instance& instance, std::span<int32_t> cities, int kicks, RandomStream& random,
                        const StopFlag& stop, std::atomic<int64_t>& kicked) {
  const int m = static_cast<int>(cities.size());
  PathEnds ends;
  ends.open = true;
  ends.start = 0;
  ends.end = m - 1;
  const PathTransform transform(stretch_instance(instance, cities), ends);
  const Instance& closed = transform.instance();  // the path and the dummy city m that closes it
  const CandidateLists lists = build_candidate_lists(closed, kStretchNeighbours);
  std::vector<int32_t> order(static_cast<size_t>(m) + 1);
  std::iota(order.begin(), order.end(), 0);
  LinKernighan lk(closed, lists);
  lk.improve(order, &stop);
  KickedTour walk;
  walk.reset(order, tour_length(closed, order));
  for (int k = 0; k < kicks && !stop.requested(); ++k) {
    walk.kick(closed, lk, random, &stop, kMaxKickSegment);
    kicked.fetch_add(1, std::memory_order_relaxed);
  }
  const std::vector<int32_t> path = transform.path(walk.tour());
  if (path.front() != 0 || path.back() != m - 1) return 0;  // the ends moved (a walk cut short mid-repair)
  const int64_t gain = path_length(instance, cities) - path_through(instance, cities, path);
  if (gain <= 0) return 0;
  std::vector<int32_t> walked(static_cast<size_t>(m));
  for (int i = 0; i < m; ++i) walked[i] = cities[path[i]];
  std::copy(walked.begin(), walked.end(), cities.begin());
  return gain;
}

/// Walks `tour`'s stretch `cut` (improve_stretch, `cities` its scratch) and writes the shorter path
/// back into the same positions; returns the gain.
int64_t walk_stretch(const Instance& instance, std::span<int32_t> tour, StretchCut cut, int kicks,
                     RandomStream& random, const StopFlag& stop, std::atomic<int64_t>& kicked,
                     std::vector<int32_t>& cities) {
  const int n = static_cast<int>(tour.size());
  cities.resize(static_cast<size_t>(cut.cities));
  for (int i = 0; i < cut.cities; ++i) cities[i] = tour[(cut.first + i) % n];
  const int64_t gain = improve_stretch(instance, cities, kicks, random, stop, kicked);
  if (gain > 0)
    for (int i = 0; i < cut.cities; ++i) tour[(cut.first + i) % n] = cities[i];
  return gain;
}

/// city_regions' halving: `cities` become regions first .. first + parts - 1.
void halve(const Instance& instance, std::span<int32_t> cities, int first, int parts, std::vector<int32_t>& region) {
  if (parts == 1) {
    for (const int32_t c : cities) region[c] = first;
    return;
  }
  const auto [x_low, x_high] = std::minmax_element(cities.begin(), cities.end(), [&](int32_t a, int32_t b) {
    return instance.x()[a] < instance.x()[b];
  });
  const auto [y_low, y_high] = std::minmax_element(cities.begin(), cities.end(), [&](int32_t a, int32_t b) {
    return instance.y()[a] < instance.y()[b];
  });
  const bool wide = instance.x()[*x_high] - instance.x()[*x_low] >= instance.y()[*y_high] - instance.y()[*y_low];
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
  std::vector<int32_t> cities(static_cast<size_t>(n));
  std::iota(cities.begin(), cities.end(), 0);
  halve(instance, cities, 0, parts, region);
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
      RandomStream random(seed, kStretchStreams + static_cast<uint64_t>(s));
      gain.fetch_add(walk_stretch(instance, tour, stretch_cut(n, stretch, offset, s), kicks, random,
                                  stop != nullptr ? *stop : never, kicked, cities),
                     std::memory_order_relaxed);
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::min(std::max(threads, 1), count); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return gain.load();
}

StretchLinKernighan::StretchLinKernighan(const Instance& instance, int threads, uint64_t seed, int stretch, int kicks,
                                         double stall_gain, StretchRegion region)
    : instance_(instance),
      seed_(seed),
      stretch_(std::max(stretch, kMinKickCities)),
      kicks_per_stretch_(kicks > 0 ? kicks : stretch_),
      count_(instance.n() / stretch_),
      stall_gain_(stall_gain),
      region_(region),
      regions_(region.parts > 1 ? city_regions(instance, region.parts) : std::vector<int32_t>{}) {
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
      best_ = tour_;
      length_ = length;
      best_length_.store(length, std::memory_order_release);
      start_round();
    } else if (length < best_length_.load(std::memory_order_relaxed) &&
               (offered_length_ < 0 || length < offered_length_)) {
      offered_.assign(tour.begin(), tour.end());
      offered_length_ = length;
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
  const int64_t length = best_length_.load(std::memory_order_relaxed);
  if (length >= 0) out = best_;
  return length;
}

void StretchLinKernighan::stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  // What the round in progress found so far is in tour_: publish it too.
  const std::lock_guard lock(mutex_);
  if (length_ >= 0 && round_gain_ > 0) {
    length_ -= round_gain_;
    round_gain_ = 0;
    if (length_ < best_length_.load(std::memory_order_relaxed)) {
      best_ = tour_;
      best_length_.store(length_, std::memory_order_release);
    }
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

void StretchLinKernighan::end_round() {
  // The stall gain is the whole tour's; a round of a region's stretches is held to its share.
  const double share = static_cast<double>(round_stretches_.size()) / count_;
  const bool stalled = static_cast<double>(round_gain_) < stall_gain_ * share * static_cast<double>(length_);
  length_ -= round_gain_;
  round_gain_ = 0;
  if (length_ < best_length_.load(std::memory_order_relaxed)) {
    best_ = tour_;
    best_length_.store(length_, std::memory_order_release);
  }
  if (offered_length_ >= 0 && offered_length_ < length_) {
    tour_ = std::move(offered_);
    length_ = offered_length_;
  }
  offered_.clear();
  offered_length_ = -1;
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
      return stop_.load() || stalled_.load() || (length_ >= 0 && next_ < static_cast<int>(round_stretches_.size()));
    });
    if (stop_.load() || stalled_.load()) return;
    const int s = round_stretches_[next_++];
    const StretchCut cut = stretch_cut(n, stretch_, offset_, s);
    const uint64_t round = static_cast<uint64_t>(rounds_.load(std::memory_order_relaxed));
    lock.unlock();
    // This stretch's positions are this thread's until it returns them.
    RandomStream random(seed_, kStretchStreams + (round << 24) + static_cast<uint64_t>(s));
    const int64_t gain = walk_stretch(instance_, tour_, cut, kicks_per_stretch_, random, stop, kicks_, cities);
    lock.lock();
    round_gain_ += gain;
    walked_.fetch_add(1, std::memory_order_relaxed);
    if (++returned_ == static_cast<int>(round_stretches_.size())) end_round();
  }
}

}  // namespace formica::localsearch::cpu
