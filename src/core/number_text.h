// SPDX-License-Identifier: MIT
// Numbers as users type them and as messages show them. number_problem says in a few words why a
// text is not a value of the type an option takes (empty, not a number, not whole, negative,
// beyond the type's range, not finite), for the one-line errors of the command line and of
// Python; number_text prints a double with every digit it needs ("10000001", not "1e+07").
#pragma once

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/error.h"

namespace formica {

/// `value` with as many digits as reading it back needs, without an exponent from 1e-4 to 1e15:
/// "10000001", "0.1", "1e+300", "nan".
std::string number_text(double value);

/// What reading a text as a double found.
enum class RealText { Finite, Empty, NotANumber, OutOfRange, NotFinite };

/// Reads all of `text` (a leading '+' allowed) as a double into `value`.
RealText read_real(std::string_view text, double& value);

/// Reads all of `text` as a T (an integer or a floating-point type) into `value`. Returns ""
/// when it is one, else why not, quoting the text: "'1.5' is not a whole number", "'-1' is
/// negative (0 to 18446744073709551615)", "'1e400' is out of range", "'nan' is not a number".
template <typename T>
std::string number_problem(std::string_view text, T& value) {
  double real = 0.0;
  const RealText read = read_real(text, real);
  const std::string quoted = concat("'", text, "'");
  if (read == RealText::Empty) return "no value (an empty text)";
  if (read == RealText::NotANumber) return quoted + " is not a number";
  if constexpr (std::is_floating_point_v<T>) {
    if (read == RealText::NotFinite) return quoted + " is not finite";
    if (read == RealText::OutOfRange || std::fabs(real) > static_cast<double>(std::numeric_limits<T>::max()))
      return quoted + " is out of range";
    value = static_cast<T>(real);
    return "";
  } else {
    // from_chars takes no '+'; a user may write one.
    const std::string_view digits = text.size() > 1 && text.front() == '+' ? text.substr(1) : text;
    const char* const last = digits.data() + digits.size();
    const auto [end, ec] = std::from_chars(digits.data(), last, value);
    if (ec == std::errc() && end == last) return "";
    const std::string range = concat(" (", +std::numeric_limits<T>::min(), " to ", +std::numeric_limits<T>::max(), ")");
    if (ec == std::errc::result_out_of_range && end == last) return quoted + " is out of range" + range;
    if (read != RealText::Finite || real != std::floor(real)) {
      if (read == RealText::OutOfRange) return quoted + " is out of range" + range;
      return quoted + " is not a whole number";
    }
    if (std::is_unsigned_v<T> && real < 0) return quoted + " is negative" + range;
    if (real < static_cast<double>(std::numeric_limits<T>::min()) ||
        real > static_cast<double>(std::numeric_limits<T>::max()))
      return quoted + " is out of range" + range;
    return quoted + " is not written as a whole number (digits only)";
  }
}

}  // namespace formica
