// SPDX-License-Identifier: MIT
// The two-level doubly-linked list (see two_level_tour.h).
#include "localsearch/cpu/two_level_tour.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace formica::localsearch::cpu {

void TwoLevelTour::assign(std::span<const int32_t> tour) {
  build(tour);
  journal_.clear();
  journaling_ = false;
}

void TwoLevelTour::build(std::span<const int32_t> tour) {
  n_ = static_cast<int>(tour.size());
  segment_size_ = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(n_))));
  const int count = (n_ + segment_size_ - 1) / segment_size_;
  cities_.resize(static_cast<size_t>(n_));
  segments_.resize(static_cast<size_t>(count));
  for (int s = 0; s < count; ++s) {
    const int from = s * segment_size_, to = std::min(n_, from + segment_size_);
    segments_[s] = {tour[from], tour[to - 1], (s + 1) % count, (s + count - 1) % count, s, to - from, false};
  }
  for (int p = 0; p < n_; ++p)
    cities_[tour[p]] = {tour[(p + 1) % n_], tour[(p + n_ - 1) % n_], p / segment_size_, p % segment_size_};
  rebuild_pending_ = false;
}

void TwoLevelTour::write(std::span<int32_t> out, int first) const {
  int c = first;
  for (int i = 0; i < n_; ++i) out[i] = c, c = succ(c);
}

void TwoLevelTour::exchange(int u1, int u2, int v1, int v2) {
  if (journaling_) {
    if (!journal_.empty() && journal_.back() == std::array<int32_t, 4>{u1, v1, u2, v2})
      journal_.pop_back();  // the move takes the last one back
    else
      journal_.push_back({u1, u2, v1, v2});
  }
  // u1 u2 .. v1 v2 -> u1 v1 .. u2 v2, or the same read backwards.
  if (succ(u1) == u2)
    reverse(u2, v1);
  else
    reverse(v1, u2);
  if (rebuild_pending_) {
    scratch_.resize(static_cast<size_t>(n_));
    write(scratch_);
    build(scratch_);
    ++rebuilds_;
  }
}

void TwoLevelTour::rollback() {
  const bool on = journaling_;
  journaling_ = false;
  for (auto e = journal_.rbegin(); e != journal_.rend(); ++e) exchange((*e)[0], (*e)[2], (*e)[1], (*e)[3]);
  journal_.clear();
  journaling_ = on;
}

bool TwoLevelTour::replay(std::span<const std::array<int32_t, 4>> moves) {
  journal_.clear();
  journaling_ = true;
  for (const auto& [u1, u2, v1, v2] : moves) {
    const bool forward = succ(u1) == u2 && succ(v1) == v2, backward = pred(u1) == u2 && pred(v1) == v2;
    if (!forward && !backward) {
      rollback();
      journaling_ = false;
      return false;
    }
    exchange(u1, u2, v1, v2);
  }
  journal_.clear();
  journaling_ = false;
  return true;
}

void TwoLevelTour::reverse(int a, int b) {
  if (a == b) return;
  const int sa = cities_[a].segment, sb = cities_[b].segment;
  if (sa == sb) {
    if (forward_index(a) <= forward_index(b)) {
      reverse_inside(a, b);
    } else {  // the path goes round the tour: the rest of the cycle lies inside the segment
      const int c = succ(b), d = pred(a);
      if (c != a) reverse_inside(c, d);
    }
    return;
  }
  const int count = static_cast<int>(segments_.size());
  const int span = (segments_[sb].rank - segments_[sa].rank + count) % count + 1;
  int x = a, y = b;
  if (2 * span > count + 1) x = succ(b), y = pred(a);  // the rest of the cycle spans fewer segments
  if (cities_[x].segment == cities_[y].segment && forward_index(x) <= forward_index(y)) {
    reverse_inside(x, y);
    return;
  }
  if (!reverse_segments(x, y)) rebuild_reversing(x, y);
}

void TwoLevelTour::reverse_inside(int a, int b) {
  if (a == b) return;
  const int p = pred(a), q = succ(b);
  Segment& s = segments_[cities_[a].segment];
  // The city at each position of the stretch takes the seq of its mirror image: pairs from both
  // ends inwards.
  for (int x = a, y = b;;) {
    std::swap(cities_[x].seq, cities_[y].seq);
    x = succ(x);
    if (x == y) break;
    y = pred(y);
    if (x == y) break;
  }
  // Every city of the stretch shares s's bit: swapping its two pointers reverses the stretch
  // inside; then a and b take each other's place at the stretch's ends.
  for (int c = a;;) {
    City& x = cities_[c];
    const int next = succ(c);
    std::swap(x.next, x.prev);
    if (c == b) break;
    c = next;
  }
  if (s.first == a)
    s.first = b;
  else if (s.first == b)
    s.first = a;
  if (s.last == a)
    s.last = b;
  else if (s.last == b)
    s.last = a;
  link(p, b);
  link(a, q);
}

void TwoLevelTour::split_at(int c, bool before) {
  const int s = cities_[c].segment, size = segments_[s].size, i = forward_index(c);
  const int head = before ? i : i + 1;  // the cities that go before the cut, c's among them if !before
  if (head == 0 || head == size) return;
  if (head <= size - head)
    move_cities(s, head, true);
  else
    move_cities(s, size - head, false);
}

void TwoLevelTour::move_cities(int s, int count, bool to_prev) {
  Segment& g = segments_[s];
  const int t = to_prev ? g.prev : g.next;
  Segment& h = segments_[t];
  // The cities that move, from g's forward end inwards.
  scratch_.clear();
  for (int c = to_prev ? forward_first(g) : forward_last(g); static_cast<int>(scratch_.size()) < count;
       c = to_prev ? succ(c) : pred(c))
    scratch_.push_back(c);
  const int boundary = to_prev ? succ(scratch_.back()) : pred(scratch_.back());  // g's new forward end
  const bool flip = g.reversed != h.reversed;
  // The moved cities continue h's seqs from the end they join: upwards past its last city when
  // that end is h's own last, else downwards from its first.
  const bool up = to_prev != h.reversed;
  int32_t seq = up ? cities_[h.last].seq : cities_[h.first].seq;
  for (const int32_t c : scratch_) {
    City& x = cities_[c];
    if (flip) std::swap(x.next, x.prev);  // the same succ and pred, read through h's bit
    x.segment = t;
    x.seq = up ? ++seq : --seq;
  }
  if (to_prev) {
    (g.reversed ? g.last : g.first) = boundary;
    (h.reversed ? h.first : h.last) = scratch_.back();
  } else {
    (g.reversed ? g.first : g.last) = boundary;
    (h.reversed ? h.last : h.first) = scratch_.back();
  }
  g.size -= count;
  h.size += count;
  if (seq >= kMaxSeq || seq <= -kMaxSeq) renumber(t);
  if (h.size > kMaxSegmentFactor * segment_size_) rebuild_pending_ = true;
}

void TwoLevelTour::renumber(int s) {
  const Segment& g = segments_[s];
  int c = g.first;
  for (int i = 0; i < g.size; ++i) cities_[c].seq = i, c = cities_[c].next;
}

bool TwoLevelTour::reverse_segments(int a, int b) {
  split_at(a, true);
  if (cities_[a].segment == cities_[b].segment && forward_index(a) <= forward_index(b)) {
    reverse_inside(a, b);
    return true;
  }
  split_at(b, false);
  const int sa = cities_[a].segment, sb = cities_[b].segment;
  if (forward_first(segments_[sa]) != a || forward_last(segments_[sb]) != b) return false;
  scratch_.clear();  // the run of segments sa .. sb, forward
  for (int s = sa;; s = segments_[s].next) {
    scratch_.push_back(s);
    if (s == sb) break;
    if (segments_[s].next == sa) return false;
  }
  const int k = static_cast<int>(scratch_.size());
  if (k == static_cast<int>(segments_.size())) return false;  // the whole cycle
  const int p = pred(a), q = succ(b), ps = segments_[sa].prev, qs = segments_[sb].next;
  ranks_.resize(static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) ranks_[i] = segments_[scratch_[i]].rank;
  for (int i = 0; i < k; ++i) {
    Segment& g = segments_[scratch_[i]];
    g.reversed = !g.reversed;
    g.rank = ranks_[k - 1 - i];
  }
  segments_[ps].next = scratch_[k - 1];
  segments_[scratch_[k - 1]].prev = ps;
  for (int i = k - 1; i > 0; --i) {
    segments_[scratch_[i]].next = scratch_[i - 1];
    segments_[scratch_[i - 1]].prev = scratch_[i];
  }
  segments_[scratch_[0]].next = qs;
  segments_[qs].prev = scratch_[0];
  link(p, b);
  link(a, q);
  return true;
}

void TwoLevelTour::rebuild_reversing(int a, int b) {
  scratch_.resize(static_cast<size_t>(n_));
  write(scratch_, a);
  const auto end = std::find(scratch_.begin(), scratch_.end(), b) + 1;
  std::reverse(scratch_.begin(), end);
  build(scratch_);
  ++rebuilds_;
}

}  // namespace formica::localsearch::cpu
