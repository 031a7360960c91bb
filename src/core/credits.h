// SPDX-License-Identifier: MIT
// Which search found the improvements of a run's best tour. Every time the best-so-far length
// drops, the drop is credited to the search that made it: the run's own search (the colonies with
// their local search, on the GPU or the CPU; GA-EAX; 2-opt restarts), the host threads beside the
// colonies (Lin-Kernighan or GA-EAX), the partition merges that combine their tours, the tours of
// other ranks, and the final polish. The gains add up exactly to the first tour's length less the
// final one, so their shares say where a run's quality came from.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace formica {

enum class Finder : uint8_t {
  Search,        ///< the run's own search: its iterations (ants and their local search, generations, climbs)
  LinKernighan,  ///< the host's Lin-Kernighan threads beside the colonies (whole tour or stretches)
  Eax,           ///< the host's GA-EAX threads beside the colonies
  Merge,         ///< partition merges of several tours, beyond the best tour merged in
  Ranks,         ///< tours of other ranks or islands, taken in or merged in
  Polish,        ///< the final polish of the best tour
};
inline constexpr int kFinders = 6;

/// Short name of `finder` for reports; Finder::Search is named by the run (see Result::credits).
std::string_view to_string(Finder finder);

/// The ledger of a run's improvements, see the file comment.
class Credits {
 public:
  /// The first tour's length: the baseline of every gain. Later calls are ignored.
  void start(int64_t length) {
    if (!started()) first_ = last_ = length;
  }
  bool started() const { return first_ >= 0; }
  /// The best length went down to `length` by `finder`; a length no shorter than the last is no
  /// improvement. The first observation starts the ledger instead.
  void credit(Finder finder, int64_t length) {
    if (!started()) return start(length);
    if (length >= last_) return;
    gain_[static_cast<size_t>(finder)] += last_ - length;
    last_ = length;
  }
  /// A merge of the best tour (length `base`) with donors, the shortest of them of length `donor`
  /// found by `finder` (no donor when `donor` < 0), gave `length`. What the donor had over the best
  /// tour is the donor's; the rest of the drop is the merge's.
  void credit_merge(int64_t base, int64_t donor, Finder finder, int64_t length) {
    credit(Finder::Search, base);  // what the search found before the merge
    if (donor >= 0 && donor < base) credit(finder, donor > length ? donor : length);
    credit(Finder::Merge, length);
  }

  /// Every length of the ledger moved by `by` (a route's lengths without its transformation's
  /// constant, solver/route_solver.h); the gains stay as they are.
  void shift(int64_t by) {
    if (started()) first_ += by, last_ += by;
  }

  int64_t first() const { return first_; }
  /// The last length credited (the best so far).
  int64_t last() const { return last_; }
  int64_t gain(Finder finder) const { return gain_[static_cast<size_t>(finder)]; }
  /// The whole drop: first() - last().
  int64_t total() const { return started() ? first_ - last_ : 0; }
  /// The gains added up (equal to total(): every drop goes to one finder).
  int64_t sum_of_gains() const {
    int64_t sum = 0;
    for (int64_t g : gain_) sum += g;
    return sum;
  }
  /// The gain of `finder` as a fraction of the total (0 when nothing improved).
  double share(Finder finder) const {
    return total() > 0 ? static_cast<double>(gain(finder)) / static_cast<double>(total()) : 0.0;
  }

 private:
  int64_t first_ = -1, last_ = -1;
  std::array<int64_t, kFinders> gain_{};
};

inline std::string_view to_string(Finder finder) {
  switch (finder) {
    case Finder::Search:
      return "search";
    case Finder::LinKernighan:
      return "host Lin-Kernighan";
    case Finder::Eax:
      return "host GA-EAX";
    case Finder::Merge:
      return "merges";
    case Finder::Ranks:
      return "other ranks";
    case Finder::Polish:
      return "polish";
  }
  return "?";
}

}  // namespace formica
