// SPDX-License-Identifier: MIT
// MMAS, ACS and GACO on the CPU (see colony_search.h and aco/colony_rules.h).
#include "aco/cpu/colony_search.h"

#include <algorithm>
#include <atomic>

#include "aco/colony_memory.h"
#include "aco/cpu/ant_path.h"
#include "aco/cpu/candidate_selection.h"
#include "aco/cpu/focused_construction.h"
#include "core/error.h"
#include "core/memory.h"
#include "core/rng.h"
#include "core/timer.h"
#include "core/tour.h"
#include "localsearch/cpu/neighbour_list_climb.h"

namespace formica::aco {
namespace {

/// Applies the local updates of one lockstep step: each distinct entry once, with the number of
/// ants that crossed it (the closed form of aco::local_update), then the matrix's bounds.
void apply_local_updates(std::vector<size_t>& entries, std::vector<float>& tau, float target, float keep, Bounds b) {
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i < entries.size();) {
    size_t j = i;
    while (j < entries.size() && entries[j] == entries[i]) ++j;
    float& t = tau[entries[i]];
    t = clamp_pheromone(local_update(t, target, keep, static_cast<int>(j - i)), b);
    i = j;
  }
  entries.clear();
}

/// Steps of an ant's walk between two looks at the stop.
constexpr int kWalkStopCheckSteps = 64;

/// Runs body(ant, worker) for every ant on `threads` threads (dynamic schedule), each thread with
/// its own worker from make_worker(). Stops handing out ants once `stop` is requested or a body
/// returns false; returns false then. Whatever the thread count, ant a's work is the same.
template <class MakeWorker, class Body>
bool for_each_ant(int threads, int ants, const StopFlag& stop, MakeWorker make_worker, Body body) {
  std::atomic<bool> abandoned{false};
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    auto worker = make_worker();
#pragma omp for schedule(dynamic, 1)
    for (int a = 0; a < ants; ++a) {
      if (abandoned.load(std::memory_order_relaxed) || stop.requested()) {
        abandoned = true;
        continue;
      }
      if (!body(a, worker)) abandoned = true;
    }
  }
  return !abandoned;
}

/// The ants' local search: a queue of active cities without the final sweep (the solver's polish
/// certifies the best tour at the end).
localsearch::cpu::ClimbOptions ant_climb(const ColonyConfig& config) {
  return localsearch::cpu::climb_options(config.local_search, false);
}

}  // namespace

ColonySearchCpu::ColonySearchCpu(const Instance& instance, const ColonyConfig& config,
                                 std::vector<int32_t> start_tour, const StopFlag* setup_stop,
                                 const StartHostThreads& host_threads)
    : instance_(instance), config_(config), n_(instance.n()) {
  config_.validate();
  FORMICA_EXPECTS(start_tour.empty() || config_.focused(), kStartTourNeedsFocusedColonies);
  if (!start_tour.empty()) validate_permutation(start_tour, n_);
  expect_memory(colony_memory(n_, config_, false).host, available_host_memory(),
                concat(to_string(config_.variant), " on the CPU for n = ", n_));
  const StopFlag lists_stop = preparation_stop(setup_stop);
  layout_ = make_colony_layout(instance, config_, &lists_stop);
  const CandidateSet base =
      build_candidate_set(instance, config_.candidates, config_.dynamic_slots(), config_.beta, config_.threads,
                          config_.neighbour_lists, false, &lists_stop);
  records_.assign(static_cast<size_t>(layout_.colonies), fresh_colony_record());
  tours_.resize(static_cast<size_t>(layout_.total_ants()) * n_);
  lengths_.resize(static_cast<size_t>(layout_.total_ants()));
  colony_best_.resize(static_cast<size_t>(layout_.colonies) * n_);
  colony_restart_best_.resize(colony_best_.size());
  if (config_.local_search != localsearch::LocalSearchKind::None)
    ls_lists_ = local_search_lists(instance, config_, setup_stop, &lists_stop);
  merger_ = ColonyMerger(host_threads, instance, config_, ls_lists_ ? &*ls_lists_ : nullptr, &lists_stop);
  if (config_.focused())
    start_focused(start_tour.empty()
                      ? focused_start_tour(instance, config_, ls_lists_ ? &*ls_lists_ : nullptr, setup_stop)
                      : std::move(start_tour));
  for (int m = 0; m < layout_.matrices; ++m) {
    Matrix matrix;
    matrix.set = base;
    const size_t entries = base.ids.size();
    matrix.tau.assign(entries, static_cast<float>(layout_.initial));
    matrix.fitness.resize(entries);
    for (size_t e = 0; e < entries; ++e)
      matrix.fitness[e] = entry_fitness(matrix.tau[e], matrix.set.eta_beta[e], static_cast<float>(config_.alpha));
    matrix.crossings.assign(config_.variant == ColonyVariant::Gaco ? entries : 0, 0);
    matrix.bounds = layout_.bounds_of(m, records_);
    matrices_.push_back(std::move(matrix));
  }
}

void ColonySearchCpu::start_focused(std::vector<int32_t> tour) {
  // Every colony starts from the same tour; it counts as each colony's best so far.
  const int64_t length = tour_length(instance_, tour);
  merger_.start(tour, length);
  source_tours_.resize(static_cast<size_t>(layout_.colonies) * n_);
  source_pos_.resize(source_tours_.size());
  source_lengths_.assign(static_cast<size_t>(layout_.colonies), length);
  walk_edges_.assign(static_cast<size_t>(layout_.colonies), config_.focused_edges);
  for (int c = 0; c < layout_.colonies; ++c) {
    const size_t at = static_cast<size_t>(c) * n_;
    std::copy(tour.begin(), tour.end(), source_tours_.begin() + static_cast<ptrdiff_t>(at));
    std::copy(tour.begin(), tour.end(), colony_best_.begin() + static_cast<ptrdiff_t>(at));
    std::copy(tour.begin(), tour.end(), colony_restart_best_.begin() + static_cast<ptrdiff_t>(at));
    for (int p = 0; p < n_; ++p) source_pos_[at + tour[p]] = p;
    records_[c].best_length = records_[c].restart_length = length;
  }
  best_length_ = length;
}

void ColonySearchCpu::set_sources() {
  for (int c = 0; c < layout_.colonies; ++c) {
    const int32_t* tour = depositor_tour(c);
    const size_t at = static_cast<size_t>(c) * n_;
    std::copy(tour, tour + n_, source_tours_.begin() + static_cast<ptrdiff_t>(at));
    for (int p = 0; p < n_; ++p) source_pos_[at + tour[p]] = p;
    source_lengths_[c] = depositor_length(records_[c]);
  }
}

void ColonySearchCpu::construct_focused(const StopFlag& stop, bool& abandoned) {
  const uint32_t substream = static_cast<uint32_t>(iteration_ + 1);
  struct Worker {
    std::vector<int32_t> pos, touched;
    WalkMarks walked;
    std::optional<localsearch::cpu::NeighbourClimber> climber;
  };
  const auto make_worker = [&] {
    Worker w{std::vector<int32_t>(static_cast<size_t>(n_)), {}, WalkMarks(n_), std::nullopt};
    if (ls_lists_) w.climber.emplace(instance_, *ls_lists_, ant_climb(config_));
    return w;
  };
  abandoned = !for_each_ant(config_.threads, layout_.total_ants(), stop, make_worker, [&](int a, Worker& w) {
    const int colony = layout_.ant_colony[a];
    const Matrix& matrix = matrices_[layout_.matrix_of(colony)];
    const double q0 = layout_.rule[colony] == ColonyRule::Acs ? config_.q0 : 0.0;
    const std::span<int32_t> tour(tours_.data() + static_cast<size_t>(a) * n_, static_cast<size_t>(n_));
    const auto source = source_tours_.begin() + static_cast<ptrdiff_t>(colony) * n_;
    std::copy(source, source + n_, tour.begin());
    const auto source_pos = source_pos_.begin() + static_cast<ptrdiff_t>(colony) * n_;
    std::copy(source_pos, source_pos + n_, w.pos.begin());
    localsearch::cpu::ArrayTour array(tour, w.pos);
    RandomStream rng(layout_.ant_seeds[a], 0, substream);
    w.touched.clear();
    const FocusedWalk walk = focused_walk(instance_, matrix.set, matrix.fitness, array, walk_edges_[colony],
                                          q0, rng, w.walked, w.touched);
    int64_t gain = 0;
    if (w.climber) {
      const localsearch::cpu::NeighbourClimbCounts counts = w.climber->climb(tour, w.pos, w.touched, &stop);
      if (!counts.completed) return false;
      gain = counts.gain;
    }
    lengths_[a] = source_lengths_[colony] + walk.delta - gain;
    return true;
  });
}

void ColonySearchCpu::improve_tours(const StopFlag& stop, bool& abandoned) {
  const auto make_climber = [&] {
    return localsearch::cpu::NeighbourClimber(instance_, *ls_lists_, ant_climb(config_));
  };
  abandoned = !for_each_ant(config_.threads, layout_.total_ants(), stop, make_climber,
                            [&](int a, localsearch::cpu::NeighbourClimber& climber) {
                              const std::span<int32_t> tour(tours_.data() + static_cast<size_t>(a) * n_,
                                                            static_cast<size_t>(n_));
                              return climber.climb(tour, &stop).completed;
                            });
}

void ColonySearchCpu::construct_independent(const StopFlag& stop, bool& abandoned) {
  const uint32_t substream = static_cast<uint32_t>(iteration_ + 1);
  abandoned = !for_each_ant(
      config_.threads, layout_.total_ants(), stop, [&] { return AntPath(n_); },
      [&](int a, AntPath& path) {
        const int colony = layout_.ant_colony[a];
        const Matrix& matrix = matrices_[layout_.matrix_of(colony)];
        const int width = matrix.set.width;
        const double q0 = layout_.rule[colony] == ColonyRule::Acs ? config_.q0 : 0.0;
        RandomStream rng(layout_.ant_seeds[a], 0, substream);
        path.reset(static_cast<int>(rng.below(static_cast<uint32_t>(n_))));
        while (path.visited_count() < n_) {
          // A step past the candidate lists scans every unvisited city: a walk over cities stacked
          // on a few points is O(n^2), seconds at 20,000, so it looks at the stop on its way.
          if (path.visited_count() % kWalkStopCheckSteps == 0 && stop.requested()) return false;
          const std::span<const float> f(matrix.fitness.data() + static_cast<size_t>(path.current()) * width,
                                         static_cast<size_t>(width));
          const double u_greedy = q0 > 0.0 ? rng.next_double() : 1.0;
          path.visit(select_candidate(instance_, matrix.set, f, path, q0, u_greedy, rng.next_double()).city);
        }
        std::copy(path.order().begin(), path.order().end(), tours_.begin() + static_cast<ptrdiff_t>(a) * n_);
        return true;
      });
}

bool ColonySearchCpu::construct_lockstep(int m, const StopFlag& stop) {
  Matrix& matrix = matrices_[m];
  const int width = matrix.set.width;
  const int first = layout_.first_ant[m * layout_.group], last = layout_.first_ant[(m + 1) * layout_.group];
  const float target = static_cast<float>(layout_.tau0), keep = static_cast<float>(1.0 - config_.xi);
  const float alpha = static_cast<float>(config_.alpha);
  std::vector<AntPath> paths;
  paths.reserve(static_cast<size_t>(last - first));
  std::vector<RandomStream> rngs;
  for (int a = first; a < last; ++a) {
    // Every ant's path at once: 100,000 ants of 50,000 cities are seconds of set-up.
    if ((a - first) % kWalkStopCheckSteps == 0 && stop.requested()) return false;
    paths.emplace_back(n_);
    rngs.emplace_back(layout_.ant_seeds[a], 0, static_cast<uint32_t>(iteration_ + 1));
    paths[a - first].reset(static_cast<int>(rngs.back().below(static_cast<uint32_t>(n_))));
  }
  std::vector<float> f(static_cast<size_t>(width));
  std::vector<size_t> entries;
  const auto cross = [&](int i, int j) {
    const int forward = matrix.set.slot_of(i, j), backward = matrix.set.slot_of(j, i);
    if (forward >= 0) entries.push_back(static_cast<size_t>(i) * width + forward);
    if (backward >= 0) entries.push_back(static_cast<size_t>(j) * width + backward);
  };
  // All ants take step p on the pheromone left by step p - 1 (see colony_rules.h).
  for (int p = 1; p < n_; ++p) {
    if (stop.requested()) return false;  // a step is every ant's: a look each
    for (int a = first; a < last; ++a) {
      AntPath& path = paths[a - first];
      const int colony = layout_.ant_colony[a];
      const double q0 = layout_.rule[colony] == ColonyRule::Acs ? config_.q0 : 0.0;
      const size_t row = static_cast<size_t>(path.current()) * width;
      for (int s = 0; s < width; ++s) f[s] = entry_fitness(matrix.tau[row + s], matrix.set.eta_beta[row + s], alpha);
      RandomStream& rng = rngs[a - first];
      const double u_greedy = q0 > 0.0 ? rng.next_double() : 1.0;
      const int from = path.current();
      const CandidateChoice choice = select_candidate(instance_, matrix.set, f, path, q0, u_greedy, rng.next_double());
      path.visit(choice.city);
      cross(from, choice.city);
    }
    apply_local_updates(entries, matrix.tau, target, keep, matrix.bounds);
  }
  for (int a = first; a < last; ++a) {
    const auto& order = paths[a - first].order();
    cross(order.back(), order.front());
    std::copy(order.begin(), order.end(), tours_.begin() + static_cast<ptrdiff_t>(a) * n_);
  }
  apply_local_updates(entries, matrix.tau, target, keep, matrix.bounds);
  return true;
}

void ColonySearchCpu::count_crossings(Matrix& matrix, std::span<const int32_t> tour) const {
  const int width = matrix.set.width;
  for (int p = 0; p < n_; ++p) {
    const int i = tour[p], j = tour[(p + 1) % n_];
    const int forward = matrix.set.slot_of(i, j), backward = matrix.set.slot_of(j, i);
    if (forward >= 0) ++matrix.crossings[static_cast<size_t>(i) * width + forward];
    if (backward >= 0) ++matrix.crossings[static_cast<size_t>(j) * width + backward];
  }
}

const int32_t* ColonySearchCpu::depositor_tour(int colony) const {
  const ColonyRecord& r = records_[colony];
  switch (static_cast<Depositor>(r.depositor)) {
    case Depositor::IterationBest:
      return tours_.data() + static_cast<size_t>(layout_.first_ant[colony] + r.iteration_ant) * n_;
    case Depositor::RestartBest: return colony_restart_best_.data() + static_cast<size_t>(colony) * n_;
    case Depositor::BestSoFar: break;
  }
  return colony_best_.data() + static_cast<size_t>(colony) * n_;
}

void ColonySearchCpu::update_matrix(int m) {
  Matrix& matrix = matrices_[m];
  const Bounds b = layout_.bounds_of(m, records_);
  matrix.bounds = b;
  const int width = matrix.set.width;
  // The depositing tours of the group's colonies as successor / predecessor arrays.
  const int group = layout_.group;
  std::vector<int32_t> next(static_cast<size_t>(group) * n_), previous(next.size());
  std::vector<Deposit> deposits;
  for (int g = 0; g < group; ++g) {
    const int colony = m * group + g;
    const int32_t* tour = depositor_tour(colony);
    deposits.push_back(colony_deposit(records_[colony], layout_.rule[colony] == ColonyRule::Acs, config_.acs_rho));
    for (int p = 0; p < n_; ++p) {
      const int a = tour[p], c = tour[(p + 1) % n_];
      next[static_cast<size_t>(g) * n_ + a] = c;
      previous[static_cast<size_t>(g) * n_ + c] = a;
    }
  }
  const bool deferred_local = config_.variant == ColonyVariant::Gaco;
  const float keep_local = static_cast<float>(1.0 - config_.xi);
  const float keep = static_cast<float>(1.0 - layout_.rho);
  const float alpha = static_cast<float>(config_.alpha);
  for (int i = 0; i < n_; ++i)
    for (int s = 0; s < width; ++s) {
      const size_t e = static_cast<size_t>(i) * width + s;
      const int j = matrix.set.ids[e];
      float tau = matrix.tau[e];
      if (deferred_local) tau = local_update(tau, b.tau_min, keep_local, matrix.crossings[e]);
      tau *= keep;
      for (int g = 0; g < group && j >= 0; ++g) {
        const size_t at = static_cast<size_t>(g) * n_ + i;
        if (next[at] == j || previous[at] == j) tau = deposits[g].keep * tau + deposits[g].add;
      }
      tau = clamp_pheromone(tau, b);
      matrix.tau[e] = tau;
      matrix.fitness[e] = entry_fitness(tau, matrix.set.eta_beta[e], alpha);
    }
}

void ColonySearchCpu::after_iteration() {
  const int iteration = iteration_ + 1;
  const float alpha = static_cast<float>(config_.alpha);
  if (iteration % 100 == 0 && layout_.bounds != BoundsKind::Acs) {
    for (int m = 0; m < layout_.matrices; ++m) {
      Matrix& matrix = matrices_[m];
      if (!restart_due(layout_, records_, m, iteration, config_.restart_after) ||
          !(lambda_branching(matrix.tau.data(), n_, matrix.set.width, matrix.set.k) < 1.00001))
        continue;
      const float value = clamp_pheromone(layout_.restart_value(m, records_), matrix.bounds);
      std::fill(matrix.tau.begin(), matrix.tau.end(), value);
      for (size_t e = 0; e < matrix.tau.size(); ++e)
        matrix.fitness[e] = entry_fitness(value, matrix.set.eta_beta[e], alpha);
      restart_records(layout_, records_, m, iteration);
      for (int c = m * layout_.group; c < (m + 1) * layout_.group && config_.focused(); ++c)
        walk_edges_[c] = restart_walk_edges(n_, config_.focused_edges);
      ++restarts_;
    }
  }
  std::vector<int> receivers;
  const int source = exchange_source(layout_, records_, iteration, config_.exchange_interval, receivers);
  for (int c : receivers) {
    const auto from = colony_best_.begin() + static_cast<ptrdiff_t>(source) * n_;
    std::copy(from, from + n_, colony_best_.begin() + static_cast<ptrdiff_t>(c) * n_);
    std::copy(from, from + n_, colony_restart_best_.begin() + static_cast<ptrdiff_t>(c) * n_);
  }
  if (config_.merge_tours && merger_.due(records_, iteration)) {
    std::vector<int32_t> merged;
    const int colony =
        merger_.merge(instance_, records_, iteration, colony_best_, colony_restart_best_, merged);
    take_merged(colony, merged);
  }
  find_best_colony();
}

void ColonySearchCpu::take_merged(int colony, std::span<const int32_t> merged) {
  if (colony < 0) return;
  std::copy(merged.begin(), merged.end(), colony_best_.begin() + static_cast<ptrdiff_t>(colony) * n_);
  std::copy(merged.begin(), merged.end(), colony_restart_best_.begin() + static_cast<ptrdiff_t>(colony) * n_);
  ++merges_;
}

bool ColonySearchCpu::adopt(std::span<const int32_t> tour, int64_t length) {
  validate_permutation(tour, n_);
  const int64_t before = best_length_;
  std::vector<int32_t> merged;
  const int colony = merger_.adopt(instance_, records_, iteration_, colony_best_, tour, length, merged);
  take_merged(colony, merged);
  if (colony >= 0 && config_.focused()) {
    const size_t at = static_cast<size_t>(colony) * n_;
    std::copy(merged.begin(), merged.end(), source_tours_.begin() + static_cast<ptrdiff_t>(at));
    for (int p = 0; p < n_; ++p) source_pos_[at + merged[p]] = p;
    source_lengths_[colony] = records_[colony].best_length;
  }
  find_best_colony();
  return best_length_ < before;
}

void ColonySearchCpu::finish() {
  if (iteration_ == 0 && !config_.focused()) return;  // no tours yet
  std::vector<int32_t> merged;
  const int colony =
      merger_.finish(instance_, records_, iteration_, colony_best_, colony_restart_best_, merged);
  take_merged(colony, merged);
  find_best_colony();
}

void ColonySearchCpu::find_best_colony() {
  best_colony_ = 0;
  iteration_best_ = kNoLength;
  for (int c = 0; c < layout_.colonies; ++c) {
    if (records_[c].best_length < records_[best_colony_].best_length) best_colony_ = c;
    iteration_best_ = std::min<int64_t>(iteration_best_, records_[c].iteration_length);
  }
  best_length_ = records_[best_colony_].best_length;
  merger_.observe(best_length_);
}

bool ColonySearchCpu::step(const StopFlag& stop) {
  const Stopwatch clock;
  const int iteration = iteration_ + 1;
  bool abandoned = false;
  if (config_.focused()) {
    construct_focused(stop, abandoned);  // walks, local search and exact lengths
    if (abandoned) return false;
    times_.construction_ms = clock.seconds() * 1e3;
    times_.local_search_ms = 0.0;  // done ant by ant inside the construction
  } else {
    if (config_.immediate_local_update()) {
      if (stop.requested()) return false;
      std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(config_.threads) if (config_.threads > 1)
      for (int m = 0; m < layout_.matrices; ++m)
        if (!construct_lockstep(m, stop)) stopped = true;
      abandoned = stopped;
    } else {
      construct_independent(stop, abandoned);
    }
    if (abandoned) return false;
    times_.construction_ms = clock.seconds() * 1e3;
    const Stopwatch search_clock;
    if (ls_lists_) {
      improve_tours(stop, abandoned);
      if (abandoned) return false;
    }
#pragma omp parallel for schedule(static) num_threads(config_.threads) if (config_.threads > 1)
    for (int a = 0; a < layout_.total_ants(); ++a)
      lengths_[a] = tour_length(
          instance_,
          std::span<const int32_t>(tours_.data() + static_cast<size_t>(a) * n_, static_cast<size_t>(n_)));
    times_.local_search_ms = ls_lists_ ? search_clock.seconds() * 1e3 : 0.0;
  }

  const Stopwatch update_clock;
  for (int c = 0; c < layout_.colonies; ++c) {
    const int first = layout_.first_ant[c];
    int best = first;
    for (int a = first + 1; a < layout_.first_ant[c + 1]; ++a)
      if (lengths_[a] < lengths_[best]) best = a;
    const int improved = record_iteration(records_[c], lengths_[best], best - first, iteration,
                                          layout_.rule[c] == ColonyRule::Acs,
                                          config_.schedule == MmasSchedule::Increasing, config_.best_every);
    const auto tour = tours_.begin() + static_cast<ptrdiff_t>(best) * n_;
    if (improved & 1) std::copy(tour, tour + n_, colony_best_.begin() + static_cast<ptrdiff_t>(c) * n_);
    if (improved & 2) std::copy(tour, tour + n_, colony_restart_best_.begin() + static_cast<ptrdiff_t>(c) * n_);
  }
  if (config_.variant == ColonyVariant::Gaco) {
    for (Matrix& matrix : matrices_) std::fill(matrix.crossings.begin(), matrix.crossings.end(), 0);
    for (int a = 0; a < layout_.total_ants(); ++a)
      if (layout_.rule[layout_.ant_colony[a]] == ColonyRule::Acs)
        count_crossings(matrices_[layout_.matrix_of(layout_.ant_colony[a])],
                        std::span<const int32_t>(tours_.data() + static_cast<size_t>(a) * n_, static_cast<size_t>(n_)));
  }
#pragma omp parallel for schedule(dynamic, 1) num_threads(config_.threads) if (config_.threads > 1)
  for (int m = 0; m < layout_.matrices; ++m) {
    if (config_.variant == ColonyVariant::Gaco) {
      // The group's iteration-best tour gives the next iteration's dynamic neighbours (Eq. 5-6).
      int source = m * layout_.group;
      for (int c = source + 1; c < (m + 1) * layout_.group; ++c)
        if (records_[c].iteration_length < records_[source].iteration_length) source = c;
      const ColonyRecord& r = records_[source];
      install_dynamic_neighbours(
          instance_, matrices_[m].set,
          std::span<const int32_t>(tours_.data() + static_cast<size_t>(layout_.first_ant[source] + r.iteration_ant) * n_,
                                   static_cast<size_t>(n_)),
          matrices_[m].tau, layout_.bounds_of(m, records_).tau_min, config_.beta);
    }
    update_matrix(m);
  }
  if (config_.focused()) {
    set_sources();
    std::fill(walk_edges_.begin(), walk_edges_.end(), config_.focused_edges);
  }
  after_iteration();
  ++iteration_;
  times_.pheromone_ms = update_clock.seconds() * 1e3;
  times_.total_ms = clock.seconds() * 1e3;
  return true;
}

std::vector<int32_t> ColonySearchCpu::best_tour() const {
  if (iteration_ == 0 && !config_.focused()) return {};  // focused colonies start from a tour
  const auto from = colony_best_.begin() + static_cast<ptrdiff_t>(best_colony_) * n_;
  return std::vector<int32_t>(from, from + n_);
}

std::vector<int64_t> ColonySearchCpu::group_best_lengths() const {
  std::vector<int64_t> lengths;
  for (int m = 0; m < layout_.matrices; ++m) lengths.push_back(layout_.group_best(m, records_));
  return lengths;
}

std::vector<int32_t> ColonySearchCpu::group_best_tour(int m) const {
  int best = m * layout_.group;
  for (int c = best + 1; c < (m + 1) * layout_.group; ++c)
    if (records_[c].best_length < records_[best].best_length) best = c;
  const auto from = colony_best_.begin() + static_cast<ptrdiff_t>(best) * n_;
  return std::vector<int32_t>(from, from + n_);
}

}  // namespace formica::aco
