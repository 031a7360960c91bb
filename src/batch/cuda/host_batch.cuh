// SPDX-License-Identifier: MIT
// The batch as the GPU's walks take it (batch_walks.cu), packed on the host: every instance's
// distances, lists and limits, and every walk's start tour, in a few flat arrays.
#pragma once

#include <algorithm>
#include <atomic>
#include <span>
#include <vector>

#include "batch/walks.h"
#include "core/search.h"
#include "core/tour.h"
#include "cuda/device_distance.cuh"

namespace formica::batch::cuda {

using formica::cuda::DistanceView;

/// Packed host copies of the batch's instances and walks. Each instance's distances are its
/// coordinates (GEO in radians, as cuda::DeviceDistances keeps them) or its matrix, one after
/// another in a few arrays, so the whole batch takes a handful of allocations.
struct HostBatch {
  std::vector<const Instance*> instances;
  std::vector<size_t> distance_offset;  ///< per instance, into matrices (EXPLICIT) or x, y and z
  std::vector<double> x, y, z;
  std::vector<int32_t> matrices;
  std::vector<int> n, k;
  std::vector<long long> list_offset, slot_offset, bits_offset, budget, target;
  std::vector<unsigned long long> seed;
  std::vector<int32_t> lists, tours;
  std::vector<long long> lengths;
  long long slot_total = 0, bits_total = 0;  ///< cities of every walk's tour, and words of their bits

  void add_distances(const Instance& instance) {
    instances.push_back(&instance);
    if (instance.type() == EdgeWeightType::Explicit) {
      distance_offset.push_back(matrices.size());
      matrices.insert(matrices.end(), instance.matrix().begin(), instance.matrix().end());
      return;
    }
    distance_offset.push_back(x.size());
    const bool geo = instance.type() == EdgeWeightType::Geo;
    for (int c = 0; c < instance.n(); ++c) {
      x.push_back(geo ? tsplib::geo_radians(instance.x()[c]) : instance.x()[c]);
      y.push_back(geo ? tsplib::geo_radians(instance.y()[c]) : instance.y()[c]);
      z.push_back(instance.z().empty() ? 0.0 : instance.z()[c]);
    }
  }

  /// Every instance's view into the device copies of x, y, z and matrices.
  std::vector<DistanceView> views(const double* dx, const double* dy, const double* dz, const int32_t* dm) const {
    std::vector<DistanceView> out;
    for (size_t i = 0; i < instances.size(); ++i) {
      const size_t at = distance_offset[i];
      const bool matrix = instances[i]->type() == EdgeWeightType::Explicit;
      out.push_back({instances[i]->type(), instances[i]->n(), matrix ? nullptr : dx + at, matrix ? nullptr : dy + at,
                     matrix ? nullptr : dz + at, matrix ? dm + at : nullptr});
    }
    return out;
  }
};

/// The instances and every walk's start tour packed for the device; the start tours are built on
/// `threads` host threads.
inline HostBatch pack_batch(std::span<const PlannedInstance> instances, int walks, int threads,
                     const std::atomic<bool>* interrupt) {
  const int slots = static_cast<int>(instances.size()) * walks;
  HostBatch b;
  long long list_total = 0, slot_total = 0, bits_total = 0;
  for (const PlannedInstance& p : instances) {
    const int n = p.instance->n();
    b.add_distances(*p.instance);
    b.n.push_back(n);
    b.k.push_back(p.lists.k());
    b.list_offset.push_back(list_total);
    list_total += static_cast<long long>(n) * p.lists.k();
    b.lists.insert(b.lists.end(), p.lists.data().begin(), p.lists.data().end());
    for (int w = 0; w < walks; ++w) {
      b.slot_offset.push_back(slot_total);
      b.bits_offset.push_back(bits_total);
      slot_total += n;
      bits_total += (n + 31) / 32;
    }
    b.budget.push_back(p.kicks);
    b.target.push_back(p.target);
    b.seed.push_back(p.seed);
  }
  b.tours.resize(static_cast<size_t>(slot_total));
  b.lengths.resize(static_cast<size_t>(slots));
  b.slot_total = slot_total;
  b.bits_total = bits_total;
  // As on the CPU, the start tours keep half the time left at most, counted once for all of an
  // instance's walks (a million cities: seconds each for the nearest-neighbour tour, 64 walks of it).
  std::vector<StopFlag> start_stops;
  for (const PlannedInstance& p : instances) {
    const StopFlag until{interrupt, p.deadline};
    start_stops.push_back(preparation_stop(&until));
  }
  for_each_index(slots, std::max(threads, 1), [&](int s) {
    const PlannedInstance& p = instances[s / walks];
    const std::vector<int32_t> start = walk_start(p, s % walks, &start_stops[s / walks]);
    std::copy(start.begin(), start.end(), b.tours.begin() + b.slot_offset[s]);
    b.lengths[s] = tour_length(*p.instance, start);
  });
  return b;
}

}  // namespace formica::batch::cuda
