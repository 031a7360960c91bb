// SPDX-License-Identifier: MIT
// `formica info`, `formica verify` and `formica generate`.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

#include "cli/commands.h"
#include "cli/number_options.h"
#include "core/asymmetric.h"
#include "core/fixed_edges.h"
#include "core/error.h"
#include "core/tour.h"
#include "io/generator.h"
#include "io/instance_source.h"
#include "io/known_optima.h"
#include "io/line_reader.h"
#include "io/tsplib.h"
#include "solver/report.h"

namespace formica::cli {

Command add_info_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("info", "Name, size, edge weight type and known optimum of an instance");
  sub->add_option("instance", *path, "TSPLIB .tsp file or instance name")->required();
  return {sub, [path] {
            const Instance instance = io::load_instance(*path);
            // Known optima are of tours without fixed edges (linhp318 is named lin318 in its file).
            const auto optimum =
                instance.fixed_edges().empty() ? known_optimum(instance.name(), instance.n()) : std::nullopt;
            std::cout << "name: " << instance.name() << "\n"
                      << "n: " << instance.n() << "\n"
                      << "edge_weight_type: " << to_string(instance.type()) << "\n"
                      << "optimum: " << (optimum ? std::to_string(*optimum) : "unknown") << "\n";
            if (!instance.fixed_edges().empty()) std::cout << "fixed_edges: " << instance.fixed_edges().size() << "\n";
            if (!instance.comment().empty()) std::cout << "comment: " << instance.comment() << "\n";
            return 0;
          }};
}

Command add_verify_command(CLI::App& app) {
  auto paths = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* sub = app.add_subcommand("verify", "Check that a tour visits every city once and print its exact length");
  sub->add_option("instance", paths->first, "TSPLIB .tsp file or instance name")->required();
  sub->add_option("tour", paths->second, "TSPLIB .tour file")->required();
  return {sub, [paths] {
            // An asymmetric (ATSP) instance as `formica solve` solves it: the tour's directed length.
            const io::TsplibProblem problem = io::load_problem(paths->first);
            const auto* matrix = std::get_if<AsymmetricMatrix>(&problem);
            const std::string name = matrix ? matrix->name() : std::get<Instance>(problem).name();
            const int n = matrix ? matrix->n() : std::get<Instance>(problem).n();
            std::vector<int32_t> order = io::read_tour(paths->second);
            const std::span<const FixedEdge> fixed =
                matrix ? std::span<const FixedEdge>() : std::get<Instance>(problem).fixed_edges();
            try {
              validate_permutation(order, n);
              if (const auto lacking = missing_fixed_edge(order, fixed))
                throw InputError(concat("it lacks the fixed edge ", (*lacking)[0] + 1, "-", (*lacking)[1] + 1,
                                        " (FIXED_EDGES_SECTION)"));
            } catch (const InputError& e) {
              throw InputError(concat(paths->second, ": not a tour of ", name, ": ", e.what()));
            }
            const int64_t length = matrix ? directed_length(*matrix, order, true)
                                          : Tour(std::get<Instance>(problem), std::move(order)).length();
            std::cout << "valid " << (matrix ? "directed tour of the asymmetric " : "tour of ") << name << ", length "
                      << length;
            // Known optima are of symmetric TSPLIB instances; the text is made where the value is
            // known to be there (g++ 12 sees an optional read through two branches as maybe unset).
            if (!matrix && fixed.empty())
              if (const std::optional<int64_t> optimum = known_optimum(name, n)) {
                const int64_t value = optimum.value();
                char gap[32];
                std::snprintf(gap, sizeof gap, "%.4f", gap_percent(length, value));
                std::cout << " (optimum " << value << ", gap " << gap << "%)";
              }
            std::cout << "\n";
            return 0;
          }};
}

Command add_generate_command(CLI::App& app) {
  struct Options {
    int cities = 1000;
    std::string kind = "uniform";
    uint64_t seed = 1;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("generate", "Write a seeded random instance (DIMACS-style) as a .tsp file");
  sub->add_option("--cities", o->cities, "Number of cities")
      ->required()
      ->check(whole_number_in(3, io::kMaxGeneratedCities));
  sub->add_option("--kind", o->kind, "uniform or clustered")->capture_default_str();
  sub->add_option("--seed", o->seed, "Random seed")
      ->capture_default_str()
      ->check(whole_number_in<uint64_t>(0, std::numeric_limits<uint64_t>::max()));
  sub->add_option("--output", o->output, "Output .tsp file")->required();
  return {sub, [o] {
            const std::optional<io::OutputPath> output = checked_output("--output", o->output, {});
            const Instance instance = io::generate_instance(o->cities, io::instance_kind(o->kind), o->seed);
            io::write_tsplib(o->output, instance);
            (summary_on_stderr({&output}) ? std::cerr : std::cout) << "wrote " << io::printable(o->output) << ": " << instance.name() << ", " << instance.n()
                      << " cities\n";
            return 0;
          }};
}

}  // namespace formica::cli
