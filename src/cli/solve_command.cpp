// SPDX-License-Identifier: MIT
// `formica solve`: read or generate an instance, run the solver with progress on stderr, print a
// one-line summary, and write the tour, the JSON report and the pictures. Ctrl-C stops cleanly
// and still writes the best tour found so far.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "core/error.h"
#include "core/tour.h"
#include "cuda/device.h"
#include "distributed/start_ranks.h"
#include "io/generator.h"
#include "io/instance_source.h"
#include "io/known_optima.h"
#include "io/svg.h"
#include "io/tsplib.h"
#include "solver/islands.h"
#include "solver/parameters.h"
#include "solver/portfolio.h"
#include "solver/report.h"
#include "solver/route_solver.h"
#include "solver/solver.h"

namespace formica::cli {
namespace {

constexpr int kBuiltinCities = 1000;
constexpr uint64_t kBuiltinSeed = 1;

struct SolveOptionsCli {
  std::string instance;
  std::map<std::string, std::string> values;  // parameter name -> text given on the command line
  std::string initial_tour;  // a TSPLIB .tour file to start from
  bool open = false;               // a Hamiltonian path instead of a closed tour
  std::optional<std::string> start, end;  // fixed ends of the path (1-based city numbers as given)
  std::optional<std::string> tour_out, json_out, svg_out, history_out;
  bool quiet = false;
  bool bound = false;  // the Held-Karp bound after the search
};

std::string format_gap(int64_t length, std::optional<int64_t> optimum) {
  if (!optimum) return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "  gap %.2f%%", gap_percent(length, *optimum));
  return buffer;
}

/// The output files, checked before any work (io/output_file.h).
struct SolveOutputs {
  std::optional<io::OutputPath> tour, json, svg, history;
};

/// Checks every output: a file that can be written, none of the run's inputs, each at most once
/// (two options naming one file would overwrite each other). The one exception: --tour-out may
/// be --initial-tour, a regular file (`--initial-tour a.tour --tour-out a.tour` continues a run),
/// which is read whole before the search, the new tour replacing it by a rename; a FIFO or a
/// stream that formica would read and write at once is refused.
SolveOutputs check_outputs(const SolveOptionsCli& o, const RunInputs& inputs) {
  RunInputs tour_inputs;
  std::copy_if(inputs.begin(), inputs.end(), std::back_inserter(tour_inputs),
               [](const auto& input) { return input.first != "--initial-tour"; });
  std::optional<io::OutputPath> tour = checked_output("--tour-out", o.tour_out, tour_inputs);
  if (tour && tour->special) io::expect_not_an_input(*tour, inputs);
  SolveOutputs out{std::move(tour), checked_output("--json", o.json_out, inputs),
                   checked_picture("--svg", o.svg_out, inputs), checked_picture("--plot-history", o.history_out, inputs)};
  std::vector<io::OutputPath> all;
  for (const auto* output : {&out.tour, &out.json, &out.svg, &out.history})
    if (*output) all.push_back(**output);
  io::expect_distinct_outputs(all);
  return out;
}

/// --svg and --plot-history: the tour over the cities, and the best length (the gap when the
/// optimum is known) against time.
/// `drawn` is the symmetric instance as given (--svg is refused earlier for others).
void add_pictures(io::OutputSet& files, const SolveOutputs& out, const RouteProblem& problem, const Instance* drawn,
                  const Result& result, std::optional<int64_t> optimum) {
  const std::optional<double> gap =
      optimum ? std::optional<double>(gap_percent(result.tour.length(), *optimum)) : std::nullopt;
  const std::string title = io::picture_title(problem.name(), std::to_string(result.tour.length()), gap);
  if (out.svg)
    files.add(*out.svg, io::tour_svg(*io::drawing_coordinates(*drawn), result.tour.order(), title, !problem.ends().any()));
  if (out.history) {
    std::vector<double> seconds, values;
    for (const HistoryPoint& h : result.history) {
      seconds.push_back(h.seconds);
      values.push_back(optimum ? gap_percent(h.length, *optimum) : static_cast<double>(h.length));
    }
    files.add(*out.history, io::convergence_svg(seconds, values, result.seconds, title,
                                                optimum ? "gap above the optimum (%)" : "best tour length"));
  }
}

/// A 1-based city number given to `option` (--start-city, --end-city) as a 0-based city; given
/// empty ("") is an error, as any other text that is not a whole number.
std::optional<int64_t> city_option(std::string_view option, const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  const int64_t city = parse_value<int64_t>(option, *text);
  FORMICA_EXPECTS(city > std::numeric_limits<int64_t>::min(), "--", option, " ", city,
                  ": no such city (cities are numbered from 1)");
  return city - 1;
}

/// --open, --start-city and --end-city as 0-based ends (their range is checked against the instance later).
PathEnds path_ends(const SolveOptionsCli& o) {
  PathEnds ends;
  ends.open = o.open;
  ends.start = city_option("start-city", o.start);
  ends.end = city_option("end-city", o.end);
  return ends;
}

/// ", open path", ", path from city 3 to city 7" and the like; empty for a closed tour.
std::string describe_route(const PathEnds& ends) {
  if (!ends.any()) return "";
  return concat(", path", ends.start ? concat(" from city ", *ends.start + 1) : std::string(),
                ends.end ? concat(" to city ", *ends.end + 1) : std::string(),
                ends.start || ends.end ? "" : " with free ends");
}

/// The problem on one line, and on a second how it is solved when that is not as it is: "pr76 (n =
/// 76, EUC_2D, path with free ends, optimum 108159)\nformica: solved as a symmetric EXPLICIT ...".
std::string describe_problem(const RouteProblem& problem, const Instance* symmetric, const PathEnds& ends, bool builtin,
                             std::optional<int64_t> optimum) {
  std::string text = concat(problem.name(), " (n = ", problem.n(), ", ",
                            symmetric ? to_string(symmetric->type()) : std::string_view("ATSP"), describe_route(ends),
                            builtin ? ", built-in generated instance" : "",
                            optimum ? ", optimum " + std::to_string(*optimum) : std::string(), ")");
  const Instance& instance = problem.solved_instance();
  if (&instance != symmetric)
    text += concat("\nformica: solved as a symmetric ", instance.has_path_city() ? "" : "EXPLICIT ", "instance of ",
                   instance.n(), " cities (", symmetric ? "one dummy city for the path's ends" : "two per city: Jonker-Volgenant",
                   symmetric || !ends.any() ? "" : ", one dummy city for the path's ends", ")");
  return text;
}

/// When the run stops, as the user asked or by default (a run of one rank on the default budget
/// also when it stops improving or meets the bound beside it: solver.h, ResolvedRequest::default_budget).
std::string describe_stops(const ResolvedRequest& resolved, int ranks) {
  const SolverConfig& config = resolved.config;
  const bool default_budget = resolved.default_budget() && ranks == 1;
  return concat("stops after ", config.iterations ? std::to_string(*config.iterations) + " iterations" : std::string(),
                config.iterations && config.time_limit ? " or " : "",
                config.time_limit ? concat(*config.time_limit, " s") : std::string(),
                resolved.request.time_limit || resolved.request.iterations ? "" : " (the default for this size)",
                config.target ? ", or at length " + std::to_string(*config.target) : std::string(),
                default_budget ? ", or once it stops improving" : "",
                default_budget && resolved.n <= kBoundedCities ? " or meets the Held-Karp bound computed beside it" : "",
                " (Ctrl-C or SIGTERM stops early and keeps the best tour)");
}

/// The islands of a run on one line ("4 ranks (islands, seeds 1 to 4), best tours exchanged every
/// 2 s through NCCL"), empty for a run of one.
std::string describe_islands(const ResolvedRequest& resolved, int ranks, const std::string& transport) {
  const SolverConfig& config = resolved.config;
  const double interval = resolved.island_interval();
  if (ranks > 1)
    return concat(ranks, " ranks (islands, seeds ", config.seed, " to ", config.seed + ranks - 1,
                  "), best tours exchanged every ", interval, " s through ", transport);
  if (config.islands <= 1) return "";
  const int each = threads_per_island(resolved.request);  // the island's colonies and host threads together
  return concat(config.islands, " islands in this process (seeds ", config.seed, " to ",
                config.seed + config.islands - 1, ", ",
                config.gpus > 0 ? concat("on ", config.gpus, config.gpus == 1 ? " GPU" : " GPUs")
                                : concat(each, each == 1 ? " CPU thread each" : " CPU threads each"),
                "), best tours exchanged every ", interval, " s through host memory");
}

/// Progress on stderr: every improvement, and a line a second at most otherwise; the ranks' best
/// lengths at their exchanges.
std::function<void(const Progress&)> progress_printer(std::optional<int64_t> optimum) {
  return [optimum, last_print = -1.0](const Progress& p) mutable {
    if (!p.rank_best.empty()) {  // an exchange of the ranks' best tours
      char line[96];
      std::snprintf(line, sizeof line, "exchange   %8.2f s  best %lld", p.seconds, static_cast<long long>(p.best_length));
      std::cerr << line << format_gap(p.best_length, optimum) << "  ranks:";
      for (int64_t best : p.rank_best) std::cerr << " " << (best >= 0 ? std::to_string(best) : "failed");
      std::cerr << "\n";
      return;
    }
    if (!p.improved && p.seconds - last_print < 1.0) return;
    last_print = p.seconds;
    char line[160];
    std::snprintf(line, sizeof line, "iter %6lld  %8.2f s  best %lld", static_cast<long long>(p.iteration), p.seconds,
                  static_cast<long long>(p.best_length));
    std::cerr << line << format_gap(p.best_length, optimum) << "\n";
  };
}

/// Every output of the run together, after the bound: all of them or, when one fails, none.
void write_outputs(const SolveOutputs& outputs, const RouteProblem& problem, const Instance* symmetric,
                   const Result& result, std::optional<int64_t> optimum,
                   const std::optional<bounds::LowerBound>& bound) {
  io::OutputSet files;
  if (outputs.tour) files.add(*outputs.tour, io::tour_text(problem.name(), result.tour));
  if (outputs.json) {
    std::string report = result_json(problem.name(), problem.n(), symmetric ? to_string(symmetric->type()) : "EXPLICIT",
                                     result, optimum);
    if (bound) {
      nlohmann::json doc = nlohmann::json::parse(report);
      add_bound_json(doc, *bound, result.tour.length());
      report = doc.dump(2) + "\n";
    }
    files.add(*outputs.json, std::move(report));
  }
  add_pictures(files, outputs, problem, symmetric, result, optimum);
  files.commit();
}

/// The one-line summary, on stdout (stderr when an output is written to stdout).
void print_summary(std::FILE* to, const std::string& name, const Result& result, std::optional<int64_t> optimum,
                   bool mpi_ranks) {
  const std::string on_ranks =
      result.ranks > 1 ? concat(" x ", result.ranks, mpi_ranks ? " ranks" : " islands",
                                result.gpus > 1 ? concat(" on ", result.gpus, " GPUs") : std::string(), " (",
                                result.exchanges, " exchanges)")
                       : std::string();
  // A run whose set-up the limit cut short names the search that ran (solver/quick_search.h).
  const std::string algorithm = result.setup_stopped
                                    ? concat("stretch walks (stopped before ", to_string(result.config.algorithm), " was set up)")
                                    : std::string(to_string(result.config.algorithm));
  std::fprintf(to, "%s: best %lld%s after %lld iterations in %.2f s, %s on %s (%s%s, stopped by %s)\n", name.c_str(),
              static_cast<long long>(result.tour.length()), format_gap(result.tour.length(), optimum).c_str(),
              static_cast<long long>(result.iterations), result.seconds, algorithm.c_str(),
              std::string(to_string(result.backend)).c_str(), result.device.c_str(), on_ranks.c_str(),
              result.stop_reason.c_str());
}

/// Choices that cannot run here fail now, before any output: GPU-only choices on the CPU, or a GPU
/// plan that refuses this instance. Returns Ant System's GPU plan to print (empty for the others).
std::string checked_gpu_plan(const SolverConfig& config, Backend backend, int n) {
  if (backend == Backend::Cuda && config.algorithm == Algorithm::AntSystem)
    return aco::plan_gpu(config.ant_system, n, config.ant_system.ants > 0 ? config.ant_system.ants : n).describe();
  if (backend == Backend::Cpu) aco::require_cpu_defaults(config.ant_system);
  return {};
}

/// What runs, on stderr: the problem, auto's pick, the algorithm and backend, the GPU and memory
/// plans, the threads' note, the start tour, the islands and the stops.
void print_resolved(const SolveOptionsCli& o, const RouteProblem& problem, const Instance* symmetric,
                    const PathEnds& ends, std::optional<int64_t> optimum, const ResolvedRequest& resolved,
                    const std::string& gpu_plan, int ranks, const std::string& transport) {
  const SolverConfig& config = resolved.config;
  const Backend backend = resolved.backend;
  const Instance& instance = problem.solved_instance();
  std::cerr << "formica: " << describe_problem(problem, symmetric, ends, o.instance.empty(), optimum) << "\n";
  if (resolved.request.algorithm == Algorithm::Auto)
    std::cerr << "formica: " << portfolio_summary(config, instance.n(), instance.type(), backend) << "\n";
  std::cerr << "formica: algorithm " << to_string(config.algorithm) << " on "
            << (backend == Backend::Cuda ? "the GPU (cuda)" : "the CPU") << ", "
            << config.describe_algorithm() << ", seed " << config.seed << "\n";
  if (!gpu_plan.empty()) std::cerr << "formica: GPU " << gpu_plan << "\n";
  if (!resolved.threads_note.empty()) std::cerr << "formica: " << resolved.threads_note << "\n";
  if (!resolved.backend_note.empty()) std::cerr << "formica: " << resolved.backend_note << "\n";
  if (!resolved.initial_tour.empty()) {
    const int64_t length = problem.length(resolved.initial_tour);
    std::cerr << "formica: starting from " << o.initial_tour << " (length " << length << format_gap(length, optimum)
              << ")\n";
  }
  const std::string memory = memory_plan(instance, config, backend);
  if (!memory.empty()) std::cerr << "formica: memory " << memory << "\n";
  if (const std::string islands = describe_islands(resolved, ranks, transport); !islands.empty())
    std::cerr << "formica: " << islands << "\n";
  std::cerr << "formica: " << describe_stops(resolved, ranks) << "\n";
}

/// The Held-Karp bound of `bounded` after the search, when --bound asks: on its own time
/// (bounds::default_bound_time), not after a run that a signal stopped; a signal during it ends the
/// ascent (the bound stays proven). Checked against the tour before anything is written.
std::optional<bounds::LowerBound> bound_after_search(const SolveOptionsCli& o, bool quiet, const Instance& solved,
                                                     const Instance& bounded, int threads, const Result& result) {
  if (!o.bound || result.stop_reason == "interrupted") return std::nullopt;
  if (!quiet) std::cerr << "formica: Held-Karp lower bound (up to " << bounds::default_bound_time(solved.n()) << " s)\n";
  const InterruptGuard bound_guard;
  bounds::LowerBound bound = compute_bound(bounded, BoundRequest{0, 0.0, threads, bound_guard.flag()});
  check_bound_below(bound, result.tour.length());  // before anything is written
  return bound;
}

int run_solve(const SolveOptionsCli& o, std::chrono::steady_clock::time_point start,
              std::unique_ptr<distributed::Communicator>& ranks, RankErrors& errors) {
  // Every rank does the same until the setup barrier (rank_errors.h); only rank 0 speaks and writes.
  errors.arm();
  const bool quiet = o.quiet || ranks->rank() != 0;
  SolverConfig request;
  for (const auto& [name, value] : o.values) set_parameter(request, name, value);
  request.validate();
  // Every output is checked before the instance is read: a bad path costs nothing, and an output
  // that is an input is refused before it can be replaced.
  RunInputs inputs;
  if (!o.instance.empty()) inputs.emplace_back("the instance", io::resolve_instance_path(o.instance));
  if (!o.initial_tour.empty()) inputs.emplace_back("--initial-tour", o.initial_tour);
  const SolveOutputs outputs = check_outputs(o, inputs);
  // Ctrl-C and SIGTERM from here on stop cleanly: during the set-up the search returns its start
  // tour; before the search exists there is no tour, and one line says so.
  std::optional<InterruptGuard> interrupt_guard(std::in_place);
  // A fresh process spends a tenth of a second or more creating the CUDA context: let it happen
  // while the instance is read and prepared.
  if (request.backend != Backend::Cpu) cuda::start_context();

  const io::TsplibProblem loaded =
      o.instance.empty() ? io::generate_instance(kBuiltinCities, io::InstanceKind::Uniform, kBuiltinSeed)
                         : io::load_problem(o.instance);
  const PathEnds ends = path_ends(o);
  const auto* symmetric = std::get_if<Instance>(&loaded);
  const RouteProblem problem =
      symmetric ? RouteProblem(*symmetric, ends) : RouteProblem(std::get<AsymmetricMatrix>(loaded), ends);
  FORMICA_EXPECTS(!o.svg_out || (symmetric && io::drawing_coordinates(*symmetric)), "--svg: ",
                  problem.name(), " has no coordinates to draw (",
                  symmetric ? "an EXPLICIT instance without DISPLAY_DATA_SECTION" : "an asymmetric instance", ")");
  const Instance& instance = problem.solved_instance();
  // The known optima are those of closed symmetric tours (linhp318's, with its fixed edge, is not
  // one of a tour's length).
  const bool fixed_edges = symmetric && !symmetric->fixed_edges().empty();
  const std::optional<int64_t> optimum =
      symmetric && !ends.any() && !fixed_edges ? known_optimum(instance.name(), instance.n()) : std::nullopt;
  if (o.bound) problem.expect_closed_symmetric("--bound");
  std::vector<int32_t> initial_tour;
  if (!o.initial_tour.empty()) {
    problem.expect_closed_symmetric("--initial-tour");
    initial_tour = io::read_tour(o.initial_tour);
  }
  // The one resolution of the request: printed below, and what runs (problem.solve).
  const ResolvedRequest resolved =
      problem.resolve(request, std::move(initial_tour), "--initial-tour " + o.initial_tour);
  const SolverConfig& config = resolved.config;
  const Backend backend = resolved.backend;
  const std::string gpu_plan = checked_gpu_plan(config, backend, instance.n());

  if (const int code = errors.agree(nullptr)) return code;
  std::string transport;
  ranks = distributed::choose_transport(std::move(ranks), backend == Backend::Cuda, transport);

  if (!quiet) print_resolved(o, problem, symmetric, ends, optimum, resolved, gpu_plan, ranks->size(), transport);

  if (interrupt_guard->flag()->load()) {
    if (!quiet) std::cerr << "formica: interrupted while reading and preparing the instance: no tour yet, nothing written\n";
    return InterruptGuard::exit_code();
  }
  SolveOptions options;
  options.interrupt = interrupt_guard->flag();
  options.start = start;
  options.gpu_exit_seconds = cuda::kContextReleaseSeconds;
  options.ranks = ranks.get();
  if (!quiet) options.on_progress = progress_printer(optimum);
  // With islands (mpirun, --islands, --gpus) the best closed tour so far goes to --tour-out at every exchange that shortened it
  // (written atomically): a run that mpirun aborts, a rank killed, still leaves it.
  if (outputs.tour && (ranks->size() > 1 || config.islands > 1) && symmetric && !ends.any() && !fixed_edges)
    options.on_checkpoint = [&](std::span<const int32_t> tour, int64_t) {
      io::write_tour(outputs.tour->given, problem.name(), Tour(instance, std::vector<int32_t>(tour.begin(), tour.end())));
    };
  const Result result = problem.solve(resolved, options);
  interrupt_guard.reset();

  if (ranks->rank() != 0) return errors.agree(result.failure);  // rank 0 writes, then the ranks meet
  // Fixed edges: the bound of the tours through them (bounds::lower_bound), on the instance as
  // given; the solved instance is their transformation's.
  const std::optional<bounds::LowerBound> bound =
      bound_after_search(o, quiet, instance, fixed_edges ? *symmetric : instance, config.threads, result);
  const bool bound_interrupted = bound && bound->stop_reason == "interrupted";
  write_outputs(outputs, problem, symmetric, result, optimum, bound);
  std::FILE* summary = summary_on_stderr({&outputs.tour, &outputs.json, &outputs.svg, &outputs.history}) ? stderr : stdout;
  print_summary(summary, problem.name(), result, optimum, ranks->size() > 1);
  if (bound) std::fprintf(summary, "%s: %s\n", problem.name().c_str(), bound_line(*bound, result.tour.length(), optimum).c_str());
  std::fflush(summary);
  if (const std::string found = found_by_line(result); !o.quiet && !found.empty())
    std::cerr << "formica: " << found << "\n";
  if (ranks->size() > 1)
    if (const int code = errors.agree(result.failure)) return code;
  return result.stop_reason == "interrupted" || bound_interrupted ? InterruptGuard::exit_code() : 0;
}

}  // namespace

Command add_solve_command(CLI::App& app, std::chrono::steady_clock::time_point start,
                          std::unique_ptr<distributed::Communicator>& ranks, RankErrors& errors) {
  auto o = std::make_shared<SolveOptionsCli>();
  CLI::App* sub = app.add_subcommand("solve", "Solve an instance (the built-in 1000-city one if none is given)");
  sub->add_option("instance", o->instance,
                  "TSPLIB .tsp file, or a TSPLIB name (in $FORMICA_TSPLIB_DIR/tsp or shipped with formica)");
  // Every solver parameter comes from the one table that Python and the bench harness share.
  const SolverConfig defaults;
  for (const Parameter& p : parameters()) {
    const std::string name(p.name);
    const nlohmann::json value = p.get(defaults);
    std::string help(p.help);
    if (!value.is_null()) help += " [default: " + (value.is_string() ? value.get<std::string>() : value.dump()) + "]";
    sub->add_option_function<std::string>(
        "--" + name, [o, name](const std::string& text) { o->values[name] = text; }, help);
  }
  sub->add_option("--initial-tour", o->initial_tour,
                  "Start from this TSPLIB .tour file (e.g. an earlier run's --tour-out): focused colonies (auto, "
                  "or mmas/acs with --focused-edges) and eax only");
  sub->add_flag("--open", o->open,
               "Find a Hamiltonian path (no closing edge) with free ends; --start-city and --end-city fix its ends");
  sub->add_option("--start-city", o->start, "The path starts at this city (1-based, as in TSPLIB); implies --open");
  sub->add_option("--end-city", o->end, "The path ends at this city (1-based); implies --open");
  sub->add_option("--tour-out", o->tour_out, "Write the best tour as a TSPLIB .tour file");
  sub->add_option("--json", o->json_out, "Write a JSON report of the run");
  sub->add_option("--svg", o->svg_out, "Write a picture of the best tour over the cities (SVG)");
  sub->add_option("--plot-history", o->history_out,
                  "Write the best length (the gap when the optimum is known) against time, log scale (SVG)");
  sub->add_flag("--quiet", o->quiet, "No progress on stderr");
  sub->add_flag("--bound", o->bound,
                "After the search, compute the Held-Karp lower bound (as `formica bound` does, on its own time: n / 2000 s, "
                "from 10 to 120) and print the tour's proven gap to it; --json gets lower_bound and gap_to_bound_percent");
  return {sub, [o, start, &ranks, &errors] { return run_solve(*o, start, ranks, errors); }};
}

}  // namespace formica::cli
