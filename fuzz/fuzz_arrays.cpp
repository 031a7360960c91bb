// SPDX-License-Identifier: MIT
// libFuzzer target: the checks the Python entry points apply to NumPy arrays (io/array_instance.h,
// which python/src calls): coordinates under a metric's name, symmetric and asymmetric distance
// matrices, an unpickled Instance; and io::batch_from_arrays, which checks a batch's (B, n, 2)
// array or its (n_i, 2) arrays for `formica solve-batch`. The input's first byte picks one, the
// next bytes give the names and shapes, and the rest are the raw values (doubles or int32s, so
// NaN, infinities and extremes come as they are), zero-padded to the shapes' sizes.
//
// An InputError is a check doing its job; anything else that escapes, and every sanitizer
// report, is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "io/array_instance.h"
#include "io/batch_input.h"
#include "io/numpy_file.h"

namespace {

namespace io = formica::io;

/// Metric and edge weight type names: the valid ones in several cases, and some that are not.
constexpr std::string_view kNames[] = {"EUC_2D",   "euc_3d", "ceil_2d", "Att", "GEO",     "man_2d", "MAX_2D",
                                       "EXPLICIT", "float",  "",        "EUC", "euc_2d ", "EUC_3D"};

/// Reads the fuzzer's bytes front to back: small numbers for choices and shapes, then values.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::string name() { return std::string(kNames[byte() % std::size(kNames)]); }
  /// `count` values of T from the bytes left, zeros once they run out.
  template <typename T>
  std::vector<T> values(size_t count) {
    std::vector<T> out(count);
    const size_t bytes = std::min(count * sizeof(T), size_ - at_);
    if (bytes > 0) std::memcpy(out.data(), data_ + at_, bytes);
    at_ += bytes;
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

void check(const formica::Instance& instance) {
  if (instance.n() < 3 || instance.distance(0, instance.n() - 1) < 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  try {
    const size_t entry = in.byte() % 5;
    switch (entry) {
      case 0: {  // formica.solve(coordinates, metric=...): instance_from_coordinates
        const std::string metric = in.name();
        const size_t rows = in.byte(), cols = in.byte() % 5;
        const std::vector<double> values = in.values<double>(rows * cols);
        check(io::instance_from_coordinates("points", {values, rows, cols}, metric));
        break;
      }
      case 1:    // formica.solve(matrix): instance_from_matrix
      case 2: {  // a matrix that is not symmetric: asymmetric_from_matrix
        const bool symmetric = entry == 1;
        const size_t rows = in.byte(), cols = in.byte();
        const std::vector<int32_t> values = in.values<int32_t>(rows * cols);
        if (symmetric) {
          check(io::instance_from_matrix("matrix", {values, rows, cols}));
        } else if (io::asymmetric_from_matrix("matrix", {values, rows, cols}).n() < 3) {
          __builtin_trap();
        }
        break;
      }
      case 3: {  // pickle.loads(instance): instance_from_state
        const std::string type = in.name();
        size_t sizes[6];
        for (size_t& s : sizes) s = in.byte();
        const std::vector<double> x = in.values<double>(sizes[0]), y = in.values<double>(sizes[1]),
                                  z = in.values<double>(sizes[2]);
        const std::vector<int32_t> matrix = in.values<int32_t>(sizes[3]);
        const std::vector<double> display_x = in.values<double>(sizes[4]),
                                  display_y = in.values<double>(sizes[5]);
        check(io::instance_from_state({"state", "comment", type, x, y, z, matrix, display_x, display_y, {}}));
        break;
      }
      default: {  // the arrays of an .npy / .npz batch: batch_from_arrays
        std::vector<io::NumpyArray> arrays(1 + in.byte() % 3);
        for (size_t a = 0; a < arrays.size(); ++a) {
          io::NumpyArray& array = arrays[a];
          if (in.byte() % 2) array.name = "a" + std::to_string(a);
          array.shape.resize(in.byte() % 5);
          size_t count = 1;
          for (size_t& d : array.shape) count *= d = in.byte() % 16;
          array.values = in.values<double>(count);
        }
        const io::BatchInput batch = io::batch_from_arrays(arrays, "fuzz.npz");
        if (batch.instances.size() != batch.names.size()) __builtin_trap();
        for (const formica::Instance& instance : batch.instances) check(instance);
      }
    }
  } catch (const formica::InputError&) {
  }
  return 0;
}
