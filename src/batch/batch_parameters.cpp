// SPDX-License-Identifier: MIT
// The batch parameter table (see batch_parameters.h). Values are parsed by the solver's parsers
// (solver/parameters.h, localsearch/config.h, core/candidates.h), so "cpu", "three-opt" or
// "quadrant" mean here what they mean to `formica solve`.
#include "batch/batch_parameters.h"

#include <functional>

#include "core/error.h"
#include "solver/parameters.h"

namespace formica::batch {
namespace {

struct Row {
  BatchParameter parameter;
  std::function<void(BatchConfig&, std::string_view)> set;
};

/// "a, b, c" from anything with a `name`.
template <typename Names>
std::string joined_names(const Names& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + std::string(n.name);
  return out;
}

/// A parameter whose value is one of `names()`, stored by `store`.
template <typename Enum, typename Names>
Row named_row(std::string_view name, std::string_view intro, Names (*names)(),
              std::optional<Enum> (*parse)(std::string_view), void (*store)(BatchConfig&, Enum)) {
  return {{name, concat(intro, " (", joined_names(names()), ")")}, [=](BatchConfig& c, std::string_view v) {
            const std::optional<Enum> value = parse(v);
            FORMICA_EXPECTS(value, "unknown --", name, " '", v, "' (valid: ", joined_names(names()), ")");
            store(c, *value);
          }};
}

std::vector<Row> make_rows() {
  std::vector<Row> rows;
  rows.push_back({{"backend", "auto (the GPU when a CUDA device is present), cpu or cuda"},
                  [](BatchConfig& c, std::string_view v) {
                    const auto b = parse_backend(v);
                    FORMICA_EXPECTS(b, "unknown --backend '", v, "' (valid: auto, cpu, cuda)");
                    c.backend = *b;
                  }});
  rows.push_back({{"time-limit", "seconds each instance may run, counted from the batch's start"},
                  [](BatchConfig& c, std::string_view v) { c.time_limit = parse_value<double>("time-limit", v); }});
  rows.push_back({{"kicks", concat("double-bridge kicks per walk (default without --time-limit: ", kDefaultKicksPerCity,
                                   " x n)")},
                  [](BatchConfig& c, std::string_view v) { c.kicks = parse_value<int64_t>("kicks", v); }});
  rows.push_back({{"seed", "random seed of instance 0; instance i gets seed + i"},
                  [](BatchConfig& c, std::string_view v) { c.seed = parse_value<uint64_t>("seed", v); }});
  rows.push_back({{"threads", "CPU threads, 0 for all"},
                  [](BatchConfig& c, std::string_view v) { c.threads = parse_value<int>("threads", v); }});
  rows.push_back({{"walks", "independent walks per instance, 0 to fill the CPU threads or the GPU"},
                  [](BatchConfig& c, std::string_view v) { c.walks = parse_value<int>("walks", v); }});
  rows.push_back({{"kick-segment", concat("the longest stretch of cities a double-bridge kick moves, 0 for ",
                                          kDefaultKickSegment)},
                  [](BatchConfig& c, std::string_view v) { c.kick_segment = parse_value<int>("kick-segment", v); }});
  rows.push_back({{"ls-neighbours", "neighbours per city the local search tries, 2 to 32"},
                  [](BatchConfig& c, std::string_view v) { c.neighbours = parse_value<int>("ls-neighbours", v); }});
  rows.push_back(named_row<NeighbourShape>("neighbour-lists", "which neighbours the lists hold", neighbour_shape_names,
                                           parse_neighbour_shape,
                                           [](BatchConfig& c, NeighbourShape s) { c.neighbour_lists = s; }));
  rows.push_back(named_row<localsearch::LocalSearchKind>(
      "local-search", "the moves that repair a kicked tour", localsearch::local_search_names,
      localsearch::parse_local_search,
      [](BatchConfig& c, localsearch::LocalSearchKind k) { c.local_search = k; }));
  return rows;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = make_rows();
  return table;
}

}  // namespace

const std::vector<BatchParameter>& batch_parameters() {
  static const std::vector<BatchParameter> table = [] {
    std::vector<BatchParameter> out;
    for (const Row& row : rows()) out.push_back(row.parameter);
    return out;
  }();
  return table;
}

void set_batch_parameter(BatchConfig& config, std::string_view name, std::string_view value) {
  const std::string key = parameter_name(name);
  for (const Row& row : rows())
    if (row.parameter.name == key) return row.set(config, value);
  throw InputError(concat("unknown batch parameter '", name, "' (valid: ", joined_names(batch_parameters()), ")"));
}

}  // namespace formica::batch
