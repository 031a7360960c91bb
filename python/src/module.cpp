// formica._core: the nanobind extension behind the formica Python package. It maps formica's
// error kinds to Python exceptions (InputError -> ValueError with the message the CLI prints
// after "formica: error: ", OutOfMemoryError -> MemoryError) and registers the bindings.
#include <exception>

#include "bindings.h"
#include "core/error.h"

NB_MODULE(_core, m) {
  m.doc() = "formica's C++ core (private: use the formica package)";
  m.attr("__version__") = FORMICA_VERSION;
  nanobind::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const formica::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const formica::OutOfMemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });
  formica::python::bind_instance(m);
  formica::python::bind_solve(m);
  formica::python::bind_batch(m);
  formica::python::bind_bound(m);
  formica::python::bind_tour(m);
  formica::python::bind_pictures(m);
}
