// SPDX-License-Identifier: MIT
// The hybrid: ant colonies with host threads searching beside them, their tours merged. The
// colonies (aco/) merge their own best tours (aco/colony_merge.h) and take a StartHostThreads
// that starts the threads; this room is that starter. It picks, from the colonies' config, what
// runs on the host beside them:
// - iterated Lin-Kernighan over the whole tour (localsearch/cpu/iterated_lin_kernighan.h), on the
//   colonies' lists, nearest or quadrant lists of their own, or (--lk-lists alpha) quadrant lists
//   until a Held-Karp ascent on a thread of its own hands them its alpha-nearest;
// - on very large tours (--lk-stretch), Lin-Kernighan over stretches of the tour first, then over
//   the whole of it (decomposition/stretch_hand_over.h);
// - with --host-search eax, GA-EAX (population/eax_companion.h): the merged tour joins its
//   population, and the population's shortest tour is the donor.
// It sits above the colonies, the population search and the decomposition, and below the solver,
// which hands start_host_threads to the colony searches it builds.
#pragma once

#include <atomic>
#include <exception>
#include <thread>

#include "aco/colony_config.h"
#include "aco/colony_merge.h"
#include "core/candidates.h"
#include "core/instance.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"

namespace formica::hybrid {

/// The shape of the lists the Lin-Kernighan threads build for themselves: theirs by `lists`, or
/// `colonies` (the shape they follow with LkLists::Colonies). Instances without planar coordinates
/// get the nearest whatever the shape (effective_shape).
NeighbourShape threads_shape(aco::LkLists lists, NeighbourShape colonies);

/// The alpha-nearest per city that --lk-lists alpha hands the Lin-Kernighan threads (LKH's 5;
/// measured against 8 and quadrant lists, and not auto's choice: docs/tuning.md#alpha-lists).
constexpr int kThreadsAlphaNeighbours = 5;

/// LKH's candidate lists for running Lin-Kernighan threads: a Held-Karp ascent on a thread of its
/// own (one core: the ascent does not get faster with more), whose kThreadsAlphaNeighbours
/// alpha-nearest go to `search` (IteratedLinKernighan::use_lists) when it ends.
class ThreadListsAscent {
 public:
  /// Starts the ascent; `instance` and `search` must outlive this object (or its stop()).
  ThreadListsAscent(const Instance& instance, localsearch::cpu::IteratedLinKernighan& search);
  ~ThreadListsAscent() { end(); }
  ThreadListsAscent(const ThreadListsAscent&) = delete;
  ThreadListsAscent& operator=(const ThreadListsAscent&) = delete;
  /// Interrupts the ascent (the lists it would have made are dropped) and joins its thread;
  /// rethrows what the ascent threw.
  void stop();
  /// True once `search` has the alpha lists.
  bool handed_over() const { return handed_over_.load(std::memory_order_acquire); }

 private:
  void end();  // interrupts and joins

  std::atomic<bool> stop_{false};
  std::atomic<bool> handed_over_{false};
  std::exception_ptr failure_;  // written by the thread, read after join
  std::thread thread_;
};

/// The config.lk_threads host threads (none when 0) that `config` asks for beside the colonies,
/// idle until their first tour is offered (file comment). Whole-tour Lin-Kernighan chains choose
/// among `lists` (the colonies' local-search lists, copied) when config.lk_lists says so or when
/// they are the very lists the threads would build, else among aco::kMergerNeighbours neighbours
/// of the threads' own shape built here (throwing SetupStopped when `stop` asks before they are
/// done). An aco::StartHostThreads.
aco::HostThreads start_host_threads(const Instance& instance, const aco::ColonyConfig& config,
                                    const CandidateLists* lists, const StopFlag* stop = nullptr);

}  // namespace formica::hybrid
