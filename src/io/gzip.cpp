// SPDX-License-Identifier: MIT
// gzip inflation for the text readers (see gzip.h).
#include "io/gzip.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "core/memory.h"

#if FORMICA_HAVE_ZLIB
#include <zlib.h>
#endif

namespace formica::io {

bool is_gzip(std::string_view bytes) { return bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b'; }

#if FORMICA_HAVE_ZLIB

std::string gunzip(std::string_view bytes, const std::string& source, uint64_t limit) {
  z_stream stream{};
  // 16 + MAX_WBITS: a gzip header and trailer (the CRC and length are checked), not raw deflate.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    throw InputError(concat(source, ": zlib failed to start"));
  struct End {
    z_stream* s;
    ~End() { inflateEnd(s); }
  } end{&stream};
  constexpr size_t kUIntMax = std::numeric_limits<uInt>::max();
  const std::optional<size_t> memory = available_host_memory();
  // Text deflates three to five times; the buffer doubles when that guess is short.
  std::string out(
      static_cast<size_t>(std::min<uint64_t>(limit, std::max<uint64_t>(uint64_t{1} << 16, 6 * bytes.size()))),
      '\0');
  size_t consumed = 0, produced = 0, lines = 0;
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= limit)
        throw InputError(
            concat(source, ": inflates to more than ", limit, " bytes, more than formica reads from a file"));
      const size_t grown = static_cast<size_t>(std::min<uint64_t>(limit, 2 * uint64_t{out.size()}));
      if (memory && grown > *memory / 2)
        expect_memory(2 * grown, memory, concat(source, ": inflating this file"));
      out.resize(grown);
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
    stream.avail_in = static_cast<uInt>(std::min(bytes.size() - consumed, kUIntMax));
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    stream.avail_out = static_cast<uInt>(std::min(out.size() - produced, kUIntMax));
    const uInt in_before = stream.avail_in, out_before = stream.avail_out;
    const int status = inflate(&stream, Z_NO_FLUSH);
    consumed += in_before - stream.avail_in;
    const std::string_view fresh(out.data() + produced, out_before - stream.avail_out);
    produced += fresh.size();
    // A NUL byte ends the inflation at once, as it ends a plain file's read: a gzip file of zeros
    // inflates a thousand times over, and no text file holds one.
    const size_t nul = fresh.find('\0');
    lines += static_cast<size_t>(
        std::count(fresh.begin(), nul == std::string_view::npos ? fresh.end() : fresh.begin() + nul, '\n'));
    if (nul != std::string_view::npos)
      throw InputError(concat(source, ":", lines + 1, ": a NUL byte: not a text file"));
    if (status == Z_STREAM_END) {
      if (consumed == bytes.size()) break;
      if (!is_gzip(bytes.substr(consumed)))
        throw InputError(concat(source, ": bytes after the end of the gzip data"));
      inflateReset(&stream);  // the next member
    } else if (status == Z_BUF_ERROR && consumed == bytes.size()) {
      throw InputError(concat(source, ": the gzip data end early (the file is cut short)"));
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      throw InputError(
          concat(source, ": corrupt gzip data", stream.msg != nullptr ? concat(" (", stream.msg, ")") : ""));
    }
  }
  out.resize(produced);
  return out;
}

#else

std::string gunzip(std::string_view, const std::string& source, uint64_t) {
  throw InputError(concat(source,
                          ": gzip-compressed, and this formica was built without zlib; gunzip it, or "
                          "install zlib (zlib1g-dev) and rebuild"));
}

#endif

}  // namespace formica::io
