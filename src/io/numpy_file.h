// SPDX-License-Identifier: MIT
// NumPy's .npy and .npz files, read without Python: the coordinates `formica solve-batch` takes.
//
// An .npy file is a magic string, a version (1, 2 or 3), a header that is a Python dict literal
// ({'descr': '<f8', 'fortran_order': False, 'shape': (B, n, 2), }) and the raw values. An .npz
// file is a zip archive of .npy members (np.savez stores them; np.savez_compressed deflates them,
// which needs zlib at build time). Every malformed header, size mismatch or unsupported feature is
// an InputError of one line naming the file (and the member); sizes are checked against the file
// before anything is allocated.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "io/line_reader.h"  // printable(), which quotes the file's bytes in messages

namespace formica::io {

/// One array of an .npy file or an .npz member, its values converted to double.
struct NumpyArray {
  std::string name;          ///< the .npz key (member name without ".npy"); empty for an .npy file
  std::vector<size_t> shape;
  std::vector<double> values;  ///< C (row-major) order
};

/// A shape as NumPy prints it: "(3, 20, 2)", "(5,)", "()".
std::string shape_text(const std::vector<size_t>& shape);

/// Parses the bytes of an .npy file: little-endian float64, float32, int32 or int64, C order.
/// `source` names it in error messages ("batch.npz: member 'a.npy'").
NumpyArray parse_npy(std::string_view bytes, const std::string& source);
NumpyArray read_npy(const std::filesystem::path& path);

/// Every .npy member of a zip archive (stored, or deflated when built with zlib), in archive order.
std::vector<NumpyArray> parse_npz(std::string_view bytes, const std::string& source);
std::vector<NumpyArray> read_npz(const std::filesystem::path& path);

/// Whether this build reads deflated .npz members (np.savez_compressed).
bool reads_compressed_npz();

}  // namespace formica::io
