// SPDX-License-Identifier: MIT
// formica.Instance: a TSP instance from a TSPLIB file, a generator, coordinates or a matrix.
#include <limits>
#include <string>
#include <tuple>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "core/error.h"
#include "core/instance.h"
#include "io/array_instance.h"
#include "io/generator.h"
#include "io/instance_source.h"
#include "io/known_optima.h"

namespace formica::python {
namespace {

/// A city index from Python: an int or NumPy integer (not a bool), TypeError otherwise; one
/// beyond 64 bits is out of every instance, as far out as the largest.
int64_t city_argument(const nb::handle& value, const char* name) {
  if (PyBool_Check(value.ptr()) || PyFloat_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    throw nb::type_error(concat(name, " must be a whole number (a city index), got ",
                                nb::inst_name(value).c_str(), " ", nb::str(nb::repr(value)).c_str()).c_str());
  const nb::object index = nb::steal(PyNumber_Index(value.ptr()));
  if (!index.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long city = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0) return overflow > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return city;
}

Instance from_coordinates(const std::string& name, const Matrix<double>& coordinates, const std::string& type_name) {
  return io::instance_from_coordinates(name, as_view(coordinates), type_name);
}

Instance from_matrix(const std::string& name, const Matrix<int32_t>& matrix) {
  return io::instance_from_matrix(name, as_view(matrix));
}

nb::object coordinates(const Instance& instance) {
  if (!instance.has_coordinates()) return nb::none();
  const size_t n = static_cast<size_t>(instance.n());
  const size_t d = instance.type() == EdgeWeightType::Euc3D ? 3 : 2;
  const std::span<const double> axes[3] = {instance.x(), instance.y(), instance.z()};
  std::vector<double> values(n * d);
  for (size_t i = 0; i < n; ++i)
    for (size_t a = 0; a < d; ++a) values[i * d + a] = axes[a][i];
  return to_numpy(std::move(values), {n, d});
}

nb::object matrix(const Instance& instance) {
  if (instance.has_coordinates()) return nb::none();
  const size_t n = static_cast<size_t>(instance.n());
  return to_numpy(std::vector<int32_t>(instance.matrix().begin(), instance.matrix().end()), {n, n});
}

/// What pickling keeps of an instance: name, comment, edge weight type, the coordinates (x, y, z),
/// the row-major matrix of an EXPLICIT instance, its display coordinates and its fixed edges (a
/// flat array of pairs). Enough to rebuild it exactly, so instances and results travel to other
/// processes (multiprocessing, Ray, Dask).
using PickledInstance = std::tuple<std::string, std::string, std::string, Vector<double>, Vector<double>,
                                   Vector<double>, Vector<int32_t>, Vector<double>, Vector<double>, Vector<int32_t>>;

nb::tuple instance_state(const Instance& instance) {
  const auto array = [](std::span<const double> values) { return to_numpy(std::vector<double>(values.begin(), values.end())); };
  const bool display = !instance.has_coordinates() && instance.has_display_coordinates();
  return nb::make_tuple(instance.name(), instance.comment(), std::string(to_string(instance.type())),
                        array(instance.x()), array(instance.y()), array(instance.z()),
                        to_numpy(std::vector<int32_t>(instance.matrix().begin(), instance.matrix().end())),
                        array(display ? instance.display_x() : std::span<const double>()),
                        array(display ? instance.display_y() : std::span<const double>()),
                        to_numpy(std::vector<int32_t>(instance.fixed_edges().empty() ? nullptr : instance.fixed_edges()[0].data(),
                                                      instance.fixed_edges().empty() ? nullptr : instance.fixed_edges()[0].data() + 2 * instance.fixed_edges().size())));
}

Instance instance_from_state(const PickledInstance& state) {
  const auto& [name, comment, type_name, x, y, z, matrix, display_x, display_y, fixed_edges] = state;
  return io::instance_from_state({name, comment, type_name, as_span(x), as_span(y), as_span(z), as_span(matrix),
                                  as_span(display_x), as_span(display_y), as_span(fixed_edges)});
}

}  // namespace

void bind_instance(nb::module_& m) {
  nb::class_<Instance>(m, "Instance",
                       "A symmetric TSP instance with exact TSPLIB integer distances.\n\n"
                       "Made by formica.read_tsplib and formica.generate; formica.solve also accepts\n"
                       "coordinate arrays and distance matrices directly. Instances pickle (name, comment,\n"
                       "coordinates or matrix), so they travel to process pools, Ray or Dask.")
      .def_prop_ro("name", &Instance::name, "The instance's name (TSPLIB NAME, or the generator's).")
      .def_prop_ro("n", &Instance::n, "Number of cities.")
      .def("__len__", &Instance::n)
      .def_prop_ro(
          "edge_weight_type", [](const Instance& i) { return std::string(to_string(i.type())); },
          "The TSPLIB EDGE_WEIGHT_TYPE: EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D or EXPLICIT.")
      .def_prop_ro("comment", &Instance::comment, "The file's COMMENT lines, joined.")
      .def_prop_ro(
          "optimum",
          [](const Instance& i) {
            // linhp318's optimum, with its fixed edge, is not that of a tour's length.
            return i.fixed_edges().empty() ? known_optimum(i.name(), i.n()) : std::nullopt;
          },
          "The proven optimal tour length for a TSPLIB instance, None when unknown.")
      .def_prop_ro(
          "fixed_edges",
          [](const Instance& i) {
            std::vector<std::tuple<int, int>> edges;
            for (const FixedEdge& e : i.fixed_edges()) edges.emplace_back(e[0], e[1]);
            return edges;
          },
          "The edges every tour must contain (TSPLIB FIXED_EDGES_SECTION) as pairs of 0-based cities; "
          "formica.solve keeps them.")
      .def_prop_ro("coordinates", &coordinates,
                   "The cities' coordinates as an (n, 2) array, (n, 3) for EUC_3D; None for EXPLICIT.")
      .def_prop_ro("matrix", &matrix, "The (n, n) int32 weight matrix of an EXPLICIT instance; None otherwise.")
      .def(
          "distance",
          [](const Instance& instance, const nb::handle& i, const nb::handle& j) {
            const int64_t a = city_argument(i, "i"), b = city_argument(j, "j");
            FORMICA_EXPECTS(a >= 0 && a < instance.n() && b >= 0 && b < instance.n(), "cities (", a, ", ", b,
                            ") are not both in 0..", instance.n() - 1);
            return instance.distance(static_cast<int>(a), static_cast<int>(b));
          },
          nb::arg("i"), nb::arg("j"), "The exact TSPLIB distance between cities i and j (0-based).")
      .def("__getstate__", &instance_state)
      .def("__setstate__",
           [](Instance& self, const PickledInstance& state) { new (&self) Instance(instance_from_state(state)); })
      .def("__repr__", [](const Instance& i) {
        return concat("<formica.Instance ", i.name(), ": ", i.n(), " cities, ", to_string(i.type()), ">");
      });

  m.def("instance_from_coordinates", &from_coordinates, nb::arg("name"), nb::arg("coordinates"),
        nb::arg("edge_weight_type"), "An instance of n cities from an (n, 2) or (n, 3) float64 array.");
  m.def(
      "check_float_coordinates",
      [](const Matrix<double>& coordinates) { io::expect_float_coordinates_in_range(as_view(coordinates)); },
      nb::arg("coordinates"),
      "ValueError unless every coordinate of an (n, 2) or (n, 3) float64 array is finite and within the range "
      "of float coordinates (checked before they are scaled to fixed point).");
  m.def("instance_from_matrix", &from_matrix, nb::arg("name"), nb::arg("matrix"),
        "An EXPLICIT instance from a symmetric (n, n) int32 matrix.");
  m.def(
      "load_instance",
      [](const nb::bytes& spec) {
        const std::string path = path_argument(spec);
        nb::gil_scoped_release release;  // a FIFO's writer may be a Python thread of this process
        return io::load_instance(path);
      },
      nb::arg("spec"),
      "Reads a .tsp file (its name as bytes), or a TSPLIB instance by name from $FORMICA_TSPLIB_DIR/tsp or the "
      "shipped ones.");
  m.def(
      "generate",
      [](int n, const std::string& kind, uint64_t seed) { return io::generate_instance(n, io::instance_kind(kind), seed); },
      nb::arg("n"), nb::arg("kind"), nb::arg("seed"),
      "A seeded uniform or clustered EUC_2D instance of 3 to max_generated_cities cities.");
  m.attr("max_generated_cities") = io::kMaxGeneratedCities;
}

}  // namespace formica::python
