// SPDX-License-Identifier: MIT
// Islands as threads of one process (see thread_team.h).
#include "distributed/thread_team.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace formica::distributed {

ThreadTeam::ThreadTeam(int size, int gpus) : size_(size), gpus_(gpus), published_(static_cast<size_t>(size)) {
  if (size < 1) throw std::invalid_argument("a team of " + std::to_string(size) + " members");
}

void ThreadTeam::break_team() noexcept {
  {
    const std::lock_guard lock(mutex_);
    broken_ = true;
  }
  all_arrived_.notify_all();
}

bool ThreadTeam::broken() const {
  const std::lock_guard lock(mutex_);
  return broken_;
}

void ThreadTeam::arrive_and_wait() {
  std::unique_lock lock(mutex_);
  if (broken_) throw TeamBroken("another island of the run stopped before this exchange");
  const uint64_t generation = generation_;
  if (++waiting_ == size_) {
    waiting_ = 0;
    ++generation_;
    lock.unlock();
    all_arrived_.notify_all();
    return;
  }
  all_arrived_.wait(lock, [&] { return generation_ != generation || broken_; });
  if (generation_ == generation) throw TeamBroken("another island of the run stopped before this exchange");
}

TeamMember::TeamMember(ThreadTeam& team, int rank) : team_(team), rank_(rank) {
  if (rank < 0 || rank >= team.size())
    throw std::invalid_argument("member " + std::to_string(rank) + " of a team of " + std::to_string(team.size()));
}

template <typename T>
void TeamMember::gather_to(std::span<const T> mine, std::span<T> all, int root) {
  const int size = team_.size();
  const bool receives = root < 0 || root == rank_;
  if (receives) expect_gather_sizes(mine.size(), all.size(), size, root < 0 ? "allgather" : "gather");
  team_.published_[static_cast<size_t>(rank_)] = mine.data();
  team_.arrive_and_wait();  // every member has published
  if (receives)
    for (int r = 0; r < size; ++r)
      std::memcpy(all.data() + static_cast<size_t>(r) * mine.size(), team_.published_[static_cast<size_t>(r)],
                  mine.size_bytes());
  team_.arrive_and_wait();  // every copy is done: the published data may change
}

void TeamMember::allgather(std::span<const int32_t> mine, std::span<int32_t> all) { gather_to(mine, all, -1); }
void TeamMember::allgather(std::span<const int64_t> mine, std::span<int64_t> all) { gather_to(mine, all, -1); }

void TeamMember::gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) {
  if (root < 0 || root >= team_.size()) throw std::invalid_argument("gather: root " + std::to_string(root));
  gather_to(mine, all, root);
}

void TeamMember::broadcast(std::span<std::byte> bytes, int root) {
  if (root < 0 || root >= team_.size()) throw std::invalid_argument("broadcast: root " + std::to_string(root));
  if (rank_ == root) team_.published_[static_cast<size_t>(root)] = bytes.data();
  team_.arrive_and_wait();
  if (rank_ != root) std::memcpy(bytes.data(), team_.published_[static_cast<size_t>(root)], bytes.size());
  team_.arrive_and_wait();
}

void TeamMember::abort(int code) noexcept { std::_Exit(code); }

}  // namespace formica::distributed
