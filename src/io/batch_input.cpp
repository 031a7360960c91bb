// Loading a batch of instances (see batch_input.h).
#include "io/batch_input.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "io/instance_source.h"

namespace formica::io {
namespace {

std::string numbered(const std::string& prefix, size_t index) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "-%05zu", index);
  return prefix + digits;
}

/// Instance `index` of the batch: `n` cities at `xy` (x0, y0, x1, ...), errors prefixed by `where`.
Instance coordinate_instance(const std::string& name, const double* xy, size_t n, const std::string& where) {
  std::vector<double> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = xy[2 * i], y[i] = xy[2 * i + 1];
  try {
    return Instance(name, EdgeWeightType::Euc2D, std::move(x), std::move(y));
  } catch (const InputError& e) {
    throw InputError(concat(where, ": ", e.what()));
  }
}

BatchInput tsp_folder(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".tsp" && !entry.is_directory()) files.push_back(entry.path());
  FORMICA_EXPECTS(!files.empty(), folder.string(), ": no .tsp file in this folder");
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  BatchInput batch;
  for (const auto& file : files) {
    batch.instances.push_back(load_instance(file.string()));  // its errors name the file and line
    batch.names.push_back(file.stem().string());
  }
  return batch;
}

}  // namespace

BatchInput batch_from_arrays(const std::vector<NumpyArray>& arrays, const std::string& source) {
  BatchInput batch;
  for (const NumpyArray& array : arrays) {
    const std::vector<size_t>& shape = array.shape;
    const bool stacked = shape.size() == 3;
    const std::string prefix = array.name.empty() || arrays.size() == 1 ? "batch" : array.name;
    const auto where = [&](const std::string& name) {
      return concat(source, ": instance ", batch.instances.size(), " (", name, ")");
    };
    if (stacked && shape[2] == 2) {
      const size_t n = shape[1];
      for (size_t b = 0; b < shape[0]; ++b) {
        const std::string name = numbered(prefix, b);
        batch.instances.push_back(coordinate_instance(name, array.values.data() + b * n * 2, n, where(name)));
        batch.names.push_back(name);
      }
    } else if (shape.size() == 2 && shape[1] == 2 && !array.name.empty()) {
      batch.instances.push_back(coordinate_instance(array.name, array.values.data(), shape[0], where(array.name)));
      batch.names.push_back(array.name);
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
