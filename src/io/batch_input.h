// The instances of `formica solve-batch`: every .tsp file of a folder, or the coordinate arrays of
// an .npy / .npz file (io/numpy_file.h), each instance with the name its .tour file takes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/instance.h"
#include "io/numpy_file.h"

namespace formica::io {

struct BatchInput {
  std::vector<Instance> instances;
  std::vector<std::string> names;  ///< one per instance: the .tsp file's stem, the .npz key or "batch-00017"
};

/// A folder's .tsp files (sorted by file name), an .npy file of one (B, n, 2) array, or an .npz
/// file of (n_i, 2) arrays (named by their keys) or of one (B, n, 2) array. EUC_2D coordinates.
/// Throws InputError naming the file, and for arrays the instance's index, before anything is
/// solved.
BatchInput load_batch_input(const std::filesystem::path& input);

/// The EUC_2D instances of `arrays` (as load_batch_input names them); `source` and the instance's
/// index start every error message. A name is a .tour file's (`solve-batch --out-dir`): a key
/// that is not a plain file name (a '/', a '\\', a control character, "." or "..") and a name
/// that two instances would share are refused.
BatchInput batch_from_arrays(const std::vector<NumpyArray>& arrays, const std::string& source);

}  // namespace formica::io
