// SPDX-License-Identifier: MIT
// Loading a batch of instances (see batch_input.h).
#include "io/batch_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/error.h"
#include "io/instance_source.h"
#include "io/line_reader.h"
#include "io/tsplib.h"

namespace formica::io {
namespace {

std::string numbered(const std::string& prefix, size_t index) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "-%05zu", index);
  return prefix + digits;
}

/// Instance `index` of the batch: `n` cities at `xy` (x0, y0, x1, ...), errors prefixed by `where`;
/// coordinates that are not all whole numbers scaled by float_scale, which goes to `scale`.
Instance coordinate_instance(const std::string& name, const double* xy, size_t n, const std::string& where,
                             std::optional<double>& scale) {
  std::vector<double> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = xy[2 * i], y[i] = xy[2 * i + 1];
  scale.reset();
  try {
    // Float coordinates are checked as Python's metric="float" checks them, on the user's values
    // before any scaling: a city at 1e300 would otherwise pass as a fixed-point value and measure
    // inf. Whole ones get the instance's own check, as in formica solve.
    expect_coordinates_in_range(x, "x", kMaxFloatCoordinate);
    expect_coordinates_in_range(y, "y", kMaxFloatCoordinate);
    const auto whole = [](double v) { return v == std::floor(v); };
    if (!std::all_of(x.begin(), x.end(), whole) || !std::all_of(y.begin(), y.end(), whole)) {
      const auto [x_low, x_high] = std::minmax_element(x.begin(), x.end());
      const auto [y_low, y_high] = std::minmax_element(y.begin(), y.end());
      scale = float_scale(std::max(*x_high - *x_low, *y_high - *y_low));
      for (size_t i = 0; i < n; ++i) x[i] *= *scale, y[i] *= *scale;  // a power of two: exact
    }
    return Instance(name, EdgeWeightType::Euc2D, std::move(x), std::move(y));
  } catch (const InputError& e) {
    throw InputError(concat(where, ": ", e.what()));
  }
}

/// Whether `key` can be a file's name: not empty, "." or "..", no '/', '\\' or control character.
bool plain_file_name(const std::string& key) {
  return !key.empty() && key != "." && key != ".." && key.find_first_of("/\\") == std::string::npos &&
         printable(key) == key;
}

/// The instance name of a batch folder's file: NAME of NAME.tsp or NAME.tsp.gz (TSPLIB files as
/// shipped, compressed or not); empty for any other file, and for a file named ".tsp" or ".tsp.gz".
std::string tsp_stem(const std::string& file) { return tsp_file_stem(file).value_or(""); }

BatchInput tsp_folder(const std::filesystem::path& folder) {
  // Errors of the file system (a folder that cannot be listed, a symbolic link in a loop) are
  // InputErrors naming the path, never exceptions that escape as internal errors.
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  std::filesystem::directory_iterator entries(folder, ec);
  for (; !ec && entries != std::filesystem::directory_iterator(); entries.increment(ec)) {
    const std::filesystem::directory_entry& entry = *entries;
    std::error_code kind;
    if (!tsp_stem(entry.path().filename().string()).empty() && !entry.is_directory(kind))
      files.push_back(entry.path());
  }
  FORMICA_EXPECTS(!ec, printable(folder.string()), ": cannot list this folder (", ec.message(), ")");
  FORMICA_EXPECTS(!files.empty(), folder.string(), ": no .tsp or .tsp.gz file in this folder");
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  BatchInput batch;
  std::map<std::string, std::filesystem::path> taken;  // name -> its file
  for (const auto& file : files) {
    const std::string name = tsp_stem(file.filename().string());
    const auto [earlier, fresh] = taken.emplace(name, file);
    FORMICA_EXPECTS(fresh, printable(file.string()), ": the name '", printable(name), "' is taken by ",
                    printable(earlier->second.string()), " (an instance's name is its .tour file's)");
    batch.instances.push_back(read_tsplib(file));  // its errors name the file and line
    batch.names.push_back(name);
    batch.scales.emplace_back();
    batch.files.push_back(file);
  }
  return batch;
}

}  // namespace

double float_scale(double extent) {
  constexpr double kUnits = 16777216.0;  // 2^24
  if (!(extent > 0) || !std::isfinite(extent)) return 1.0;
  return std::exp2(std::floor(std::log2(kUnits / extent)));
}

double float_tour_length(const Instance& instance, std::span<const int32_t> order, double scale) {
  double length = 0.0;
  for (size_t k = 0; k < order.size(); ++k) {
    const int a = order[k], b = order[(k + 1) % order.size()];
    const auto x = instance.x(), y = instance.y();
    length += std::hypot((x[b] - x[a]) / scale, (y[b] - y[a]) / scale);
  }
  return length;
}

BatchInput batch_from_arrays(const std::vector<NumpyArray>& arrays, const std::string& source) {
  BatchInput batch;
  std::map<std::string, size_t> taken;  // name -> its instance
  const auto add = [&](const std::string& name, const double* xy, size_t n) {
    const size_t index = batch.instances.size();
    const auto [earlier, fresh] = taken.emplace(name, index);
    FORMICA_EXPECTS(fresh, source, ": instance ", index, ": the name '", name, "' is taken by instance ",
                    earlier->second, " (an instance's name is its .tour file's)");
    std::optional<double> scale;
    batch.instances.push_back(
        coordinate_instance(name, xy, n, concat(source, ": instance ", index, " (", name, ")"), scale));
    batch.names.push_back(name);
    batch.scales.push_back(scale);
  };
  for (const NumpyArray& array : arrays) {
    const std::vector<size_t>& shape = array.shape;
    const bool stacked = shape.size() == 3 && shape[2] == 2, named = shape.size() == 2 && shape[1] == 2;
    const bool keyed = !array.name.empty() && (named || (stacked && arrays.size() > 1));
    // The key names .tour files in --out-dir's folder: nothing that leads out of it or breaks a line.
    FORMICA_EXPECTS(!keyed || plain_file_name(array.name), source, ": instance ", batch.instances.size(), ": key '",
                    printable(array.name), "' is not a plain file name (an instance's key names its .tour file)");
    if (stacked) {
      const size_t n = shape[1];
      for (size_t b = 0; b < shape[0]; ++b)
        add(numbered(keyed ? array.name : "batch", b), array.values.data() + b * n * 2, n);
    } else if (named && keyed) {
      add(array.name, array.values.data(), shape[0]);
    } else {
      const std::string name = array.name.empty() ? std::string("the array") : "array '" + printable(array.name) + "'";
      throw InputError(concat(source, ": instance ", batch.instances.size(), ": ", name, " has shape ",
                              shape_text(shape), "; a batch is a (B, n, 2) array of coordinates",
                              array.name.empty() ? "" : ", or one (n, 2) array per instance"));
    }
  }
  FORMICA_EXPECTS(!batch.instances.empty(), source, ": the batch holds no instance");
  return batch;
}

BatchInput load_batch_input(const std::filesystem::path& input) {
  std::error_code ec;
  if (std::filesystem::is_directory(input, ec)) return tsp_folder(input);
  FORMICA_EXPECTS(std::filesystem::exists(input, ec), input.string(), ": no such file or folder");
  const std::string extension = input.extension().string();
  if (extension == ".npy") return batch_from_arrays({read_npy(input)}, input.string());
  if (extension == ".npz") return batch_from_arrays(read_npz(input), input.string());
  throw InputError(concat(input.string(), ": not a folder of .tsp files, an .npy or an .npz file"));
}

}  // namespace formica::io
