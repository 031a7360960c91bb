// SPDX-License-Identifier: MIT
// The pheromone algebra of MMAS, ACS and GACO, shared word for word by the CPU and the GPU (every
// function is __host__ __device__): the bounds, the closed form of the local update, which best
// tour deposits, and the per-entry update. Pheromone lives on candidate edges only: entry
// (i, s) is the edge from city i to the s-th city of its candidate row (see candidate_set.h).
//
// Order of one iteration's update of a matrix, entry by entry (exact semantics):
//   1. GACO only, deferred local update of its ACS colonies: tau <- t + (1 - xi)^c (tau - t),
//      c = crossings of the edge by ACS-colony ants this iteration, t = tau_min (the lower end of
//      the merged interval plays the role of ACS's tau_0; Li and Jin 3.1);
//   2. evaporation tau <- (1 - rho) tau (MMAS and GACO; ACS evaporates only where it deposits);
//   3. each colony of the matrix in colony order: MMAS adds 1 / L_D on the edges of its depositing
//      tour D; ACS sets tau <- (1 - rho_acs) tau + rho_acs / L_bs on its best-so-far tour's edges;
//   4. clamp into [tau_min, tau_max]: MMAS [tau_max * f(p_best, n), 1 / (rho L_bs)], GACO
//      [f(p_best, n) / (rho L_bs), 1 / L_bs] (Li and Jin's merged interval), ACS [tau_0, 1 / L_bs]
//      (ACS's own invariant interval, so the clamp only trims float rounding).
// Bounds hold after every update, the ACS local update included (it moves tau towards tau_0).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/distance.h"  // FORMICA_HD

namespace formica::aco {

constexpr long long kNoLength = 0x7fffffffffffffffLL;

/// tau_min / tau_max of Stutzle and Hoos 2000, Eq. 11, (1 - p_dec) / ((avg - 1) p_dec) with
/// p_dec = p_best^(1 / decisions), for `decisions` decisions of `avg` choices each; at most 1
/// (tau_min <= tau_max). The paper's tour has (n, n / 2); focused ants with local search
/// (Skinderowicz 2022) use (k, k) for k candidates, a much wider interval that keeps the
/// re-decided edges varied.
inline double mmas_min_factor_over(double decisions, double avg, double p_best) {
  const double p_dec = std::pow(p_best, 1.0 / decisions);
  if (avg <= 1.0) return 1.0;
  const double f = (1.0 - p_dec) / ((avg - 1.0) * p_dec);
  return f < 1.0 ? f : 1.0;
}

/// Eq. 11 for a whole tour: (n, n / 2).
inline double mmas_min_factor(int n, double p_best) { return mmas_min_factor_over(n, 0.5 * n, p_best); }

struct Bounds {
  float tau_min, tau_max;
};

enum class BoundsKind { Mmas, Acs, Gaco };

/// The interval of a matrix whose colonies' best-so-far length is `best` (see the file comment).
FORMICA_HD inline Bounds matrix_bounds(BoundsKind kind, long long best, double rho, double min_factor, double tau0) {
  const double l = static_cast<double>(best > 0 ? best : 1);
  switch (kind) {
    case BoundsKind::Mmas: return {static_cast<float>(min_factor / (rho * l)), static_cast<float>(1.0 / (rho * l))};
    case BoundsKind::Gaco: {
      const double low = min_factor / (rho * l), high = 1.0 / l;
      return {static_cast<float>(low < high ? low : high), static_cast<float>(high)};
    }
    case BoundsKind::Acs: break;
  }
  return {static_cast<float>(tau0), static_cast<float>(1.0 / l)};
}

/// One colony's deposit on the edges of its tour: tau <- keep * tau + add (MMAS: keep 1,
/// add 1 / L; ACS: keep 1 - rho_acs, add rho_acs / L).
struct Deposit {
  float keep, add;
};

/// Fitness of an entry, f = tau^alpha * eta^beta.
FORMICA_HD inline float entry_fitness(float tau, float eta_beta, float alpha) {
  return (alpha == 1.0f ? tau : powf(tau, alpha)) * eta_beta;
}

FORMICA_HD inline float clamp_pheromone(float tau, Bounds b) {
  return tau < b.tau_min ? b.tau_min : (tau > b.tau_max ? b.tau_max : tau);
}

/// c applications of tau <- (1 - xi) tau + xi * target in one step. The map is affine with fixed
/// point `target`, so c applications commute and compose to target + (1 - xi)^c (tau - target):
/// the result does not depend on the order of the ants that crossed the edge.
FORMICA_HD inline float local_update(float tau, float target, float keep, int crossings) {
  if (crossings == 0) return tau;
  float factor = keep;
  for (int c = 1; c < crossings; ++c) factor *= keep;
  return target + factor * (tau - target);
}

/// Which tour a colony's global update uses this iteration.
enum class Depositor : int { IterationBest = 0, RestartBest = 1, BestSoFar = 2 };

/// u_gb: how often the restart-best ant deposits instead of the iteration-best (ACOTSP).
/// `increasing` is ACOTSP's schedule with local search, by iterations since the last restart.
FORMICA_HD inline int mmas_best_every(bool increasing, int best_every, int since_restart) {
  if (!increasing) return best_every;
  if (since_restart < 25) return 25;
  if (since_restart < 75) return 5;
  if (since_restart < 125) return 3;
  if (since_restart < 250) return 2;
  return 1;
}

/// One colony's best tours as the colony-best step keeps them (a plain struct: it lives in device
/// memory on the GPU). Lengths are kNoLength until a tour exists.
struct ColonyRecord {
  long long best_length;       ///< best-so-far
  long long restart_length;    ///< best since the last (re)initialisation
  long long iteration_length;  ///< this iteration's best
  int iteration_ant;           ///< this iteration's best ant, index inside the colony
  int restart_found;           ///< iteration at which restart_length last improved
  int restart_iteration;       ///< iteration of the last (re)initialisation
  int depositor;               ///< Depositor of this iteration's global update
};

/// The best-so-far length over the colonies of `matrix` (`fallback`, L_nn, before any tour).
FORMICA_HD inline long long group_best_length(const ColonyRecord* records, int matrix, int group, long long fallback) {
  long long best = kNoLength;
  for (int c = matrix * group; c < (matrix + 1) * group; ++c) best = records[c].best_length < best ? records[c].best_length : best;
  return best == kNoLength ? fallback : best;
}

/// The length of the tour that deposits for colony `r` this iteration.
FORMICA_HD inline long long depositor_length(const ColonyRecord& r) {
  const auto depositor = static_cast<Depositor>(r.depositor);
  return depositor == Depositor::IterationBest ? r.iteration_length
         : depositor == Depositor::RestartBest ? r.restart_length
                                               : r.best_length;
}

/// The deposit of colony `r` (see Deposit): MMAS adds 1 / L of its depositor, ACS blends in
/// rho_acs / L of its best-so-far.
FORMICA_HD inline Deposit colony_deposit(const ColonyRecord& r, bool acs, double acs_rho) {
  const long long length = depositor_length(r);
  const double inverse = 1.0 / static_cast<double>(length > 0 ? length : 1);
  if (acs) return {static_cast<float>(1.0 - acs_rho), static_cast<float>(acs_rho * inverse)};
  return {1.0f, static_cast<float>(inverse)};
}

inline ColonyRecord fresh_colony_record() { return {kNoLength, kNoLength, kNoLength, 0, 0, 0, 0}; }

/// Takes this iteration's best (length, ant) into the record; returns bit 0 if the best-so-far
/// improved and bit 1 if the restart-best did (their tours must then be copied). Then picks the
/// depositor (ACOTSP's mmas_update: iteration-best, every u_gb-th iteration the restart-best, or
/// the best-so-far once u_gb is 1 and the restart-best is 50 iterations old; ACS: best-so-far).
FORMICA_HD inline int record_iteration(ColonyRecord& r, long long length, int ant, int iteration, bool acs,
                                       bool increasing, int best_every) {
  int improved = 0;
  r.iteration_length = length;
  r.iteration_ant = ant;
  if (length < r.best_length) r.best_length = length, improved |= 1;
  if (length < r.restart_length) r.restart_length = length, r.restart_found = iteration, improved |= 2;
  if (acs) {
    r.depositor = static_cast<int>(Depositor::BestSoFar);
  } else {
    const int u_gb = mmas_best_every(increasing, best_every, iteration - r.restart_iteration);
    if (iteration % u_gb != 0) r.depositor = static_cast<int>(Depositor::IterationBest);
    else if (u_gb == 1 && iteration - r.restart_found > 50) r.depositor = static_cast<int>(Depositor::BestSoFar);
    else r.depositor = static_cast<int>(Depositor::RestartBest);
  }
  return improved;
}

/// ACOTSP's lambda-branching factor (lambda = 0.05) over the static candidates: per city, the
/// candidate edges whose pheromone exceeds min + lambda (max - min) of that row; the mean over
/// cities divided by 2 (1 means every city keeps two strong edges: the colony has converged).
/// `tau` has `width` entries per row, of which the first k are static candidates.
inline double lambda_branching(const float* tau, int n, int width, int k) {
  double branches = 0.0;
  for (int i = 0; i < n; ++i) {
    const float* row = tau + static_cast<size_t>(i) * width;
    float lo = row[0], hi = row[0];
    for (int s = 1; s < k; ++s) lo = row[s] < lo ? row[s] : lo, hi = row[s] > hi ? row[s] : hi;
    const float cutoff = lo + 0.05f * (hi - lo);
    for (int s = 0; s < k; ++s) branches += row[s] > cutoff ? 1.0 : 0.0;
  }
  return branches / (2.0 * n);
}

}  // namespace formica::aco
