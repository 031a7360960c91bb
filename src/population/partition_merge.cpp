// SPDX-License-Identifier: MIT
// Partition merge (see partition_merge.h).
#include "population/partition_merge.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <utility>

#include "core/error.h"
#include "core/tour.h"

namespace formica::population {
namespace {

/// Fusion and dropping try O(m^2) and O(m) exchanges of up to e edges for m components and e
/// edges: only for differences of at most kFusionComponents components that cannot stand alone and
/// kFusionEdges edges (two colonies' best tours late in a run differ in a few dozen components and
/// a few hundred edges; early in a run, and in tours of different restarts, in many more).
constexpr size_t kFusionComponents = 32, kFusionEdges = 256;
constexpr int kFusionSteps = 8;

/// One exchange made of several (disjoint) ones, its edges sorted.
Exchange joined(std::span<const Exchange* const> parts) {
  Exchange x;
  for (const Exchange* part : parts) {
    x.gain += part->gain;
    x.removed.insert(x.removed.end(), part->removed.begin(), part->removed.end());
    x.added.insert(x.added.end(), part->added.begin(), part->added.end());
  }
  std::sort(x.removed.begin(), x.removed.end());
  std::sort(x.added.begin(), x.added.end());
  return x;
}

/// Smallest edge of an exchange, the key that orders a difference's components.
Edge first_edge(const Exchange& e) {
  if (e.removed.empty()) return e.added.empty() ? Edge{} : e.added.front();
  return e.added.empty() ? e.removed.front() : std::min(e.removed.front(), e.added.front());
}

}  // namespace

MergeBase::MergeBase(const Instance& instance, std::span<const int32_t> tour, int64_t length)
    : instance_(instance) {
  reset(tour, length);
}

void MergeBase::reset(std::span<const int32_t> tour, int64_t length) {
  const int n = instance_.n();
  FORMICA_EXPECTS(n >= 5, "partition merge needs at least 5 cities, got ", n);
  validate_permutation(tour, n);
  tour_.assign(tour.begin(), tour.end());
  length_ = length;
  pos_.resize(static_cast<size_t>(n));
  links_.resize(2 * pos_.size());
  for (int p = 0, previous = tour_[n - 1]; p < n; ++p) {
    const int32_t city = tour_[p];
    pos_[city] = p;
    links_[2 * city] = tour_[p + 1 < n ? p + 1 : 0];
    links_[2 * city + 1] = previous;
    previous = city;
  }
}

void MergeBase::difference(std::span<const int32_t> tour, std::vector<Edge>& added,
                           std::vector<Edge>& removed) const {
  added.clear();
  removed.clear();
  const int n = this->n();
  for (int p = 0; p < n; ++p) {
    const int v = tour[p], next = tour[p + 1 < n ? p + 1 : 0], prev = tour[p > 0 ? p - 1 : n - 1];
    if (!adjacent(v, next)) added.push_back(make_edge(v, next));
    // Each removed base edge is seen from both of its ends; the smaller end reports it.
    for (const int w : {succ(v), pred(v)})
      if (w != prev && w != next && v < w) removed.push_back(Edge{v, w});
  }
}

std::vector<Exchange> MergeBase::improving_exchanges(std::span<const Edge> added,
                                                     std::span<const Edge> removed) const {
  std::vector<int32_t> cities;
  for (const auto* edges : {&added, &removed})
    for (const Edge& e : *edges) cities.insert(cities.end(), {e.a, e.b});
  std::sort(cities.begin(), cities.end());
  cities.erase(std::unique(cities.begin(), cities.end()), cities.end());
  const auto index = [&](int32_t city) {
    return static_cast<int>(std::lower_bound(cities.begin(), cities.end(), city) - cities.begin());
  };
  std::vector<int> parent(cities.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const auto* edges : {&added, &removed})
    for (const Edge& e : *edges) parent[find(index(e.a))] = find(index(e.b));

  std::vector<Exchange> components;
  std::vector<int> component_of(cities.size(), -1);
  const auto component = [&](const Edge& e) -> Exchange& {
    int& c = component_of[find(index(e.a))];
    if (c < 0) {
      c = static_cast<int>(components.size());
      components.emplace_back();
    }
    return components[c];
  };
  for (const Edge& e : removed) {
    Exchange& x = component(e);
    x.removed.push_back(e);
    x.gain += instance_.distance(e.a, e.b);
  }
  for (const Edge& e : added) {
    Exchange& x = component(e);
    x.added.push_back(e);
    x.gain -= instance_.distance(e.a, e.b);
  }
  for (Exchange& x : components) {
    std::sort(x.removed.begin(), x.removed.end());
    std::sort(x.added.begin(), x.added.end());
  }
  std::sort(components.begin(), components.end(),
            [](const Exchange& x, const Exchange& y) { return first_edge(x) < first_edge(y); });
  std::vector<Exchange> improving;
  std::vector<const Exchange*> unfit;  // components that split the tour on their own
  for (const Exchange& x : components) {
    if (exchange_is_a_tour(x.removed, x.added)) {
      if (x.gain > 0) improving.push_back(x);
    } else {
      unfit.push_back(&x);
    }
  }
  // GPX's fusion: a component that splits the tour alone may close into one with others of the
  // same difference. Each that shortens the base, largest gain first, grows by the component that
  // leaves the fewest cycles (then the largest gain) until one cycle is left, for at most
  // kFusionSteps components.
  std::stable_sort(unfit.begin(), unfit.end(),
                   [](const Exchange* x, const Exchange* y) { return x->gain > y->gain; });
  std::vector<char> fused(unfit.size(), 0);
  const bool small = unfit.size() <= kFusionComponents && added.size() <= kFusionEdges;
  for (size_t i = 0; small && i < unfit.size() && unfit[i]->gain > 0; ++i) {
    if (fused[i]) continue;
    std::vector<size_t> group{i};
    Exchange grown = joined(std::array<const Exchange*, 1>{unfit[i]});
    int cycles = exchange_cycles(grown.removed, grown.added);
    for (int step = 0; step < kFusionSteps && cycles > 1; ++step) {
      size_t pick = unfit.size();
      int pick_cycles = cycles;
      int64_t pick_gain = 0;
      for (size_t j = 0; j < unfit.size(); ++j) {
        if (fused[j] || std::find(group.begin(), group.end(), j) != group.end()) continue;
        const Exchange x = joined(std::array<const Exchange*, 2>{&grown, unfit[j]});
        const int c = exchange_cycles(x.removed, x.added);
        if (c >= 1 && (c < pick_cycles || (c == pick_cycles && pick < unfit.size() && x.gain > pick_gain)))
          pick = j, pick_cycles = c, pick_gain = x.gain;
      }
      if (pick == unfit.size()) break;
      group.push_back(pick);
      grown = joined(std::array<const Exchange*, 2>{&grown, unfit[pick]});
      cycles = pick_cycles;
    }
    if (cycles != 1 || grown.gain <= 0) continue;
    for (const size_t j : group) fused[j] = 1;
    improving.push_back(std::move(grown));
  }
  // From the other side: the whole difference (the other tour, a tour by construction) with the
  // components that lengthen the base dropped one at a time, most costly first, while it stays one
  // cycle. It keeps every component that shortens the base, so it overlaps each exchange above.
  std::vector<const Exchange*> kept;
  for (const Exchange& x : components) kept.push_back(&x);
  std::vector<const Exchange*> costly;
  for (const Exchange& x : components)
    if (x.gain <= 0 && small) costly.push_back(&x);
  std::stable_sort(costly.begin(), costly.end(),
                   [](const Exchange* x, const Exchange* y) { return x->gain < y->gain; });
  for (const Exchange* drop : costly) {
    std::vector<const Exchange*> without;
    for (const Exchange* x : kept)
      if (x != drop) without.push_back(x);
    const Exchange x = joined(without);
    if (without.empty() || exchange_is_a_tour(x.removed, x.added)) kept = std::move(without);
  }
  if (!kept.empty()) {
    Exchange x = joined(kept);
    if (x.gain > 0 && exchange_is_a_tour(x.removed, x.added)) improving.push_back(std::move(x));
  }
  std::sort(improving.begin(), improving.end(),
            [](const Exchange& x, const Exchange& y) { return first_edge(x) < first_edge(y); });
  return improving;
}

bool MergeBase::link_paths(std::span<const Edge> removed, std::span<const Edge> added, Paths& paths) const {
  const int n = this->n(), k = static_cast<int>(removed.size());
  if (k < 2 || added.size() != removed.size()) return false;
  // Removed edge (tour[p], tour[p + 1]) is cut p; path i runs from position cut[i] + 1 to cut[i + 1].
  std::vector<int>& cut = paths.cut;
  cut.clear();
  for (const Edge& e : removed) {
    if (succ(e.a) == e.b)
      cut.push_back(pos_[e.a]);
    else if (succ(e.b) == e.a)
      cut.push_back(pos_[e.b]);
    else
      return false;
  }
  std::sort(cut.begin(), cut.end());
  if (std::adjacent_find(cut.begin(), cut.end()) != cut.end()) return false;
  // Path ends as slots: 2 i is path i's first city, 2 i + 1 its last (the same city for a path of one).
  std::vector<std::pair<int32_t, int>> ends;
  ends.reserve(2 * removed.size());
  for (int i = 0; i < k; ++i) {
    ends.emplace_back(tour_[cut[i] + 1 < n ? cut[i] + 1 : 0], 2 * i);
    ends.emplace_back(tour_[cut[(i + 1) % k]], 2 * i + 1);
  }
  std::sort(ends.begin(), ends.end());
  std::vector<int>& link = paths.link;
  link.assign(ends.size(), -1);
  const auto free_slot = [&](int32_t city) {
    auto it = std::lower_bound(ends.begin(), ends.end(), std::pair<int32_t, int>{city, -1});
    for (; it != ends.end() && it->first == city; ++it)
      if (link[it->second] < 0) return it->second;
    return -1;
  };
  for (const Edge& e : added) {
    const int u = free_slot(e.a);
    if (u < 0) return false;
    link[u] = -2;  // taken, so that a path of one city gives its other slot to e.b
    const int v = free_slot(e.b);
    if (v < 0) return false;
    link[u] = v;
    link[v] = u;
  }
  return true;
}

int MergeBase::Pieces::piece_at(int p) const {
  const int i = static_cast<int>(std::lower_bound(cut.begin(), cut.end(), p) - cut.begin()) - 1;
  return i >= 0 ? i : static_cast<int>(cut.size()) - 1;
}

int MergeBase::exchange_pieces(std::span<const Edge> removed, std::span<const Edge> added,
                               Pieces& pieces) const {
  Paths paths;
  if (!link_paths(removed, added, paths)) return 0;
  // Walk each cycle: enter a path by one slot, leave it by the other, follow the added edge.
  const int n = this->n(), k = static_cast<int>(paths.cut.size());
  pieces.cycle.assign(static_cast<size_t>(k), -1);
  pieces.size.clear();
  for (int start = 0; start < k; ++start) {
    if (pieces.cycle[start] >= 0) continue;
    const int c = static_cast<int>(pieces.size.size());
    pieces.size.push_back(0);
    int enter = 2 * start;
    do {
      const int i = enter >> 1;
      pieces.cycle[i] = c;
      pieces.size[c] += (paths.cut[(i + 1) % k] - paths.cut[i] + n) % n;
      enter = paths.link[enter ^ 1];
    } while (pieces.cycle[enter >> 1] < 0);
  }
  pieces.cut = std::move(paths.cut);
  return static_cast<int>(pieces.size.size());
}

int MergeBase::exchange_cycles(std::span<const Edge> removed, std::span<const Edge> added) const {
  Pieces pieces;
  return exchange_pieces(removed, added, pieces);
}

bool MergeBase::exchange_is_a_tour(std::span<const Edge> removed, std::span<const Edge> added,
                                   std::vector<int32_t>* out) const {
  Paths paths;
  if (!link_paths(removed, added, paths)) return false;
  const int n = this->n(), k = static_cast<int>(paths.cut.size());
  const std::vector<int>& cut = paths.cut;
  const std::vector<int>& link = paths.link;
  int enter = 0, count = 0;
  do {
    enter = link[enter ^ 1];
    ++count;
  } while (enter != 0 && count < k);
  if (enter != 0 || count != k) return false;
  if (out) {
    out->clear();
    out->reserve(static_cast<size_t>(n));
    do {
      const int i = enter >> 1, first = cut[i] + 1, last = cut[(i + 1) % k];
      const int length = (last - cut[i] + n) % n;
      for (int s = 0; s < length; ++s)
        out->push_back((enter & 1) == 0 ? tour_[(first + s) % n] : tour_[(last - s + n) % n]);
      enter = link[enter ^ 1];
    } while (enter != 0);
  }
  return true;
}

MergedTour MergeBase::merge(std::vector<Exchange> candidates) const {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Exchange& x, const Exchange& y) { return x.gain > y.gain; });
  std::vector<char> used(static_cast<size_t>(n()), 0);
  std::vector<Edge> removed, added;
  int64_t gain = 0;
  int taken = 0;
  for (const Exchange& x : candidates) {
    if (x.gain <= 0) break;
    // Every city of an exchange ends one of its removed edges.
    if (std::any_of(x.removed.begin(), x.removed.end(),
                    [&](const Edge& e) { return used[e.a] || used[e.b]; }))
      continue;
    const size_t r = removed.size(), a = added.size();
    removed.insert(removed.end(), x.removed.begin(), x.removed.end());
    added.insert(added.end(), x.added.begin(), x.added.end());
    if (!exchange_is_a_tour(removed, added)) {
      removed.resize(r);
      added.resize(a);
      continue;
    }
    for (const Edge& e : x.removed) used[e.a] = used[e.b] = 1;
    gain += x.gain;
    ++taken;
  }
  MergedTour merged;
  if (taken == 0) return merged;
  exchange_is_a_tour(removed, added, &merged.tour);
  merged.length = length_ - gain;
  merged.exchanges = taken;
  return merged;
}

MergedTour segment_merge(const Instance& instance, std::span<const int32_t> base, int64_t base_length,
                         std::span<const int32_t> other) {
  const int n = static_cast<int>(base.size());
  FORMICA_EXPECTS(n >= 5 && other.size() == base.size(),
                  "segment_merge: two tours of the same n >= 5 cities");
  std::vector<int32_t> pos(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) pos[other[i]] = i;
  const auto step = [n](int from, int to) { return ((to - from) % n + n) % n; };  // positions from -> to
  // The anchor: base position p whose two edges are edges of the other tour, in the same direction.
  int p = -1, direction = 1;
  for (int i = 0; i < n && p < 0; ++i) {
    const int here = pos[base[i]], ahead = pos[base[(i + 1) % n]], behind = pos[base[(i + n - 1) % n]];
    if (step(here, ahead) == 1 && step(behind, here) == 1)
      p = i, direction = 1;
    else if (step(ahead, here) == 1 && step(here, behind) == 1)
      p = i, direction = -1;
  }
  MergedTour merged;
  if (p < 0) return merged;
  const int origin = pos[base[p]];
  // rel: a city's place in the other tour counted from the anchor, in the base's direction.
  const auto rel = [&](int32_t city) {
    return direction > 0 ? step(origin, pos[city]) : step(pos[city], origin);
  };
  const auto in_other = [&](int r) { return other[((origin + direction * r) % n + n) % n]; };
  // The base from the anchor on; pieces are swapped in left to right, so from position i on it is
  // still the base when piece i..j is read.
  std::vector<int32_t> tour(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) tour[k] = base[(p + k) % n];
  int64_t gain = 0;
  std::vector<int32_t> piece;
  for (int i = 1; i < n;) {  // position 0, the anchor, is a piece of its own
    int j = i, low = rel(tour[i]), high = low;
    while (low != i || high != j) {
      ++j;
      low = std::min(low, rel(tour[j]));
      high = std::max(high, rel(tour[j]));
    }
    if (j > i) {
      // Positions i..j hold the cities the other tour has at i..j from the anchor: its order there.
      piece.clear();
      for (int r = i; r <= j; ++r) piece.push_back(in_other(r));
      const int32_t left = tour[i - 1], right = tour[(j + 1) % n];
      int64_t before = instance.distance(left, tour[i]) + instance.distance(tour[j], right);
      int64_t after = instance.distance(left, piece.front()) + instance.distance(piece.back(), right);
      for (int k = i; k < j; ++k) {
        before += instance.distance(tour[k], tour[k + 1]);
        after += instance.distance(piece[k - i], piece[k - i + 1]);
      }
      if (after < before) {
        std::copy(piece.begin(), piece.end(), tour.begin() + i);
        gain += before - after;
        ++merged.exchanges;
      }
    }
    i = j + 1;
  }
  if (merged.exchanges == 0) return merged;
  merged.tour = std::move(tour);
  merged.length = base_length - gain;
  return merged;
}

int64_t merge_tours(const Instance& instance, std::vector<LengthTour>& donors,
                    std::vector<int32_t>& current) {
  std::stable_sort(donors.begin(), donors.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  // One donor after another, each merged into the tour the ones before it left.
  current.assign(donors.front().second.begin(), donors.front().second.end());
  int64_t length = donors.front().first;
  std::vector<population::Edge> added, removed;
  std::optional<population::MergeBase> base;  // built again only when a donor changed the tour
  for (size_t d = 1; d < donors.size(); ++d) {
    // A donor that repeats the one before it (same length, same order) adds nothing: a thousand
    // islands that all return their start tour cost one merge, not a thousand.
    if (donors[d].first == donors[d - 1].first && std::ranges::equal(donors[d].second, donors[d - 1].second)) continue;
    if (!base) base.emplace(instance, current, length);
    base->difference(donors[d].second, added, removed);
    population::MergedTour result = base->merge(base->improving_exchanges(added, removed));
    if (!result.tour.empty()) {
      current = std::move(result.tour);
      length = result.length;
      base.reset();
    }
    // What the partition merge left: the donor's shorter pieces that hold the same cities.
    result = population::segment_merge(instance, current, length, donors[d].second);
    if (!result.tour.empty()) {
      current = std::move(result.tour);
      length = result.length;
      base.reset();
    }
  }
  return length;
}

}  // namespace formica::population
