// SPDX-License-Identifier: MIT
// The rank/device layer under the solver (DESIGN.md, "Several GPUs and hosts"): the few collective
// operations the island model needs between processes (ranks), whatever carries them. The solver
// asks a Communicator to exchange or gather tours and never calls MPI or NCCL itself.
//
// Implementations: SingleRank (always built: one process, every operation a copy), MPI over host
// buffers (mpi_communicator.h, FORMICA_MPI) and NCCL over device buffers (nccl_communicator.h,
// FORMICA_NCCL, bootstrapped from MPI). start_ranks() picks what the process was launched with.
//
// Every operation is collective: every rank calls it, in the same order, with the same sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace formica::distributed {

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// This rank's index among the ranks on its host, and how many ranks share the host.
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  /// GPUs the ranks of this host share out (rank r takes GPU r mod local_gpus()): the host's GPUs
  /// that start_ranks() saw (host_gpus()), unless the ranks say otherwise (a ThreadTeam).
  virtual int local_gpus() const;
  /// What carries the data: "single rank", "MPI (host buffers)", "NCCL (device buffers)".
  virtual std::string transport() const = 0;

  /// Every rank's `mine` (the same size on every rank) in rank order: all.size() == size() *
  /// mine.size().
  virtual void allgather(std::span<const int32_t> mine, std::span<int32_t> all) = 0;
  virtual void allgather(std::span<const int64_t> mine, std::span<int64_t> all) = 0;
  /// Every rank's `mine` in rank order into `all` on `root` (all.size() == size() * mine.size()
  /// there; ignored elsewhere).
  virtual void gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) = 0;
  /// `bytes` of `root` to every rank.
  virtual void broadcast(std::span<std::byte> bytes, int root) = 0;

  /// Ends every rank of the run with exit code `code` (MPI_Abort): for a failure the other ranks
  /// cannot learn of through a collective. Returns only in no implementation.
  [[noreturn]] virtual void abort(int code) noexcept = 0;
};

/// Throws std::invalid_argument unless all.size() == size * mine.size(): the implementations'
/// common check.
void expect_gather_sizes(size_t mine, size_t all, int size, const char* operation);

}  // namespace formica::distributed
