// SPDX-License-Identifier: MIT
// formica._core: the nanobind extension behind the formica Python package. It maps formica's
// error kinds to Python exceptions (InputError -> ValueError with the message the CLI prints
// after "formica: error: ", OutOfMemoryError -> MemoryError) and registers the bindings.
//
// The package checks every argument before it calls in here (python/formica/_arguments.py), so
// the other C++ exceptions below are bugs; each still becomes a Python exception of one line in
// its kind (a failed conversion TypeError, a bad value ValueError), never nanobind's
// "std::bad_cast" or a C++ type name.
#include <exception>
#include <new>
#include <stdexcept>
#include <typeinfo>

#include "bindings.h"
#include "core/error.h"
#include "io/line_reader.h"

namespace {

void set_error(PyObject* kind, const std::string& message) {
  // Escaped as the CLI prints it: a message quoting a file's bytes is valid UTF-8 (printable).
  PyErr_SetString(kind, formica::io::printable(message).c_str());
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "formica's C++ core (private: use the formica package)";
  m.attr("__version__") = FORMICA_VERSION;
  nanobind::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const formica::InputError& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const formica::OutOfMemoryError& e) {
      set_error(PyExc_MemoryError, e.what());
    } catch (const std::bad_alloc&) {
      set_error(PyExc_MemoryError, "out of memory");
    } catch (const std::bad_cast&) {  // nanobind's cast_error: a value the core cannot take as its type
      set_error(PyExc_TypeError, "a value of the wrong type reached formica's core (a whole number too large, "
                                 "text that is not UTF-8, or not a number where one is needed)");
    } catch (const std::out_of_range& e) {
      set_error(PyExc_ValueError, formica::concat("a value is out of range: ", e.what()));
    } catch (const std::length_error& e) {
      set_error(PyExc_ValueError, formica::concat("a size is out of range: ", e.what()));
    } catch (const std::invalid_argument& e) {
      set_error(PyExc_ValueError, e.what());
    }
  });
  formica::python::bind_instance(m);
  formica::python::bind_solve(m);
  formica::python::bind_batch(m);
  formica::python::bind_bound(m);
  formica::python::bind_tour(m);
  formica::python::bind_pictures(m);
  formica::python::bind_outputs(m);
}
