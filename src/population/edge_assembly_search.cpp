// SPDX-License-Identifier: MIT
// GA-EAX on host threads (see edge_assembly_search.h).
#include "population/edge_assembly_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/error.h"
#include "core/memory.h"
#include "core/rng.h"
#include "core/tour.h"
#include "localsearch/cpu/kicked_tour.h"
#include "localsearch/cpu/lin_kernighan.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/cpu/two_level_tour.h"
#include "localsearch/double_bridge.h"
#include "localsearch/start_tour.h"
#include "population/eax_pair_host.h"
#include "population/partition_merge.h"

#include "cuda/device.h"
#if FORMICA_HAVE_CUDA
#include "localsearch/cuda/ant_local_search.h"
#include "population/cuda/eax_children_cuda.h"
#endif

namespace formica::population {
using localsearch::kMaxKickSegment, localsearch::kMinKickCities, localsearch::LinKernighanStep,
    localsearch::StartKind;
using localsearch::cpu::ClimbOptions, localsearch::cpu::KickedTour, localsearch::cpu::LinKernighan,
    localsearch::cpu::LinKernighanOptions, localsearch::cpu::lin_kernighan_options,
    localsearch::cpu::NeighbourClimber, localsearch::cpu::TwoLevelTour, localsearch::cpu::walks_two_level;
namespace {

constexpr uint64_t kEaxTag = 0x45415853;   // "EAXS"
constexpr uint64_t kKickTag = 0x4b49434b;  // "KICK": the restart kicks' streams

/// A population's tours at their peak, per member: the tours, the next generation's, and the new
/// tours while the population after it is built. Each member of a grown population takes two new
/// tours (its own and its slot in the next generation) while the old population is still held.
constexpr size_t kTourCopiesPerMember = 3;
constexpr size_t kTourCopiesPerNewMember = 2;

/// Smaller instances are solved by trying every order: the crossover needs a few cities to cut.
constexpr int kMinCities = 8;
/// A stage has stalled after kStallChildren / children generations without a shorter tour among the
/// search's own (Nagata and Kobayashi's 1,500 / N_ch; the adopted guest's slot is not counted).
constexpr int kStallChildren = 1500;
/// The share of the time left that the first population's climbs may take once they are timed,
/// and the fewest tours such a cut leaves (an idle machine builds the sized population well within
/// the share; a loaded one cuts it rather than spending the run on climbs).
constexpr double kBuildShare = 1.0 / 3.0;
constexpr int kMinTimedPopulation = 10;

/// EaxClimb::LinKernighan's chains of 3-opt steps: 3, 1, 1 alternatives at their first levels at
/// every size, the narrow breadth that large tours take anyway: a population as short in less
/// than half the time (docs/tuning.md#eax-climb). They search lists of their own where
/// chain_lists says so.
LinKernighanOptions chain_options(int n) {
  LinKernighanOptions options = lin_kernighan_options(LinKernighanStep::ThreeOpt, n);
  options.breadth = {3, 1, 1};
  return options;
}

int thread_index() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// EaxClimb::LinKernighan: `chains` from every city of `tour`, on `list` (a two-level list) where
/// walks_two_level says so, since each reversal of the arrays costs up to n/2 there; false when
/// `stop` cut them off.
bool lk_climb(LinKernighan& chains, TwoLevelTour& list, std::span<int32_t> tour, const StopFlag& stop) {
  const int n = static_cast<int>(tour.size());
  if (!walks_two_level(n, LinKernighanStep::ThreeOpt)) return chains.improve(tour, &stop).completed;
  list.assign(tour);
  std::vector<int32_t> every(tour.size());
  std::iota(every.begin(), every.end(), 0);
  const bool completed = chains.improve(list, every, &stop).completed;
  list.write(tour);
  return completed;
}

}  // namespace

/// Per city, its neighbours in the population's tours and in how many tours.
class EdgeAssemblySearch::EdgeFrequency {
 public:
  explicit EdgeFrequency(int n) : slots_(static_cast<size_t>(n)) {}
  int count(int32_t u, int32_t v) const {
    for (const auto& [w, c] : slots_[u])
      if (w == v) return c;
    return 0;
  }
  void add(int32_t u, int32_t v, int delta) {
    bump(u, v, delta);
    bump(v, u, delta);
  }
  void add_tour(std::span<const int32_t> tour, int delta) {
    for (size_t p = 0; p < tour.size(); ++p) add(tour[p], tour[(p + 1) % tour.size()], delta);
  }

 private:
  void bump(int32_t u, int32_t v, int delta) {
    auto& slots = slots_[u];
    for (auto it = slots.begin(); it != slots.end(); ++it)
      if (it->first == v) {
        it->second += delta;
        if (it->second == 0) {
          *it = slots.back();
          slots.pop_back();
        }
        return;
      }
    slots.emplace_back(v, delta);
  }
  std::vector<std::vector<std::pair<int32_t, int32_t>>> slots_;
};

// Under the stop: a city's count is a list of the neighbours it has in the population, so P tours
// that no climb changed (every distance tied, cities on one point) give lists of 2P and a count of
// O(n P^2), seconds at 200,000 cities.
std::unique_ptr<EdgeAssemblySearch::EdgeFrequency> EdgeAssemblySearch::count_edges(
    int n, const std::vector<std::vector<int32_t>>& tours, const StopFlag& stop) {
  auto frequency = std::make_unique<EdgeFrequency>(n);
  for (const auto& tour : tours) {
    if (stop.requested()) return nullptr;
    frequency->add_tour(tour, 1);
  }
  return frequency;
}

namespace {

/// `config` once its values are in range and its first population fits in host memory: checked
/// before the candidate lists or any tour is built.
const EdgeAssemblyConfig& checked(const EdgeAssemblyConfig& config, int n) {
  config.validate();
  if (n >= kMinCities)
    expect_memory(kTourCopiesPerMember * sizeof(int32_t) * static_cast<size_t>(n) * config.population,
                  available_host_memory(), concat("GA-EAX's population of ", config.population, " tours"));
  return config;
}

/// The neighbour lists, stopped (SetupStopped) with the preparation of `setup_stop`.
CandidateLists eax_lists(const Instance& instance, const EdgeAssemblyConfig& config, const StopFlag* setup_stop) {
  const StopFlag stop = preparation_stop(setup_stop);
  return build_candidate_lists(instance, config.neighbours, config.threads, config.lists, &stop);
}

/// The chains' own lists, config.chain_neighbours quadrant neighbours, where `config` climbs
/// random starts by Lin-Kernighan and the instance's type has quadrants; none otherwise (the chains
/// search the search's own lists). Against the 10 nearest, 10 quadrant neighbours reach the target
/// as soon on uniform cities and far sooner on clustered or drilled ones; not measured from
/// nearest-neighbour starts (large instances beside the GPU's colonies), which keep the search's
/// lists (docs/tuning.md#eax-chain-lists).
std::optional<CandidateLists> chain_lists(const Instance& instance, const EdgeAssemblyConfig& config,
                                          const StopFlag* setup_stop) {
  if (config.climb != EaxClimb::LinKernighan || config.start != StartKind::Random ||
      config.chain_neighbours == 0 || instance.n() < kMinKickCities ||
      effective_shape(NeighbourShape::Quadrant, instance.type()) != NeighbourShape::Quadrant)
    return std::nullopt;
  const StopFlag stop = preparation_stop(setup_stop);
  return build_candidate_lists(instance, config.chain_neighbours, config.threads, NeighbourShape::Quadrant,
                               &stop);
}

/// The most cities of start tours climbed on the GPU in one launch (a batch of tours): each takes
/// about 12 bytes there (tour, positions, queue, queued bit), 0.4 GB at most, and 20 on the host.
constexpr size_t kGpuClimbCities = size_t{1} << 25;

/// Whether this process can climb start tours on the GPU (EdgeAssemblyConfig::gpu_climbs).
bool gpu_climbs_possible() { return formica::cuda::built_with_cuda() && formica::cuda::find_device().has_value(); }

/// The start tours `slots` of `tours` (each empty: filled here from `start` and `seed`, as the host
/// threads fill theirs) climbed on the GPU by NeighbourClimber's queue phase (2-opt, with Or-opt
/// where `or_opt`), all at once. Returns false when `stop` cut the climbs off (the tours are still
/// permutations). The host's climber then finishes each tour: its sweep finds what the queue phase
/// left, so the tours are those the host alone would have climbed.
bool climb_starts_on_gpu(const Instance& instance, const CandidateLists& lists, bool or_opt, StartKind start,
                         uint64_t seed, int64_t first_start, std::span<const int> slots,
                         std::vector<std::vector<int32_t>>& tours, const StopFlag& stop) {
#if FORMICA_HAVE_CUDA
  const size_t n = static_cast<size_t>(instance.n());
  const size_t batch = std::max<size_t>(1, kGpuClimbCities / n);
  for (size_t first = 0; first < slots.size(); first += batch) {
    const size_t count = std::min(batch, slots.size() - first);
    std::vector<int32_t> flat(count * n);
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t s = 0; s < count; ++s) {
      const std::vector<int32_t> tour = start_tour(instance, start, seed, first_start + slots[first + s]);
      std::copy(tour.begin(), tour.end(), flat.begin() + static_cast<std::ptrdiff_t>(s * n));
    }
    const auto climbed = localsearch::cuda::climb_tours_on_gpu(
        instance, lists, or_opt ? localsearch::LocalSearchKind::OrOpt : localsearch::LocalSearchKind::TwoOpt, flat,
        {}, &stop);
    if (!climbed.completed) return false;
    for (size_t s = 0; s < count; ++s)
      tours[static_cast<size_t>(slots[first + s])].assign(flat.begin() + static_cast<std::ptrdiff_t>(s * n),
                                                          flat.begin() + static_cast<std::ptrdiff_t>((s + 1) * n));
  }
  return true;
#else
  (void)instance, (void)lists, (void)or_opt, (void)start, (void)seed, (void)first_start, (void)slots, (void)tours,
      (void)stop;
  throw std::logic_error("GA-EAX's GPU climbs in a build without CUDA");
#endif
}

}  // namespace

EdgeAssemblySearch::EdgeAssemblySearch(const Instance& instance, const EdgeAssemblyConfig& config,
                                       std::vector<int32_t> start, const StopFlag* setup_stop)
    : instance_(instance),
      config_(checked(config, instance.n())),
      seed_(derive_seed(config.seed, kEaxTag)),
      lists_(eax_lists(instance, config, setup_stop)),
      chain_lists_(chain_lists(instance, config, setup_stop)) {
  const int n = instance.n();
  FORMICA_EXPECTS(!config.gpu_climbs || gpu_climbs_possible(), "--eax-gpu-climbs true needs a CUDA device (",
                  formica::cuda::built_with_cuda() ? "none found" : "this build of formica has no CUDA backend", ")");
  FORMICA_EXPECTS(!config.gpu_children || gpu_climbs_possible(), "--eax-gpu-children true needs a CUDA device (",
                  formica::cuda::built_with_cuda() ? "none found" : "this build of formica has no CUDA backend", ")");
  FORMICA_EXPECTS(!config.gpu_children || !instance.has_path_city(),
                  "--eax-gpu-children: a path's implicit city has no distances on the GPU");
#if FORMICA_HAVE_CUDA
  if (config.gpu_children && n >= kMinCities)
    gpu_ = std::make_shared<cuda::EaxChildrenCuda>(instance_, lists_, config_.neighbours, config_.gpu_makers);
#endif
  if (n < kMinCities) {
    // Too few cities to cut: every order with city 0 first, the shortest kept (at most 720).
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    start = order;
    int64_t shortest = tour_length(instance, order);
    while (std::next_permutation(order.begin() + 1, order.end()))
      if (const int64_t length = tour_length(instance, order); length < shortest)
        shortest = length, start = order;
  } else if (start.empty()) {
    // The nearest-neighbour tour from city 0 whatever the start kind: it climbs in O(n log n)-like
    // time, where a random permutation's climb takes minutes on a million cities, so that the run
    // has a good tour however soon the time limit cuts the population's climbs off.
    start = start_tour(instance, StartKind::NearestNeighbour, seed_, 0);
    NeighbourClimber(instance, lists_, ClimbOptions{.or_opt = true}).climb(start, setup_stop);
  }
  validate_permutation(start, n);
  best_length_ = iteration_best_ = tour_length(instance, start);
  best_tour_ = std::move(start);
  converged_ = n < kMinCities;
  population_ = config.population;
  threads_ = config_.threads;
}

void EdgeAssemblySearch::use_threads(int threads) {
  FORMICA_EXPECTS(threads >= 1 && threads <= config_.threads, "eax: threads must be in [1, ", config_.threads,
                  "], got ", threads);
  threads_ = threads;
}

EdgeAssemblySearch::~EdgeAssemblySearch() = default;

bool EdgeAssemblySearch::step(const StopFlag& stop) {
  const auto started = std::chrono::steady_clock::now();
  const bool completed = built_ ? generation(stop) : build_population(stop);
  times_ = StepTimes{.total_ms = milliseconds_since(started)};
  if (built_) times_.local_search_ms = times_.total_ms;
  return completed;
}

bool EdgeAssemblySearch::build_population(const StopFlag& stop) {
  const int n = instance_.n(), population = population_;
  std::vector<std::vector<int32_t>> tours(static_cast<size_t>(population));
  std::vector<int64_t> lengths(tours.size());
  std::atomic<bool> cut{false};
  const bool apart = restarts_ > 0 && config_.restart_apart;
  const int kicks = apart ? 0 : restarts_ > 0 ? config_.restart_kicks : config_.first_kicks;
  const bool kicked = kicks > 0 && n >= kMinKickCities;
  // The first population is sized for the time limit on an idle machine. On a loaded one its
  // climbs take longer: once the first climbs are timed, the population is cut to what its share
  // of the time left allows (kBuildShare), so that the run reaches its generations.
  const auto build_start = std::chrono::steady_clock::now();
  const bool timed = restarts_ == 0 && stop.deadline != std::chrono::steady_clock::time_point::max();
  const double time_left = timed ? std::chrono::duration<double>(stop.deadline - build_start).count() : 0.0;
  std::atomic<int> size{population}, climbed{0};
  // EaxClimb::LinKernighan: chains of 3-opt steps after a 2-opt climb, whose 3-opt steps find the
  // Or-opt moves themselves; a start left to them in 2-opt's local optimum climbs sooner, and lower,
  // than one climbed by Or-opt first (docs/tuning.md#eax-climb).
  const bool lk_chains = config_.climb == EaxClimb::LinKernighan && n >= kMinKickCities && !kicked;
  // On the GPU, every start tour's first climb at once (gpu_climbs; not a path's implicit city,
  // which the device's distances do not hold).
  const bool on_gpu = config_.gpu_climbs && !kicked && !instance_.has_path_city();
  std::vector<std::vector<int32_t>> from_gpu;  // the slots' tours after the GPU's climb
  if (on_gpu) {
    from_gpu.resize(tours.size());
    std::vector<int> slots;
    for (int i = apart ? 0 : 1; i < population; ++i) slots.push_back(i);
    if (!climb_starts_on_gpu(instance_, lists_, !lk_chains, config_.start, seed_, started_, slots, from_gpu, stop))
      cut = true;  // none of them finished: the population keeps what it had
    else
      gpu_climbed_ += static_cast<int64_t>(slots.size());
  }
  const int threads = threads_;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    NeighbourClimber climber(instance_, lists_, ClimbOptions{.or_opt = !lk_chains});
    std::optional<LinKernighan> chains;
    TwoLevelTour list;
    if (lk_chains) chains.emplace(instance_, chain_lists_ ? *chain_lists_ : lists_, chain_options(n));
    // Restart kicks: each kick repaired by Lin-Kernighan chains from its eight ends, as the
    // iterated Lin-Kernighan threads do it (kicked_tour.h), and kept whatever its length.
    std::optional<LinKernighan> lk;
    if (kicked) lk.emplace(instance_, lists_, lin_kernighan_options(LinKernighanStep::TwoOpt, n));
    KickedTour walk;
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < population; ++i) {
      if (i >= size.load(std::memory_order_relaxed)) continue;
      if (cut.load(std::memory_order_relaxed) || stop.requested()) {
        cut = true;
        continue;
      }
      if (i == 0 && !apart) {
        tours[i] = best_tour_;
      } else if (kicked) {
        RandomStream random(seed_, kKickTag << 32 | static_cast<uint64_t>(started_ + i));
        walk.reset(best_tour_, best_length_);
        walk.perturb(instance_, *lk, random, &stop, kMaxKickSegment, kicks);
        if (stop.requested()) cut = true;
        tours[i].assign(walk.tour().begin(), walk.tour().end());
      } else {
        // After the GPU's climb (the queue phase), the climber's first pass over every city is the
        // sweep that the host's own climb makes next: the same tour in the end.
        tours[i] = on_gpu ? std::move(from_gpu[i]) : start_tour(instance_, config_.start, seed_, started_ + i);
        if (!climber.climb(tours[i], &stop).completed || (chains && !lk_climb(*chains, list, tours[i], stop)))
          cut = true;
      }
      lengths[i] = tour_length(instance_, tours[i]);
      // The first climb of each thread times them all: P tours take about P / threads of it.
      if (timed && i > 0 && climbed.fetch_add(1) + 1 == threads) {
        const double each = std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count();
        const double fits = threads * std::floor(kBuildShare * time_left / std::max(each, 1e-9));
        if (fits < population) size = std::max(kMinTimedPopulation, static_cast<int>(fits));
      }
    }
  }
  // The climbed tours, in order (those past a cut size were never started or are kept all the same).
  size_t kept = 0;
  for (size_t i = 0; i < tours.size(); ++i) {
    if (tours[i].empty()) continue;
    if (kept != i) tours[kept] = std::move(tours[i]), lengths[kept] = lengths[i];
    ++kept;
  }
  tours.resize(kept);
  lengths.resize(kept);
  std::unique_ptr<EdgeFrequency> frequency;
  if (!cut && config_.selection == EaxSelection::Entropy && !(frequency = count_edges(n, tours, stop))) cut = true;
  if (cut) {
    // Stopped while building: the shortest tour climbed so far is the search's best.
    const auto shortest = std::min_element(lengths.begin(), lengths.end());
    if (shortest != lengths.end() && *shortest < best_length_) {
      best_length_ = *shortest;
      best_tour_ = tours[static_cast<size_t>(shortest - lengths.begin())];
    }
    return false;
  }
  population_ = static_cast<int>(kept);
  started_ += population;
  tours_ = std::move(tours);
  lengths_ = std::move(lengths);
  next_.resize(tours_.size());
  next_lengths_.resize(tours_.size());
  made_.resize(tours_.size());
  order_.resize(tours_.size());
  assembly_.resize(static_cast<size_t>(config_.threads));
  for (auto& a : assembly_) a = std::make_unique<EdgeAssembly>(instance_, lists_, config_.neighbours);
  bases_.resize(assembly_.size());
  for (auto& base : bases_)
    if (!base) base = std::make_unique<MergeBase>(instance_, tours_[0], lengths_[0]);
  frequency_ = std::move(frequency);
  taken_.resize(tours_.size());
  gpu_current_ = false;
  guest_ = -1;
  stage_ = 1;
  stall_ = 0;
  built_ = true;
  apart_ = apart;
  take_shortest();
  return true;
}

void EdgeAssemblySearch::replace(int slot, std::span<const int32_t> tour, int64_t length) {
  if (frequency_) {
    frequency_->add_tour(tours_[slot], -1);
    frequency_->add_tour(tour, 1);
  }
  tours_[slot].assign(tour.begin(), tour.end());
  lengths_[slot] = length;
  if (gpu_current_) gpu_stale_[static_cast<size_t>(slot)] = 1;
}

void EdgeAssemblySearch::join_best() {
  if (iteration_best_ > best_length_) {  // else the population found as short a tour by itself
    const int slot = static_cast<int>(std::max_element(lengths_.begin(), lengths_.end()) - lengths_.begin());
    replace(slot, best_tour_, best_length_);
    if (slot == guest_) guest_ = -1;
  }
  apart_ = false;
  stage_ = 1;
  stall_ = 0;
  take_shortest();
}

void EdgeAssemblySearch::take_shortest() {
  const int shortest =
      static_cast<int>(std::min_element(lengths_.begin(), lengths_.end()) - lengths_.begin());
  iteration_best_ = lengths_[shortest];
  own_shortest_ = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < lengths_.size(); ++i)
    if (static_cast<int>(i) != guest_) own_shortest_ = std::min(own_shortest_, lengths_[i]);
  if (iteration_best_ < best_length_) {
    best_length_ = iteration_best_;
    best_tour_ = tours_[shortest];
  }
}

bool EdgeAssemblySearch::adopt(std::span<const int32_t> tour, int64_t length) {
  validate_permutation(tour, instance_.n());
  if (tour_length(instance_, tour) != length)
    throw std::logic_error("eax: adopted a tour with a wrong length");
  if (converged_) return false;
  const bool shorter = length < best_length_;
  if (shorter) {
    best_length_ = length;
    best_tour_.assign(tour.begin(), tour.end());
  }
  if (!built_) return shorter;  // the next population starts from the best tour
  if (apart_) return shorter;   // a population climbed apart takes the best tour once it has converged
  const int slot =
      guest_ >= 0 ? guest_
                  : static_cast<int>(std::max_element(lengths_.begin(), lengths_.end()) - lengths_.begin());
  if (length >= lengths_[slot]) return shorter;
  for (size_t i = 0; i < tours_.size(); ++i)
    if (lengths_[i] == length && std::ranges::equal(tours_[i], tour)) return shorter;
  replace(slot, tour, length);
  guest_ = slot;
  return shorter;
}

bool EdgeAssemblySearch::generation(const StopFlag& stop) {
  const int population = population_;
  RandomStream shuffle(seed_, 1ull << 32 | static_cast<uint32_t>(generations_));
  for (int i = 0; i < population; ++i) order_[i] = i;
  for (int i = population - 1; i > 0; --i)
    std::swap(order_[i], order_[shuffle.below(static_cast<uint32_t>(i + 1))]);
  // The entropy-preserving score (Nagata and Kobayashi's Eval_ent): the length gained per unit of
  // the population's edge entropy lost, or without bound where the entropy does not fall; only
  // children shorter than A score above 0. Frequencies as at the generation's start.
  EdgeAssembly::ChildScore score;
  if (frequency_) {
    score = [this, h = eax::entropy_terms(population)](const AssembledChild& child) {
      double entropy = 0;
      for (const Edge& e : child.removed) {
        const int c = frequency_->count(e.a, e.b);
        entropy += h[c - 1] - h[c];
      }
      for (const Edge& e : child.added) {
        const int c = frequency_->count(e.a, e.b);
        entropy += h[c + 1] - h[c];
      }
      const double gain = static_cast<double>(child.gain);
      constexpr double kEpsilon = 1e-9;
      return entropy < -kEpsilon ? gain / -entropy : gain / kEpsilon;
    };
  }
  if (!(gpu_ && stage_ == 1 ? crossovers_on_gpu(stop) : crossovers_on_host(stop, score))) return false;
  int changed = 0;
  for (int a = 0; a < population; ++a) {
    children_ += made_[a];
    if (next_lengths_[a] < 0) continue;
    if (frequency_) {
      for (const Edge& e : taken_[a].removed) frequency_->add(e.a, e.b, -1);
      for (const Edge& e : taken_[a].added) frequency_->add(e.a, e.b, 1);
    }
    std::swap(tours_[a], next_[a]);
    lengths_[a] = next_lengths_[a];
    if (gpu_current_) gpu_stale_[static_cast<size_t>(a)] = 1;
    ++changed;
  }
  ++generations_;
  const int64_t own_before = own_shortest_;
  take_shortest();
  stall_ = own_shortest_ < own_before ? 0 : stall_ + 1;
  const bool stalled = config_.stages == 2 && stall_ >= std::max(1, kStallChildren / config_.children);
  if (changed == 0 || stalled) {
    // Stage 1 converged or stalled: block E-sets. Stage 2 (or the only stage) converged or
    // stalled: finished, or a population twice as large from the best tour and new climbs.
    if (stage_ == 1 && config_.stages == 2) {
      stage_ = 2;
      stall_ = 0;
    } else if (apart_) {
      join_best();  // the population has converged on its own: now the crossover with the best tour
    } else if (config_.growth >= 1) {
      population_ = next_population_size();
      built_ = false;
      ++restarts_;
    } else {
      converged_ = true;
    }
  }
  return true;
}

bool EdgeAssemblySearch::crossovers_on_host(const StopFlag& stop, const EdgeAssembly::ChildScore& score) {
  const int population = population_;
  std::atomic<bool> cut{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) if (threads_ > 1)
  for (int i = 0; i < population; ++i) {
    const int a = order_[i], b = order_[(i + 1) % population];
    next_lengths_[a] = -1;
    made_[a] = 0;
    if (cut.load(std::memory_order_relaxed) || stop.requested()) {
      cut = true;
      continue;
    }
    RandomStream rng(seed_, pair_stream(a));
    MergeBase& base = *bases_[thread_index()];
    base.reset(tours_[a], lengths_[a]);
    AssembledChild& child = taken_[a];
    made_[a] = assembly_[thread_index()]->best_child(base, tours_[b], config_.children, rng, child, score,
                                                     stage_ == 2);
    if (made_[a] > 0 && child.gain > 0) {
      if (!base.exchange_is_a_tour(child.removed, child.added, &next_[a]))
        throw std::logic_error("edge assembly: a child that is not one tour");
      next_lengths_[a] = lengths_[a] - child.gain;
    }
  }
  return !cut;
}

double EdgeAssemblySearch::gpu_seconds() const {
#if FORMICA_HAVE_CUDA
  if (gpu_) return gpu_->kernel_seconds();
#endif
  return 0;
}

std::array<double, 3> EdgeAssemblySearch::gpu_phase_shares() const {
#if FORMICA_HAVE_CUDA
  if (gpu_) return gpu_->phase_shares();
#endif
  return {0, 0, 0};
}

bool EdgeAssemblySearch::crossovers_on_gpu(const StopFlag& stop) {
#if FORMICA_HAVE_CUDA
  const int population = population_;
  if (!gpu_current_) {
    gpu_->set_population(tours_);
    gpu_stale_.assign(tours_.size(), 0);
    gpu_current_ = true;
  }
  std::vector<int> stale;
  for (size_t slot = 0; slot < tours_.size(); ++slot)
    if (gpu_stale_[slot]) {
      stale.push_back(static_cast<int>(slot));
      gpu_stale_[slot] = 0;
    }
  gpu_->set_tours(stale, tours_);
  std::vector<cuda::PairJob> jobs(static_cast<size_t>(population));
  for (int i = 0; i < population; ++i) {
    const int a = order_[i];
    jobs[i] = {a, order_[(i + 1) % population], pair_stream(a)};
  }
  if (stop.requested()) return false;
  std::vector<cuda::PairChild> children;
  if (!gpu_->best_children(jobs, seed_, config_.children, frequency_ != nullptr, children, &stop)) return false;
  gpu_pairs_ += population;
  // The children taken become tours on the host threads, as the host's generation builds them.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) if (threads_ > 1)
  for (int i = 0; i < population; ++i) {
    const int a = jobs[i].a;
    cuda::PairChild& child = children[i];
    made_[a] = child.made;
    next_lengths_[a] = -1;
    if (child.made == 0 || child.gain <= 0) continue;
    MergeBase& base = *bases_[thread_index()];
    base.reset(tours_[a], lengths_[a]);
    if (!base.exchange_is_a_tour(child.removed, child.added, &next_[a]))
      throw std::logic_error("edge assembly on the GPU: a child that is not one tour");
    next_lengths_[a] = lengths_[a] - child.gain;
    taken_[a].gain = child.gain;
    taken_[a].removed = std::move(child.removed);
    taken_[a].added = std::move(child.added);
  }
  return true;
#else
  (void)stop;
  throw std::logic_error("GA-EAX's GPU children in a build without CUDA");
#endif
}

int EdgeAssemblySearch::next_population_size() const {
  const int wanted = std::min(static_cast<int>(std::ceil(config_.growth * population_)), kMaxPopulation);
  const std::optional<size_t> available = available_host_memory();
  if (wanted <= population_ || !available) return wanted;
  // The new members may take half of what is available now: the run is not alone on the host.
  const size_t fits =
      *available / 2 / (kTourCopiesPerNewMember * sizeof(int32_t) * static_cast<size_t>(instance_.n()));
  return static_cast<int>(std::clamp(fits, static_cast<size_t>(population_), static_cast<size_t>(wanted)));
}

}  // namespace formica::population
