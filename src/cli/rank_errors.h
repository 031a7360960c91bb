// SPDX-License-Identifier: MIT
// Errors of a run of several ranks (mpirun): one error line for a failure every rank shares, an
// exit code every rank agrees on, and never a rank left waiting on one that failed. A single rank
// (plain `formica ...`) prints and returns the code as it always did.
//
// `formica solve` arms the setup barrier when it starts and meets it once the instance is read and
// the configuration checked (every rank does the same there): a rank that fails before meeting it
// meets it with its error, so every rank learns of it, the lowest failing rank prints its line and
// all return its exit code. A failure after the barrier is this rank's own: it prints its line,
// naming the rank, and ends every rank (MPI_Abort), unless the solver caught it
// (Result::failure), when the ranks meet once more after rank 0 wrote the best tour.
#pragma once

#include <exception>

#include "distributed/communicator.h"

namespace formica::cli {

/// The exit code of `error` (2 bad input, 3 out of memory, 1 internal error), its line printed on
/// stderr when `print` (naming the rank when `rank` is not negative).
int exit_code(std::exception_ptr error, bool print, int rank = -1);

class RankErrors {
 public:
  explicit RankErrors(distributed::Communicator& ranks) : ranks_(ranks) {}

  /// The setup has begun on this rank: its errors go through agree() until it is met.
  void arm() { armed_ = true; }
  /// Every rank meets here with its error (null: none). Returns 0 when no rank failed, else the
  /// exit code of the lowest rank that did, which printed its line. Collective with several ranks.
  int agree(std::exception_ptr failure);
  /// An error that reached main(): agreed on while the setup barrier is armed and not met; else
  /// printed (naming the rank with several) and, with several ranks, MPI_Abort with its code.
  int fail(std::exception_ptr error);

 private:
  distributed::Communicator& ranks_;
  bool armed_ = false;
};

}  // namespace formica::cli
