// SPDX-License-Identifier: MIT
// Error kinds of formica and the one validation macro, FORMICA_EXPECTS.
//
// Every failure a user can cause (a malformed file, an out-of-range parameter, a tour that is not
// a permutation) is an InputError; running out of device or host memory is an OutOfMemoryError;
// anything else that escapes is a bug. The CLI maps these to exit codes 2, 3 and 1.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace formica {

/// Bad input from the user: a file, a parameter, a tour. Exit code 2 in the CLI.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The instance does not fit in host or device memory, even in its sparse form. Exit code 3.
class OutOfMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Concatenates any streamable values into one string: `concat("line ", 12, ": bad")`. Constrained
/// to streamable values so that argument-dependent lookup from other libraries' unqualified
/// `concat` calls (nanobind's type descriptions of formica types) never picks it.
template <typename... Args>
  requires requires(std::ostringstream& out, Args&&... args) { (out << ... << args); }
std::string concat(Args&&... args) {
  std::ostringstream out;
  (out << ... << std::forward<Args>(args));
  return out.str();
}

}  // namespace formica

/// Throws formica::InputError with the concatenated message when `cond` is false.
#define FORMICA_EXPECTS(cond, ...)                                   \
  do {                                                               \
    if (!(cond)) throw ::formica::InputError(::formica::concat(__VA_ARGS__)); \
  } while (false)
