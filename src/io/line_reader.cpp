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

std::string excerpt(std::string_view s) {
  constexpr size_t kLongest = 40;
  return s.size() <= kLongest ? std::string(s) : std::string(s.substr(0, kLongest)) + "...";
}

std::optional<Line> LineReader::peek() {
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
  }
  return next_;
}

}  // namespace formica::io
