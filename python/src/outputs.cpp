// SPDX-License-Identifier: MIT
// A run's outputs checked before its work by the command line's rules (io/output_file.h), for
// `python -m formica`: kernel interfaces, FIFOs without a reader, outputs that links make one
// file, an output on an input, 255-byte names. Each checked output is held (a FIFO stays open)
// until it is written, so that a reader there gets the output at the end and no early EOF.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "io/output_file.h"
#include "io/tsplib.h"

namespace formica::python {
namespace {

using Named = std::vector<std::pair<std::string, nb::bytes>>;  // (option or what it is, file name as bytes)

/// The outputs of one run, checked when made and written one by one.
class CheckedOutputs {
 public:
  /// `continued`: the input that the output `continues` may replace (`--initial-tour a.tour
  /// --tour-out a.tour` continues a run), a regular file read whole before the work.
  CheckedOutputs(const Named& outputs, const Named& inputs, const std::string& continues, const std::string& continued) {
    std::vector<std::pair<std::string, std::filesystem::path>> all, others;
    for (const auto& [what, path] : inputs) {
      all.emplace_back(what, path_argument(path));
      if (what != continued) others.emplace_back(what, path_argument(path));
    }
    for (const auto& [option, path] : outputs) {
      io::OutputPath output = io::check_output_path(option, path_argument(path));
      // A FIFO or a stream would be read and written at once: only a regular file may continue.
      io::expect_not_an_input(output, option == continues && !output.special ? others : all);
      outputs_.push_back(std::move(output));
    }
    io::expect_distinct_outputs(outputs_);
  }

  /// Whether output `index` is this process's stdout (a summary then goes to stderr).
  bool is_stdout(size_t index) const { return at(index).is_stdout(); }

  /// Writes `text` to output `index` whole or not at all (a regular file by a rename).
  void write(size_t index, const nb::bytes& text) { commit(index, std::string(text.c_str(), text.size())); }

  /// Writes a TSPLIB .tour file of the 0-based `tour` to output `index`.
  void write_tour(size_t index, const std::string& name, const Vector<int32_t>& tour, const std::string& comment) {
    commit(index, io::tour_text(name, as_span(tour), comment));
  }

 private:
  const io::OutputPath& at(size_t index) const {
    if (index >= outputs_.size()) throw nb::index_error("no such output");
    return outputs_[index];
  }
  void commit(size_t index, std::string text) {
    io::OutputSet file;
    file.add(at(index), std::move(text));
    const nb::gil_scoped_release unlocked;  // a FIFO's reader may take its time
    file.commit();
  }

  std::vector<io::OutputPath> outputs_;
};

}  // namespace

void bind_outputs(nb::module_& m) {
  nb::class_<CheckedOutputs>(m, "CheckedOutputs",
                             "A run's outputs checked before its work by the command line's rules, each held (a FIFO "
                             "open) until written.")
      .def(nb::init<const Named&, const Named&, const std::string&, const std::string&>(), nb::arg("outputs"),
           nb::arg("inputs"), nb::arg("continues") = "", nb::arg("continued") = "",
           "Checks (option, name as bytes) outputs against (what, name as bytes) inputs; ValueError naming the "
           "option and the reason when one cannot be written. The output `continues` may replace the input "
           "`continued` when it is a regular file.")
      .def("is_stdout", &CheckedOutputs::is_stdout, nb::arg("index"), "Whether output `index` is this process's stdout.")
      .def("write", &CheckedOutputs::write, nb::arg("index"), nb::arg("text"),
           "Writes bytes to output `index`, whole or not at all.")
      .def("write_tour", &CheckedOutputs::write_tour, nb::arg("index"), nb::arg("name"), nb::arg("tour"),
           nb::arg("comment"), "Writes a TSPLIB .tour file of a 0-based tour to output `index`.");
}

}  // namespace formica::python
