// SPDX-License-Identifier: MIT
// Alias-table construction, a block per row (see alias_table.cuh).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "aco/cuda/alias_table.cuh"
#include "core/error.h"
#include "cuda/check.cuh"

namespace formica::aco::cuda {
namespace {

constexpr int kThreads = 256;

/// A city's share of the sweep: its deficit (light) or excess (heavy), and one count of either.
struct Sweep {
  double deficit, excess;
  int lights, heavies;
};

struct SweepSum {
  __device__ Sweep operator()(const Sweep& a, const Sweep& b) const {
    return {a.deficit + b.deficit, a.excess + b.excess, a.lights + b.lights, a.heavies + b.heavies};
  }
};

/// The entry of a column that keeps its own city with probability `keep` and gives `alias`
/// otherwise; a threshold that rounds to the whole column keeps the city outright.
__device__ uint32_t pack(double keep, int alias, int self, int bits) {
  const double scale = static_cast<double>(1u << (32 - bits));
  const double t = rint(fmin(fmax(keep, 0.0), 1.0) * scale);
  if (t >= scale) return (static_cast<uint32_t>(scale - 1.0) << bits) | static_cast<uint32_t>(self);
  return (static_cast<uint32_t>(t) << bits) | static_cast<uint32_t>(alias);
}

/// First index in [0, count) whose value at(index) satisfies `reached`, else count (values
/// non-decreasing in the index, so `reached` is false then true).
template <class At, class Reached>
__device__ int first_reaching(int count, At at, Reached reached) {
  int lo = 0, hi = count;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (reached(at(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/// Shared memory of a row: the lights' cumulative deficits A from the front (index order), the
/// heavies' cumulative excesses B from the back (heavy h at n - 1 - h), and the cities of both.
/// Thread t takes the cities [t * per, (t + 1) * per): its own sums, one block scan, then its
/// cities again from where the scan puts it.
__global__ void __launch_bounds__(kThreads) alias_kernel(const float* fitness, uint32_t* alias, int n, int ld,
                                                         int self_base, int bits) {
  extern __shared__ double sums[];
  int* cities = reinterpret_cast<int*>(sums + n);
  using Reduce = cub::BlockReduce<double, kThreads>;
  using Scan = cub::BlockScan<Sweep, kThreads>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  __shared__ double total_shared;
  const int tid = static_cast<int>(threadIdx.x);
  const float* f = fitness + static_cast<size_t>(blockIdx.x) * ld;
  uint32_t* out = alias + static_cast<size_t>(blockIdx.x) * ld;
  const int self = self_base + static_cast<int>(blockIdx.x);
  const int per = (n + kThreads - 1) / kThreads;
  const int begin = min(tid * per, n), end = min(begin + per, n);

  double local = 0.0;
  for (int j = begin; j < end; ++j) local += f[j];
  const double total = Reduce(temp.reduce).Sum(local);
  if (tid == 0) total_shared = total;
  __syncthreads();  // also frees the reduction's storage for the scan
  if (!(total_shared > 0.0) || !isfinite(total_shared)) {  // no draw can succeed: every column gives self
    for (int j = tid; j < n; j += kThreads) out[j] = static_cast<uint32_t>(self);
    return;
  }
  const double scale = static_cast<double>(n) / total_shared;

  Sweep mine{0.0, 0.0, 0, 0};
  for (int j = begin; j < end; ++j) {
    const double p = static_cast<double>(f[j]) * scale;
    if (p < 1.0) mine = {mine.deficit + (1.0 - p), mine.excess, mine.lights + 1, mine.heavies};
    else if (p > 1.0) mine = {mine.deficit, mine.excess + (p - 1.0), mine.lights, mine.heavies + 1};
  }
  Sweep at, all;
  Scan(temp.scan).ExclusiveScan(mine, at, Sweep{0.0, 0.0, 0, 0}, SweepSum{}, all);
  for (int j = begin; j < end; ++j) {
    const double p = static_cast<double>(f[j]) * scale;
    if (p < 1.0) {
      sums[at.lights] = at.deficit;  // A: the deficits of the lights before
      cities[at.lights++] = j;
      at.deficit += 1.0 - p;
    } else if (p > 1.0) {
      at.excess += p - 1.0;  // B: the excesses up to and with this heavy
      sums[n - 1 - at.heavies] = at.excess;
      cities[n - 1 - at.heavies++] = j;
    } else {
      out[j] = pack(1.0, j, j, bits);
    }
  }
  __syncthreads();
  const int lights = all.lights, heavies = all.heavies;
  const double deficits = all.deficit;
  const auto lights_at = [&](int l) { return sums[l]; };
  const auto heavies_at = [&](int h) { return sums[n - 1 - h]; };

  for (int l = tid; l < lights; l += kThreads) {
    const double a = sums[l];
    const double keep = 1.0 - ((l + 1 < lights ? sums[l + 1] : deficits) - a);
    if (heavies == 0) {  // only rounding leaves a light without heavies: it keeps its column
      out[cities[l]] = pack(1.0, cities[l], cities[l], bits);
      continue;
    }
    const int k = min(first_reaching(heavies, heavies_at, [a](double b) { return b >= a; }), heavies - 1);
    out[cities[l]] = pack(keep, cities[n - 1 - k], cities[l], bits);
  }
  for (int h = tid; h < heavies; h += kThreads) {
    const int city = cities[n - 1 - h];
    if (h == heavies - 1) {  // the last heavy keeps what is left: its whole column
      out[city] = pack(1.0, city, city, bits);
      continue;
    }
    const double b = sums[n - 1 - h];
    const int next = first_reaching(lights, lights_at, [b](double a) { return a > b; });
    const double covered = next < lights ? sums[next] : deficits;
    out[city] = pack(1.0 - (covered - b), cities[n - 1 - (h + 1)], city, bits);
  }
}

}  // namespace

void launch_alias_tables(const float* fitness, uint32_t* alias, int n, int ld, int rows, int self_base,
                         cudaStream_t stream) {
  FORMICA_EXPECTS(n >= 1 && n <= kAliasRowLimit && n <= ld, "alias tables take rows of 1 to ", kAliasRowLimit,
                  " cities");
  const size_t bytes = static_cast<size_t>(n) * (sizeof(double) + sizeof(int));
  if (bytes > 48 * 1024)  // the longer rows need the opt-in to more than the default 48 KiB
    CUDA_CHECK(cudaFuncSetAttribute(alias_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
  alias_kernel<<<rows, kThreads, bytes, stream>>>(fitness, alias, n, ld, self_base, alias_index_bits(n));
  CUDA_CHECK_LAUNCH();
}

}  // namespace formica::aco::cuda
