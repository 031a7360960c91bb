// SPDX-License-Identifier: MIT
// Reading .npy and .npz files (see numpy_file.h): the NPY header parser, the zip archive's central
// directory (with its zip64 extensions, which np.savez always writes), and inflation by zlib.
#include "io/numpy_file.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "core/error.h"
#include "io/mapped_file.h"
#include "io/tsplib.h"

#if FORMICA_HAVE_ZLIB
#include <zlib.h>
#endif

namespace formica::io {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy reader assumes a little-endian host");

constexpr std::string_view kNpyMagic = "\x93NUMPY";

/// A little-endian unsigned integer of `bytes` bytes at `at` (the caller checked the bounds).
uint64_t little_endian(std::string_view data, size_t at, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = value << 8 | static_cast<unsigned char>(data[at + i]);
  return value;
}

/// The header dict of an .npy file: {'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }.
/// A small recursive-descent reader of exactly the literals NumPy writes there.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  void parse(std::string& descr, bool& fortran_order, std::vector<size_t>& shape) {
    bool has_descr = false, has_order = false, has_shape = false;
    expect('{');
    while (!accept('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr") {
        descr = quoted(), has_descr = true;
      } else if (key == "fortran_order") {
        fortran_order = boolean(), has_order = true;
      } else if (key == "shape") {
        shape = tuple(), has_shape = true;
      } else {
        fail(concat("unexpected key '", printable(key), "'"));
      }
      if (!accept(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (at_ != text_.size()) fail("text after the closing '}'");
    if (!has_descr || !has_order || !has_shape) fail("'descr', 'fortran_order' and 'shape' are required");
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(concat(source_, ": malformed .npy header: ", why));
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t')) ++at_;
  }
  bool accept(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) return ++at_, true;
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(concat("expected '", c, "'"));
  }
  std::string quoted() {
    skip_space();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail("expected a quoted string");
    const char quote = text_[at_++];
    const size_t end = text_.find(quote, at_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string out(text_.substr(at_, end - at_));
    at_ = end + 1;
    return out;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
      if (text_.substr(at_, word.size()) == word) return at_ += word.size(), value;
    fail("fortran_order is neither True nor False");
  }
  std::vector<size_t> tuple() {
    expect('(');
    std::vector<size_t> out;
    while (!accept(')')) {
      skip_space();
      size_t value = 0, digits = 0;
      for (; at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9'; ++at_, ++digits) {
        if (value > (std::numeric_limits<size_t>::max() - 9) / 10) fail("a dimension is too large");
        value = value * 10 + static_cast<size_t>(text_[at_] - '0');
      }
      if (digits == 0) fail("the shape holds something other than non-negative integers");
      out.push_back(value);
      if (!accept(',')) {
        expect(')');
        break;
      }
    }
    return out;
  }

  std::string_view text_;
  const std::string& source_;
  size_t at_ = 0;
};

template <typename T>
void convert(std::string_view data, std::vector<double>& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    T value;
    std::memcpy(&value, data.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(value);
  }
}

// --- zip archives --------------------------------------------------------------------------------

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEndOfCentral = 0x06054b50,
                   kZip64Locator = 0x07064b50, kZip64End = 0x06064b50;
constexpr uint64_t kZip64Marker32 = 0xFFFFFFFF, kZip64Marker16 = 0xFFFF;
constexpr size_t kEndOfCentralSize = 22, kCentralSize = 46, kLocalSize = 30;

struct Member {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressed = 0, size = 0, offset = 0;
};

/// Bounds-checked reading of the archive's little-endian fields.
class Reader {
 public:
  Reader(std::string_view data, const std::string& source) : data_(data), source_(source) {}
  [[noreturn]] void fail(const std::string& why) const { throw InputError(concat(source_, ": ", why)); }
  void need(uint64_t at, uint64_t bytes, const char* what) const {
    if (at > data_.size() || bytes > data_.size() - at) fail(concat("not a valid .npz (zip) file: ", what, " runs past the end"));
  }
  uint64_t read(uint64_t at, int bytes, const char* what) const {
    need(at, static_cast<uint64_t>(bytes), what);
    return little_endian(data_, static_cast<size_t>(at), bytes);
  }
  std::string_view slice(uint64_t at, uint64_t bytes, const char* what) const {
    need(at, bytes, what);
    return data_.substr(static_cast<size_t>(at), static_cast<size_t>(bytes));
  }
  size_t size() const { return data_.size(); }

 private:
  std::string_view data_;
  const std::string& source_;
};

/// The central directory's offset and entry count, from the end record (or its zip64 version).
std::pair<uint64_t, uint64_t> central_directory(const Reader& zip, std::string_view data) {
  std::optional<size_t> end;
  if (data.size() >= kEndOfCentralSize) {
    const size_t lowest = data.size() > kEndOfCentralSize + 0xFFFF ? data.size() - kEndOfCentralSize - 0xFFFF : 0;
    for (size_t at = data.size() - kEndOfCentralSize + 1; at-- > lowest;)
      if (little_endian(data, at, 4) == kEndOfCentral) {
        end = at;
        break;
      }
  }
  if (!end) zip.fail("not a zip archive (an .npz file is one, as np.savez writes it)");
  uint64_t entries = zip.read(*end + 10, 2, "end record"), offset = zip.read(*end + 16, 4, "end record");
  if (entries == kZip64Marker16 || offset == kZip64Marker32) {
    if (*end < 20 || zip.read(*end - 20, 4, "zip64 locator") != kZip64Locator) zip.fail("zip64 end record not found");
    const uint64_t record = zip.read(*end - 20 + 8, 8, "zip64 locator");
    if (zip.read(record, 4, "zip64 end record") != kZip64End) zip.fail("zip64 end record not found");
    entries = zip.read(record + 32, 8, "zip64 end record");
    offset = zip.read(record + 48, 8, "zip64 end record");
  }
  return {offset, entries};
}

/// The entries of the central directory, with zip64 sizes and offsets where they are marked.
std::vector<Member> members(const Reader& zip, std::string_view data) {
  const auto [offset, entries] = central_directory(zip, data);
  // Each entry takes at least kCentralSize bytes: a count beyond that is a lie, refused before use.
  if (entries > zip.size() / kCentralSize) zip.fail("not a valid .npz (zip) file: impossible member count");
  std::vector<Member> out;
  uint64_t at = offset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (zip.read(at, 4, "central directory") != kCentralHeader) zip.fail("not a valid .npz (zip) file: bad central directory");
    Member m;
    m.flags = static_cast<uint16_t>(zip.read(at + 8, 2, "central directory"));
    m.method = static_cast<uint16_t>(zip.read(at + 10, 2, "central directory"));
    m.crc = static_cast<uint32_t>(zip.read(at + 16, 4, "central directory"));
    m.compressed = zip.read(at + 20, 4, "central directory");
    m.size = zip.read(at + 24, 4, "central directory");
    const uint64_t name_length = zip.read(at + 28, 2, "central directory"),
                   extra_length = zip.read(at + 30, 2, "central directory"),
                   comment_length = zip.read(at + 32, 2, "central directory");
    m.offset = zip.read(at + 42, 4, "central directory");
    m.name = std::string(zip.slice(at + kCentralSize, name_length, "member name"));
    // The zip64 extra field holds, in this order, whichever of the three fields are marked.
    const uint64_t extra = at + kCentralSize + name_length;
    for (uint64_t x = extra; x + 4 <= extra + extra_length;) {
      const uint64_t id = zip.read(x, 2, "extra field"), length = zip.read(x + 2, 2, "extra field");
      if (id == 1) {
        uint64_t field = x + 4;
        for (uint64_t* value : {&m.size, &m.compressed, &m.offset})
          if (*value == kZip64Marker32) *value = zip.read(field, 8, "zip64 extra field"), field += 8;
      }
      x += 4 + length;
    }
    out.push_back(std::move(m));
    at += kCentralSize + name_length + extra_length + comment_length;
  }
  return out;
}

uint32_t crc32_of(std::string_view bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (const char b : bytes) crc = table[(crc ^ static_cast<unsigned char>(b)) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

/// The member's bytes, inflated when deflated.
std::string member_bytes(const Reader& zip, const Member& m, const std::string& where) {
  if (zip.read(m.offset, 4, "local header") != kLocalHeader) zip.fail(concat("member '", printable(m.name), "': bad local header"));
  const uint64_t data_at = m.offset + kLocalSize + zip.read(m.offset + 26, 2, "local header") +
                           zip.read(m.offset + 28, 2, "local header");
  const std::string_view raw = zip.slice(data_at, m.compressed, "member data");
  if (m.flags & 1) throw InputError(concat(where, ": encrypted members are not supported"));
  std::string out;
  if (m.method == 0) {
    if (m.size != m.compressed) throw InputError(concat(where, ": stored member's sizes differ"));
    out.assign(raw);
  } else if (m.method == 8) {
#if FORMICA_HAVE_ZLIB
    // Deflate expands a byte to at most 1032 (RFC 1951's longest match on the shortest code).
    constexpr uint64_t kMaxDeflateRatio = 1032;
    if (m.size > m.compressed * kMaxDeflateRatio + 64)
      throw InputError(concat(where, ": declares ", m.size, " bytes, more than ", m.compressed,
                              " deflated bytes can hold"));
    if (raw.size() > std::numeric_limits<uInt>::max() || m.size > std::numeric_limits<uInt>::max())
      throw InputError(concat(where, ": deflated members over 4 GiB are not supported"));
    out.resize(static_cast<size_t>(m.size));
    z_stream stream{};
    if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) throw InputError(concat(where, ": zlib failed to start"));
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    stream.avail_in = static_cast<uInt>(raw.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&stream, Z_FINISH);
    const uint64_t produced = stream.total_out;
    inflateEnd(&stream);
    if (status != Z_STREAM_END || produced != m.size)
      throw InputError(concat(where, ": corrupt deflated data"));
#else
    throw InputError(concat(where, ": compressed .npz (np.savez_compressed) needs a formica built with zlib; "
                                   "save with np.savez instead, or install zlib (zlib1g-dev) and rebuild"));
#endif
  } else {
    throw InputError(concat(where, ": compression method ", m.method, " is not supported (np.savez stores, "
                                   "np.savez_compressed deflates)"));
  }
  if (crc32_of(out) != m.crc) throw InputError(concat(where, ": CRC mismatch (the file is corrupt)"));
  return out;
}

}  // namespace

std::string shape_text(const std::vector<size_t>& shape) {
  std::string out = "(";
  for (size_t d = 0; d < shape.size(); ++d) out += (d ? ", " : "") + std::to_string(shape[d]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

NumpyArray parse_npy(std::string_view bytes, const std::string& source) {
  FORMICA_EXPECTS(bytes.size() >= 10 && bytes.substr(0, kNpyMagic.size()) == kNpyMagic, source,
                  ": not an .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  FORMICA_EXPECTS(major >= 1 && major <= 3, source, ": .npy format version ", major, " is not supported (1 to 3 are)");
  const size_t length_bytes = major == 1 ? 2 : 4;
  FORMICA_EXPECTS(bytes.size() >= 8 + length_bytes, source, ": .npy header is cut short");
  const uint64_t header_length = little_endian(bytes, 8, static_cast<int>(length_bytes));
  const size_t header_at = 8 + length_bytes;
  FORMICA_EXPECTS(header_length <= bytes.size() - header_at, source, ": .npy header of ", header_length,
                  " bytes runs past the end of the file");
  std::string descr;
  bool fortran_order = false;
  NumpyArray array;
  HeaderParser(bytes.substr(header_at, static_cast<size_t>(header_length)), source).parse(descr, fortran_order, array.shape);
  FORMICA_EXPECTS(!fortran_order, source, ": Fortran-ordered arrays are not supported (save np.ascontiguousarray(a))");
  size_t item = 0;
  if (descr == "<f8" || descr == "<i8") item = 8;
  if (descr == "<f4" || descr == "<i4") item = 4;
  FORMICA_EXPECTS(item != 0, source, ": dtype '", printable(descr),
                  "' is not supported (little-endian float64, float32, int32 or int64 are)");
  const std::string_view data = bytes.substr(header_at + static_cast<size_t>(header_length));
  // The declared shape must account for the data exactly, checked before anything is allocated
  // (and without overflow, whatever the header claims).
  size_t count = 1;
  bool overflow = false;
  for (const size_t d : array.shape) {
    overflow |= d != 0 && count > std::numeric_limits<size_t>::max() / d;
    count *= d;
  }
  overflow |= count > std::numeric_limits<size_t>::max() / item;
  FORMICA_EXPECTS(!overflow && count * item == data.size(), source, ": shape ", shape_text(array.shape), " declares ",
                  overflow ? std::string("more values than memory holds") : concat(count, " values (", count * item, " bytes)"),
                  " but the file holds ", data.size(), " bytes of data");
  array.values.resize(count);
  if (descr == "<f8") convert<double>(data, array.values);
  if (descr == "<f4") convert<float>(data, array.values);
  if (descr == "<i8") convert<int64_t>(data, array.values);
  if (descr == "<i4") convert<int32_t>(data, array.values);
  return array;
}

namespace {

/// A stream's probe (mapped_file.h): bytes that do not start as `magic` do not become an array
/// file whatever follows.
MappedFile::Probe starts_with(const std::filesystem::path& path, std::string_view magic, std::string_view what) {
  return [source = path.string(), magic, what](std::string_view bytes) {
    FORMICA_EXPECTS(bytes.substr(0, magic.size()) == magic.substr(0, bytes.size()), source, ": not ", what,
                    " (its first bytes are not ", what, "'s)");
    return false;  // an array file is read to its end
  };
}

}  // namespace

NumpyArray read_npy(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Binary, starts_with(path, kNpyMagic, "an .npy file"));
  return parse_npy(file.text(), path.string());
}

std::vector<NumpyArray> parse_npz(std::string_view bytes, const std::string& source) {
  const Reader zip(bytes, source);
  std::vector<NumpyArray> out;
  for (const Member& m : members(zip, bytes)) {
    if (!m.name.ends_with(".npy")) continue;  // np.savez writes nothing else; other files are not arrays
    const std::string where = concat(source, ": member '", printable(m.name), "'");
    NumpyArray array = parse_npy(member_bytes(zip, m, where), where);
    array.name = m.name.substr(0, m.name.size() - 4);
    out.push_back(std::move(array));
  }
  FORMICA_EXPECTS(!out.empty(), source, ": the archive holds no .npy array");
  return out;
}

std::vector<NumpyArray> read_npz(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Binary, starts_with(path, "PK", "a zip archive (.npz)"));
  return parse_npz(file.text(), path.string());
}

bool reads_compressed_npz() {
#if FORMICA_HAVE_ZLIB
  return true;
#else
  return false;
#endif
}

}  // namespace formica::io
