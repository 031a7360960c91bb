// SPDX-License-Identifier: MIT
// Numbers as users type them and as messages show them (see number_text.h).
#include "core/number_text.h"

namespace formica {

std::string number_text(double value) {
  char buffer[64];
  const double magnitude = std::fabs(value);
  const bool plain = magnitude == 0.0 || (magnitude >= 1e-4 && magnitude < 1e15);
  const auto result = plain ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed)
                            : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

RealText read_real(std::string_view text, double& value) {
  if (text.empty()) return RealText::Empty;
  const std::string_view digits = text.size() > 1 && text.front() == '+' ? text.substr(1) : text;
  const char* const last = digits.data() + digits.size();
  const auto [end, ec] = std::from_chars(digits.data(), last, value);
  if (end != last || ec == std::errc::invalid_argument || std::isnan(value)) return RealText::NotANumber;
  if (ec == std::errc::result_out_of_range) return RealText::OutOfRange;
  return std::isinf(value) ? RealText::NotFinite : RealText::Finite;
}

}  // namespace formica
