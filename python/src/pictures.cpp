// SPDX-License-Identifier: MIT
// The SVG pictures of src/io/svg.h for Python, so that formica.plot_tour and plot_history write
// the same .svg documents as `formica solve --svg / --plot-history`.
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include "bindings.h"
#include "core/error.h"
#include "io/svg.h"
#include "io/tsplib.h"

namespace formica::python {

void bind_pictures(nb::module_& m) {
  m.def(
      "drawing_coordinates",
      [](const Instance& instance) -> nb::object {
        auto points = io::drawing_coordinates(instance);
        if (!points) return nb::none();
        return nb::make_tuple(to_numpy(std::move(points->x)), to_numpy(std::move(points->y)));
      },
      nb::arg("instance"), "The (x, y) arrays an instance is drawn with, or None when it has no coordinates.");
  m.def("picture_title", &io::picture_title, nb::arg("name"), nb::arg("length"), nb::arg("gap_percent").none(),
        "The title of both pictures: 'name: length L, gap G%'.");
  m.def(
      "tour_svg",
      [](const Vector<double>& x, const Vector<double>& y, const Vector<int32_t>& tour, const std::string& title,
         bool closed) {
        const io::DrawingCoordinates points{{x.data(), x.data() + x.shape(0)}, {y.data(), y.data() + y.shape(0)}};
        return io::tour_svg(points, as_span(tour), title, closed);
      },
      nb::arg("x"), nb::arg("y"), nb::arg("tour"), nb::arg("title"), nb::arg("closed") = true,
      "An SVG document of a tour over the cities (an open path when not closed).");
  m.def(
      "convergence_svg",
      [](const Vector<double>& seconds, const Vector<double>& values, double end_seconds, const std::string& title,
         const std::string& value_label) {
        return io::convergence_svg(as_span(seconds), as_span(values), end_seconds, title, value_label);
      },
      nb::arg("seconds"), nb::arg("values"), nb::arg("end_seconds"), nb::arg("title"), nb::arg("value_label"),
      "An SVG document of a best-so-far history against log time.");
  m.def(
      "write_text_file",
      [](const nb::bytes& path, const std::string& text) { io::write_text_file_atomically(path_argument(path), text); },
      nb::arg("path"), nb::arg("text"), "Writes a text file (its name as bytes) whole or not at all.");
  m.def(
      "write_file",
      [](const nb::bytes& path, const nb::bytes& data) {
        io::write_text_file_atomically(path_argument(path), std::string_view(data.c_str(), data.size()));
      },
      nb::arg("path"), nb::arg("data"),
      "Writes bytes (a PNG; its name as bytes) by the rules of every output: whole or not at all, a link's target, "
      "a FIFO in place.");
}

}  // namespace formica::python
