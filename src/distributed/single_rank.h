// SPDX-License-Identifier: MIT
// One process on its own: the Communicator of a run not launched by mpirun, and of builds without
// MPI. Every collective is a copy of this rank's data, so the solver needs no special case.
#pragma once

#include "distributed/communicator.h"

namespace formica::distributed {

class SingleRank final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  std::string transport() const override { return "single rank"; }

  void allgather(std::span<const int32_t> mine, std::span<int32_t> all) override;
  void allgather(std::span<const int64_t> mine, std::span<int64_t> all) override;
  void gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) override;
  void broadcast(std::span<std::byte>, int) override {}
  /// std::exit(code): there is no other rank to end.
  [[noreturn]] void abort(int code) noexcept override;
};

}  // namespace formica::distributed
