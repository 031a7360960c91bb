// SPDX-License-Identifier: MIT
// Edge assembly crossover (see edge_assembly.h).
#include "population/edge_assembly.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/error.h"

namespace formica::population {
namespace {

/// Slots of G_AB per city: two A edges, then two B edges.
constexpr int kSlots = 4;
/// Occurrences of a city on the tracing path: at most one per pair of its (four) edges, and the start.
constexpr int kOccurrences = 4;
/// Block E-sets: the cycles a centre's search may flip, its steps, and how long a flip is tabu.
constexpr size_t kBlockCandidates = 20;
constexpr int kBlockSteps = 10;
constexpr int kBlockTabu = 3;

/// The crossover's own invariants: a failure is a bug in it, not bad input (exit 1, not 2).
template <typename... Args>
void ensure(bool holds, Args&&... message) {
  if (!holds) throw std::logic_error(concat("edge assembly: ", std::forward<Args>(message)...));
}

void erase_edge(std::vector<Edge>& edges, Edge e) {
  const auto it = std::find(edges.begin(), edges.end(), e);
  ensure(it != edges.end(), "edge (", e.a, ", ", e.b, ") not in the exchange");
  *it = edges.back();
  edges.pop_back();
}

}  // namespace

EdgeAssembly::EdgeAssembly(const Instance& instance, const CandidateLists& lists, int merge_neighbours)
    : instance_(instance), lists_(lists), merge_neighbours_(std::min(merge_neighbours, lists.k())) {
  const size_t n = static_cast<size_t>(instance.n());
  FORMICA_EXPECTS(lists.n() == instance.n() && merge_neighbours_ >= 1,
                  "edge assembly: lists of every city needed");
  stamp_.assign(n, 0);
  gone_.assign(2 * n, -1);
  extra_.assign(2 * n, -1);
  ab_.assign(kSlots * n, -1);
  ab_count_.assign(2 * n, 0);
  seen_at_.assign((kOccurrences + 1) * n, 0);
  mark_.assign(n, 0);
}

void EdgeAssembly::ab_cycles(const MergeBase& a, std::span<const int32_t> b, RandomStream& rng,
                             std::vector<std::vector<int32_t>>& cycles) {
  for (std::vector<int32_t>& cycle : cycles) spare_.push_back(std::move(cycle));  // their storage, reused
  cycles.clear();
  a.difference(b, diff_added_, diff_removed_);  // B's edges that A lacks, A's that B lacks
  if (diff_removed_.empty()) {
    cycles_.clear();
    indexed_ = false;
    return;
  }
  starts_.clear();
  for (const auto* edges : {&diff_removed_, &diff_added_})
    for (const Edge& e : *edges)
      for (const int32_t c : {e.a, e.b})
        ab_count_[2 * c] = ab_count_[2 * c + 1] = seen_at_[(kOccurrences + 1) * c] = 0;
  const auto link = [&](int32_t u, int32_t v, int kind) {
    ab_[kSlots * u + 2 * kind + ab_count_[2 * u + kind]++] = v;
    ab_[kSlots * v + 2 * kind + ab_count_[2 * v + kind]++] = u;
  };
  for (const Edge& e : diff_removed_) {
    link(e.a, e.b, 0);
    starts_.push_back(e.a);
  }
  for (const Edge& e : diff_added_) link(e.a, e.b, 1);
  const auto unlink = [&](int32_t u, int32_t v, int kind) {
    for (const int32_t x : {u, v}) {
      const int32_t y = x == u ? v : u;
      int32_t* slots = &ab_[kSlots * x + 2 * kind];
      int& count = ab_count_[2 * x + kind];
      const int i = slots[0] == y ? 0 : 1;
      slots[i] = slots[--count];
    }
  };
  const auto push_seen = [&](int32_t c, int index) {
    int32_t* seen = &seen_at_[(kOccurrences + 1) * c];
    ensure(seen[0] < kOccurrences, "city ", c, " too often on an AB path");
    seen[1 + seen[0]++] = index;
  };
  const auto pop_seen = [&](int32_t c) { --seen_at_[(kOccurrences + 1) * c]; };

  // Trace from a random city with A edges left: edge i of the path (from path[i - 1] to path[i])
  // is an A edge for odd i; on reaching a city already on the path an even number of edges back,
  // those edges alternate and close: an AB-cycle, cut off the path. Every city keeps as many A as
  // B edges untraced but the path's ends, so the walk never sticks.
  while (!starts_.empty()) {
    const uint32_t r = rng.below(static_cast<uint32_t>(starts_.size()));
    const int32_t s = starts_[r];
    if (ab_count_[2 * s] == 0) {
      starts_[r] = starts_.back();
      starts_.pop_back();
      continue;
    }
    path_.assign(1, s);
    push_seen(s, 0);
    while (!path_.empty()) {
      const int last = static_cast<int>(path_.size()) - 1;
      const int32_t v = path_[last];
      const int kind = last % 2;  // A edges leave even positions
      const int count = ab_count_[2 * v + kind];
      if (count == 0) {  // only the start, all its edges traced
        ensure(last == 0, "an AB path stuck at city ", v);
        pop_seen(v);
        path_.clear();
        break;
      }
      const int32_t w = ab_[kSlots * v + 2 * kind + (count == 2 ? static_cast<int>(rng.below(2)) : 0)];
      unlink(v, w, kind);
      const int at = last + 1;
      int j = -1;
      const int32_t* seen = &seen_at_[(kOccurrences + 1) * w];
      for (int o = seen[0]; o >= 1 && j < 0; --o)
        if ((seen[o] - at) % 2 == 0) j = seen[o];
      if (j < 0) {
        path_.push_back(w);
        push_seen(w, at);
        continue;
      }
      // path[j .. at - 1] closed by the edge to w = path[j]; start the cycle with an A edge.
      std::vector<int32_t>& cycle = cycles.emplace_back();
      if (!spare_.empty()) {
        cycle.swap(spare_.back());
        spare_.pop_back();
      }
      if (j % 2 == 0) {
        cycle.assign(path_.begin() + j, path_.end());
      } else {
        cycle.assign(path_.begin() + j + 1, path_.end());
        cycle.push_back(path_[j]);
      }
      for (int i = last; i > j; --i) pop_seen(path_[i]);
      path_.resize(static_cast<size_t>(j) + 1);
    }
  }
  if (&cycles != &cycles_) cycles_ = cycles;
  indexed_ = false;  // block_set indexes them when asked; single cycles need no index
}

void EdgeAssembly::index_cycles() {
  indexed_ = true;
  const size_t count = cycles_.size();
  in_set_.assign(count, 0);
  tabu_until_.assign(count, 0);
  cycle_gain_.resize(count);
  for (size_t c = 0; c < count; ++c) {
    const std::vector<int32_t>& cycle = cycles_[c];
    const size_t m = cycle.size();
    int64_t gain = 0;
    for (size_t i = 0; i < m; ++i)
      gain += (i % 2 == 0 ? 1 : -1) * instance_.distance(cycle[i], cycle[(i + 1) % m]);
    cycle_gain_[c] = gain;
  }
}

int EdgeAssembly::set_subtours(const MergeBase& a, int with) {
  set_removed_.clear();
  set_added_.clear();
  const auto take = [&](int c) {
    const std::vector<int32_t>& cycle = cycles_[c];
    const size_t m = cycle.size();
    for (size_t i = 0; i < m; ++i)
      (i % 2 == 0 ? set_removed_ : set_added_).push_back(make_edge(cycle[i], cycle[(i + 1) % m]));
  };
  for (const int c : set_)
    if (c != with) take(c);
  if (with >= 0 && !in_set_[with]) take(with);
  return a.exchange_pieces(set_removed_, set_added_, pieces_);
}

void EdgeAssembly::block_set(const MergeBase& a, int centre, RandomStream& rng, std::vector<int>& set) {
  if (!indexed_) index_cycles();
  ensure(centre >= 0 && centre < static_cast<int>(cycles_.size()) && in_set_.size() == cycles_.size(),
         "a block E-set around cycle ", centre, " of ", cycles_.size());
  set_.assign(1, centre);
  in_set_[centre] = 1;
  int subtours = set_subtours(a, -1);
  ensure(subtours > 0, "an AB-cycle that is no exchange");
  best_set_ = set_;
  if (subtours > 1) {
    // The cycles through a city of a subtour other than the largest: the first kBlockCandidates
    // of them from a random cycle on (best_child's cycles are in a random order already).
    const int largest =
        static_cast<int>(std::max_element(pieces_.size.begin(), pieces_.size.end()) - pieces_.size.begin());
    const int count = static_cast<int>(cycles_.size());
    const int from = static_cast<int>(rng.below(static_cast<uint32_t>(count)));
    flips_.clear();
    for (int i = 0; i < count && flips_.size() < kBlockCandidates; ++i) {
      const int c = (from + i) % count;
      if (c == centre) continue;
      for (const int32_t city : cycles_[c])
        if (pieces_.cycle[pieces_.piece_at(a.position(city))] != largest) {
          flips_.push_back(c);
          break;
        }
    }
    for (const int c : flips_) tabu_until_[c] = 0;
    int64_t gain = cycle_gain_[centre], best_gain = gain;
    int best_subtours = subtours;
    for (int step = 0; step < kBlockSteps && best_subtours > 1; ++step) {
      int pick = -1, pick_subtours = 0;
      int64_t pick_gain = 0;
      for (const int c : flips_) {
        if (tabu_until_[c] > step) continue;
        const int s = set_subtours(a, c);
        const int64_t g = gain + (in_set_[c] ? -cycle_gain_[c] : cycle_gain_[c]);
        if (s > 0 && (pick < 0 || s < pick_subtours || (s == pick_subtours && g > pick_gain)))
          pick = c, pick_subtours = s, pick_gain = g;
      }
      if (pick < 0) break;
      if (in_set_[pick]) {
        set_.erase(std::find(set_.begin(), set_.end(), pick));
      } else {
        set_.push_back(pick);
      }
      in_set_[pick] ^= 1;
      gain = pick_gain;
      tabu_until_[pick] = step + 1 + kBlockTabu;
      if (pick_subtours < best_subtours || (pick_subtours == best_subtours && gain > best_gain)) {
        best_subtours = pick_subtours;
        best_gain = gain;
        best_set_ = set_;
      }
    }
  }
  for (const int c : set_) in_set_[c] = 0;
  set.assign(best_set_.begin(), best_set_.end());
}

void EdgeAssembly::reset_child() {
  if (++stamp_now_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 1;
  }
  removed_.clear();
  added_.clear();
}

void EdgeAssembly::touch(int32_t city) {
  if (stamp_[city] == stamp_now_) return;
  stamp_[city] = stamp_now_;
  gone_[2 * city] = gone_[2 * city + 1] = extra_[2 * city] = extra_[2 * city + 1] = -1;
}

void EdgeAssembly::remove_edge(const MergeBase& a, int32_t u, int32_t v) {
  touch(u);
  touch(v);
  const auto drop = [](int32_t* slots, int32_t x) {
    if (slots[0] == x)
      slots[0] = -1;
    else if (slots[1] == x)
      slots[1] = -1;
    else
      return false;
    return true;
  };
  if (drop(&extra_[2 * u], v)) {  // an edge the child added goes again
    drop(&extra_[2 * v], u);
    erase_edge(added_, make_edge(u, v));
    return;
  }
  ensure(a.adjacent(u, v), "(", u, ", ", v, ") is in neither tour");
  for (const auto& [x, y] : {std::pair{u, v}, std::pair{v, u}})
    (gone_[2 * x] < 0 ? gone_[2 * x] : gone_[2 * x + 1]) = y;
  removed_.push_back(make_edge(u, v));
}

void EdgeAssembly::add_edge(int32_t u, int32_t v) {
  touch(u);
  touch(v);
  if (gone_[2 * u] == v || gone_[2 * u + 1] == v) {  // a base edge the child removed comes back
    for (const auto& [x, y] : {std::pair{u, v}, std::pair{v, u}})
      (gone_[2 * x] == y ? gone_[2 * x] : gone_[2 * x + 1]) = -1;
    erase_edge(removed_, make_edge(u, v));
    return;
  }
  for (const auto& [x, y] : {std::pair{u, v}, std::pair{v, u}})
    (extra_[2 * x] < 0 ? extra_[2 * x] : extra_[2 * x + 1]) = y;
  added_.push_back(make_edge(u, v));
}

void EdgeAssembly::neighbours(const MergeBase& a, int32_t city, int32_t out[2]) {
  int found = 0;
  const bool touched = stamp_[city] == stamp_now_;
  for (const int32_t x : {a.succ(city), a.pred(city)})
    if (!touched || (gone_[2 * city] != x && gone_[2 * city + 1] != x)) out[found++] = x;
  if (touched)
    for (const int32_t x : {extra_[2 * city], extra_[2 * city + 1]})
      if (x >= 0) out[found++] = x;
  ensure(found == 2, "city ", city, " has ", found, " edges in a child");
}

int64_t EdgeAssembly::apply_cycle(const MergeBase& a, std::span<const int32_t> cycle) {
  const int m = static_cast<int>(cycle.size());
  int64_t gain = 0;
  for (int i = 0; i < m; ++i) {
    const int32_t u = cycle[i], v = cycle[(i + 1) % m];
    if (i % 2 == 0) {
      remove_edge(a, u, v);
      gain += instance_.distance(u, v);
    } else {
      add_edge(u, v);
      gain -= instance_.distance(u, v);
    }
  }
  return gain;
}

bool EdgeAssembly::child(const MergeBase& a, std::span<const int32_t> cycle, AssembledChild& out) {
  reset_child();
  const int64_t gain = apply_cycle(a, cycle);
  return join_subtours(a, gain, out);
}

bool EdgeAssembly::block_child(const MergeBase& a, std::span<const int> set, AssembledChild& out) {
  reset_child();
  int64_t gain = 0;
  for (const int c : set) gain += apply_cycle(a, cycles_[c]);
  return join_subtours(a, gain, out);
}

bool EdgeAssembly::join_subtours(const MergeBase& a, int64_t gain, AssembledChild& out) {
  const int n = a.n();
  const std::span<const int32_t> tour = a.tour();
  const int cycles = a.exchange_pieces(removed_, added_, pieces_);
  ensure(cycles > 0, "an AB-cycle that is no exchange");
  // Joining two cycles by exchanging an edge of each always leaves one cycle, so the subtours are
  // the first cycles united as they are joined: their cities are still those of the pieces.
  root_.resize(static_cast<size_t>(cycles));
  std::iota(root_.begin(), root_.end(), 0);
  const auto find = [&](int c) {
    while (root_[c] != c) c = root_[c] = root_[root_[c]];
    return c;
  };
  std::vector<int>& size = pieces_.size;
  const int k = static_cast<int>(pieces_.cut.size());
  for (int left = cycles; left > 1; --left) {
    // Join the smallest subtour to another by the cheapest exchange of an edge of each.
    int smallest = -1;
    for (int c = 0; c < cycles; ++c)
      if (root_[c] == c && (smallest < 0 || size[c] < size[smallest])) smallest = c;
    if (++mark_now_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0);
      mark_now_ = 1;
    }
    const auto for_each_city = [&](auto&& visit) {
      for (int i = 0; i < k; ++i) {
        if (find(pieces_.cycle[i]) != smallest) continue;
        const int first = pieces_.cut[i] + 1, length = (pieces_.cut[(i + 1) % k] - pieces_.cut[i] + n) % n;
        for (int s = 0; s < length; ++s) visit(tour[(first + s) % n]);
      }
    };
    for_each_city([&](int32_t u) { mark_[u] = mark_now_; });
    int64_t best = std::numeric_limits<int64_t>::max();
    int32_t bu = -1, bu2 = -1, bv = -1, bv2 = -1;
    for_each_city([&](int32_t u) {
      int32_t nu[2], nv[2];
      neighbours(a, u, nu);
      const int64_t u_edge[2] = {instance_.distance(u, nu[0]), instance_.distance(u, nu[1])};
      const std::span<const int32_t> near = lists_.of(u);
      for (int l = 0; l < merge_neighbours_; ++l) {
        const int32_t v = near[l];
        if (mark_[v] == mark_now_) continue;
        neighbours(a, v, nv);
        const int64_t uv = instance_.distance(u, v);
        const int64_t v_edge[2] = {instance_.distance(v, nv[0]), instance_.distance(v, nv[1])};
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) {
            const int64_t delta = uv + instance_.distance(nu[i], nv[j]) - u_edge[i] - v_edge[j];
            if (delta < best) best = delta, bu = u, bu2 = nu[i], bv = v, bv2 = nv[j];
          }
      }
    });
    if (bu < 0) return false;
    const int other = find(pieces_.cycle[pieces_.piece_at(a.position(bv))]);
    root_[smallest] = other;
    size[other] += size[smallest];
    remove_edge(a, bu, bu2);
    remove_edge(a, bv, bv2);
    add_edge(bu, bv);
    add_edge(bu2, bv2);
    gain -= best;
  }
  out.gain = gain;
  out.removed = removed_;
  out.added = added_;
  return true;
}

int EdgeAssembly::best_child(const MergeBase& a, std::span<const int32_t> b, int children, RandomStream& rng,
                             AssembledChild& best, const ChildScore& score, bool block) {
  ab_cycles(a, b, rng, cycles_);
  const int count = static_cast<int>(cycles_.size());
  if (block) {  // the centres in a random order, the cycles indexed as they are then
    for (int i = count - 1; i > 0; --i)
      std::swap(cycles_[i], cycles_[rng.below(static_cast<uint32_t>(i + 1))]);
    index_cycles();
  }
  int made = 0;
  double best_score = 0;
  for (int i = 0; i < count && made < children; ++i) {
    bool made_one;
    if (block) {
      block_set(a, i, rng, chosen_);
      made_one = block_child(a, chosen_, candidate_);
    } else {
      std::swap(cycles_[i], cycles_[i + static_cast<int>(rng.below(static_cast<uint32_t>(count - i)))]);
      made_one = child(a, cycles_[i], candidate_);
    }
    if (!made_one) continue;
    const double s = score ? score(candidate_) : static_cast<double>(candidate_.gain);
    if (made++ == 0 || s > best_score) {
      best_score = s;
      std::swap(best, candidate_);
    }
  }
  return made;
}

}  // namespace formica::population
