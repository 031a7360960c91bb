// SPDX-License-Identifier: MIT
// Lazy line splitting and field helpers for the TSPLIB reader (see line_reader.h).
#include "io/line_reader.h"

#include "core/error.h"

namespace formica::io {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view next_field(std::string_view s, size_t& at) {
  while (at < s.size() && is_blank(s[at])) ++at;
  const size_t start = at;
  while (at < s.size() && !is_blank(s[at])) ++at;
  return s.substr(start, at - start);
}

std::vector<std::string_view> split_fields(std::string_view s, size_t limit) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (fields.size() < limit) {
    const std::string_view field = next_field(s, i);
    if (field.empty()) break;
    fields.push_back(field);
  }
  return fields;
}

std::string_view first_field(std::string_view s) {
  size_t i = 0;
  return next_field(s, i);
}

size_t count_fields(std::string_view s) {
  size_t count = 0, i = 0;
  while (!next_field(s, i).empty()) ++count;
  return count;
}

namespace {

/// The length of the valid UTF-8 sequence of two to four bytes at the start of `s` that is not a
/// C1 control character; 0 if there is none.
size_t utf8_sequence(std::string_view s) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  const size_t length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length == 0 || s.size() < length) return 0;
  for (size_t i = 1; i < length; ++i)
    if ((byte(i) & 0xc0) != 0x80) return 0;
  // No overlong forms, no surrogates, nothing past U+10FFFF, no C1 control (U+0080-U+009F).
  if ((lead == 0xe0 && byte(1) < 0xa0) || (lead == 0xed && byte(1) > 0x9f) || (lead == 0xf0 && byte(1) < 0x90) ||
      (lead == 0xf4 && byte(1) > 0x8f) || (lead == 0xc2 && byte(1) < 0xa0))
    return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += text[i++];
    } else if (const size_t length = byte >= 0x80 ? utf8_sequence(text.substr(i)) : 0; length > 0) {
      out += text.substr(i, length);
      i += length;
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
      ++i;
    }
  }
  return out;
}

std::string excerpt(std::string_view s) {
  constexpr size_t kLongest = 40;
  return s.size() <= kLongest ? printable(s) : printable(s.substr(0, kLongest)) + "...";
}

std::optional<Line> LineReader::peek() {
  int64_t blank_run = 0;
  while (!next_ && !rest_.empty()) {
    // One pass finds the line's end or a NUL byte, whichever comes first.
    size_t end = 0;
    while (end < rest_.size() && rest_[end] != '\n' && rest_[end] != '\0') ++end;
    ++lines_seen_;
    if (end < rest_.size() && rest_[end] == '\0')
      throw InputError(concat(source_, ":", lines_seen_, ": a NUL byte: not a text file"));
    const std::string_view text = trim(rest_.substr(0, end));
    rest_.remove_prefix(end < rest_.size() ? end + 1 : end);
    if (!text.empty()) next_ = Line{lines_seen_, text};
    else if (++blank_run > kMaxBlankLines)
      throw InputError(concat(source_, ":", lines_seen_, ": more than ", kMaxBlankLines,
                              " blank lines in a row: not a TSPLIB file"));
  }
  return next_;
}

}  // namespace formica::io
