// SPDX-License-Identifier: MIT
// The parts of formica's Python extension module, formica._core, one file each, and the NumPy
// conversions they share. The module is private: python/formica/__init__.py is the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nlohmann/json.hpp>

#include "io/array_instance.h"

namespace formica::python {

namespace nb = nanobind;

/// A read-only, C-contiguous NumPy array argument of one dimension.
template <typename T>
using Vector = nb::ndarray<const T, nb::numpy, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
/// A read-only, C-contiguous NumPy array argument of two dimensions.
template <typename T>
using Matrix = nb::ndarray<const T, nb::numpy, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

template <typename T>
std::span<const T> as_span(const Vector<T>& array) {
  return {array.data(), array.shape(0)};
}

/// A two-dimensional array as the library's checks (io/array_instance.h) take it.
template <typename T>
io::ArrayView<T> as_view(const Matrix<T>& array) {
  return {{array.data(), array.shape(0) * array.shape(1)}, array.shape(0), array.shape(1)};
}

/// A new NumPy array that owns `values`, viewed with `shape`.
template <typename T>
nb::object to_numpy(std::vector<T> values, std::initializer_list<size_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T>(owned->data(), shape, owner));
}

template <typename T>
nb::object to_numpy(std::vector<T> values) {
  const size_t n = values.size();
  return to_numpy(std::move(values), {n});
}

/// A parameter's name as Python spells it: "time-limit" -> "time_limit".
inline std::string python_name(std::string_view name) {
  std::string out(name);
  for (char& c : out)
    if (c == '-') c = '_';
  return out;
}

/// A file name from Python: the bytes os.fsencode made of it (python/formica/_arguments.py), so
/// that a name that is not UTF-8 reaches its file too.
inline std::string path_argument(const nb::bytes& path) { return {path.c_str(), path.size()}; }

/// The kind of a parameter's value, from its default's JSON: "integer", "number", "boolean",
/// "text" or "null" (no default); the package checks what it is given against it.
inline std::string value_kind(const nlohmann::json& value) {
  if (value.is_boolean()) return "boolean";
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return "number";
  if (value.is_string()) return "text";
  return "null";
}

void bind_batch(nb::module_& m);
void bind_bound(nb::module_& m);
void bind_instance(nb::module_& m);
void bind_solve(nb::module_& m);
void bind_tour(nb::module_& m);
void bind_pictures(nb::module_& m);
void bind_outputs(nb::module_& m);

}  // namespace formica::python
