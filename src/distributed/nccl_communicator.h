// SPDX-License-Identifier: MIT
// NCCL between ranks that each own a GPU (FORMICA_NCCL): tours travel from device buffers, GPU to
// GPU (NVLink or the network NCCL finds), instead of through host memory and MPI. The NCCL
// communicator is bootstrapped through another Communicator (MPI, or a single rank in tests):
// rank 0's ncclGetUniqueId is broadcast, then ncclCommInitRank on the current device. Rank, size,
// broadcast and abort are the bootstrap's.
//
// NCCL refuses two ranks on one GPU: start_ranks.h's choose_transport() uses it only where every
// rank of a host has a GPU of its own. Host header: no CUDA or NCCL types; the class is only
// defined when NCCL is built in.
#pragma once

#include <memory>

#include "distributed/communicator.h"

namespace formica::distributed {

class NcclCommunicator final : public Communicator {
 public:
  /// Takes `bootstrap` over (it outlives the NCCL communicator, and MPI must be finalised last).
  /// Throws std::runtime_error when there is no CUDA device or NCCL fails to start.
  explicit NcclCommunicator(std::unique_ptr<Communicator> bootstrap);
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  int rank() const override { return bootstrap_->rank(); }
  int size() const override { return bootstrap_->size(); }
  int local_rank() const override { return bootstrap_->local_rank(); }
  int local_size() const override { return bootstrap_->local_size(); }
  std::string transport() const override { return "NCCL (device buffers)"; }

  /// Host spans in and out: copied to a device buffer, ncclAllGather, copied back.
  void allgather(std::span<const int32_t> mine, std::span<int32_t> all) override;
  void allgather(std::span<const int64_t> mine, std::span<int64_t> all) override;
  /// ncclSend to the root, which ncclRecvs from every rank (NCCL has no gather of its own).
  void gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) override;
  void broadcast(std::span<std::byte> bytes, int root) override { bootstrap_->broadcast(bytes, root); }
  [[noreturn]] void abort(int code) noexcept override;

 private:
  struct State;
  std::unique_ptr<Communicator> bootstrap_;
  std::unique_ptr<State> state_;
};

}  // namespace formica::distributed
