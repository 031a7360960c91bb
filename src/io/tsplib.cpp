// SPDX-License-Identifier: MIT
// TSPLIB95 reader and writer (see tsplib.h for the forms it accepts).
#include "io/tsplib.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "core/error.h"
#include "core/fixed_edges.h"
#include "core/memory.h"
#include "io/geo_coordinates.h"
#include "io/line_reader.h"
#include "io/mapped_file.h"

namespace formica::io {
namespace {

std::optional<double> parse_number(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return std::strtod(std::string(token).c_str(), nullptr);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

/// A token that starts a data line: a number, or a word that reads as one ("nan", "inf"), which
/// the section's own checks then refuse by name instead of taking it for the section's end.
bool looks_numeric(std::string_view token) {
  return !token.empty() && (std::isdigit(static_cast<unsigned char>(token.front())) ||
                            token.front() == '-' || token.front() == '+' || token.front() == '.' ||
                            parse_number(token).has_value());
}

/// The keyword of a header or section line: its first word before any ':'.
std::string_view keyword_of(std::string_view text) { return first_field(text.substr(0, text.find(':'))); }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// The largest weight of an ATSP file: the symmetric form's 2 (w + 1) must fit in 32 bits.
constexpr int64_t kLargestAsymmetricWeight = std::numeric_limits<int32_t>::max() / 2 - 1;

enum class Format {
  FullMatrix, UpperRow, LowerRow, UpperDiagRow, LowerDiagRow,
  UpperCol, LowerCol, UpperDiagCol, LowerDiagCol, Function
};

std::optional<Format> parse_format(std::string_view s) {
  static const std::pair<std::string_view, Format> kFormats[] = {
      {"FULL_MATRIX", Format::FullMatrix},       {"UPPER_ROW", Format::UpperRow},
      {"LOWER_ROW", Format::LowerRow},           {"UPPER_DIAG_ROW", Format::UpperDiagRow},
      {"LOWER_DIAG_ROW", Format::LowerDiagRow},  {"UPPER_COL", Format::UpperCol},
      {"LOWER_COL", Format::LowerCol},           {"UPPER_DIAG_COL", Format::UpperDiagCol},
      {"LOWER_DIAG_COL", Format::LowerDiagCol},  {"FUNCTION", Format::Function}};
  for (const auto& [name, format] : kFormats)
    if (name == s) return format;
  return std::nullopt;
}

/// Number of weights an EXPLICIT section holds for n cities in `format`.
size_t weight_count(Format format, size_t n) {
  switch (format) {
    case Format::FullMatrix: return n * n;
    case Format::UpperRow: case Format::LowerRow: case Format::UpperCol: case Format::LowerCol:
      return n * (n - 1) / 2;
    default: return n * (n + 1) / 2;
  }
}

/// Expands a weight stream in `format` into a full row-major matrix. The column-wise forms are
/// the row-wise forms of the other triangle: UPPER_COL lists (i, j) for j = 0.., i < j, which is
/// exactly LOWER_ROW's order of the transposed entry, and likewise for the others.
std::vector<int32_t> expand_matrix(Format format, int n, const std::vector<int32_t>& w) {
  std::vector<int32_t> m(static_cast<size_t>(n) * n, 0);
  size_t t = 0;
  auto put = [&](int i, int j) {
    m[static_cast<size_t>(i) * n + j] = w[t];
    m[static_cast<size_t>(j) * n + i] = w[t];
    ++t;
  };
  switch (format) {
    case Format::FullMatrix:
      for (size_t c = 0; c < m.size(); ++c) m[c] = w[c];
      break;
    case Format::UpperRow: case Format::LowerCol:
      for (int i = 0; i < n; ++i) for (int j = i + 1; j < n; ++j) put(i, j);
      break;
    case Format::LowerRow: case Format::UpperCol:
      for (int i = 0; i < n; ++i) for (int j = 0; j < i; ++j) put(i, j);
      break;
    case Format::UpperDiagRow: case Format::LowerDiagCol:
      for (int i = 0; i < n; ++i) for (int j = i; j < n; ++j) put(i, j);
      break;
    case Format::LowerDiagRow: case Format::UpperDiagCol:
      for (int i = 0; i < n; ++i) for (int j = 0; j <= i; ++j) put(i, j);
      break;
    case Format::Function: break;
  }
  return m;
}

class TsplibParser {
 public:
  TsplibParser(std::string_view text, std::string source) : source_(source), lines_(text, std::move(source)) {}

  TsplibProblem parse_problem();
  std::vector<int32_t> parse_tour();

 private:
  [[noreturn]] void fail(int64_t line, const std::string& reason) const {
    throw InputError(concat(source_, ":", line, ": ", reason));
  }
  /// The section was read for the format of its time; an EDGE_WEIGHT_FORMAT given again after it
  /// may need another count (found by fuzz_tsplib: a read past the weights).
  void check_weight_count() const {
    const size_t need = weight_count(*format_, static_cast<size_t>(dimension_));
    if (weights_.size() != need)
      fail(last_line(), concat("EDGE_WEIGHT_FORMAT changed after EDGE_WEIGHT_SECTION: it needs ", need,
                               " weights for DIMENSION ", dimension_, ", the section has ", weights_.size()));
  }
  [[noreturn]] void fail(const std::string& reason) const {
    throw InputError(concat(source_, ": ", reason));
  }
  int64_t last_line() const { return lines_.last_line(); }

  /// Handles a `KEY: value` header line; returns false if `key` is not a header keyword.
  bool read_header(const Line& line, std::string_view key);
  void require_dimension(const Line& line, std::string_view section) const {
    if (dimension_ < 0) fail(line.number, concat("DIMENSION must come before ", section));
  }
  /// Reads n lines of "id a b [c]" into coordinates; `fields` counts the id.
  void read_coordinates(std::string_view section, size_t fields,
                        std::vector<std::vector<double>>& axes);
  void read_weights();
  /// Reads the edges up to the -1 that ends the section, each checked (FixedEdgeChecker).
  void read_fixed_edges(const Line& section);
  /// The next non-blank line, not yet consumed (see LineReader).
  std::optional<Line> next_nonblank() { return lines_.peek(); }

  std::string source_;
  LineReader lines_;

  std::string name_, comment_, type_ = "TSP";
  int64_t header_lines_ = 0;
  long dimension_ = -1;
  std::optional<EdgeWeightType> weight_type_;
  std::optional<Format> format_;
  std::string display_type_;
  std::vector<std::vector<double>> coords_, display_;
  std::vector<int32_t> weights_;
  int64_t weights_line_ = 0;
  std::vector<FixedEdge> fixed_edges_;
  bool have_fixed_edges_ = false;
};

bool TsplibParser::read_header(const Line& line, std::string_view key) {
  // A stream of header lines (`yes COMMENT`) would otherwise be read up to the size bound.
  if (++header_lines_ > kMaxHeaderLines)
    fail(line.number, concat("more than ", kMaxHeaderLines, " header lines (NAME, COMMENT, ...): not a TSPLIB file"));
  const size_t colon = line.text.find(':');
  const std::string_view value = colon == std::string_view::npos ? std::string_view{}
                                                                 : trim(line.text.substr(colon + 1));
  // Text from the file goes to terminals, messages and output files: control characters and
  // bytes that are not UTF-8 escaped.
  if (key == "NAME") {
    name_ = printable(value);
  } else if (key == "COMMENT") {
    if (!comment_.empty()) comment_ += ' ';
    comment_ += printable(value);
    if (comment_.size() > kMaxCommentBytes)
      fail(line.number, concat("the COMMENT lines hold more than ", kMaxCommentBytes >> 10, " KiB: not a TSPLIB file"));
  } else if (key == "TYPE") {
    type_ = printable(value);
  } else if (key == "DIMENSION") {
    const auto d = parse_number(value);
    if (!d || *d != std::floor(*d) || *d < 0)
      fail(line.number, concat("DIMENSION '", excerpt(value), "' is not a whole number of cities"));
    if (*d > kMaxCities)
      fail(line.number, concat("DIMENSION ", excerpt(value), " is more than formica reads (", kMaxCities, " cities)"));
    dimension_ = static_cast<long>(*d);
    if (dimension_ < 3) fail(line.number, concat("DIMENSION is ", dimension_, "; at least 3 cities are needed"));
  } else if (key == "EDGE_WEIGHT_TYPE") {
    weight_type_ = parse_edge_weight_type(upper(value));
    if (!weight_type_)
      fail(line.number, concat("unknown EDGE_WEIGHT_TYPE '", excerpt(value),
                               "' (formica reads EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, "
                               "EUC_3D and EXPLICIT)"));
  } else if (key == "EDGE_WEIGHT_FORMAT") {
    format_ = parse_format(upper(value));
    if (!format_) fail(line.number, concat("unknown EDGE_WEIGHT_FORMAT '", excerpt(value), "'"));
  } else if (key == "DISPLAY_DATA_TYPE") {
    display_type_ = upper(value);
  } else if (key == "NODE_COORD_TYPE" || key == "EDGE_DATA_FORMAT" || key == "CAPACITY") {
    // Informative only for the symmetric TSP.
  } else {
    return false;
  }
  return true;
}

void TsplibParser::read_coordinates(std::string_view section, size_t fields,
                                    std::vector<std::vector<double>>& axes) {
  // Storage grows with the cities read, not with DIMENSION: a header that claims 10^8 cities over
  // a short body costs what the body holds. Only `seen`, one bit a city, follows the claim.
  const size_t n = static_cast<size_t>(dimension_);
  std::vector<std::vector<double>> in_file_order(fields - 1);
  std::vector<int32_t> ids;
  std::vector<bool> seen(n, false);
  const bool geo = section == "NODE_COORD_SECTION" && weight_type_ == EdgeWeightType::Geo;
  for (size_t read = 0; read < n; ++read) {
    const auto line = next_nonblank();
    if (!line || !looks_numeric(first_field(line->text)))
      fail(line ? line->number : last_line(),
           concat("DIMENSION is ", n, " but ", section, " has only ", read, " cities",
                  line ? "" : " (the file ends early)"));
    lines_.consume();
    const auto f = split_fields(line->text, fields + 1);
    if (f.size() != fields)
      fail(line->number, concat("expected ", fields, " fields (city number and ", fields - 1,
                                " coordinates), found ", count_fields(line->text)));
    const auto id = parse_number(f[0]);
    if (!id || *id != std::floor(*id) || *id < 1 || *id > static_cast<double>(n))
      fail(line->number, concat("city number '", excerpt(f[0]), "' is not in 1..", n));
    const size_t city = static_cast<size_t>(*id) - 1;
    if (seen[city]) fail(line->number, concat("city ", city + 1, " appears twice"));
    seen[city] = true;
    ids.push_back(static_cast<int32_t>(city));
    for (size_t a = 1; a < fields; ++a) {
      const auto v = parse_number(f[a]);
      if (!v || std::isnan(*v)) fail(line->number, concat("coordinate '", excerpt(f[a]), "' is not a number"));
      if (!std::isfinite(*v)) fail(line->number, concat("coordinate '", excerpt(f[a]), "' is not finite"));
      if (std::fabs(*v) > kMaxCoordinate)
        fail(line->number, concat("coordinate '", excerpt(f[a]), "' is beyond +-", kMaxCoordinate,
                                  " (distances must fit in 32 bits)"));
      // GEO coordinates are latitude and longitude (DDD.MM): off the globe is a typo.
      if (geo)
        if (const std::string off = geo_coordinate_problem(*v, a == 1); !off.empty())
          fail(line->number, concat("city ", city + 1, ": ", off));
      in_file_order[a - 1].push_back(*v);
    }
  }
  const auto after = next_nonblank();
  if (after && looks_numeric(first_field(after->text)))
    fail(after->number, concat(section, " has more than DIMENSION = ", n, " cities"));
  // Into city order; files nearly always list the cities in order, and then this is a move.
  const bool in_order = std::is_sorted(ids.begin(), ids.end());
  axes.assign(fields - 1, {});
  for (size_t a = 0; a + 1 < fields; ++a) {
    if (in_order) {
      axes[a] = std::move(in_file_order[a]);
      continue;
    }
    axes[a].resize(n);
    for (size_t k = 0; k < n; ++k) axes[a][static_cast<size_t>(ids[k])] = in_file_order[a][k];
  }
}

void TsplibParser::read_weights() {
  if (!format_) fail(weights_line_, "EDGE_WEIGHT_SECTION needs an EDGE_WEIGHT_FORMAT");
  if (*format_ == Format::Function)
    fail(weights_line_, "EDGE_WEIGHT_FORMAT FUNCTION has no EDGE_WEIGHT_SECTION");
  const size_t n = static_cast<size_t>(dimension_);
  const size_t want = weight_count(*format_, n);
  // The weights as read and the full matrix they become: refused now if they cannot fit, and
  // stored as they arrive, so that a header claiming 10^6 cities over a short body costs nothing.
  expect_memory((want + n * n) * sizeof(int32_t), available_host_memory(),
                concat(source_, ":", weights_line_, ": the EXPLICIT matrix of ", n, " cities"));
  const bool asymmetric = upper(type_).rfind("ATSP", 0) == 0;
  while (weights_.size() < want) {
    const auto line = next_nonblank();
    if (!line || !looks_numeric(first_field(line->text)))
      fail(line ? line->number : last_line(),
           concat("DIMENSION ", dimension_, " in this EDGE_WEIGHT_FORMAT needs ", want,
                  " weights, found only ", weights_.size(), line ? "" : " (the file ends early)"));
    lines_.consume();
    size_t at = 0;
    for (std::string_view field = next_field(line->text, at); !field.empty(); field = next_field(line->text, at)) {
      if (weights_.size() == want)
        fail(line->number, concat("more weights than DIMENSION ", dimension_, " allows"));
      const auto v = parse_number(field);
      if (!v || std::isnan(*v)) fail(line->number, concat("weight '", excerpt(field), "' is not a number"));
      if (!std::isfinite(*v) || *v != std::floor(*v) || *v < 0 ||
          *v > std::numeric_limits<int32_t>::max())
        fail(line->number, concat("weight '", excerpt(field), "' is not a non-negative integer"));
      // An asymmetric instance is solved in a symmetric form whose weights are up to twice the
      // largest one plus 2 (core/asymmetric.h): refused here, where the file and line are known.
      if (asymmetric && *v > kLargestAsymmetricWeight)
        fail(line->number, concat("weight '", excerpt(field), "' is more than an asymmetric (ATSP) instance may hold (",
                                  kLargestAsymmetricWeight, ": its symmetric form doubles the weights)"));
      weights_.push_back(static_cast<int32_t>(*v));
    }
  }
  const auto after = next_nonblank();
  if (after && looks_numeric(first_field(after->text)))
    fail(after->number, concat("more weights than DIMENSION ", dimension_, " allows"));
}

void TsplibParser::read_fixed_edges(const Line& section) {
  require_dimension(section, "FIXED_EDGES_SECTION");
  FixedEdgeChecker checker(static_cast<int>(dimension_));
  for (;;) {
    const auto line = next_nonblank();
    if (!line || !looks_numeric(first_field(line->text)))
      fail(line ? line->number : last_line(),
           concat("FIXED_EDGES_SECTION ends without the -1 that closes it", line ? "" : " (the file ends early)"));
    lines_.consume();
    const auto f = split_fields(line->text, 3);
    if (f.size() == 1 && f[0] == "-1") break;
    if (f.size() != 2)
      fail(line->number, concat("a fixed edge is two city numbers, found ", count_fields(line->text), " fields"));
    int64_t ends[2];
    for (int k = 0; k < 2; ++k) {
      const auto v = parse_number(f[k]);
      if (!v || *v != std::floor(*v) || std::fabs(*v) > 1e15)
        fail(line->number, concat("fixed edge: '", excerpt(f[k]), "' is not a city number"));
      ends[k] = static_cast<int64_t>(*v);
    }
    try {
      checker.add(ends[0], ends[1]);
    } catch (const InputError& e) {
      fail(line->number, concat("fixed edge: ", e.what()));
    }
  }
  fixed_edges_ = checker.edges();
}

TsplibProblem TsplibParser::parse_problem() {
  bool have_coords = false, have_weights = false;
  while (auto line = next_nonblank()) {
    const std::string key = upper(keyword_of(line->text));
    if (key == "EOF") break;
    lines_.consume();
    if ((key == "NODE_COORD_SECTION" && have_coords) || (key == "EDGE_WEIGHT_SECTION" && have_weights) ||
        (key == "DISPLAY_DATA_SECTION" && !display_.empty()) || (key == "FIXED_EDGES_SECTION" && have_fixed_edges_))
      fail(line->number, concat("a second ", key, " (a file gives each section once)"));
    if (key == "NODE_COORD_SECTION") {
      require_dimension(*line, key);
      if (!weight_type_) fail(line->number, "EDGE_WEIGHT_TYPE must come before NODE_COORD_SECTION");
      read_coordinates(key, *weight_type_ == EdgeWeightType::Euc3D ? 4 : 3, coords_);
      have_coords = true;
    } else if (key == "EDGE_WEIGHT_SECTION") {
      require_dimension(*line, key);
      weights_line_ = line->number;
      read_weights();
      have_weights = true;
    } else if (key == "DISPLAY_DATA_SECTION") {
      require_dimension(*line, key);
      read_coordinates(key, 3, display_);
    } else if (key == "FIXED_EDGES_SECTION") {
      read_fixed_edges(*line);
      have_fixed_edges_ = true;
    } else if (key.ends_with("_SECTION")) {
      fail(line->number, concat("unexpected ", key, " in a TSP file"));
    } else if (!read_header(*line, key)) {
      fail(line->number, concat("unknown keyword '", excerpt(keyword_of(line->text)), "'"));
    }
  }
  const std::string type = upper(type_);
  const bool asymmetric = type.rfind("ATSP", 0) == 0;
  if (type.rfind("TSP", 0) != 0 && !asymmetric)
    fail(concat("TYPE '", type_, "' is not supported: formica solves the TSP and the ATSP"));
  if (dimension_ < 0) fail("no DIMENSION given");
  if (!weight_type_) fail("no EDGE_WEIGHT_TYPE given");
  if (name_.empty()) name_ = "unnamed";
  try {
    if (asymmetric) {
      if (*weight_type_ != EdgeWeightType::Explicit || format_ != Format::FullMatrix)
        fail("TYPE ATSP needs EDGE_WEIGHT_TYPE EXPLICIT and EDGE_WEIGHT_FORMAT FULL_MATRIX");
      if (!have_weights) fail(last_line(), "EXPLICIT instance without an EDGE_WEIGHT_SECTION");
      check_weight_count();
      if (have_fixed_edges_)
        fail("FIXED_EDGES_SECTION in an asymmetric (ATSP) instance: formica keeps the fixed edges of symmetric "
             "instances only");
      AsymmetricMatrix matrix(name_, static_cast<int>(dimension_), std::move(weights_));
      matrix.set_comment(comment_);
      return matrix;
    }
    if (*weight_type_ == EdgeWeightType::Explicit) {
      if (!have_weights) fail(last_line(), "EXPLICIT instance without an EDGE_WEIGHT_SECTION");
      check_weight_count();
      const int n = static_cast<int>(dimension_);
      Instance instance = Instance::from_matrix(name_, n, expand_matrix(*format_, n, weights_));
      if (!display_.empty()) instance.set_display_coordinates(display_[0], display_[1]);
      instance.set_comment(comment_);
      instance.set_fixed_edges(std::move(fixed_edges_));
      return instance;
    }
    if (!have_coords)
      fail(last_line(), concat("the file ends before NODE_COORD_SECTION (", to_string(*weight_type_),
                               " needs coordinates)"));
    Instance instance(name_, *weight_type_, coords_[0], coords_[1],
                      coords_.size() > 2 ? coords_[2] : std::vector<double>{});
    instance.set_comment(comment_);
    instance.set_fixed_edges(std::move(fixed_edges_));
    return instance;
  } catch (const InputError& e) {
    if (std::string_view(e.what()).rfind(source_, 0) == 0) throw;
    fail(e.what());
  }
}

std::vector<int32_t> TsplibParser::parse_tour() {
  std::vector<int32_t> tour;
  bool in_section = false, ended = false;
  while (auto line = next_nonblank()) {
    lines_.consume();
    const std::string key = upper(keyword_of(line->text));
    if (!in_section || ended) {
      if (key == "EOF") break;
      if (ended) fail(line->number, concat("unexpected '", excerpt(line->text), "' after the tour"));
      if (key == "TOUR_SECTION") in_section = true;
      else if (!read_header(*line, key))
        fail(line->number, concat("unknown keyword '", excerpt(keyword_of(line->text)), "'"));
      continue;
    }
    size_t at = 0;
    for (std::string_view f = next_field(line->text, at); !f.empty(); f = next_field(line->text, at)) {
      if (ended) fail(line->number, "city numbers after the -1 that ends the tour");
      if (upper(f) == "EOF") {
        ended = true;
        break;
      }
      const auto v = parse_number(f);
      if (!v || *v != std::floor(*v)) fail(line->number, concat("'", excerpt(f), "' is not a city number"));
      if (*v == -1) {
        ended = true;
        continue;
      }
      if (*v < 1) fail(line->number, concat("city number ", excerpt(f), " is not positive"));
      if (*v > kMaxCities) fail(line->number, concat("city number ", excerpt(f), " is more than formica reads (", kMaxCities, ")"));
      // At most DIMENSION cities when the header gives it, never more than any instance holds.
      if (dimension_ >= 0 && tour.size() == static_cast<size_t>(dimension_))
        fail(line->number, concat("TOUR_SECTION lists more than DIMENSION = ", dimension_, " cities"));
      if (tour.size() == static_cast<size_t>(kMaxCities))
        fail(line->number, concat("TOUR_SECTION lists more than ", kMaxCities, " cities"));
      tour.push_back(static_cast<int32_t>(*v) - 1);
    }
  }
  if (!in_section) fail(last_line(), "no TOUR_SECTION");
  const std::string type = upper(type_);
  if (type != "TOUR" && type != "TSP") fail(concat("TYPE '", type_, "' is not a tour"));
  if (dimension_ >= 0 && static_cast<size_t>(dimension_) != tour.size())
    fail(concat("DIMENSION is ", dimension_, " but TOUR_SECTION lists ", tour.size(), " cities"));
  return tour;
}

std::string format_coordinate(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  std::ostringstream out;
  out << std::setprecision(17) << v;
  return out.str();
}

}  // namespace

TsplibProblem parse_tsplib_problem(std::string_view text, const std::string& source) {
  return TsplibParser(text, source).parse_problem();
}

Instance parse_tsplib(std::string_view text, const std::string& source) {
  TsplibProblem problem = parse_tsplib_problem(text, source);
  if (auto* matrix = std::get_if<AsymmetricMatrix>(&problem))
    throw InputError(concat(source, ": ", matrix->name(), " is an asymmetric (ATSP) instance; `formica solve` and "
                            "formica.solve read those, this needs a symmetric one"));
  return std::get<Instance>(std::move(problem));
}

namespace {

/// Whether `lines` hold a line whose keyword is EOF.
bool has_eof_line(std::string_view lines) {
  LineReader reader(lines, "");
  for (auto line = reader.peek(); line; reader.consume(), line = reader.peek())
    if (upper(keyword_of(line->text)) == "EOF") return true;
  return false;
}

/// A stream's probe (mapped_file.h): the lines read so far, parsed by `parse`; an error at a line
/// before the last one read cannot be mended by what follows, and ends the read. Errors at the
/// last line or at the end ("the file ends early") wait for the rest. Lines that parse and hold
/// an EOF line are all the parser reads (it stops there): the read ends with them.
template <typename Parse>
MappedFile::Probe lasting_errors(const std::filesystem::path& path, Parse parse) {
  return [source = path.string(), parse](std::string_view lines) {
    const auto count = std::count(lines.begin(), lines.end(), '\n');
    try {
      parse(lines, source);
    } catch (const InputError& e) {
      if (const int64_t line = error_line(e.what(), source); line > 0 && line < count) throw;
      return false;
    }
    return has_eof_line(lines);
  };
}

}  // namespace

TsplibProblem read_tsplib_problem(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Text, lasting_errors(path, parse_tsplib_problem));
  return parse_tsplib_problem(file.text(), path.string());
}

Instance read_tsplib(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Text, lasting_errors(path, parse_tsplib_problem));
  return parse_tsplib(file.text(), path.string());
}

std::vector<int32_t> parse_tour(std::string_view text, const std::string& source) {
  return TsplibParser(text, source).parse_tour();
}

std::vector<int32_t> read_tour(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Text, lasting_errors(path, parse_tour));
  return parse_tour(file.text(), path.string());
}

std::string read_text_file(const std::filesystem::path& path) {
  const MappedFile file(path, MappedFile::Content::Binary);
  return std::string(file.text());
}

void write_tour(const std::filesystem::path& path, const std::string& name, const Tour& tour) {
  write_text_file_atomically(path, tour_text(name, tour));
}

std::string tour_text(const std::string& name, const Tour& tour) {
  return tour_text(name, tour.order(), concat("Length ", tour.length(), ", found by formica"));
}

std::string tour_text(const std::string& name, std::span<const int32_t> order, std::string_view comment) {
  validate_permutation(order, static_cast<int>(order.size()));
  std::ostringstream out;
  out << "NAME : " << printable(name) << ".tour\n";
  if (!comment.empty()) out << "COMMENT : " << printable(comment) << "\n";
  out << "TYPE : TOUR\n"
      << "DIMENSION : " << order.size() << "\n"
      << "TOUR_SECTION\n";
  for (int32_t city : order) out << city + 1 << '\n';
  out << "-1\nEOF\n";
  return out.str();
}

void write_tour(const std::filesystem::path& path, const std::string& name, std::span<const int32_t> order,
                std::string_view comment) {
  write_text_file_atomically(path, tour_text(name, order, comment));
}

void write_tsplib(const std::filesystem::path& path, const Instance& instance) {
  FORMICA_EXPECTS(instance.has_coordinates(), "only coordinate instances can be written");
  std::ostringstream out;
  out << "NAME : " << printable(instance.name()) << "\n";
  if (!instance.comment().empty()) out << "COMMENT : " << printable(instance.comment()) << "\n";
  out << "TYPE : TSP\n"
      << "DIMENSION : " << instance.n() << "\n"
      << "EDGE_WEIGHT_TYPE : " << to_string(instance.type()) << "\n"
      << "NODE_COORD_SECTION\n";
  const auto x = instance.x(), y = instance.y(), z = instance.z();
  for (int i = 0; i < instance.n(); ++i) {
    out << i + 1 << ' ' << format_coordinate(x[i]) << ' ' << format_coordinate(y[i]);
    if (!z.empty()) out << ' ' << format_coordinate(z[i]);
    out << '\n';
  }
  out << "EOF\n";
  write_text_file_atomically(path, out.str());
}

}  // namespace formica::io
