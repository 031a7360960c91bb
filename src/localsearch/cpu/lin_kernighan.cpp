// SPDX-License-Identifier: MIT
// Lin-Kernighan chains of 2-opt moves on the CPU (see lin_kernighan.h).
#include "localsearch/cpu/lin_kernighan.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "localsearch/cpu/array_tour.h"
#include "localsearch/cpu/k_opt_move.h"
#include "localsearch/cpu/sequential_three_opt.h"

namespace formica::localsearch::cpu {
namespace {
constexpr int kMaxBreadth = 8;

int breadth_at(const LinKernighanOptions& options, int depth) {
  return std::clamp(depth < static_cast<int>(options.breadth.size()) ? options.breadth[depth] : 1, 1,
                    kMaxBreadth);
}

/// Chains from every city of `queue` (each tries t2 = succ, then pred, unless (t1, t2) is the
/// fixed edge of `edges`, and keeps the first chain that gains), the cities of a kept chain's
/// changed edges queued again, until the queue is empty or `stop`.
template <class C, class Tour>
NeighbourClimbCounts run_chains(C& chain, const Tour& t, CityQueue& queue, const StopFlag* stop,
                                const ChainEdges& edges) {
  NeighbourClimbCounts counts;
  while (!queue.empty()) {
    // A look every 16 chains: a chain on a two-level tour of 20,000 cities is tens of microseconds,
    // and 256 threads on 2 cores each had to run 256 of them before they saw the stop (seconds).
    if ((++counts.evaluated & 15) == 0 && stop != nullptr && stop->requested()) {
      counts.completed = false;
      break;
    }
    const int t1 = queue.pop();
    for (const int t2 : {t.succ(t1), t.pred(t1)}) {
      if (edges.fixed(t1, t2) || !chain.run(t1, t2)) continue;
      ++counts.moves;
      counts.gain += chain.best_gain();
      queue.push(t1);
      queue.push(t2);
      chain.push_changed(queue);
      break;
    }
  }
  queue.clear();
  return counts;
}
}  // namespace

/// One chain from t1: the steps applied so far (the tour is edited in place), the edges the chain
/// added and removed, and the best closed gain with the number of steps that reach it.
template <class Tour>
class LinKernighan::Chain {
 public:
  Chain(const Instance& instance, const CandidateLists& lists, const LinKernighanOptions& options, Tour& tour,
        const ChainEdges& fixed)
      : instance_(instance), lists_(lists), options_(options), t_(tour), fixed_(fixed) {}

  /// Searches the chains from t1 with t2 its tour neighbour. Leaves the tour improved by
  /// best_gain() > 0 and returns true, or leaves it as it was and returns false.
  bool run(int t1, int t2) {
    t1_ = t1;
    steps_.clear();
    added_.clear();
    removed_.clear();
    best_gain_ = 0;
    best_depth_ = 0;
    removed_.push_back(edge(t1, t2));
    descend(t2, distance(t1, t2));
    if (best_gain_ <= 0) return false;
    while (static_cast<int>(steps_.size()) > best_depth_) undo();
    return true;
  }

  int64_t best_gain() const { return best_gain_; }
  /// Queues the cities of the kept chain's changed edges (t1 and the first t2 aside).
  void push_changed(CityQueue& queue) const {
    for (const Step& s : steps_) queue.push(s.t3), queue.push(s.t4);
  }

 private:
  struct Choice {
    int64_t score, close;  ///< lookahead d(t3, t4) - d(t2, t3); closing edge d(t4, t1)
    int t3, t4;
    /// Larger lookahead first; among equal ones the shorter closing edge (on plateaus of equal
    /// distances it steers the chain back towards t1).
    bool operator>(const Choice& o) const { return score != o.score ? score > o.score : close < o.close; }
  };

  static uint64_t edge(int a, int b) {
    const auto lo = static_cast<uint64_t>(a < b ? a : b), hi = static_cast<uint64_t>(a < b ? b : a);
    return lo << 32 | hi;
  }
  static bool contains(const std::vector<uint64_t>& edges, uint64_t e) {
    return std::find(edges.begin(), edges.end(), e) != edges.end();
  }
  int64_t distance(int a, int b) const { return instance_.distance(a, b); }

  /// Extends the chain whose open end is t2 (edge (t1, t2) is in the tour and goes next) with total
  /// gain g_total. Returns with the tour at the deepest step when a gain was found below.
  void descend(int t2, int64_t g_total) {
    const int depth = static_cast<int>(steps_.size());
    if (depth >= options_.max_depth) return;
    const bool forward = t_.succ(t1_) == t2;  // t2 follows t1: t4 precedes t3
    const int width = breadth_at(options_, depth);
    Choice choices[kMaxBreadth];
    int count = 0;
    const int after2 = t_.succ(t2), before2 = t_.pred(t2);
    for (const int32_t t3 : lists_.of(t2)) {
      const int64_t d23 = distance(t2, t3), g = g_total - d23;
      if (g <= 0) break;  // nearest first: g only falls
      if (t3 == t1_ || t3 == after2 || t3 == before2) continue;
      const int t4 = forward ? t_.pred(t3) : t_.succ(t3);
      if (t4 == t2 || t4 == t1_) continue;
      if (contains(added_, edge(t3, t4)) || contains(removed_, edge(t2, t3)) || fixed_.fixed(t3, t4))
        continue;
      const Choice c{distance(t3, t4) - d23, distance(t4, t1_), t3, t4};
      // Keep the `width` best choices, best first (full ties: the nearer t3, listed first).
      int at = count;
      if (count < width)
        ++count;
      else if (c > choices[width - 1])
        at = width - 1;
      else
        continue;
      while (at > 0 && c > choices[at - 1]) choices[at] = choices[at - 1], --at;
      choices[at] = c;
    }
    for (int i = 0; i < count; ++i) {
      const Choice& c = choices[i];
      apply({t2, c.t3, c.t4});
      const int64_t g_next = g_total + c.score;  // g + d(t3, t4): the score is d(t3, t4) - d(t2, t3)
      const int64_t closed = g_next - c.close;
      if (closed > best_gain_) best_gain_ = closed, best_depth_ = depth + 1;
      descend(c.t4, g_next);
      if (best_gain_ > 0) return;  // keep this chain: no more alternatives
      undo();
    }
  }

  /// Removes (t1, t2) and (t3, t4), adds (t2, t3) and (t4, t1).
  void apply(Step s) {
    t_.exchange(s.t2, t1_, s.t3, s.t4);
    steps_.push_back(s);
    added_.push_back(edge(s.t2, s.t3));
    removed_.push_back(edge(s.t3, s.t4));
  }

  /// Takes the last step back: removes (t2, t3) and (t4, t1), adds (t2, t1) and (t3, t4).
  void undo() {
    const Step s = steps_.back();
    t_.exchange(s.t2, s.t3, t1_, s.t4);
    steps_.pop_back();
    added_.pop_back();
    removed_.pop_back();
  }

  const Instance& instance_;
  const CandidateLists& lists_;
  const LinKernighanOptions& options_;
  Tour& t_;
  const ChainEdges& fixed_;  // only its fixed edge is asked about
  int t1_ = 0;
  std::vector<Step> steps_;
  std::vector<uint64_t> added_, removed_;
  int64_t best_gain_ = 0;
  int best_depth_ = 0;
};

namespace {

/// The 3-opt step (sequential_three_opt.h): moves applied as logged 2-opt exchanges.
class ThreeOptSteps {
 public:
  using Move = SequentialMove;
  ThreeOptSteps(std::span<const int32_t> distances, int max_reversal)
      : distances_(distances), max_reversal_(max_reversal) {}
  template <class Tour>
  bool search(const Tour& t, const Instance& instance, const CandidateLists& lists, const ChainEdges& edges,
              int t1, int t2, int64_t g, int width, Move& closing, std::vector<Move>& open) const {
    return search_sequential_three_opt(t, instance, lists, edges, t1, t2, g, width, closing, open,
                                       distances_, max_reversal_);
  }
  template <class Tour>
  void apply(Tour& t, const Move& m) {
    apply_sequential_three_opt(t, m, log_);
  }
  size_t mark() const { return log_.size(); }
  template <class Tour>
  void undo(Tour& t, size_t mark) {
    undo_exchanges(t, log_, mark);
  }
  /// Keeps what was applied: the log starts again.
  void forget() { log_.clear(); }
  static void record(ChainEdges& edges, const Move& m) {
    edges.add(m.t2, m.t3);
    edges.remove(m.t3, m.t4);
    if (m.t5 >= 0) edges.add(m.t4, m.t5), edges.remove(m.t5, m.t6);
  }
  static void push_changed(CityQueue& queue, const Move& m) {
    for (const int c : {m.t3, m.t4, m.t5, m.t6})
      if (c >= 0) queue.push(c);
  }

 private:
  std::span<const int32_t> distances_;  // list_distances of the lists searched
  int max_reversal_;
  std::vector<Exchange> log_;
};

/// The k-opt step (k_opt_move.h): moves applied by rewriting stretches, undone by their inverses.
class KOptSteps {
 public:
  using Move = KOptMove;
  KOptSteps(int k, int neighbours) : k_(k), neighbours_(neighbours) {}
  bool search(const ArrayTour& t, const Instance& instance, const CandidateLists& lists, const ChainEdges& edges,
              int t1, int t2, int64_t g, int width, Move& closing, std::vector<Move>& open) const {
    return search_sequential_k_opt(t, instance, lists, neighbours_, k_, edges, t1, t2, g, width, closing, open);
  }
  void apply(ArrayTour& t, const Move& m) {
    apply_k_opt(t, m.cities(), scratch_);
    log_.push_back(m);
  }
  size_t mark() const { return log_.size(); }
  void forget() { log_.clear(); }
  void undo(ArrayTour& t, size_t mark) {
    while (log_.size() > mark) {
      // The inverse move: the same cities from t[1] on, t[0] last, removes what the move added.
      const Move& m = log_.back();
      int32_t inverse[2 * kMaxKOpt];
      std::rotate_copy(m.t, m.t + 1, m.t + m.size, inverse);
      apply_k_opt(t, {inverse, static_cast<size_t>(m.size)}, scratch_);
      log_.pop_back();
    }
  }
  static void record(ChainEdges& edges, const Move& m) {
    for (int i = 0; i < m.size; i += 2) edges.remove(m.t[i], m.t[i + 1]);
    for (int i = 1; i + 1 < m.size; i += 2) edges.add(m.t[i], m.t[i + 1]);
  }
  static void push_changed(CityQueue& queue, const Move& m) {
    for (int i = 2; i < m.size; ++i) queue.push(m.t[i]);
  }

 private:
  int k_, neighbours_;
  std::vector<Move> log_;
  std::vector<int32_t> scratch_;
};

}  // namespace

/// One chain of searched steps from t1 (LinKernighanStep::ThreeOpt and FiveOpt): the moves applied
/// so far (the tour is edited in place), the edges added and removed.
template <class Steps, class Tour>
class LinKernighan::StepChain {
 public:
  using Move = typename Steps::Move;
  StepChain(const Instance& instance, const CandidateLists& lists, const LinKernighanOptions& options,
            Tour& tour, ChainEdges& edges, Steps steps)
      : instance_(instance),
        lists_(lists),
        options_(options),
        t_(tour),
        edges_(edges),
        steps_(std::move(steps)) {}

  /// Searches the chains from t1 with t2 its tour neighbour. Leaves the tour improved by
  /// best_gain() > 0 and returns true, or leaves it as it was and returns false.
  bool run(int t1, int t2) {
    t1_ = t1;
    edges_.clear();
    steps_.forget();
    path_.clear();
    best_gain_ = 0;
    edges_.remove(t1, t2);
    descend(t2, instance_.distance(t1, t2), 0);
    return best_gain_ > 0;
  }

  int64_t best_gain() const { return best_gain_; }
  void push_changed(CityQueue& queue) const {
    for (const Move& m : path_) Steps::push_changed(queue, m);
  }

 private:
  /// Extends the chain whose open end is t2 with gain g. Returns with the tour improved (best_gain_
  /// > 0) or as it was on entry.
  void descend(int t2, int64_t g, int depth) {
    if (depth >= options_.max_depth) return;
    const auto level = static_cast<size_t>(depth);
    if (open_.size() <= level) open_.resize(level + 1);  // deeper levels may resize: index, never hold
    Move closing;
    if (steps_.search(t_, instance_, lists_, edges_, t1_, t2, g, breadth_at(options_, depth), closing,
                      open_[level])) {
      take(closing);
      best_gain_ = closing.gain;
      return;
    }
    const size_t mark = steps_.mark(), added_mark = edges_.added_count(), removed_mark = edges_.size();
    for (size_t i = 0; i < open_[level].size(); ++i) {
      const Move m = open_[level][i];
      take(m);
      descend(m.last(), m.gain, depth + 1);
      if (best_gain_ > 0) return;
      steps_.undo(t_, mark);
      edges_.truncate(added_mark, removed_mark);
      path_.pop_back();
    }
  }

  void take(const Move& m) {
    steps_.apply(t_, m);
    path_.push_back(m);
    Steps::record(edges_, m);
  }

  const Instance& instance_;
  const CandidateLists& lists_;
  const LinKernighanOptions& options_;
  Tour& t_;
  ChainEdges& edges_;
  Steps steps_;
  int t1_ = 0;
  std::vector<Move> path_;
  std::vector<std::vector<Move>> open_;  // per depth
  int64_t best_gain_ = 0;
};

LinKernighan::LinKernighan(const Instance& instance, const CandidateLists& lists, LinKernighanOptions options,
                           std::span<const int32_t> distances)
    : instance_(instance),
      lists_(lists),
      options_(options),
      pos_(static_cast<size_t>(instance.n())),
      queue_(instance.n()),
      edges_(instance.n()),
      list_distances_(distances) {
  edges_.fix(options_.fixed_edge[0], options_.fixed_edge[1]);
  if (options_.step == LinKernighanStep::ThreeOpt && list_distances_.empty())
    list_distances_ = own_distances_ = list_distances(instance, lists);
}

NeighbourClimbCounts LinKernighan::improve(std::span<int32_t> tour, const StopFlag* stop) {
  const int n = static_cast<int>(tour.size());
  for (int p = 0; p < n; ++p) pos_[tour[p]] = p;
  return improve(tour, pos_, tour, stop);
}

NeighbourClimbCounts LinKernighan::improve(std::span<int32_t> tour, std::span<int32_t> pos,
                                           std::span<const int32_t> active, const StopFlag* stop) {
  if (static_cast<int>(tour.size()) < kThreeOptMinCities) return {};
  ArrayTour t(tour, pos);
  t.track(touched_);
  return climb(t, active, stop);
}

NeighbourClimbCounts LinKernighan::improve(TwoLevelTour& tour, std::span<const int32_t> active,
                                           const StopFlag* stop) {
  if (options_.step == LinKernighanStep::FiveOpt) throw std::logic_error("5-opt steps need an array tour");
  if (tour.n() < kThreeOptMinCities) return {};
  return climb(tour, active, stop);
}

template <class Tour>
NeighbourClimbCounts LinKernighan::climb(Tour& t, std::span<const int32_t> active, const StopFlag* stop) {
  queue_.clear();
  for (const int32_t city : active) queue_.push(city);
  if constexpr (std::is_same_v<Tour, ArrayTour>) {  // 5-opt steps rewrite stretches by position
    if (options_.step == LinKernighanStep::FiveOpt) {
      StepChain<KOptSteps, ArrayTour> chain(instance_, lists_, options_, t, edges_,
                                            KOptSteps(5, options_.step_neighbours));
      return run_chains(chain, t, queue_, stop, edges_);
    }
  }
  if (options_.step == LinKernighanStep::ThreeOpt) {
    StepChain<ThreeOptSteps, Tour> chain(instance_, lists_, options_, t, edges_,
                                         ThreeOptSteps(list_distances_, options_.max_reversal));
    return run_chains(chain, t, queue_, stop, edges_);
  }
  Chain<Tour> chain(instance_, lists_, options_, t, edges_);
  return run_chains(chain, t, queue_, stop, edges_);
}

}  // namespace formica::localsearch::cpu
