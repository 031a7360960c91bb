// SPDX-License-Identifier: MIT
// k-swap and infinity-swap on the device (Robinson et al. section 3.4, Figures 4 and 5): order the
// improving moves one pass found by gain, keep each that overlaps none kept before it (two moves
// overlap when their edge intervals [i, j] meet: see two_opt_move.h), up to k, and apply all kept
// moves at once, every thread reversing a share of the segments' positions.
//
// Selection is a block-wide routine. Candidates arrive best first in chunks of blockDim.x; every
// thread tests its candidate's two end edges against the bitmap of edges already taken (a move with
// a taken end edge overlaps a kept move, whatever else happens), the survivors are compacted in
// order, and warp 0 then takes them 32 at a time: each lane checks its survivor's whole interval
// against the bitmap (the end words directly, the words between through a summary bitmap with one
// bit per word, so a few loads even for the longest interval), the lanes still free are resolved
// among themselves in order by ballots (the first free lane is kept and every later lane it
// overlaps drops out), and the warp marks the kept intervals. Kept moves are disjoint, so the
// bitmap never holds more than n bits set and the marking costs O(n / 32) words per pass in all.
// The result is exactly the sequential greedy (tests/localsearch/cuda compare it with the host's
// select_disjoint).
//
// The hand-written block sort and scan are here because the block size is a run-time parameter
// (the paper's T, section 5.2), which CUB's block primitives take as a template argument.
#pragma once

#include <cstdint>

#include "cuda/block_barrier.cuh"
#include "cuda/warp_scan.cuh"

namespace formica::localsearch::cuda {

/// Sorts keys[0 .. blockDim.x) in descending order (bitonic; blockDim.x a power of two).
__device__ inline void bitonic_sort_descending(unsigned long long* keys) {
  const int size_all = static_cast<int>(blockDim.x), i = static_cast<int>(threadIdx.x);
  for (int size = 2; size <= size_all; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      const int partner = i ^ stride;
      if (partner > i) {
        const unsigned long long a = keys[i], b = keys[partner];
        const bool descending = (i & size) == 0;
        if (descending ? a < b : a > b) {
          keys[i] = b;
          keys[partner] = a;
        }
      }
      formica::cuda::block_barrier();
    }
  }
}

/// The largest of every thread's `key` (block-wide; `scratch` holds 32 values in shared memory).
__device__ inline unsigned long long block_max(unsigned long long key, unsigned long long* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (int offset = 16; offset > 0; offset >>= 1) {
    const unsigned long long other = __shfl_xor_sync(0xFFFFFFFFu, key, offset);
    key = other > key ? other : key;
  }
  if (lane == 0) scratch[warp] = key;
  formica::cuda::block_barrier();
  if (warp == 0) {
    key = lane < warps ? scratch[lane] : 0ull;
    for (int offset = 16; offset > 0; offset >>= 1) {
      const unsigned long long other = __shfl_xor_sync(0xFFFFFFFFu, key, offset);
      key = other > key ? other : key;
    }
    if (lane == 0) scratch[32] = key;
  }
  formica::cuda::block_barrier();
  const unsigned long long result = scratch[32];
  formica::cuda::block_barrier();  // scratch may be reused at once
  return result;
}

/// Rank of this thread's `flag` among the set flags of lower threads, and their total (block-wide;
/// `counts` holds 33 ints in shared memory).
__device__ inline int block_rank(bool flag, int* counts, int& total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const unsigned ballot = __ballot_sync(0xFFFFFFFFu, flag);
  const int below = __popc(ballot & ((1u << lane) - 1u));
  if (lane == 0) counts[warp] = __popc(ballot);
  formica::cuda::block_barrier();
  if (warp == 0) {
    const int own = lane < warps ? counts[lane] : 0;
    const int inclusive = formica::cuda::warp_inclusive_sum(own, lane);
    if (lane < warps) counts[lane] = inclusive - own;
    if (lane == 31) counts[32] = inclusive;
  }
  formica::cuda::block_barrier();
  total = counts[32];
  const int rank = counts[warp] + below;
  formica::cuda::block_barrier();  // counts may be reused at once
  return rank;
}

/// 32-bit words of select_disjoint's bitmap with one bit per edge of n.
__host__ __device__ constexpr int select_edge_words(int n) { return (n >> 5) + 1; }
/// All of select_disjoint's bitmap: the edge words, then the summary, one bit per edge word (set
/// once a bit of that word is).
__host__ __device__ constexpr int select_bitmap_words(int n) {
  return select_edge_words(n) + (select_edge_words(n) >> 5) + 1;
}

namespace detail {

__device__ __forceinline__ bool edge_taken(const uint32_t* bitmap, int e) { return (bitmap[e >> 5] >> (e & 31)) & 1u; }

/// Bits lo..hi (0 <= lo <= hi <= 31) of a word.
__device__ __forceinline__ uint32_t bit_range(int lo, int hi) {
  return (0xFFFFFFFFu >> (31 - hi)) & (0xFFFFFFFFu << lo);
}

/// The bits of word w that lie in the index interval [lo, hi].
__device__ __forceinline__ uint32_t interval_bits(int w, int lo, int hi) {
  return bit_range(w == (lo >> 5) ? (lo & 31) : 0, w == (hi >> 5) ? (hi & 31) : 31);
}

/// Whether no edge of [move.x, move.y] is taken: its end words directly, the words between through
/// their summary bits.
__device__ __forceinline__ bool interval_free(const uint32_t* bitmap, const uint32_t* summary, int2 move) {
  const int first = move.x >> 5, last = move.y >> 5;
  uint32_t hit = bitmap[first] & interval_bits(first, move.x, move.y);
  if (last > first) hit |= bitmap[last] & interval_bits(last, move.x, move.y);
  if (last > first + 1)
    for (int s = (first + 1) >> 5; s <= (last - 1) >> 5; ++s)
      hit |= summary[s] & interval_bits(s, first + 1, last - 1);
  return hit == 0u;
}

/// Warp 0: takes the `count` survivors in order while fewer than k (0: no limit) are kept, 32 at a
/// time (see the note at the top).
template <class OnKeep>
__device__ void keep_survivors(const int2* survivors, int count, int k, uint32_t* bitmap, uint32_t* summary,
                               int2* kept, int* prefix, int* kept_count, int* kept_swaps, OnKeep on_keep) {
  constexpr unsigned kAll = 0xFFFFFFFFu;
  const int lane = threadIdx.x & 31;
  const unsigned below = (1u << lane) - 1u;
  int taken = *kept_count, swaps = *kept_swaps;
  for (int base = 0; base < count && (k == 0 || taken < k); base += 32) {
    const int s = base + lane;
    const int2 move = s < count ? survivors[s] : make_int2(0, 0);
    unsigned open = __ballot_sync(kAll, s < count && interval_free(bitmap, summary, move));
    // The free lanes in order: the first is kept, and the later ones it overlaps drop out.
    const int room = k == 0 ? 32 : min(32, k - taken);
    unsigned keep = 0u;
    int kept_here = 0;
    while (open != 0u && kept_here < room) {
      const int t = __ffs(static_cast<int>(open)) - 1;
      keep |= 1u << t;
      ++kept_here;
      const int tx = __shfl_sync(kAll, move.x, t), ty = __shfl_sync(kAll, move.y, t);
      open &= ~__ballot_sync(kAll, move.x <= ty && tx <= move.y);  // lane t overlaps itself
    }
    const bool mine = (keep >> lane) & 1u;
    const int own_swaps = mine ? (move.y - move.x) / 2 : 0;  // positions i+1..j: (j - i) / 2 swaps
    const int inclusive = formica::cuda::warp_inclusive_sum(own_swaps, lane);
    if (mine) {
      const int slot = taken + __popc(keep & below);
      kept[slot] = move;
      prefix[slot] = swaps + inclusive - own_swaps;
      on_keep(move);
    }
    // Mark the kept intervals, one at a time by the whole warp (neighbours may share a word).
    for (unsigned rest = keep; rest != 0u; rest &= rest - 1u) {
      const int t = __ffs(static_cast<int>(rest)) - 1;
      const int tx = __shfl_sync(kAll, move.x, t), ty = __shfl_sync(kAll, move.y, t);
      const int first = tx >> 5, last = ty >> 5;
      for (int w = first + lane; w <= last; w += 32) bitmap[w] |= interval_bits(w, tx, ty);
      for (int w = (first >> 5) + lane; w <= (last >> 5); w += 32)
        summary[w] |= interval_bits(w, first, last);
      __syncwarp();
    }
    taken += kept_here;
    swaps += __shfl_sync(kAll, inclusive, 31);
  }
  if (lane == 0) {
    *kept_count = taken;
    *kept_swaps = swaps;
  }
}

}  // namespace detail

/// Shared-memory scratch of select_disjoint: a bitmap of select_bitmap_words(n) words, blockDim.x
/// survivors, 33 counters, and the two results.
struct SelectScratch {
  uint32_t* bitmap;
  int2* survivors;
  int* counts;
  int* kept_count;
  int* kept_swaps;
};

/// The k-swap selection over m candidates, best first: move_at(c) gives the c-th as (i, j). Writes
/// the kept moves to kept[0 .. count), prefix[s] = swaps before kept move s and prefix[count] = all
/// swaps; on_keep(move) runs (on one thread) for every kept move. Every thread of the block must
/// call it; afterwards *scratch.kept_count and *scratch.kept_swaps hold the totals for all.
template <class MoveAt, class OnKeep>
__device__ void select_disjoint(MoveAt move_at, int m, int k, int n, const SelectScratch& scratch, int2* kept,
                                int* prefix, OnKeep on_keep) {
  const int words = select_bitmap_words(n);
  for (int w = threadIdx.x; w < words; w += blockDim.x) scratch.bitmap[w] = 0u;
  if (threadIdx.x == 0) *scratch.kept_count = *scratch.kept_swaps = 0;
  formica::cuda::block_barrier();
  for (int base = 0; base < m; base += blockDim.x) {
    if (k != 0 && *scratch.kept_count >= k) break;  // the same for every thread: read after a barrier
    const int c = base + static_cast<int>(threadIdx.x);
    int2 move = make_int2(0, 0);
    bool alive = false;
    if (c < m) {
      move = move_at(c);
      alive = !detail::edge_taken(scratch.bitmap, move.x) && !detail::edge_taken(scratch.bitmap, move.y);
    }
    int survivors = 0;
    const int rank = block_rank(alive, scratch.counts, survivors);
    if (alive) scratch.survivors[rank] = move;
    formica::cuda::block_barrier();
    if (threadIdx.x < 32)
      detail::keep_survivors(scratch.survivors, survivors, k, scratch.bitmap,
                             scratch.bitmap + select_edge_words(n), kept, prefix, scratch.kept_count,
                             scratch.kept_swaps, on_keep);
    formica::cuda::block_barrier();
  }
  if (threadIdx.x == 0) prefix[*scratch.kept_count] = *scratch.kept_swaps;
  formica::cuda::block_barrier();
}

/// Applies the kept moves: swap w (0 <= w < swaps) belongs to the last move s with prefix[s] <= w
/// and exchanges positions i_s + 1 + o and j_s - o, o = w - prefix[s]. Kept moves are disjoint, so
/// no two swaps touch one position. `pos` (city -> position), when given, is kept up to date.
/// Threads `first`, `first + stride`, ... share the swaps.
__device__ inline void reverse_segments(int32_t* tour, int32_t* pos, const int2* kept, const int* prefix, int count,
                                        int swaps, int first, int stride) {
  for (int w = first; w < swaps; w += stride) {
    int lo = 0, hi = count - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) >> 1;
      if (prefix[mid] <= w) lo = mid;
      else hi = mid - 1;
    }
    const int offset = w - prefix[lo];
    const int a = kept[lo].x + 1 + offset, b = kept[lo].y - offset;
    const int32_t city_a = tour[a], city_b = tour[b];
    tour[a] = city_b;
    tour[b] = city_a;
    if (pos != nullptr) {
      pos[city_b] = a;
      pos[city_a] = b;
    }
  }
}

}  // namespace formica::localsearch::cuda
