// SPDX-License-Identifier: MIT
// formica._core: the nanobind extension behind the formica Python package. It maps formica's
// error kinds to Python exceptions (InputError -> ValueError with the message the CLI prints
// after "formica: error: ", OutOfMemoryError -> MemoryError) and registers the bindings.
#include <exception>

#include "bindings.h"
#include "core/error.h"
#include "io/line_reader.h"

NB_MODULE(_core, m) {
  m.doc() = "formica's C++ core (private: use the formica package)";
  m.attr("__version__") = FORMICA_VERSION;
  nanobind::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const formica::InputError& e) {
      // Escaped as the CLI prints it: a message quoting a file's bytes is valid UTF-8 (printable).
      PyErr_SetString(PyExc_ValueError, formica::io::printable(e.what()).c_str());
    } catch (const formica::OutOfMemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, formica::io::printable(e.what()).c_str());
    }
  });
  formica::python::bind_instance(m);
  formica::python::bind_solve(m);
  formica::python::bind_batch(m);
  formica::python::bind_bound(m);
  formica::python::bind_tour(m);
  formica::python::bind_pictures(m);
}
