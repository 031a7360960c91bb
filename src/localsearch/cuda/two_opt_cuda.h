// SPDX-License-Identifier: MIT
// The CUDA backend of 2-opt hill climbing with random restarts (Robinson et al. 2018). Host
// header: no CUDA types.
#pragma once

#include <memory>

#include "core/instance.h"
#include "localsearch/config.h"
#include "localsearch/two_opt_search.h"

namespace formica::localsearch::cuda {

/// The GPU 2-opt search. Each step climbs a batch of restarts, either one tour per block on the
/// fixed grid with the work queue (restart_climb.h) or, when the tours left are too few to fill
/// the GPU and large enough to share, one tour at a time on the whole grid (grid_climb.h).
/// Throws InputError when no CUDA device is available.
std::unique_ptr<TwoOptSearch> make_two_opt_cuda(const Instance& instance, const TwoOptConfig& config);

/// The threads per block and tile the search picks for n cities and `restarts` tours to climb on a
/// GPU with `multiprocessors` SMs, when the config leaves them at 0 (sections 5.2.1-5.2.6: more
/// threads for larger tours, fewer when many tours must be in flight at once).
struct AutoShape {
  int threads = 0;
  int tile = 0;
};
AutoShape choose_block_shape(int n, int64_t restarts, int multiprocessors, const TwoOptConfig& config);

/// The layout for `remaining` tours of n cities (config.layout unless it is Auto): grid per tour for
/// tours that get the neighbour-list pre-climb, else whichever keeps more of the GPU busy.
Layout choose_layout(int n, int64_t remaining, int multiprocessors, const TwoOptConfig& config);

}  // namespace formica::localsearch::cuda
