// SPDX-License-Identifier: MIT
// `formica bound INSTANCE`: the Held-Karp lower bound (bounds/held_karp.h), and the bound lines
// that `formica solve --bound` adds to its summary and its JSON report.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "bounds/held_karp.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/number_options.h"
#include "core/asymmetric.h"
#include "core/error.h"
#include "io/instance_source.h"
#include "io/known_optima.h"
#include "io/tsplib.h"
#include "solver/solver.h"  // kMaxThreads, kMaxTimeLimit

namespace formica::cli {

bounds::LowerBound compute_bound(const Instance& instance, const BoundRequest& request) {
  bounds::BoundOptions options = bounds::requested_bound(
      instance.n(), request.iterations > 0 ? std::optional<int64_t>(request.iterations) : std::nullopt,
      request.time_limit > 0 ? std::optional<double>(request.time_limit) : std::nullopt, request.threads);
  options.interrupt = request.interrupt;
  options.start = request.start;
  return bounds::lower_bound(instance, options);
}

std::string bound_line(const bounds::LowerBound& bound, std::optional<int64_t> length, std::optional<int64_t> optimum) {
  char text[256];
  const auto n = static_cast<long long>(bound.penalties.size());
  if (bound.method == bounds::kNearestPairsMethod && bound.summed_cities == 0)
    std::snprintf(text, sizeof text,
                  "lower bound 0 (the time limit ran out before any bound was computed, even the two nearest "
                  "neighbours' of each city, %.2f s)",
                  bound.seconds);
  else if (bound.method == bounds::kNearestPairsMethod && bound.summed_cities < n)
    std::snprintf(text, sizeof text,
                  "lower bound %lld (half the two nearest neighbours' distances summed over %lld of the %lld cities: "
                  "cut short by the time limit, %.2f s)",
                  static_cast<long long>(bound.bound), static_cast<long long>(bound.summed_cities), n, bound.seconds);
  else if (bound.method == bounds::kNearestPairsMethod)
    std::snprintf(text, sizeof text,
                  "lower bound %lld (half the two nearest neighbours' distances summed over the cities: no "
                  "complete-graph 1-tree within the time limit, %.2f s)",
                  static_cast<long long>(bound.bound), bound.seconds);
  else
    std::snprintf(text, sizeof text, "lower bound %lld (Held-Karp, %lld ascent iterations, %s over the complete graph, %.2f s)",
                static_cast<long long>(bound.bound), static_cast<long long>(bound.iterations), bound.method.c_str(),
                bound.seconds);
  std::string line = text;
  if (bound.fixed_edges == bounds::FixedEdgesInBound::Kept) line += ", of the tours through the fixed edges";
  if (bound.fixed_edges == bounds::FixedEdgesInBound::Ignored)
    line += ", the fixed edges ignored (too many cities to weigh them: a bound of every tour, weaker)";
  if (bound.tour) line += ", the 1-tree is a tour: the bound is the optimum";
  if (bound.stop_reason == "interrupted") line += ", ascent stopped by a signal";
  if (optimum) {
    std::snprintf(text, sizeof text, ", %.3f %% of the optimum %lld", 100.0 * static_cast<double>(bound.bound) / static_cast<double>(*optimum),
                  static_cast<long long>(*optimum));
    line += text;
  }
  if (length) {
    std::snprintf(text, sizeof text, ", tour %lld is within %.3f %% of it (proven)", static_cast<long long>(*length),
                  gap_to_bound_percent(*length, bound.bound));
    line += text;
  }
  return line;
}

void check_bound_below(const bounds::LowerBound& bound, int64_t length) {
  if (bound.bound > length)
    throw std::logic_error(concat("the Held-Karp bound ", bound.bound, " exceeds the length ", length,
                                  " of a verified tour: the bound is wrong, not printed as proven"));
}

double gap_to_bound_percent(int64_t length, int64_t bound) {
  if (bound > length)
    throw std::logic_error(concat("a lower bound ", bound, " above the tour length ", length, ": no gap to report"));
  return bound > 0 ? 100.0 * static_cast<double>(length - bound) / static_cast<double>(bound) : 0.0;
}

void add_bound_json(nlohmann::json& doc, const bounds::LowerBound& bound, std::optional<int64_t> length) {
  nlohmann::json history = nlohmann::json::array();
  for (const bounds::AscentPoint& p : bound.history)
    history.push_back({{"iteration", p.iteration}, {"seconds", p.seconds}, {"sparse_value", p.value}});
  doc["lower_bound"] = bound.bound;
  doc["lower_bound_value"] = bound.value;
  doc["lower_bound_is_optimum"] = bound.tour;
  doc["lower_bound_fixed_edges"] = bound.fixed_edges == bounds::FixedEdgesInBound::Kept      ? "kept"
                                   : bound.fixed_edges == bounds::FixedEdgesInBound::Ignored ? "ignored"
                                                                                             : "none";
  doc["gap_to_bound_percent"] = length ? nlohmann::json(gap_to_bound_percent(*length, bound.bound)) : nlohmann::json(nullptr);
  doc["bound"] = {{"method", bound.method},           {"iterations", bound.iterations},
                  {"seconds", bound.seconds},         {"certify_seconds", bound.certify_seconds},
                  {"sparse_edges", bound.sparse_edges}, {"stop_reason", bound.stop_reason},
                  {"history", history}};
  if (bound.method == bounds::kNearestPairsMethod) doc["bound"]["summed_cities"] = bound.summed_cities;
}

Command add_bound_command(CLI::App& app) {
  struct Options {
    std::string instance;
    std::optional<std::string> json_out;
    BoundRequest request;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "bound", "Held-Karp lower bound: minimum 1-trees with subgradient ascent, proven over the complete graph");
  sub->add_option("instance", o->instance, "TSPLIB .tsp file or instance name")->required();
  sub->add_option("--iterations", o->request.iterations, "Most ascent iterations (default: until the step schedule ends)")
      ->check(whole_number_in<int64_t>(0, std::numeric_limits<int64_t>::max()));
  sub->add_option("--time-limit", o->request.time_limit,
                  "Seconds for the whole computation (default: n / 2000, from 10 to 120)")
      ->check(seconds_up_to(kMaxTimeLimit));
  sub->add_option("--threads", o->request.threads, "CPU threads, 0 for all (of this machine's)")
      ->check(whole_number_in(0, kMaxThreads));
  sub->add_option("--json", o->json_out, "Write the bound, its penalties' summary and the ascent's history as JSON");
  return {sub, [o] {
            // A time limit counts the reading of the instance too.
            o->request.start = std::chrono::steady_clock::now();
            const std::optional<io::OutputPath> json =
                checked_output("--json", o->json_out, {{"the instance", io::resolve_instance_path(o->instance)}});
            io::TsplibProblem problem = io::load_problem(o->instance);
            if (const auto* matrix = std::get_if<AsymmetricMatrix>(&problem))
              throw InputError(concat(o->instance, ": ", matrix->name(), " is an asymmetric (ATSP) instance; the Held-Karp "
                                      "bound here is for symmetric ones (`formica verify` checks an ATSP tour)"));
            const Instance instance = std::get<Instance>(std::move(problem));
            const auto optimum = known_optimum(instance.name(), instance.n());
            // Ctrl-C or SIGTERM ends the ascent; the bound of the penalties reached is still proven.
            InterruptGuard interrupt_guard;
            o->request.interrupt = interrupt_guard.flag();
            const bounds::LowerBound bound = compute_bound(instance, o->request);
            (summary_on_stderr({&json}) ? std::cerr : std::cout)
                << instance.name() << ": " << bound_line(bound, std::nullopt, optimum) << "\n";
            if (json) {
              nlohmann::json doc = {{"instance", instance.name()},
                                    {"n", instance.n()},
                                    {"optimum", optimum ? nlohmann::json(*optimum) : nlohmann::json(nullptr)}};
              add_bound_json(doc, bound, std::nullopt);
              io::OutputSet file;
              file.add(*json, doc.dump(2) + "\n");
              file.commit();
            }
            return bound.stop_reason == "interrupted" ? InterruptGuard::exit_code() : 0;
          }};
}

}  // namespace formica::cli
