// SPDX-License-Identifier: MIT
// Tours from Python: exact length, and reading and writing TSPLIB .tour files.
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "core/tour.h"
#include "io/tsplib.h"

namespace formica::python {

void bind_tour(nb::module_& m) {
  m.def(
      "tour_length",
      [](const Instance& instance, const Vector<int32_t>& tour) {
        const auto order = as_span(tour);
        validate_permutation(order, instance.n());
        return tour_length(instance, order);
      },
      nb::arg("instance"), nb::arg("tour"), "Exact length of a 0-based tour; ValueError unless it is a permutation.");
  m.def(
      "read_tour", [](const nb::bytes& path) { return to_numpy(io::read_tour(path_argument(path))); }, nb::arg("path"),
      "The cities of a TSPLIB .tour file (its name as bytes), 0-based.");
  m.def(
      "write_tour",
      [](const nb::bytes& path, const std::string& name, const Vector<int32_t>& tour, const std::string& comment) {
        io::write_tour(path_argument(path), name, as_span(tour), comment);
      },
      nb::arg("path"), nb::arg("name"), nb::arg("tour"), nb::arg("comment"),
      "Writes a TSPLIB .tour file (its name as bytes, 1-based cities) of a permutation of 0..n-1, atomically.");
}

}  // namespace formica::python
