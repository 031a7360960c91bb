// SPDX-License-Identifier: MIT
// Starting the ranks of a run: what the process was launched as (plain, or one of mpirun's ranks),
// which GPU each rank takes, and what carries the tours between them (MPI or NCCL). The front
// ends call these once, first thing; the solver gets the Communicator through SolveOptions.
#pragma once

#include <memory>
#include <string>

#include "distributed/communicator.h"

namespace formica::distributed {

/// True when this build has NCCL (FORMICA_NCCL) compiled in.
bool built_with_nccl();

/// The Communicator of this process. Launched by mpirun (or another MPI launcher: the environment
/// names a world of more than one rank) in a build with MPI: MPI ranks. Otherwise a SingleRank,
/// with no MPI initialised, so a run of one process costs nothing extra. Before MPI starts (and
/// before any CUDA call) each rank of a host with GPUs is pinned to one: CUDA_VISIBLE_DEVICES is set
/// to the (local rank mod GPUs)-th of the host's GPUs, so the rank's device 0 is its own. Throws
/// std::runtime_error when launched as several ranks by a build without MPI.
std::unique_ptr<Communicator> start_ranks(int& argc, char**& argv);

/// GPUs this host showed before start_ranks() pinned the process to one (0 without a driver).
int host_gpus();

/// What carries the tours of a run on the GPU (`gpu`) or the CPU: NCCL over `ranks` when it is
/// built in, the run is on the GPU and every rank of every host has a GPU of its own (NCCL refuses
/// two ranks on one GPU); else `ranks` itself. Collective: every rank takes the same path.
/// `why` says which and why, for the log ("" with one rank).
std::unique_ptr<Communicator> choose_transport(std::unique_ptr<Communicator> ranks, bool gpu, std::string& why);

/// GPUs the ranks use together (ranks sharing a GPU count it once); 0 on the CPU. Collective.
int count_gpus(Communicator& ranks, bool gpu);

}  // namespace formica::distributed
