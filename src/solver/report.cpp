// JSON report of a run (see report.h).
#include "solver/report.h"

#include <nlohmann/json.hpp>

#include "solver/parameters.h"

namespace formica {

std::string result_json(const Instance& instance, const Result& result, std::optional<int64_t> optimum) {
  return result_json(instance.name(), instance.n(), to_string(instance.type()), result, optimum);
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
  };
  return doc.dump(2) + "\n";
}

}  // namespace formica
