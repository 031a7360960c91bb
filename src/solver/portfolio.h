// SPDX-License-Identifier: MIT
// The portfolio behind `--algorithm auto`: the one place that says what the default solver runs
// for an instance of n cities on a backend (the evidence behind each rule: docs/tuning.md). Today
// that is MMAS with focused ants (Skinderowicz 2022) whose every tour gets 2-opt, Or-opt and (by n)
// 3-opt over neighbour lists, pheromone on candidate edges only (memory O(n k) at every size), the
// number of ants by n and backend, and a default time budget by n when the run has no other
// stopping rule. Every parameter the user set keeps its value, also a default one named
// explicitly: auto fills only the fields nobody named (SolverConfig::named) that still hold their
// defaults. Given a long enough time limit GA-EAX runs (auto_eax).
#pragma once

#include <string>
#include <string_view>

#include "core/search.h"
#include "solver/solver.h"

namespace formica {

/// Seconds a run lasts at most when it is given neither iterations nor a time limit: n / 100 s up
/// to 1,000 cities (0.13 s for 13), 10 s up to 20,000 cities, then n / 2000 s, at most 60 s. Such
/// a run also stops when it stops improving or meets a proven bound (solver/stopping_rule.h).
double default_time_limit(int n);

/// How auto runs GA-EAX (population/edge_assembly_search.h): not at all, as the whole run
/// (--algorithm eax), or on the host threads beside the colonies (--host-search eax).
enum class AutoEax { None, Alone, BesideColonies };

/// When GA-EAX runs under auto: where `config` (auto, its time limit set: resolve_config) on n
/// cities on `backend` reaches eax_crossing, from 1,000 to 90,000 cities. On the CPU, where nobody
/// set a colony, ant or 2-opt parameter, iterations or islands, GA-EAX is the whole run (Alone),
/// there from 500 cities (from 300 on an asymmetric instance's form, SolverConfig::asymmetric_form);
/// else the host threads beside the colonies run it instead of Lin-Kernighan (BesideColonies),
/// unless they were set to walk stretches, walk independently, take other Lin-Kernighan steps or
/// replay, or another host search was named. On the GPU, wherever the CPU would run GA-EAX alone,
/// the host threads beside the colonies run it with the CPU's settings, so that the GPU default is
/// never behind the host alone. None for an algorithm other than auto.
AutoEax auto_eax(const SolverConfig& config, int n, Backend backend);

/// Seconds from which auto runs GA-EAX on n cities with `threads` host threads: where its first
/// population, climbed as far as the time limit allows, overtakes the colonies and Lin-Kernighan
/// threads (docs/tuning.md#ga-eax-from-short-budgets), the same on both backends; eax_budget where
/// eax_nearest_starts.
double eax_crossing(int n, int threads, Backend backend);

/// Seconds in which GA-EAX's population of 100 tours converges on n cities with `threads` host
/// threads (docs/tuning.md#ga-eax-on-the-cpu), the scale of eax_population; shorter where
/// eax_nearest_starts, where it is also auto's crossing.
double eax_budget(int n, int threads, Backend backend);

/// Whether auto's GA-EAX on n cities climbs its population from nearest-neighbour tours instead of
/// random ones (--eax-start): beside the GPU's colonies from 50,000 cities, where random tours take
/// minutes to climb.
bool eax_nearest_starts(int n, Backend backend);

/// The first population auto gives GA-EAX on n cities, `threads` threads and `time_limit` seconds:
/// about what converges in half of the time limit (docs/tuning.md#ga-eax-population), 100 tours
/// (the default; 50 where eax_nearest_starts) up to twice eax_budget, 1,000 at most. A population
/// named by the user stays as named. (GA-EAX alone on the CPU in a run given a target starts from
/// 50 tours instead, up to 5,000 cities: apply_portfolio.)
int eax_population(int n, int threads, double time_limit, Backend backend);

/// `config` with what auto means for n cities on `backend` (already resolved) and its time limit
/// (none: a run bounded by iterations only): the algorithm and every portfolio field left at its
/// default. resolve_config sets the default time limit first. A config whose algorithm is not Auto
/// is returned as is.
SolverConfig apply_portfolio(SolverConfig config, int n, Backend backend);

/// What auto runs, in a few sentences made from the rules' own thresholds: the one description of
/// auto, which `formica solve --help` (--algorithm), formica.solve's docstring and the README give.
std::string_view portfolio_description();

/// One line saying what the portfolio picked and why ("n = 2392 on the GPU: ..."), for the CLI.
std::string portfolio_summary(const SolverConfig& resolved, int n, EdgeWeightType type, Backend backend);

/// The stretch an island walks when `regions` islands split the decomposition (--lk-split): the
/// stretches auto chose for `request` (one a thread) divided between the regions, so that each
/// island still has one for every thread; a stretch the request gave, or none, as it is.
int island_stretch(const SolverConfig& request, const SolverConfig& resolved, int regions);

}  // namespace formica
