// SPDX-License-Identifier: MIT
// gzip-compressed input (RFC 1952), inflated by zlib: the text readers take `pr2392.tsp.gz` as they
// take `pr2392.tsp`, so that the TSPLIB instances shipped in data/tsplib/ stay small. Called by
// MappedFile (mapped_file.h) on every text file that starts as a gzip stream does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace formica::io {

/// Whether `bytes` start with gzip's two magic bytes (no text file does: 0x1f is a control byte).
bool is_gzip(std::string_view bytes);

/// The text the gzip data `bytes` inflate to (one member, or several one after the other as
/// `cat a.gz b.gz` makes them). InputError naming `source` when the data are corrupt or cut short,
/// when they inflate to more than `limit` bytes or to more than half the host's available memory,
/// at the first NUL byte they inflate to ("SOURCE:LINE: a NUL byte: not a text file", as for a
/// plain file), or when formica was built without zlib.
std::string gunzip(std::string_view bytes, const std::string& source, uint64_t limit);

}  // namespace formica::io
