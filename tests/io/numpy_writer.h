// SPDX-License-Identifier: MIT
// Writers of .npy bytes and stored zip archives (.npz) for the tests: well-formed ones, and the
// pieces to break them with. Independent of the reader under test (its own CRC-32).
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace formica::test {

/// An .npy file of `values` (written as `T`) with `descr` and `shape` text, e.g. "(2, 3, 2)".
template <typename T>
std::string npy_bytes(const std::vector<T>& values, const std::string& shape, const std::string& descr,
                      int version = 1) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t prefix = version == 1 ? 10 : 12;
  header.append(63 - (prefix + header.size()) % 64, ' ');  // pad to a multiple of 64 with the '\n'
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(version);
  out += '\0';
  for (size_t b = 0; b < prefix - 8; ++b) out += static_cast<char>((header.size() >> (8 * b)) & 0xFF);
  out += header;
  std::string data(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(data.data(), values.data(), data.size());
  return out + data;
}

inline std::string npy_bytes(const std::vector<double>& values, const std::string& shape) {
  return npy_bytes<double>(values, shape, "<f8");
}

inline uint32_t test_crc32(const std::string& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (const char byte : bytes) {
    crc ^= static_cast<unsigned char>(byte);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/// A zip archive holding each (name, bytes) member stored (method 0), as np.savez writes it.
inline std::string zip_stored(const std::vector<std::pair<std::string, std::string>>& members) {
  const auto put = [](std::string& out, uint64_t value, int bytes) {
    for (int b = 0; b < bytes; ++b) out += static_cast<char>((value >> (8 * b)) & 0xFF);
  };
  std::string out, central;
  for (const auto& [name, data] : members) {
    const uint32_t crc = test_crc32(data), offset = static_cast<uint32_t>(out.size());
    put(out, 0x04034b50, 4), put(out, 20, 2), put(out, 0, 2), put(out, 0, 2), put(out, 0, 4);
    put(out, crc, 4), put(out, data.size(), 4), put(out, data.size(), 4), put(out, name.size(), 2), put(out, 0, 2);
    out += name + data;
    put(central, 0x02014b50, 4), put(central, 20, 2), put(central, 20, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, crc, 4), put(central, data.size(), 4), put(central, data.size(), 4);
    put(central, name.size(), 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2);
    put(central, 0, 4), put(central, offset, 4);
    central += name;
  }
  const uint32_t central_at = static_cast<uint32_t>(out.size());
  out += central;
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2), put(out, members.size(), 2), put(out, members.size(), 2);
  put(out, central.size(), 4), put(out, central_at, 4), put(out, 0, 2);
  return out;
}

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace formica::test
