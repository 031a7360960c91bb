// JSON report of a run (see report.h).
#include "solver/report.h"

#include <nlohmann/json.hpp>

#include "solver/parameters.h"

namespace formica {

std::string result_json(const Instance& instance, const Result& result, std::optional<int64_t> optimum) {
  using nlohmann::json;
  json history = json::array();
  for (const HistoryPoint& h : result.history)
    history.push_back({{"iteration", h.iteration}, {"seconds", h.seconds}, {"length", h.length}});
  json doc = {
      {"instance", instance.name()},
      {"n", instance.n()},
      {"edge_weight_type", std::string(to_string(instance.type()))},
      {"algorithm", std::string(to_string(result.config.algorithm))},
      {"backend", std::string(to_string(result.backend))},
      {"device", result.device},
      {"parameters", parameters_json(result.config)},
      {"iterations", result.iterations},
      {"seconds", result.seconds},
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
