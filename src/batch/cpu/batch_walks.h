// SPDX-License-Identifier: MIT
// The batch's walks on the CPU: every walk of every instance (batch_solver.h), spread over the
// host's threads, a thread per walk at a time.
#pragma once

#include <span>
#include <vector>

#include "batch/walks.h"

namespace formica::batch::cpu {

/// Runs every walk (instances.size() x plan.walks, in slot order) to its end.
std::vector<WalkOutcome> run_walks(std::span<const PlannedInstance> instances, const WalkPlan& plan);

/// One walk: its start tour climbed, then kicks until its budget, `deadline`, the target or an
/// interrupt (`reached` set by any walk of the instance that reaches the target; this walk sets it
/// too). run_walks gives each walk its share of the instance's time when there are more walks
/// than threads.
WalkOutcome run_walk(const PlannedInstance& instance, int walk, const WalkPlan& plan, std::atomic<bool>& reached,
                     std::chrono::steady_clock::time_point deadline);

}  // namespace formica::batch::cpu
