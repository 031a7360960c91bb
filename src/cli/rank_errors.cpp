// SPDX-License-Identifier: MIT
// Errors of a run of several ranks (see rank_errors.h).
#include "cli/rank_errors.h"

#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/line_reader.h"

namespace formica::cli {

int exit_code(std::exception_ptr error, bool print, int rank) {
  const std::string who = rank >= 0 ? concat(" (rank ", rank, ")") : std::string();
  const auto say = [&](const char* kind, const char* what) {
    // A message may quote a file's bytes or a path: escaped, it stays one line and sends nothing
    // raw to the terminal.
    if (print) std::cerr << "formica: " << kind << who << ": " << io::printable(what) << "\n";
  };
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    say("error", e.what());
    return 2;
  } catch (const OutOfMemoryError& e) {
    say("out of memory", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    say("out of memory", "host allocation failed");
    return 3;
  } catch (const std::exception& e) {
    say("internal error", e.what());
    return 1;
  } catch (...) {
    say("internal error", "unknown exception");
    return 1;
  }
}

int RankErrors::agree(std::exception_ptr failure) {
  armed_ = false;
  const int size = ranks_.size(), me = ranks_.rank();
  if (size == 1) return failure ? exit_code(failure, true) : 0;
  const int64_t mine = failure ? exit_code(failure, false) : 0;
  std::vector<int64_t> codes(static_cast<size_t>(size));
  ranks_.allgather(std::span<const int64_t>(&mine, 1), codes);
  for (int r = 0; r < size; ++r)
    if (codes[r] != 0) {
      // The lowest failing rank speaks for all: a failure every rank shares is one line.
      if (r == me) exit_code(failure, true, me == 0 ? -1 : me);
      return static_cast<int>(codes[r]);
    }
  return 0;
}

int RankErrors::fail(std::exception_ptr error) {
  if (armed_) return agree(error);
  if (ranks_.size() == 1) return exit_code(error, true);
  const int code = exit_code(error, true, ranks_.rank());
  ranks_.abort(code);
  return code;  // not reached: abort() ends the process
}

}  // namespace formica::cli
