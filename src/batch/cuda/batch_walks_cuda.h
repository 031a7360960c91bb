// SPDX-License-Identifier: MIT
// The batch's walks on the GPU, a warp per walk (batch/cuda/batch_walks.cu; batch_solver.h says
// what a walk does). Host-only header: no CUDA types.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "batch/walks.h"

namespace formica::batch::cuda {

/// Device memory the walks of `instances` take, in bytes.
size_t walks_bytes(std::span<const PlannedInstance> instances, int walks);

/// Runs every walk (instances.size() x plan.walks, in slot order) on the GPU to its end: each
/// launch runs a number of kicks on every walk still going; between launches the host checks
/// deadlines, budgets, targets and the interrupt flag. Throws OutOfMemoryError when the walks do
/// not fit in the GPU's free memory. `layout_note`, when given, gets how the launch kept the walks
/// (lanes per walk, what shared memory holds, resident walks per SM).
std::vector<WalkOutcome> run_walks(std::span<const PlannedInstance> instances, const WalkPlan& plan,
                                   std::string* layout_note = nullptr);

}  // namespace formica::batch::cuda
