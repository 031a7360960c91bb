// SPDX-License-Identifier: MIT
// Starting the ranks of a run (see start_ranks.h).
#include "distributed/start_ranks.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributed/single_rank.h"
#if FORMICA_HAVE_MPI
#include "distributed/mpi_communicator.h"
#endif
#if FORMICA_HAVE_NCCL
#include "distributed/nccl_communicator.h"
#endif

namespace formica::distributed {
namespace {

int gpus_seen = 0;

/// The first of the environment variables `names` that is set, as a number; -1 when none is.
int environment_number(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return std::atoi(value);
  return -1;
}

/// The ranks of the world and of this host as the launcher put them in the environment (Open MPI,
/// MPICH / Intel MPI, MVAPICH, Slurm's srun): the GPU must be picked before MPI_Init, which may
/// create a CUDA context of its own in CUDA-aware MPI builds.
int launcher_world_size() {
  return environment_number({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "SLURM_NTASKS"});
}
int launcher_local_rank() {
  return environment_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"});
}

/// The host's GPUs as CUDA would number them: the entries of CUDA_VISIBLE_DEVICES when set, else
/// one per GPU the NVIDIA driver lists (no CUDA call: that would fix the visible set too early).
std::vector<std::string> host_devices() {
  std::vector<std::string> devices;
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible != nullptr) {
    std::stringstream list(visible);
    for (std::string entry; std::getline(list, entry, ',');)
      if (!entry.empty()) devices.push_back(entry);
    return devices;
  }
  std::error_code error;
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", error)) {
    (void)entry;
    ++count;
  }
  for (int d = 0; d < count; ++d) devices.push_back(std::to_string(d));
  return devices;
}

/// Rank `local_rank` of its host takes the host's GPU local_rank mod GPUs as its only device.
void pin_gpu(int local_rank) {
  const std::vector<std::string> devices = host_devices();
  gpus_seen = static_cast<int>(devices.size());
  if (devices.empty() || local_rank < 0) return;
  setenv("CUDA_VISIBLE_DEVICES", devices[static_cast<size_t>(local_rank) % devices.size()].c_str(), 1);
}

}  // namespace

bool built_with_nccl() { return FORMICA_HAVE_NCCL != 0; }
int host_gpus() { return gpus_seen; }

std::unique_ptr<Communicator> start_ranks(int& argc, char**& argv) {
  const int world = launcher_world_size();
  if (world <= 1) {
    gpus_seen = static_cast<int>(host_devices().size());
    (void)argc, (void)argv;
    return std::make_unique<SingleRank>();
  }
  pin_gpu(launcher_local_rank());
#if FORMICA_HAVE_MPI
  return std::make_unique<MpiCommunicator>(argc, argv);
#else
  throw std::runtime_error("launched as one of " + std::to_string(world) +
                           " ranks, but this build of formica has no MPI (configure with FORMICA_MPI=ON where "
                           "MPI is installed: libopenmpi-dev)");
#endif
}

std::unique_ptr<Communicator> choose_transport(std::unique_ptr<Communicator> ranks, bool gpu, std::string& why) {
  why.clear();
  if (ranks->size() == 1) return ranks;
  // Every rank says whether it could run NCCL; all must, or none does.
  const int64_t mine = gpu && built_with_nccl() && ranks->local_size() <= host_gpus() ? 1 : 0;
  std::vector<int64_t> all(static_cast<size_t>(ranks->size()));
  ranks->allgather(std::span<const int64_t>(&mine, 1), all);
  const bool nccl = std::all_of(all.begin(), all.end(), [](int64_t x) { return x == 1; });
  const std::string base = ranks->transport();
  if (!gpu) why = base + ": the ranks run on the CPU";
  else if (!built_with_nccl()) why = base + ": this build has no NCCL";
  else if (!nccl) why = base + ": a host has more ranks than GPUs (NCCL allows one rank per GPU)";
#if FORMICA_HAVE_NCCL
  if (nccl) {
    auto device = std::make_unique<NcclCommunicator>(std::move(ranks));
    why = device->transport() + ": every rank has a GPU of its own";
    return device;
  }
#endif
  return ranks;
}

int count_gpus(Communicator& ranks, bool gpu) {
  // A host's ranks use min(ranks there, its GPUs) GPUs: each counts 1 when its local rank is below that.
  const int64_t mine = gpu && ranks.local_rank() < std::max(1, ranks.local_gpus()) ? 1 : 0;
  std::vector<int64_t> all(static_cast<size_t>(ranks.size()));
  ranks.allgather(std::span<const int64_t>(&mine, 1), all);
  int64_t total = 0;
  for (int64_t x : all) total += x;
  return static_cast<int>(total);
}

}  // namespace formica::distributed
