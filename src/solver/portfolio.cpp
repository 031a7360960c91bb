// What `--algorithm auto` runs (see portfolio.h). The numbers come from bench/quality_time.sh.
#include "solver/portfolio.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "aco/colony_merge.h"
#include "core/error.h"
#include "hybrid/host_threads.h"
#include "localsearch/config.h"
#include "localsearch/cpu/iterated_lin_kernighan.h"

namespace formica {
namespace {

/// Below kSmall cities auto runs quadrant neighbour lists and, on the GPU, independent colonies.
/// Quadrant lists: on clustered instances nearest lists never leave a cluster (H200, 3 seeds:
/// fl1577 4.34 % -> 1.23 % in 2 s, dsj1000 0.40 % -> 0.03 % in 1.5 s, lin318 0.32 % -> 0 in
/// 0.5 s). From 2,000 cities on they measured worse or no better (one colony of 4 sqrt(n) ants;
/// bench/results/quality_tuning_h200.txt): pr2392 0.36 % -> 0.57 % in 0.72 s (3 seeds, section 1),
/// usa13509 0.43 % -> 0.52 % in 5.6 s (5 seeds, section 2 against the reference table of then),
/// the 200,000-city instance 1.0 % -> 1.1 % in 60 s (2 seeds, section 2). In the band with merged
/// colonies (below), which Lin-Kernighan threads walking independently join, quadrant lists came
/// out ahead at 10 s (H200, 3 seeds, stop at 0.1 %, runs that got there: d2103 1 -> 2, pr2392 2 ->
/// 3, u2152 and u2319 3 of 3 either way; section 17), while pr2392 at 0.72 s, one colony, ended
/// 0.129 % with nearest lists and 0.289 % with quadrant ones.
/// Colonies: one colony of 256 focused ants converges on the best of 256 walks every iteration and
/// stalls (H200, 10 s: d1291 0.85 %, where two CPU threads with 32 ants reach 0.00 %); colonies
/// of 32 ants keep the CPU's selection pressure. A warp per ant leaves most of the GPU idle at 256
/// ants, so 32 colonies cost little more time per iteration than 8 (H200, the 10-s sweep's 11
/// misses below 2,000 cities: 7 of them reach 0.1 % with 32 colonies, none with 8).
constexpr int kSmall = 2000, kGpuSmallColonies = 32, kOrOptBelow = 4000;
/// From kStretchFrom cities and kMinStretchThreads Lin-Kernighan threads, the threads walk
/// stretches of the tour (below).
constexpr int kStretchFrom = 150000, kMinStretchThreads = 2;

/// From kQuadrantThreadsFrom cities the Lin-Kernighan threads search quadrant lists of their own
/// (--lk-lists quadrant; the stretch walks of very large tours take 8 quadrant neighbours). The
/// 2 x H200 host, one GPU and 16 cores a run, default (the colonies' 10 nearest) against quadrant,
/// gap to the optimum: pla85900 120 s, seeds 1-5, median 0.2365 / 0.2196 % (4 seeds of 5 ahead);
/// pla33810 60 s, seeds 1-3, 0.1954 / 0.1798, 0.2429 / 0.1869, 0.2458 / 0.1624 %; 200,000 uniform
/// cities 60 s, seeds 1-2, 319,483,620 / 319,484,256 and 319,504,555 / 319,493,984 (level). Below
/// it they were not ahead: usa13509 10 s, seeds 1-5, median 0.1519 / 0.1600 % (2 seeds of 5
/// ahead); d18512 20 s, seeds 1-3, 0.0961 / 0.1028, 0.0783 / 0.0874, 0.1178 / 0.0806 % (1 of 3)
/// (bench/results/lk_lists_breadth_2026-11-29, quadrant_end_to_end_2026-11-30).
constexpr int kQuadrantThreadsFrom = 30000;

/// On the CPU backend, from kCpuAlphaThreadsFrom to kCpuAlphaThreadsBelow cities, the whole-tour
/// threads take LKH's 5 alpha-nearest once a Held-Karp ascent on a thread beside them ends
/// (--lk-lists alpha, aco/colony_merge.h). This project's 2-core VM (one ant thread, one
/// Lin-Kernighan thread), the default lists against alpha, gap to the optimum, one run each:
/// usa13509 30 s seeds 1-2 0.18 / 0.06, 0.16 / 0.15 %; d18512 60 s 645,829 / 645,773 and 645,882 /
/// 645,833; pla33810 60 s 0.2945 / 0.2535, 0.3025 / 0.2223 %; pla85900 120 s 0.4142 / 0.3251,
/// 0.3915 / 0.3786 %, 30 s 0.5868 / 0.5255 %: ahead on 9 runs of 9. 200,000 uniform cities at
/// 120 s were behind (319,791,311 / 319,950,886: the one-thread ascent takes most of the run).
/// Beside the GPU's colonies they were level (pla85900 120 s, seeds 1-5, median 0.2295 % against
/// 0.2195 %), so the GPU keeps quadrant lists (bench/results/alpha_threads_2026-12-01). On 16
/// cores (8 + 8 threads) alpha against the lists before: usa13509 20 s 0.1827 / 0.1152, 0.1274 /
/// 0.1558 %; d18512 30 s 0.0792 / 0.0876, 0.0942 / 0.0794 %; pla33810 60 s 0.2301 / 0.2311 %;
/// pla85900 120 s 0.2220 / 0.2636 %: level, ahead on the largest (bench/results/stop58_2026-12-01).
constexpr int kCpuAlphaThreadsFrom = 10000, kCpuAlphaThreadsBelow = 100000;

/// From kSmall to kOrOptBelow cities, given at least kBandSecondsPerCity seconds per city, the GPU
/// runs kBandColonies colonies of 128 ants and merges their best tours every 10 iterations
/// (--merge-tours, aco/colony_merge.h); with less time, one colony of 1,024 ants, which converges
/// sooner. H200, one colony of 1,024 against 8 x 128 with the merge: pr2392, median gap over 5
/// seeds, 0.247 / 0.282 % at 0.72 s (fresh processes 0.295 / 0.314 %, the target being 0.31 %),
/// 0.247 / 0.232 % at 1 s, 0.247 / 0.184 % at 2 s, 0.154 / 0.117 % at 5 s; pcb3038 0.160 / 0.181 %
/// in 5 s (3 seeds); the 10-s sweep's rows (seed 1, stop at 0.1 %) d2103 0.446 -> 0.098 %, u2152
/// 0.307 -> 0.100 %, pr2392 0.126 -> 0.096 %, u2319 0.252 -> 0.287 %. 8 x 128 without the merge:
/// pr2392 0.179 %, u2319 0.252 % at 10 s. Section 15 of the tuning file.
constexpr int kBandColonies = 8;
constexpr double kBandSecondsPerCity = 2e-3;

/// Whether auto runs merged colonies: the GPU, the band, and a budget of `seconds` (infinite
/// when the run is bounded by iterations only).
bool merged_colonies(int n, Backend backend, double seconds) {
  return backend == Backend::Cuda && n >= kSmall && n < kOrOptBelow && seconds >= kBandSecondsPerCity * n;
}

/// Ants per iteration (per colony). The CPU runs an ant per thread at a time, so a few dozen keep
/// every thread busy and the iterations short. The GPU runs every ant of an iteration at once, a
/// warp each, and an H200 holds thousands of warps, so many ants cost little more per iteration
/// than a few hundred (H200, pr2392 4.1 ms per iteration with 256 ants). Measured at the reference
/// times (3 seeds, median gap; section 5 of the tuning file): 4 sqrt(n) ants (256, 288 and 480):
/// pr2392 0.36 %, fnl4461 0.46 %, usa13509 0.40 %; 1024: 0.17, 0.29, 0.42 %; 2048: 0.27, 0.34,
/// 0.36 %. Above 50,000 cities the 1,024 ants of the
/// measured pla85900 and 200,000-city runs stay (each ant holds 3 n ints of device memory). Below
/// kSmall cities: kGpuSmallColonies colonies of 32.
int portfolio_ants(int n, Backend backend, bool merged) {
  if (backend != Backend::Cuda || n < kSmall) return 32;
  if (merged) return 1024 / kBandColonies;
  return n >= 10000 && n < 50000 ? 2048 : 1024;
}

/// The ants' local search: 2-opt, Or-opt and 3-opt, except from kSmall to kOrOptBelow cities, where
/// one colony of 1,024 ants with 3-opt stalls early. H200, median gaps, Or-opt -> 3-opt: below
/// kSmall, the 10-s sweep's u1817 0.37 -> 0.11 %, pr1002 0.15 -> 0.00 % in 5 s (3 seeds), time to
/// 0.1 % shorter on 9 of the 12 other rows that changed; in the band, pr2392 0.25 -> 0.47 % at
/// 0.72 s (5 seeds), pcb3038 0.16 -> 0.22 % in 5 s (3 seeds); above it, fnl4461 0.29 -> 0.24 % at
/// 1.54 s, usa13509 0.36 -> 0.26 % at 5.6 s, pla85900 1.28 -> 0.92 % at 16.4 s (5 seeds each),
/// pla7397, d18512 and pla33810 0.32 / 0.29 / 0.45 -> 0.28 / 0.22 / 0.36 % (3 seeds). Two CPU
/// cores, 10 s: pr1002 0.14 -> 0.00 %, u1817 0.78 -> 0.15 %, pr2392 0.24 -> 0.29 %, pcb3038 0.23 ->
/// 0.22 % (1 seed).
localsearch::LocalSearchKind portfolio_local_search(int n) {
  return n >= kSmall && n < kOrOptBelow ? localsearch::LocalSearchKind::OrOpt
                                        : localsearch::LocalSearchKind::ThreeOpt;
}

/// Alpha-nearest lists are short: LKH's five hold nearly every optimal edge (tests/bounds).
constexpr int kAlphaNeighbours = 5;

/// The local search's neighbours: 12 on the GPU below kSmall, else 10. H200, the 10-s sweep below
/// 2,000 cities with 3-opt (1 seed, stop at 0.1 %): with 12, all 94 rows reach 0.1 % (u1432 in
/// 5.0 s, u1817 in 4.5 s; with 10 they end at 0.131 and 0.107 %), though 6 rows take 2 s more than
/// with 10 and 5 less, and pr1002 in 5 s ends at 0.088 % against 0.000 % (3 seeds); 16 leaves u1817
/// at 0.170 %. On two CPU cores 12 ends pr1002 at 0.148 % in 10 s against 0.000 % (3 seeds). From
/// 2,000 on 16 was no better on the sweep's misses (section 11 of the tuning file).
int portfolio_ls_neighbours(int n, Backend backend) {
  return backend == Backend::Cuda && n < kSmall ? 12 : 10;
}

/// Host threads of iterated Lin-Kernighan beside the colonies (--lk-threads): on the GPU from
/// kMinKickCities cities on, every hardware thread but two (the one driving the GPU and one for the
/// CUDA context and driver), which otherwise sit idle. On the CPU, in a run bounded by time, half of
/// the run's threads (the colonies keep the others; none with one thread): a run of counted
/// iterations stays repeatable from its seed. This project's 2-core VM, one ant thread and one
/// Lin-Kernighan thread against two ant threads (seeds 1-3, gap to the optimum; 2026-11-29): pr1002
/// 1 s 0.00 / 0.16 / 0.29 % against 0.33 / 0.24 / 0.28 %, pr2392 3 s 0.13 / 0.28 / 0.19 % against
/// 0.35 / 0.54 / 0.71 %, fnl4461 3 s 0.16 / 0.15 / 0.15 % against 0.41 / 0.39 / 0.56 % and 10 s
/// 0.11 / 0.10 / 0.14 % against 0.27 / 0.32 / 0.42 %, rl5915 5 s 0.56 / 0.44 / 0.46 % against
/// 0.53 / 0.47 / 0.56 %, usa13509 10 s 0.36 / 0.32 / 0.29 % against 0.51 % thrice; seed 1, 30 s:
/// usa13509 0.21 against 0.35 %, pla85900 1.05 against 1.20 %, 200,000 uniform cities 323.3 M
/// against 328.7 M; the H200 host's 16 cores, 200,000 cities, 30 s: 8 + 8 threads 320.8 M against
/// 327.6 M (bench/results/cpu_lk_threads_2026-11-29). Before the Lin-Kernighan threads' 3-opt steps
/// and independent walks the ant threads were ahead: pr1002 0.16 / 0.15 % against 0.00 / 0.15 %,
/// pr2392 0.37 % against 0.29 %.
/// On the GPU, H200 host (16 threads, so 14), 5 seeds, median gap
/// at the reference times without / with them: pr2392 0.247 / 0.247 % (fresh processes 0.295 / 0.237 %; with
/// 15 threads 0.341 %, oversubscribed), fnl4461 0.244 / 0.145 %, usa13509 0.257 / 0.208 %, pla85900 0.920 /
/// 0.438 %; the 10-s sweep's u2319 0.287 -> 0.077 % (in 0.17 s), though u2152 0.100 -> 0.107 % and pr2392
/// 0.096 -> 0.151 %. Section 16 of the tuning file. Below kSmall cities too since session 17 (walking
/// independently): the 10-s sweep over 3 seeds without / with them, medians within 0.1 %: 96 / 98 of 98
/// (u1432 0.1000 -> 0.073 %, u1817 0.157 -> 0.091 %), the medians' times to get there summed over the 98
/// rows 62.0 / 27.7 s (section 17). The price: a run below 2,000 cities, like one above, is no longer
/// repeatable from its seed alone.
/// With several islands in the process (--islands, --gpus) each takes its share of the threads.
int portfolio_lk_threads(int n, Backend backend, const SolverConfig& config) {
  if (n < localsearch::cpu::kMinKickCities) return 0;
  if (backend == Backend::Cuda)
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / config.islands - 2);
  const bool timed = config.time_limit && !config.iterations;
  return timed ? threads_per_island(config) / 2 : 0;
}

/// Edges a focused ant re-decides: about n / 8, from 16 up to 128 (bench/quality_time.sh, two CPU
/// cores): 8 (Skinderowicz's count of new edges) stalls near 0.7 % on pr1002 and 1 % on pr2392;
/// around n / 8 up to 128 reaches 0.2 % on both in 10 s, while 128 on pcb442 or 256 on usa13509
/// re-decides too much.
int portfolio_focused_edges(int n) { return std::clamp(n / 8, 16, 128); }

/// GA-EAX (population/edge_assembly_search.h) is far behind the colonies until its
/// population converges, then far ahead. One H100 host's 16 threads, the gap of eax / auto at
/// marks read from each run's history (bench/results/lkh_h100/eax_2026-11-27, seed 1 unless
/// named): usa13509 15 s 0.72 (seed 2: 0.26) / 0.108 %, 20 s 0.050 (0.047) / 0.105 %; d18512 40 s
/// 0.080 / 0.060 %, 50 s 0.019 / 0.060 %; pla33810 50 s 0.69 / 0.237 %, 60 s 0.163 / 0.237 %;
/// fnl4461 (5 seeds) at 3 s 0.14-0.63 %, at 4 s 0.003-0.005 %; pcb3038 (5 seeds) 0.001 % or less
/// at 2 s. Time to the optimum, eax / auto, seeds 1 and 2, 10 s (bench/results/eax_auto_2026-11-28/
/// h100_crossover): pr1002 0.42, 0.40 / 1.73, 0.95 s; d1291 1.10, 0.32 / 4.59 s, never (0.037 %);
/// u1817 0.53, 1.35 / never, never (0.026, 0.161 %); pr2392 0.78, 0.77 / 4.97, 3.94 s; pcb3038
/// 1.34, 3.06 / never (0.058, 0.004 %); fl1577 2.49, 0.67 / 1.03, 0.60 s; rat783 both within
/// 0.5 s (below kEaxMinCities the colonies lose nothing). Where they cross grows as about n^1.5
/// (seconds per n^1.5: pr2392 7e-6, pcb3038 8e-6, fnl4461 1.2e-5, usa13509 1.1e-5, d18512
/// 1.8e-5, pla33810 0.9e-5; fl1577, clustered, 4e-5, where both reach the optimum by 2.5 s),
/// hence kEaxSeconds with some margin. On the GPU the host threads run it beside the colonies,
/// which keep the early tours good (H100, fnl4461, seeds 1 / 2, gap at 1 / 5 / 20 s; this auto,
/// the Lin-Kernighan threads, GA-EAX alone: 0.38 / 0.036 / 0 % and 0.33 / 0.0066 / 0.0027 %;
/// 0.095 / 0.071 / 0.041 % and 0.130 / 0.044 / 0.036 %; 4.1 / 0.0044 / 0.0022 % and 3.6 / 0.0038 /
/// 0.0022 %; pcb3038 at 2 s 0.0036 % twice, 0.016 / 0.068 %, 0 / 0.0015 %;
/// bench/results/eax_auto_2026-11-28/h100_hybrid). Where this auto passes the Lin-Kernighan
/// threads' in a run of a longer time limit (seed 1, h100_guest_slot and h100_large): fnl4461
/// about 4 s, usa13509 16 s (0.117 against 0.119 %), d18512 42 s (at 40 / 45 s 0.081 / 0.021 %
/// against 0.060 %), pla33810 52 s (at 50 / 60 s 0.239 / 0.066 % against 0.237 %): 1.0e-5 to
/// 1.67e-5 s per n^1.5 on 14 threads (1.56e-5 scaled to 16), hence kEaxSeconds = 1.8e-5, which
/// gives pla33810 its GA-EAX threads at 120 s (0.046 % there, against 0.224 % before).
/// Fewer threads slow it by about the square root of their ratio (this project's 2-core VM:
/// pcb3038's optimum in 8-10 s against 1.6-4.2 s on 16 threads), and the CPU backend's colonies
/// are weaker than the GPU's (2 threads, pcb3038 at 5 s: eax 0.26 %, auto 0.31 %), so the rule
/// is the GPU host's on both. pla85900 (H200 host, seed 1, bench/results/eax_large_2026-11-29):
/// GA-EAX threads beside the colonies 0.316 % at 400 s (its population still climbing; the
/// Lin-Kernighan threads 0.222 %), 0.101 % at 540 s, where the Lin-Kernighan threads had stood at
/// 0.222 % since 400 s (500-s run): the rule (485 s there on 14 threads) holds at 85,900 cities
/// too. Above kEaxMaxCities nothing is measured yet.
///
/// The CPU backend, since its population climbs by Lin-Kernighan (apply_portfolio): half the
/// budget, kEaxCpuSeconds. This project's VM, 2 threads, seeds 1-3, at half of kEaxSeconds' budget
/// (bench/results/eax_lk_climb_2026-12-02/vm_cpu_backend.tar.xz): usa13509 at 40 s, GA-EAX 0.0040 /
/// 0.0010 / 0.0030 % against auto's colonies 0.1791 / 0.1702 / 0.1232 %; fnl4461 at 7.5 s, 0.0005 /
/// 0.0016 / 0.0027 % against 0.0783 / 0.0898 / 0.1074 %. At a quarter the colonies may still lead
/// (usa13509 at 20 s: GA-EAX 0.54-0.79 % on 3 seeds).
constexpr double kEaxSeconds = 1.8e-5, kEaxCpuSeconds = 0.9e-5;
constexpr int kEaxReferenceThreads = 16, kEaxMinCities = 1000, kEaxMaxCities = 90'000;

/// Beside the GPU's colonies from kEaxNearestFrom cities, GA-EAX's population climbs from
/// nearest-neighbour tours (eax_nearest_starts): random permutations take minutes to climb there
/// (pla85900: the population of 100 still climbing at 400 s), nearest-neighbour tours 3.4 s on the
/// H200 host's 14 threads. Alone such a population converges far above the optimum (pla85900, 50
/// tours, this project's VM: 0.87 %), but beside the colonies it takes their tour in its guest slot
/// (EdgeAssemblySearch::adopt) and mends it from its own diverse tours. H200 host, 14 threads,
/// pla85900, seed 1 unless named, every tour verified (bench/results/eax_nearest_2026-12-02):
/// 120 s, 50 tours: 0.2171 / 0.2123 / 0.2037 % (seeds 1-3) against the Lin-Kernighan threads'
/// 0.2289-0.3127 / 0.2085 / 0.1890 %: level; 30 tours 0.2098 / 0.2656 %, 100 tours 0.2378 %, 200
/// tours 0.3846 %. 200 s, 70 tours: 0.1714 %; 300 s, 100 tours: 0.1259 % (0.1440 % at 250 s),
/// where the Lin-Kernighan threads stood at 0.242 % (200 s) and 0.232 % (300 s; a 500-s run of
/// 2026-11-29's code, 0.289 % at 120 s against today's median of 0.2195 %) and the population
/// climbed from random tours at 0.359 % (300 s). Hence a crossing at 150 s on 14 threads then
/// (kEaxNearestSeconds n^1.5, scaled as kEaxSeconds), with kEaxNearestPopulation tours there,
/// until the Lin-Kernighan climbs below. The CPU's colonies, and GA-EAX alone, keep random starts:
/// nothing there is measured with nearest-neighbour ones.
///
/// Lin-Kernighan climbs (EaxClimb::LinKernighan, 2026-12-02): the same nearest-neighbour tours
/// climbed on by Lin-Kernighan chains of 3-opt steps (1.5 % above the optimum where 2-opt + Or-opt
/// leave 4.7 %; about 1.6 s a tour on 85,900 cities) converge far lower and sooner. Alone, pla85900,
/// 50 tours, this project's VM, 2 threads: 0.2014 % at 278 s against 0.8734 % at 277 s. Beside the
/// colonies, H200 host, 14 threads, 120 s: 50 tours 0.0984 / 0.1070 % (seeds 1, 2; 0.171 / 0.150 %
/// at 60 s), 100 tours 0.0966 / 0.0578 %, where the Lin-Kernighan threads had 0.1817-0.2260 % at
/// 120 s and 0.226-0.261 % at 60 s in the same session (bench/results/eax_lk_climb_2026-12-02).
/// Hence the crossing at 60 s there, with 50 tours, and eax_population's growth past it (100 at
/// 120 s, 250 at 300 s: not measured past 120 s).
constexpr int kEaxNearestFrom = 50'000, kEaxNearestPopulation = 50;
constexpr double kEaxNearestSeconds = 2.22e-6;  // 60 s on 85,900 cities and 14 threads

/// GA-EAX's first population by budget (eax_population). A population of P tours converges in
/// about P / 100 times the time of 100: each generation crosses P pairs, and the generations to
/// convergence hardly change with P (this project's 2-core VM, rl5915, one thread, seed 1,
/// eax_bench --once: 100 tours 0.034 % at about 17 s of generations, 268 generations; 500 tours
/// 0.0019 % after 118 s, 332 generations; bench/results/eax_population_2026-11-30). A population
/// converged at the run's end is far shorter than a small one that converged early and stalled
/// (usa13509, 60-s runs of 100 tours: the gap at 30 s is the gap at 120 s on all 5 seeds,
/// bench/results/five_seeds_2026-11-29; the restarts around the best tour find nothing more),
/// so auto sizes the population to converge in about half of the time limit: 100 tours per
/// kEaxPopulationMargin x eax_budget seconds, at most kEaxMaxAutoPopulation. The default solver on
/// the H200 host (one GPU and 16 cores a run, seed 1): usa13509 at 300 s, 490 tours, the optimum
/// at 120 s, where 100 tours stood at 0.0279 % from 60 s to the end; at 600 s the optimum by 300 s;
/// fnl4461 at 60 s, 520 tours, the optimum by 30 s on seeds 1-3; d18512 at 120 / 300 s, 120 / 300
/// tours, 0.0005 / 0.0002 % (100 tours, 5 seeds: median 0.0019 %).
constexpr double kEaxPopulationMargin = 2.0;
constexpr int kEaxMaxAutoPopulation = 1000;

/// Parameters that leave the choice of algorithm to auto: those of every run (and the algorithm
/// itself, which is auto here: the Python package always names it).
bool general_parameter(std::string_view name) {
  for (std::string_view general : {"algorithm", "time-limit", "target", "seed", "threads", "backend", "polish"})
    if (name == general) return true;
  return false;
}

/// Whether `config`'s time limit (a run not bounded by iterations) reaches eax_budget on `threads`.
bool eax_pays(const SolverConfig& config, int n, int threads, Backend backend) {
  return !config.iterations && config.time_limit && n >= kEaxMinCities && n <= kEaxMaxCities &&
         *config.time_limit >= eax_budget(n, threads, backend);
}

/// Whether auto on the CPU is --algorithm eax: the budget pays and nobody chose anything of the
/// colonies, Ant System, 2-opt, iterations or islands.
bool cpu_runs_eax(const SolverConfig& config, int n) {
  const SolverConfig defaults;
  return config.islands == 1 && std::ranges::all_of(config.named, general_parameter) &&
         config.colony == defaults.colony && config.ant_system == defaults.ant_system &&
         config.two_opt == defaults.two_opt && eax_pays(config, n, threads_per_island(config), Backend::Cpu);
}

}  // namespace

bool eax_nearest_starts(int n, Backend backend) { return backend == Backend::Cuda && n >= kEaxNearestFrom; }

double eax_budget(int n, int threads, Backend backend) {
  return (eax_nearest_starts(n, backend) ? kEaxNearestSeconds
          : backend == Backend::Cpu      ? kEaxCpuSeconds
                                         : kEaxSeconds) *
         std::pow(static_cast<double>(n), 1.5) *
         std::sqrt(static_cast<double>(kEaxReferenceThreads) / std::max(1, threads));
}

int eax_population(int n, int threads, double time_limit, Backend backend) {
  const int reference = population::EdgeAssemblyConfig{}.population;
  const int first = eax_nearest_starts(n, backend) ? kEaxNearestPopulation : reference;
  const double wanted = reference * time_limit / (kEaxPopulationMargin * eax_budget(n, threads, backend));
  if (!(wanted < kEaxMaxAutoPopulation)) return kEaxMaxAutoPopulation;  // also a time limit of 1e300
  return std::max(static_cast<int>(std::floor(wanted / 10)) * 10, first);
}

double default_time_limit(int n) { return std::min(n / 100.0, std::clamp(n / 2000.0, 10.0, 60.0)); }

SolverConfig apply_portfolio(SolverConfig config, int n, Backend backend) {
  if (config.algorithm != Algorithm::Auto) return config;
  const SolverConfig defaults;
  // A field is the portfolio's to fill when nobody named it and it still holds its default.
  const auto unset = [&](std::string_view name, const auto& value, const auto& default_value) {
    return !config.was_named(name) && value == default_value;
  };
  if (backend == Backend::Cpu && cpu_runs_eax(config, n)) {
    config.algorithm = Algorithm::Eax;
    if (unset("population", config.eax.population, defaults.eax.population))
      config.eax.population = eax_population(n, threads_per_island(config), *config.time_limit, Backend::Cpu);
    // Lin-Kernighan climbs: this project's 2-core VM, --algorithm eax on 2 threads, 100 tours from
    // random starts, seeds 1-3 (bench/results/eax_lk_climb_2026-12-02/vm_cpu_backend.tar.xz): fnl4461's
    // optimum at 7.8 / 10.0 / 7.7 s against 25.2 / 10.5 / 11.8 s with the 2-opt + Or-opt climbs;
    // usa13509 0.0018 / 0.0005 / 0.0007 % at 120 s against 0.0101 / 0.0089 / 0.0003 % (at 60 s
    // 0.0027 / 0.0005 / 0.0007 % against 0.0185 / 0.0134 / 0.0020 %).
    config.eax.climb = population::EaxClimb::LinKernighan;
    return config;
  }
  config.algorithm = Algorithm::Mmas;
  aco::ColonyConfig& c = config.colony;
  if (unset("local-search", c.local_search, defaults.colony.local_search))
    c.local_search = portfolio_local_search(n);
  if (unset("ls-neighbours", c.ls_neighbours, defaults.colony.ls_neighbours))
    c.ls_neighbours = c.ls_candidates == aco::LsCandidates::Alpha ? kAlphaNeighbours : portfolio_ls_neighbours(n, backend);
  if (unset("focused-edges", c.focused_edges, defaults.colony.focused_edges))
    c.focused_edges = portfolio_focused_edges(n);
  // Evaporation: focused ants re-decide few edges, so the pheromone must follow the source fast.
  if (unset("mmas-rho", c.mmas_rho, defaults.colony.mmas_rho)) c.mmas_rho = 0.5;
  const bool merged =
      merged_colonies(n, backend, config.time_limit.value_or(std::numeric_limits<double>::infinity()));
  if (unset("neighbour-lists", c.neighbour_lists, defaults.colony.neighbour_lists))
    c.neighbour_lists = n < kSmall || merged ? NeighbourShape::Quadrant : NeighbourShape::Nearest;
  if (unset("ants", config.ant_system.ants, defaults.ant_system.ants))
    config.ant_system.ants = portfolio_ants(n, backend, merged);
  if (unset("colonies", c.colonies, defaults.colony.colonies)) {
    if (merged)
      c.colonies = kBandColonies;
    else if (backend == Backend::Cuda && n < kSmall)
      c.colonies = kGpuSmallColonies;
  }
  if (unset("lk-threads", c.lk_threads, defaults.colony.lk_threads) &&
      !(config.was_named("merge-tours") && !c.merge_tours)) {
    c.lk_threads = portfolio_lk_threads(n, backend, config);
    // On the CPU the Lin-Kernighan threads take their share of the run's threads from the colonies.
    if (backend == Backend::Cpu && c.lk_threads > 0)
      config.threads = threads_per_island(config) - c.lk_threads;
  }
  // A budget in which GA-EAX's population converges: the host threads run it.
  if (c.lk_threads > 0 && c.lk_stretch == 0 && !(config.was_named("lk-independent") && c.lk_independent) &&
      !config.was_named("lk-step") && !config.was_named("lk-replay") &&
      eax_pays(config, n, c.lk_threads, backend) &&
      unset("host-search", c.host_search, defaults.colony.host_search))
    c.host_search = aco::HostSearch::Eax;
  if (c.host_search == aco::HostSearch::Eax && config.time_limit &&
      unset("population", config.eax.population, defaults.eax.population))
    config.eax.population = eax_population(n, c.lk_threads, *config.time_limit, backend);
  if (c.host_search == aco::HostSearch::Eax && eax_nearest_starts(n, backend)) {
    if (unset("eax-start", config.eax.start, defaults.eax.start))
      config.eax.start = localsearch::StartKind::NearestNeighbour;
    if (unset("eax-climb", config.eax.climb, defaults.eax.climb))
      config.eax.climb = population::EaxClimb::LinKernighan;
  }
  // Independent walks below kOrOptBelow: H200, 3 seeds, 10 s, stop at 0.1 %, shared / independent:
  // u2152 0.107 / 0.068 %, pr2392 0.107 / 0.060 % (median); at the reference times fnl4461 0.134 /
  // 0.209 %, usa13509 0.218 / 0.260 %, pla85900 0.372 / 0.751 %: where one walk has more to improve
  // than it can in the time, the walks must share (section 17 of the tuning file).
  if (c.lk_threads > 0 && n < kOrOptBelow && c.lk_stretch == 0 &&
      c.host_search == aco::HostSearch::LinKernighan && !c.lk_replay &&
      unset("lk-independent", c.lk_independent, defaults.colony.lk_independent))
    c.lk_independent = true;
  // Very large tours: the threads walk stretches of n / threads cities each, one a thread
  // (--lk-stretch, the decomposition; decomposition/stretch_lin_kernighan.h), so that every thread's gains
  // add up, where whole-tour threads that share one walk keep only the one that gained most. H200 host, 14
  // threads, 60 s, the same start (bench/large_tour_bench, kMaxRoundKicks): 200,000 cities 319.87 M
  // (stretches of 25,000) against 320.29 M whole; a million cities 717.2 M (35,000) against 722.8 M. The
  // solver, one H200 and 16 cores each, the two at once: 200,000 cities at 60 s 319.72 / 319.66 / 319.67 M
  // against 319.91 / 319.92 / 319.88 M whole (seeds 1-3), a million at 120 s 716.29 / 716.05 M against 721.88
  // / 720.91 M (seeds 1-2; bench/results/big_stretches_2026-11-29). One thread gains nothing from it: the
  // 2-core VM's CPU backend (one Lin-Kernighan thread), 200,000 cities, 30 s, 322.62 M in two stretches
  // against 322.31 M whole; so it needs kMinStretchThreads.
  if (c.lk_threads >= kMinStretchThreads && n >= kStretchFrom &&
      c.host_search == aco::HostSearch::LinKernighan && !c.lk_independent &&
      c.lk_lists != aco::LkLists::Alpha && unset("lk-stretch", c.lk_stretch, defaults.colony.lk_stretch))
    c.lk_stretch = n / c.lk_threads;
  if (c.lk_threads > 0 && c.host_search == aco::HostSearch::LinKernighan &&
      unset("lk-lists", c.lk_lists, defaults.colony.lk_lists)) {
    if (backend == Backend::Cpu && c.lk_stretch == 0 && n >= kCpuAlphaThreadsFrom &&
        n < kCpuAlphaThreadsBelow)
      c.lk_lists = aco::LkLists::Alpha;
    else if (n >= kQuadrantThreadsFrom)
      c.lk_lists = aco::LkLists::Quadrant;
  }
  // The Lin-Kernighan threads exchange tours through the merge.
  if ((merged || c.lk_threads > 0) && unset("merge-tours", c.merge_tours, defaults.colony.merge_tours))
    c.merge_tours = true;
  return config;
}

int island_stretch(const SolverConfig& request, const SolverConfig& resolved, int regions) {
  const aco::ColonyConfig& c = resolved.colony;
  if (c.lk_stretch == 0 || !c.lk_split || regions <= 1 || request.colony.lk_stretch != 0) return c.lk_stretch;
  return std::max(c.lk_stretch / regions, localsearch::cpu::kMinKickCities);
}

std::string portfolio_summary(const SolverConfig& resolved, int n, EdgeWeightType type, Backend backend) {
  if (resolved.algorithm == Algorithm::Eax) {
    const int threads = threads_per_island(resolved);
    return concat("auto: n = ", n, " on the CPU: GA-EAX on ", threads, threads == 1 ? " thread" : " threads",
                  " (", resolved.eax.population, " tours",
                  resolved.eax.climb == population::EaxClimb::LinKernighan ? " climbed by Lin-Kernighan" : "",
                  ", ", resolved.eax.children, " children per pair), the time limit being past the ",
                  std::round(eax_budget(n, threads, Backend::Cpu) * 10) / 10,
                  " s in which its population overtakes the colonies");
  }
  const aco::ColonyConfig& c = resolved.colony;
  const bool gpu = backend == Backend::Cuda;
  const NeighbourShape lists = effective_shape(c.neighbour_lists, type);
  return concat(
      "auto: n = ", n, " on the ", gpu ? "GPU" : "CPU", ": ", to_string(resolved.algorithm), " with ",
      resolved.ant_system.ants, " ants",
      c.colony_count() > 1 ? concat(" in each of ", c.colony_count(), " independent colonies")
                           : std::string(),
      c.focused() ? concat(", focused (", c.focused_edges, " edges re-decided per ant)") : std::string(),
      c.merge_tours ? concat(", best tours merged every ", aco::kMergeInterval, " iterations")
                    : std::string(),
      c.lk_threads > 0 && c.host_search == aco::HostSearch::Eax
          ? concat(" with ", c.lk_threads, " host thread", c.lk_threads > 1 ? "s" : "",
                   " of GA-EAX (a population of ", resolved.eax.population, " tours",
                   resolved.eax.climb == population::EaxClimb::LinKernighan ? " climbed by Lin-Kernighan"
                   : resolved.eax.start != localsearch::StartKind::Random   ? " climbed"
                                                                            : "",
                   resolved.eax.start == localsearch::StartKind::Random
                       ? std::string()
                       : concat(" from ", localsearch::to_string(resolved.eax.start), " tours"),
                   " crossed by edge assembly; the time limit is past the ",
                   std::round(eax_budget(n, c.lk_threads, backend) * 10) / 10,
                   " s in which it overtakes the colonies)")
      : c.lk_threads > 0
          ? concat(" with ", c.lk_threads, " iterated Lin-Kernighan host thread", c.lk_threads > 1 ? "s" : "",
                   " (", localsearch::to_string(c.lk_step), " steps",
                   c.lk_lists == aco::LkLists::Colonies
                       ? std::string()
                       : concat(" over ",
                                to_string(effective_shape(
                                    hybrid::threads_shape(c.lk_lists, NeighbourShape::Nearest), type)),
                                " lists",
                                c.lk_lists == aco::LkLists::Alpha
                                    ? concat(", then the ", hybrid::kThreadsAlphaNeighbours, " alpha-nearest")
                                    : std::string()),
                   c.lk_adopt_merged  ? ", independent walks that take the merged tour)"
                   : c.lk_independent ? ", independent walks)"
                                      : ")",
                   c.lk_stretch > 0
                       ? concat(" over stretches of ", c.lk_stretch, " cities, then the whole tour")
                       : "")
          : std::string(),
      ", local search ", localsearch::to_string(c.local_search), " over ", c.ls_neighbours, " ",
      c.ls_candidates == aco::LsCandidates::Alpha ? std::string_view("alpha-nearest") : to_string(lists),
      " neighbours, pheromone on ", c.candidates, " candidate edges per city (O(n k) memory), ",
      resolved.polish ? "exact 2-opt + Or-opt + 3-opt polish of the best tour" : "no final polish");
}

}  // namespace formica
