// GA-EAX on host threads (see edge_assembly_search.h).
#include "localsearch/cpu/edge_assembly_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/error.h"
#include "core/rng.h"
#include "core/tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"
#include "localsearch/partition_merge.h"
#include "localsearch/start_tour.h"

namespace formica::localsearch::cpu {
namespace {

constexpr uint64_t kEaxTag = 0x45415853;  // "EAXS"
/// Smaller instances keep their first tour: the crossover needs a few cities to cut.
constexpr int kMinCities = 8;

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

}  // namespace

void EdgeAssemblyConfig::validate() const {
  FORMICA_EXPECTS(population >= 2 && population <= 100000, "--population must be in [2, 100000], got ",
                  population);
  FORMICA_EXPECTS(children >= 1 && children <= 1000, "--children must be in [1, 1000], got ", children);
  FORMICA_EXPECTS(neighbours >= 1 && neighbours <= 50, "eax: --neighbours must be in [1, 50], got ",
                  neighbours);
  FORMICA_EXPECTS(threads >= 1, "eax: at least 1 thread, got ", threads);
}

std::string EdgeAssemblyConfig::describe() const {
  return concat("GA-EAX: population ", population, ", ", children, " children per pair, ", neighbours,
                " nearest neighbours, ", threads, " thread", threads > 1 ? "s" : "");
}

EdgeAssemblySearch::EdgeAssemblySearch(const Instance& instance, const EdgeAssemblyConfig& config,
                                       std::vector<int32_t> start)
    : instance_(instance),
      config_(config),
      seed_(derive_seed(config.seed, kEaxTag)),
      lists_(build_candidate_lists(instance, (config.validate(), config.neighbours), config.threads)) {
  const int n = instance.n();
  if (start.empty()) {
    start = random_start(n, seed_, 0);
    if (n >= kMinCities) NeighbourClimber(instance, lists_, ClimbOptions{.or_opt = true}).climb(start);
  }
  validate_permutation(start, n);
  best_length_ = iteration_best_ = tour_length(instance, start);
  best_tour_ = std::move(start);
  converged_ = n < kMinCities;
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
  const int n = instance_.n(), population = config_.population;
  std::vector<std::vector<int32_t>> tours(static_cast<size_t>(population));
  std::vector<int64_t> lengths(tours.size());
  std::atomic<bool> cut{false};
#pragma omp parallel num_threads(config_.threads) if (config_.threads > 1)
  {
    NeighbourClimber climber(instance_, lists_, ClimbOptions{.or_opt = true});
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < population; ++i) {
      if (cut.load(std::memory_order_relaxed) || stop.requested()) {
        cut = true;
        continue;
      }
      if (i == 0) {
        tours[i] = best_tour_;
      } else {
        tours[i] = random_start(n, seed_, i);
        if (!climber.climb(tours[i], &stop).completed) cut = true;
      }
      lengths[i] = tour_length(instance_, tours[i]);
    }
  }
  if (cut) return false;
  tours_ = std::move(tours);
  lengths_ = std::move(lengths);
  next_.resize(tours_.size());
  next_lengths_.resize(tours_.size());
  made_.resize(tours_.size());
  order_.resize(tours_.size());
  assembly_.resize(static_cast<size_t>(config_.threads));
  for (auto& a : assembly_) a = std::make_unique<EdgeAssembly>(instance_, lists_, config_.neighbours);
  built_ = true;
  take_shortest();
  return true;
}

void EdgeAssemblySearch::take_shortest() {
  const int shortest =
      static_cast<int>(std::min_element(lengths_.begin(), lengths_.end()) - lengths_.begin());
  iteration_best_ = lengths_[shortest];
  if (iteration_best_ < best_length_) {
    best_length_ = iteration_best_;
    best_tour_ = tours_[shortest];
  }
}

bool EdgeAssemblySearch::generation(const StopFlag& stop) {
  const int population = config_.population;
  RandomStream shuffle(seed_, 1ull << 32 | static_cast<uint32_t>(generations_));
  for (int i = 0; i < population; ++i) order_[i] = i;
  for (int i = population - 1; i > 0; --i)
    std::swap(order_[i], order_[shuffle.below(static_cast<uint32_t>(i + 1))]);
  std::atomic<bool> cut{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(config_.threads) if (config_.threads > 1)
  for (int i = 0; i < population; ++i) {
    const int a = order_[i], b = order_[(i + 1) % population];
    next_lengths_[a] = -1;
    made_[a] = 0;
    if (cut.load(std::memory_order_relaxed) || stop.requested()) {
      cut = true;
      continue;
    }
    RandomStream rng(seed_, static_cast<uint64_t>(generations_) * static_cast<uint64_t>(population) + a + 1);
    const MergeBase base(instance_, tours_[a], lengths_[a]);
    AssembledChild child;
    made_[a] = assembly_[thread_index()]->best_child(base, tours_[b], config_.children, rng, child);
    if (made_[a] > 0 && child.gain > 0) {
      if (!base.exchange_is_a_tour(child.removed, child.added, &next_[a]))
        throw std::logic_error("edge assembly: a child that is not one tour");
      next_lengths_[a] = lengths_[a] - child.gain;
    }
  }
  if (cut) return false;
  int changed = 0;
  for (int a = 0; a < population; ++a) {
    children_ += made_[a];
    if (next_lengths_[a] < 0) continue;
    std::swap(tours_[a], next_[a]);
    lengths_[a] = next_lengths_[a];
    ++changed;
  }
  ++generations_;
  take_shortest();
  converged_ = changed == 0;
  return true;
}

}  // namespace formica::localsearch::cpu
