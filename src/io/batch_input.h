// SPDX-License-Identifier: MIT
// The instances of `formica solve-batch`: every .tsp file of a folder, or the coordinate arrays of
// an .npy / .npz file (io/numpy_file.h), each instance with the name its .tour file takes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/instance.h"
#include "io/numpy_file.h"

namespace formica::io {

struct BatchInput {
  std::vector<Instance> instances;
  std::vector<std::string> names;  ///< one per instance: NAME of a folder's NAME.tsp(.gz), the .npz key or "batch-00017"
  /// One per instance: none for integer lengths; for coordinates that are not all whole numbers,
  /// the power of two their instance is scaled by (float_scale), its lengths being exact float ones.
  std::vector<std::optional<double>> scales;
  /// A folder's files, one per instance (NAME.tsp or NAME.tsp.gz); empty for arrays.
  std::vector<std::filesystem::path> files;
};

/// The fixed-point scale of float coordinates whose widest range is `extent`: the power of two
/// that maps it into (2^23, 2^24] units, as Python's metric="float" does (1 for an extent of 0).
double float_scale(double extent);

/// The exact length of the closed tour `order` of an instance scaled by `scale`: Euclidean
/// distances between the user's coordinates (the instance's divided by `scale`), summed in double.
double float_tour_length(const Instance& instance, std::span<const int32_t> order, double scale);

/// A folder's .tsp files (sorted by file name), an .npy file of one (B, n, 2) array, or an .npz
/// file of (n_i, 2) arrays (named by their keys) or of one (B, n, 2) array. EUC_2D coordinates;
/// an array instance whose coordinates are not all whole numbers keeps exact float distances
/// (its coordinates scaled by float_scale, BatchInput::scales).
/// Throws InputError naming the file, and for arrays the instance's index, before anything is
/// solved.
BatchInput load_batch_input(const std::filesystem::path& input);

/// The EUC_2D instances of `arrays` (as load_batch_input names them); `source` and the instance's
/// index start every error message. A name is a .tour file's (`solve-batch --out-dir`): a key
/// that is not a plain file name (a '/', a '\\', a control character, "." or "..") and a name
/// that two instances would share are refused.
BatchInput batch_from_arrays(const std::vector<NumpyArray>& arrays, const std::string& source);

}  // namespace formica::io
