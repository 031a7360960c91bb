// SPDX-License-Identifier: MIT
// TwoLevelTour: a tour as a two-level doubly-linked list (Fredman, Johnson, McGeoch and Ostheimer,
// "Data structures for traveling salesmen", 1995; the list of LKH and Concorde's linkern), for the
// Lin-Kernighan chains on large tours. The cities are split into about sqrt(n) segments of
// consecutive cities; each segment carries a reversed bit and a rank in the ring of segments, each
// city its segment and a sequence number in it. A 2-opt move reverses a path: inside one segment it
// reverses that stretch (at most a segment's length); otherwise it first splits the two end
// segments so that the path is a run of whole segments (the smaller part of a split segment joins
// its neighbour), then reverses the run's order and flips each one's bit. So a move costs
// O(sqrt(n)), where an array (array_tour.h) rewrites up to n / 2 positions: on pla85900 the
// arrays' reversals took about 60 % of a kick (perf, one thread, 3-opt steps).
//
// As ArrayTour, a move may reverse the rest of the cycle instead of the path (whichever spans fewer
// segments): the same tour, the other way round, so callers ask succ()/pred() after each move.
// A journal (journal(true)) records every move so that rollback() takes them all back, last first:
// a kick that did not pay is undone by its own moves instead of a copy of the tour.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace formica::localsearch::cpu {

class TwoLevelTour {
 public:
  TwoLevelTour() = default;
  explicit TwoLevelTour(std::span<const int32_t> tour) { assign(tour); }

  /// Holds `tour` (a permutation of 0 .. n-1, n >= 3), segments of about sqrt(n) cities; the
  /// journal is off and empty.
  void assign(std::span<const int32_t> tour);

  int n() const { return n_; }
  int succ(int c) const {
    const City& x = cities_[c];
    return segments_[x.segment].reversed ? x.prev : x.next;
  }
  int pred(int c) const {
    const City& x = cities_[c];
    return segments_[x.segment].reversed ? x.next : x.prev;
  }
  /// b lies on the way from a to c going forward (succ), a and c included.
  bool between(int a, int b, int c) const {
    const int64_t ka = key(a), kb = key(b), kc = key(c);
    return ka <= kc ? ka <= kb && kb <= kc : kb >= ka || kb <= kc;
  }

  /// The 2-opt move named by cities, as ArrayTour::exchange: removes (u1, u2) and (v1, v2), adds
  /// (u1, v1) and (u2, v2). Needs u2 = succ(u1) and v2 = succ(v1), or u2 = pred(u1) and v2 =
  /// pred(v1).
  void exchange(int u1, int u2, int v1, int v2);

  /// The tour as an array from city `first` on, going forward.
  void write(std::span<int32_t> out, int first = 0) const;

  /// While on, every move is recorded for rollback(); a move that takes back the last recorded
  /// one (the same four cities, u2 and v1 swapped) drops it instead.
  void journal(bool on) { journaling_ = on; }
  /// Takes back every recorded move, last first (the cycle of cities is then as when the journal
  /// was last empty), and empties the journal.
  void rollback();
  /// Empties the journal (what it recorded stays).
  void forget() { journal_.clear(); }
  /// The moves recorded since the journal was last empty, first first, each {u1, u2, v1, v2}.
  std::span<const std::array<int32_t, 4>> journal() const { return journal_; }

  /// Plays `moves` (another list's journal, the same cities) on this tour, each only where its
  /// two edges are here with the same orientation, so that it is a 2-opt move of this cycle too:
  /// true when all were, and the tour then differs from before by exactly the edges the moves
  /// exchange; false, the tour unchanged, at the first that was not. Replaces the journal.
  bool replay(std::span<const std::array<int32_t, 4>> moves);

  /// How often a move fell back to rebuilding the lists from an array (segments grown past
  /// kMaxSegmentFactor times their size, or a split the run could not use): for the tests.
  int64_t rebuilds() const { return rebuilds_; }

  /// A segment that grows past this many times the segment size at assign() is rebuilt.
  static constexpr int kMaxSegmentFactor = 4;

 private:
  struct City {
    int32_t next, prev;  ///< neighbours in the segment's own order (forward unless it is reversed)
    int32_t segment, seq;
  };
  /// A segment's seqs are consecutive integers along its own order: cities that join it continue
  /// them from its end, so a move renumbers nothing; kMaxSeq bounds how far they drift.
  static constexpr int32_t kMaxSeq = 1 << 30;
  struct Segment {
    int32_t first, last;  ///< the cities of lowest and highest seq
    int32_t next, prev;   ///< neighbouring segments, forward
    int32_t rank, size;
    bool reversed;
  };

  int64_t key(int c) const {
    const City& x = cities_[c];
    const Segment& s = segments_[x.segment];
    return (int64_t{s.rank} << 32) + (s.reversed ? -x.seq : x.seq);
  }
  int forward_first(const Segment& s) const { return s.reversed ? s.last : s.first; }
  int forward_last(const Segment& s) const { return s.reversed ? s.first : s.last; }
  /// Index of c in its segment going forward.
  int forward_index(int c) const {
    const City& x = cities_[c];
    const Segment& s = segments_[x.segment];
    return s.reversed ? cities_[s.last].seq - x.seq : x.seq - cities_[s.first].seq;
  }
  /// Makes y follow x (forward), each city's pointers read through its own segment's bit.
  void link(int x, int y) {
    City& cx = cities_[x];
    (segments_[cx.segment].reversed ? cx.prev : cx.next) = y;
    City& cy = cities_[y];
    (segments_[cy.segment].reversed ? cy.next : cy.prev) = x;
  }

  /// Reverses the forward path a .. b, or the rest of the cycle where that spans fewer segments.
  void reverse(int a, int b);
  /// The path a .. b inside one segment, a before b there.
  void reverse_inside(int a, int b);
  /// The path a .. b made of whole segments after splitting; false when the splits left it not so.
  bool reverse_segments(int a, int b);
  /// Splits c's segment so that c is its forward first (before) or forward last (!before) city:
  /// the smaller part joins the neighbouring segment.
  void split_at(int c, bool before);
  /// Moves the first (to_prev) or last `count` cities of segment s, forward, into its
  /// neighbouring segment.
  void move_cities(int s, int count, bool to_prev);
  /// Seqs 0 .. size - 1 again along the segment's own order (when they drift past kMaxSeq).
  void renumber(int s);
  /// Rebuilds the lists after reversing the path a .. b in an array (the fallback).
  void rebuild_reversing(int a, int b);
  /// Segments and cities for `tour`, the journal untouched.
  void build(std::span<const int32_t> tour);

  int n_ = 0;
  int segment_size_ = 1;
  std::vector<City> cities_;
  std::vector<Segment> segments_;
  bool journaling_ = false;
  std::vector<std::array<int32_t, 4>> journal_;
  std::vector<int32_t> scratch_, ranks_;
  bool rebuild_pending_ = false;
  int64_t rebuilds_ = 0;
};

}  // namespace formica::localsearch::cpu
