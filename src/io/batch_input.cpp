// Loading a batch of instances (see batch_input.h).
#include "io/batch_input.h"

#include <algorithm>
#include <cstdio>
#include <map>

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

/// Whether `key` can be a file's name: not empty, "." or "..", no '/', '\\' or control character.
bool plain_file_name(const std::string& key) {
  return !key.empty() && key != "." && key != ".." && key.find_first_of("/\\") == std::string::npos &&
         printable(key) == key;
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
  std::map<std::string, size_t> taken;  // name -> its instance
  const auto add = [&](const std::string& name, const double* xy, size_t n) {
    const size_t index = batch.instances.size();
    const auto [earlier, fresh] = taken.emplace(name, index);
    FORMICA_EXPECTS(fresh, source, ": instance ", index, ": the name '", name, "' is taken by instance ",
                    earlier->second, " (an instance's name is its .tour file's)");
    batch.instances.push_back(coordinate_instance(name, xy, n, concat(source, ": instance ", index, " (", name, ")")));
    batch.names.push_back(name);
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
