// SPDX-License-Identifier: MIT
// libFuzzer target: the .npy / .npz reader (io::parse_npy and io::parse_npz, the code read_npy and
// read_npz run on a file's bytes), then io::batch_from_arrays, which makes the instances of
// `formica solve-batch` of what was read. An input that starts with NumPy's magic is an .npy file;
// any other is read as an .npz (zip) archive, whose members go through parse_npy again.
//
// An InputError is the reader doing its job, as long as its message is one line of text (the CLI
// prints it after "formica: error: "). Anything else that escapes, every sanitizer report, a
// message with a control character, and an instance name that is not a plain file name or is
// given twice (`solve-batch --out-dir DIR` writes DIR/NAME.tour) are findings.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "io/batch_input.h"
#include "io/numpy_file.h"

namespace {

bool has_control_character(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

/// A name that `--out-dir DIR` can append ".tour" to and stay in DIR.
bool plain_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find_first_of("/\\") == std::string::npos &&
         !has_control_character(name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<formica::io::NumpyArray> arrays =
        bytes.starts_with("\x93NUMPY") ? std::vector{formica::io::parse_npy(bytes, "fuzz.npy")}
                                       : formica::io::parse_npz(bytes, "fuzz.npz");
    const formica::io::BatchInput batch = formica::io::batch_from_arrays(arrays, "fuzz");
    if (batch.instances.size() != batch.names.size()) __builtin_trap();  // a name for every instance
    std::set<std::string> names;
    for (const std::string& name : batch.names)
      if (!plain_file_name(name) || !names.insert(name).second) __builtin_trap();
    for (const formica::Instance& instance : batch.instances)
      if (instance.n() < 3 || instance.distance(0, instance.n() - 1) < 0) __builtin_trap();
  } catch (const formica::InputError& e) {
    if (has_control_character(e.what())) __builtin_trap();
  }
  return 0;
}
