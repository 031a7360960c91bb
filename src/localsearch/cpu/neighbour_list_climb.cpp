// Neighbour-list 2-opt with don't-look bits on the CPU (see neighbour_list_climb.h).
#include "localsearch/cpu/neighbour_list_climb.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace formica::localsearch::cpu {
namespace {

class ArrayTour {
 public:
  explicit ArrayTour(std::span<int32_t> tour) : tour_(tour), n_(static_cast<int>(tour.size())), pos_(tour.size()) {
    for (int p = 0; p < n_; ++p) pos_[tour_[p]] = p;
  }
  int at(int p) const { return tour_[((p % n_) + n_) % n_]; }
  int pos(int city) const { return pos_[city]; }

  /// The 2-opt move removing edges e1 and e2 (edge e joins positions e and e + 1): reverses
  /// positions i+1..j for i = min, j = max, or equivalently the rest of the cycle, whichever is
  /// shorter.
  void two_opt(int e1, int e2) {
    const int i = std::min(e1, e2), j = std::max(e1, e2);
    const int inside = j - i;  // positions i+1..j
    if (inside <= n_ - inside) reverse(i + 1, inside);
    else reverse(j + 1, n_ - inside);  // positions j+1..n-1, 0..i
  }

 private:
  void reverse(int first, int length) {
    for (int s = 0; s < length / 2; ++s) {
      const int a = (first + s) % n_, b = (first + length - 1 - s) % n_;
      std::swap(tour_[a], tour_[b]);
      pos_[tour_[a]] = a;
      pos_[tour_[b]] = b;
    }
  }

  std::span<int32_t> tour_;
  int n_;
  std::vector<int32_t> pos_;
};

}  // namespace

NeighbourClimbCounts climb_neighbour_lists(const Instance& instance, const CandidateLists& lists,
                                           std::span<int32_t> tour, const StopFlag* stop) {
  NeighbourClimbCounts counts;
  const int n = static_cast<int>(tour.size());
  ArrayTour t(tour);
  std::vector<int32_t> queue(tour.begin(), tour.end());
  std::vector<uint8_t> queued(static_cast<size_t>(n), 1);
  size_t head = 0;
  const auto push = [&](int city) {
    if (!queued[city]) queued[city] = 1, queue.push_back(city);
  };
  const auto d = [&](int a, int b) { return instance.distance(a, b); };
  int64_t moves_at_sweep = 0;
  for (;;) {
    if (head == queue.size()) {
      // Don't-look bits miss a move that became improving through a change at its far end; a
      // sweep over every city after the queue runs dry finds those, and one that finds nothing
      // proves the tour has no improving move left among those searched.
      if (counts.moves == moves_at_sweep) break;
      moves_at_sweep = counts.moves;
      queue.assign(tour.begin(), tour.end());
      std::fill(queued.begin(), queued.end(), 1);
      head = 0;
    }
    if ((++counts.evaluated & 4095) == 0 && stop != nullptr && stop->requested()) {
      counts.completed = false;
      return counts;
    }
    const int a = queue[head++];
    queued[a] = 0;
    if (head > static_cast<size_t>(4 * n)) {  // keep the queue compact
      queue.erase(queue.begin(), queue.begin() + static_cast<ptrdiff_t>(head));
      head = 0;
    }
    const int p = t.pos(a);
    const int succ = t.at(p + 1), pred = t.at(p - 1);
    const int64_t d_succ = d(a, succ), d_pred = d(a, pred);
    int64_t best = 0;
    int best_e1 = -1, best_e2 = -1;
    for (const int32_t c : lists.of(a)) {
      const int64_t d_ac = d(a, c);
      if (d_ac >= d_succ && d_ac >= d_pred) break;  // lists are nearest first: nothing further can gain
      const int q = t.pos(c);
      if (d_ac < d_succ) {  // new edges (a, c) and (succ, succ of c)
        const int sc = t.at(q + 1);
        if (c != succ && sc != a) {
          const int64_t gain = d_succ + d(c, sc) - d_ac - d(succ, sc);
          if (gain > best) best = gain, best_e1 = p, best_e2 = q;
        }
      }
      if (d_ac < d_pred) {  // new edges (a, c) and (pred, pred of c)
        const int pc = t.at(q - 1);
        if (c != pred && pc != a) {
          const int64_t gain = d_pred + d(pc, c) - d_ac - d(pred, pc);
          if (gain > best) best = gain, best_e1 = (p + n - 1) % n, best_e2 = (q + n - 1) % n;
        }
      }
    }
    if (best <= 0) continue;
    const int ends[4] = {t.at(best_e1), t.at(best_e1 + 1), t.at(best_e2), t.at(best_e2 + 1)};
    t.two_opt(best_e1, best_e2);
    ++counts.moves;
    for (const int city : ends) push(city);
  }
  return counts;
}

}  // namespace formica::localsearch::cpu
