// SPDX-License-Identifier: MIT
// JSON report of a run (see report.h).
#include "solver/report.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "solver/parameters.h"

namespace formica {

std::string result_json(const Instance& instance, const Result& result, std::optional<int64_t> optimum) {
  return result_json(instance.name(), instance.n(), to_string(instance.type()), result, optimum);
}

namespace {

// The JSON keys of the finders, in Finder's order.
constexpr std::string_view kFinderKeys[kFinders] = {"search", "host_lin_kernighan", "host_eax",
                                                    "merges",  "other_ranks",        "polish"};

std::string finder_name(const Result& result, Finder finder) {
  return finder == Finder::Search ? result.searched_by : std::string(to_string(finder));
}

}  // namespace

nlohmann::json found_by_json(const Result& result) {
  using nlohmann::json;
  const Credits& c = result.credits;
  if (!c.started()) return nullptr;
  json gains = json::object(), shares = json::object();
  for (int f = 0; f < kFinders; ++f) {
    const std::string key(kFinderKeys[f]);
    gains[key] = c.gain(static_cast<Finder>(f));
    shares[key] = c.share(static_cast<Finder>(f));
  }
  return {{"first_length", c.first()}, {"search", result.searched_by}, {"gains", gains}, {"shares", shares}};
}

std::string found_by_line(const Result& result) {
  const Credits& c = result.credits;
  if (!c.started()) return "";
  std::string line = concat("improvements from ", c.first(), " to ", c.last(), ":");
  const char* separator = " ";
  for (int f = 0; f < kFinders; ++f) {
    const auto finder = static_cast<Finder>(f);
    if (finder != Finder::Search && c.gain(finder) == 0) continue;
    char share[32];
    std::snprintf(share, sizeof share, " %.1f %%", 100.0 * c.share(finder));
    line += concat(separator, finder_name(result, finder), share);
    separator = ", ";
  }
  return line;
}

std::string result_json(std::string_view name, int n, std::string_view edge_weight_type, const Result& result,
                        std::optional<int64_t> optimum) {
  using nlohmann::json;
  const auto city = [](const std::optional<int64_t>& c) { return c ? json(*c) : json(nullptr); };
  json history = json::array();
  for (const HistoryPoint& h : result.history)
    history.push_back({{"iteration", h.iteration}, {"seconds", h.seconds}, {"length", h.length}});
  json doc = {
      {"instance", std::string(name)},
      {"n", n},
      {"edge_weight_type", std::string(edge_weight_type)},
      {"open", result.ends.any()},
      {"start", city(result.ends.start)},
      {"end", city(result.ends.end)},
      {"asymmetric", result.asymmetric},
      {"algorithm", std::string(to_string(result.config.algorithm))},
      {"backend", std::string(to_string(result.backend))},
      {"device", result.device},
      {"ranks", result.ranks},
      {"gpus", result.gpus},
      {"transport", result.transport.empty() ? json(nullptr) : json(result.transport)},
      {"exchanges", result.exchanges},
      {"parameters", parameters_json(result.config)},
      {"iterations", result.iterations},
      {"seconds", result.seconds},
      {"phase_seconds",
       {{"setup", result.phase_seconds.setup},
        {"search", result.phase_seconds.search},
        {"finish", result.phase_seconds.finish},
        {"polish", result.phase_seconds.polish}}},
      {"stop_reason", result.stop_reason},
      {"setup_stopped", result.setup_stopped},
      {"best_length", result.tour.length()},
      {"optimum", optimum ? json(*optimum) : json(nullptr)},
      {"gap", optimum ? json(gap_percent(result.tour.length(), *optimum)) : json(nullptr)},
      {"mean_ms_per_iteration",
       {{"total", result.mean_step_times.total_ms},
        {"construction", result.mean_step_times.construction_ms},
        {"pheromone", result.mean_step_times.pheromone_ms},
        {"local_search", result.mean_step_times.local_search_ms}}},
      {"tour", std::vector<int32_t>(result.tour.order().begin(), result.tour.order().end())},
      {"history", history},
      {"found_by", found_by_json(result)},
  };
  return doc.dump(2) + "\n";
}

}  // namespace formica
