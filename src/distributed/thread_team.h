// SPDX-License-Identifier: MIT
// Islands in one process (--islands, --gpus): the ranks of a run are threads of one process, and
// their collectives are copies through host memory. Each member publishes where its data lies and
// the team meets at a barrier; the members then copy what they need and meet again before anyone
// may change or free what it published. No MPI, no NCCL: the tours of a few islands every second
// or so are a few megabytes at most, and every GPU of one host reaches host memory.
//
// A member that leaves the run without its collectives (an exception during set-up, say) breaks
// the team: every member waiting at a barrier, and every later collective, throws TeamBroken, so
// that no thread waits for ever on one that has gone.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "distributed/communicator.h"

namespace formica::distributed {

/// Thrown by a collective of a member whose team was broken.
struct TeamBroken : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the members of one team share. Make one per run; every member refers to it.
class ThreadTeam {
 public:
  /// `size` members (>= 1) using `gpus` GPUs between them (0 on the CPU): member r uses GPU r mod gpus.
  explicit ThreadTeam(int size, int gpus = 0);

  int size() const { return size_; }
  int gpus() const { return gpus_; }
  /// Wakes every member waiting at a barrier and makes every later collective throw TeamBroken.
  /// Idempotent; called by a member that leaves early.
  void break_team() noexcept;
  bool broken() const;

 private:
  friend class TeamMember;
  /// Waits until all `size` members have arrived; throws TeamBroken once the team is broken.
  void arrive_and_wait();

  const int size_, gpus_;
  mutable std::mutex mutex_;
  std::condition_variable all_arrived_;
  int waiting_ = 0;
  uint64_t generation_ = 0;
  bool broken_ = false;
  std::vector<const void*> published_;  // member r's data in the collective under way
};

/// One member's view of its team: the Communicator that member's solve() runs with.
class TeamMember final : public Communicator {
 public:
  TeamMember(ThreadTeam& team, int rank);

  int rank() const override { return rank_; }
  int size() const override { return team_.size(); }
  int local_rank() const override { return rank_; }
  int local_size() const override { return team_.size(); }
  /// The GPUs of the team (distributed::count_gpus counts a member that uses one no lower rank does).
  int local_gpus() const override { return team_.gpus(); }
  std::string transport() const override { return "threads (host memory)"; }

  void allgather(std::span<const int32_t> mine, std::span<int32_t> all) override;
  void allgather(std::span<const int64_t> mine, std::span<int64_t> all) override;
  void gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) override;
  void broadcast(std::span<std::byte> bytes, int root) override;
  /// std::_Exit(code): the members are threads of this process, which ends with all of them.
  [[noreturn]] void abort(int code) noexcept override;

 private:
  template <typename T>
  void gather_to(std::span<const T> mine, std::span<T> all, int root);

  ThreadTeam& team_;
  int rank_;
};

}  // namespace formica::distributed
