// k-swap and infinity-swap on the device (Robinson et al. section 3.4, Figures 4 and 5): order the
// improving moves one pass found by gain, keep each that overlaps none kept before it (two moves
// overlap when their edge intervals [i, j] meet: see two_opt_move.h), up to k, and apply all kept
// moves at once, every thread reversing a share of the segments' positions.
//
// Selection is a block-wide routine. Candidates arrive best first in chunks of blockDim.x; every
// thread tests its candidate's two end edges against the bitmap of edges already taken (a move with
// a taken end edge overlaps a kept move, whatever else happens), the survivors are compacted in
// order, and warp 0 then takes them one by one, checking the whole interval against the bitmap 32
// words at a time. Kept moves are disjoint, so the bitmap never holds more than n bits set and the
// marking costs O(n / 32) words per pass in all. The result is exactly the sequential greedy
// (tests/localsearch/cuda compare it with the host's select_disjoint).
//
// The hand-written block sort and scan are here because the block size is a run-time parameter
// (the paper's T, section 5.2), which CUB's block primitives take as a template argument.
#pragma once

#include <cstdint>

#include "cuda/block_barrier.cuh"

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
    int inclusive = own;
    for (int offset = 1; offset < 32; offset <<= 1) {
      const int up = __shfl_up_sync(0xFFFFFFFFu, inclusive, offset);
      if (lane >= offset) inclusive += up;
    }
    if (lane < warps) counts[lane] = inclusive - own;
    if (lane == 31) counts[32] = inclusive;
  }
  formica::cuda::block_barrier();
  total = counts[32];
  const int rank = counts[warp] + below;
  formica::cuda::block_barrier();  // counts may be reused at once
  return rank;
}

namespace detail {

__device__ __forceinline__ bool edge_taken(const uint32_t* bitmap, int e) { return (bitmap[e >> 5] >> (e & 31)) & 1u; }

/// The bits of word w that lie in the edge interval [move.x, move.y].
__device__ __forceinline__ uint32_t interval_bits(int w, int2 move) {
  const int lo = w == (move.x >> 5) ? (move.x & 31) : 0;
  const int hi = w == (move.y >> 5) ? (move.y & 31) : 31;
  return (0xFFFFFFFFu >> (31 - hi)) & (0xFFFFFFFFu << lo);
}

/// Warp 0: takes the `count` survivors in order while fewer than k (0: no limit) are kept.
template <class OnKeep>
__device__ void keep_survivors(const int2* survivors, int count, int k, uint32_t* bitmap, int2* kept,
                               int* prefix, int* kept_count, int* kept_swaps, OnKeep on_keep) {
  const int lane = threadIdx.x & 31;
  int taken = *kept_count, swaps = *kept_swaps;
  for (int s = 0; s < count && (k == 0 || taken < k); ++s) {
    const int2 move = survivors[s];
    const int first = move.x >> 5, last = move.y >> 5;
    bool hit = false;
    for (int w = first + lane; w <= last; w += 32) hit |= (bitmap[w] & interval_bits(w, move)) != 0u;
    if (__any_sync(0xFFFFFFFFu, hit)) continue;
    for (int w = first + lane; w <= last; w += 32) bitmap[w] |= interval_bits(w, move);
    if (lane == 0) {
      kept[taken] = move;
      prefix[taken] = swaps;
      on_keep(move);
    }
    swaps += (move.y - move.x) / 2;  // positions i+1..j: (j - i) / 2 swaps, at least one
    ++taken;
    __syncwarp();
  }
  if (lane == 0) {
    *kept_count = taken;
    *kept_swaps = swaps;
  }
}

}  // namespace detail

/// Shared-memory scratch of select_disjoint: a bitmap of ceil(n / 32) + 1 words, blockDim.x
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
  const int words = (n >> 5) + 1;
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
      detail::keep_survivors(scratch.survivors, survivors, k, scratch.bitmap, kept, prefix, scratch.kept_count,
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
