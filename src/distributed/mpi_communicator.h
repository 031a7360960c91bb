// SPDX-License-Identifier: MIT
// MPI ranks over host buffers (FORMICA_MPI): the Communicator of `mpirun -np P formica ...`, on
// one host or several. It initialises MPI when built and finalises it when destroyed, so one lives
// for the whole process (start_ranks() makes it). No MPI types here: the front ends include this
// header in any build; the class is only defined when MPI is built in.
#pragma once

#include <memory>

#include "distributed/communicator.h"

namespace formica::distributed {

class MpiCommunicator final : public Communicator {
 public:
  /// MPI_Init_thread (funneled: only the thread that made it calls MPI) and the host-local
  /// communicator (MPI_Comm_split_type, shared memory) that local_rank() and local_size() read.
  MpiCommunicator(int& argc, char**& argv);
  ~MpiCommunicator() override;  ///< MPI_Finalize
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  std::string transport() const override { return "MPI (host buffers)"; }

  void allgather(std::span<const int32_t> mine, std::span<int32_t> all) override;
  void allgather(std::span<const int64_t> mine, std::span<int64_t> all) override;
  void gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) override;
  void broadcast(std::span<std::byte> bytes, int root) override;
  /// MPI_Abort on MPI_COMM_WORLD: mpirun ends every rank and exits with `code`.
  [[noreturn]] void abort(int code) noexcept override;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace formica::distributed
