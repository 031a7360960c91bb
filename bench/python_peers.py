# SPDX-License-Identifier: MIT
"""formica beside the Python TSP packages a user would try first, on the same CPU cores.

Runs formica, elkai (LKH-3), fast-tsp and OR-Tools on pr1002, pcb442 and rat783 (TSPLIB), a
seeded 200-city asymmetric matrix and 1,000 seeded uniform float points, and prints a Markdown
table of the median wall-clock time each took to reach the optimum (TSPLIB) or LKH-3's length
(elkai with 10 runs, for the two random instances), over --seeds repetitions:

    pip install elkai fast-tsp ortools
    python bench/python_peers.py --seeds 5 --threads 2 --limit 10

How each is timed (every peer is given the same integer matrix, for the float points their
distances x FLOAT_SCALE rounded; formica the problem itself; lengths are measured on the exact
distances):
- formica: ``formica.solve(..., target=reference, time_limit=limit, seed=s, threads=T)``, the
  call's wall time when it stops at the target.
- elkai: ``solve_tsp(runs=r)`` for r = 1, 2, 5, 10 (LKH-3 has no time limit or seed there), the
  time of the first call whose tour reaches the reference; it is deterministic, so the seeds
  repeat the same runs and only the timing varies.
- fast-tsp: ``find_tour(duration_seconds=d, max_threads=T)`` for d = 0.1, 0.2, 0.5, 1, 2, 3, 5 s
  and the limit (FAST_TSP_BUDGETS, those below the limit), each a fresh run from the smallest up:
  the first budget whose tour reaches the reference. fast-tsp stops only at its budget, so its
  figure is that budget (the wall time of that run), never counting the shorter runs before it
  that fell short. Symmetric matrices only.
- OR-Tools: routing with guided local search for `limit` seconds, once (deterministic): reached
  or not, with its gap.
With --budgets (the anytime table), every case of anytime_cases() gets each budget B: formica.solve
with time_limit=B and fast-tsp with duration_seconds=B, both on --threads threads, a fresh run per
budget and seed; a cell is the median gap in % above the optimum (TSPLIB; for the float points the
shortest tour any run found) and the wall time's median:

    python bench/python_peers.py --seeds 5 --threads 2 --budgets 0.25,0.5,1,2

A run that does not reach the reference within the limit counts as not reached; the median is
then reported as "> limit" when half the runs or more did not reach it. The seeds run interleaved
(formica, elkai, fast-tsp for seed 1, then seed 2, ...), and each row ends with the machine's
1-minute load average before and after it, since a busy machine slows every package.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, Optional

import numpy as np

import formica

OPTIMA = {"pr1002": 259045, "pcb442": 50778, "rat783": 8806}
#: fast-tsp's budgets, tried from the smallest up to the limit (which is tried last).
FAST_TSP_BUDGETS = (0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
#: The float points' integer matrix for the peers: distances x 40,000, rounded (fast-tsp takes
#: at most 65,535).
FLOAT_SCALE = 4e4


class Case:
    """One instance: what formica is given, the integer matrix the peers are given, and how a
    tour's exact length is measured."""

    def __init__(self, name: str, problem: object, matrix: np.ndarray, measure: Callable[[list[int]], float],
                 symmetric: bool = True) -> None:
        self.name, self.problem, self.matrix, self.measure, self.symmetric = name, problem, matrix, measure, symmetric
        self.reference: float = OPTIMA.get(name, 0)

    def reached(self, length: float) -> bool:
        return length <= self.reference * (1 + 1e-9) + 1e-9


def _euc_2d(points: np.ndarray) -> np.ndarray:
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    return np.floor(d + 0.5).astype(np.int64)


def _closed_length(matrix: np.ndarray, tour: list[int]) -> float:
    order = np.asarray(tour)
    return float(matrix[order, np.roll(order, -1)].sum())


def cases(tsplib: str) -> list[Case]:
    out = []
    for name in ("pcb442", "rat783", "pr1002"):
        path = os.path.join(tsplib, "tsp", f"{name}.tsp")
        matrix = _euc_2d(np.asarray(formica.read_tsplib(path).coordinates, dtype=np.float64))
        out.append(Case(name, path, matrix, lambda t, m=matrix: _closed_length(m, t)))
    rng = np.random.default_rng(200)
    asym = rng.integers(1, 1001, size=(200, 200))
    np.fill_diagonal(asym, 0)
    out.append(Case("atsp200 (seeded)", asym, asym, lambda t: _closed_length(asym, t), symmetric=False))
    out.append(_float_points(1000))
    return out


def _float_points(count: int) -> Case:
    """`count` uniform float points seeded by `count`: formica gets the points, the peers their
    distances x FLOAT_SCALE rounded, lengths measured on the exact distances."""
    points = np.random.default_rng(count).random((count, 2))
    exact = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    scaled = np.rint(exact * FLOAT_SCALE).astype(np.int64)
    return Case(f"uniform{count} float (seeded)", points, scaled, lambda t: _closed_length(exact, t))


#: The anytime table's sizes: the benchmark protocol's held-apart instances (bench/protocol.py's
#: SETS) and rl1889 within them, then 2,000 seeded uniform float points.
ANYTIME_CITIES = (400, 5000)


def anytime_cases(tsplib: str) -> list[Case]:
    from protocol import SETS

    out = []
    for name in [name for names in SETS.values() for name in names] + ["rl1889"]:
        path = os.path.join(tsplib, "tsp", f"{name}.tsp")
        instance = formica.read_tsplib(path)
        if not ANYTIME_CITIES[0] <= instance.n <= ANYTIME_CITIES[1]:
            continue
        matrix = _euc_2d(np.asarray(instance.coordinates, dtype=np.float64))
        case = Case(name, path, matrix, lambda t, m=matrix: _closed_length(m, t))
        case.reference = instance.optimum
        out.append(case)
    out.sort(key=lambda case: len(case.matrix))
    out.append(_float_points(2000))
    return out


def anytime_table(args: argparse.Namespace) -> None:
    """Median gap and wall time of formica and fast-tsp at each budget (module docstring)."""
    import fast_tsp

    budgets = [float(b) for b in args.budgets.split(",")]
    head = " | ".join(f"{b:g} s: formica | {b:g} s: fast-tsp" for b in budgets)
    print(f"| instance | n | {head} |")
    print("|---|---|" + "---|---|" * len(budgets))
    for case in anytime_cases(args.tsplib):
        if args.only and not any(case.name.startswith(prefix) for prefix in args.only):
            continue
        rows = case.matrix.tolist()
        runs: dict[tuple[str, float], list[tuple[float, float]]] = {}
        for seed in range(1, args.seeds + 1):  # interleaved, so that a busier minute hits both alike
            for budget in budgets:
                seconds, result = _timed(
                    lambda b=budget: formica.solve(case.problem, time_limit=b, seed=seed, threads=args.threads))
                runs.setdefault(("formica", budget), []).append((seconds, case.measure(list(result.tour))))
                seconds, tour = _timed(
                    lambda b=budget: fast_tsp.find_tour(rows, duration_seconds=b, max_threads=args.threads))
                runs.setdefault(("fast-tsp", budget), []).append((seconds, case.measure(tour)))
        reference = case.reference or min(length for pairs in runs.values() for _, length in pairs)

        def cell(key: tuple[str, float]) -> str:
            gaps = [100 * (length - reference) / reference for _, length in runs[key]]
            wall = statistics.median(seconds for seconds, _ in runs[key])
            return f"{statistics.median(gaps):.3f} % ({wall:.2f} s)"

        cells = " | ".join(f"{cell(('formica', b))} | {cell(('fast-tsp', b))}" for b in budgets)
        print(f"| {case.name} | {len(case.matrix):,} | {cells} |", flush=True)


def _timed(run: Callable[[], list[int]]) -> tuple[float, list[int]]:
    start = time.perf_counter()
    tour = run()
    return time.perf_counter() - start, tour


def run_formica(case: Case, seed: int, threads: int, limit: float) -> Optional[float]:
    seconds, result = _timed(
        lambda: formica.solve(case.problem, target=case.reference, time_limit=limit, seed=seed, threads=threads)
    )
    return seconds if case.reached(case.measure(list(result.tour))) else None


_elkai_runs: dict[str, Optional[int]] = {}


def run_elkai(case: Case) -> Optional[float]:
    """The time of solve_tsp(runs=r) for the fewest runs r (of 1, 2, 5, 10) that reach the
    reference, found at the first call (elkai is deterministic) and timed again at the others."""
    import elkai

    rows = case.matrix.tolist()
    if case.name in _elkai_runs:
        runs = _elkai_runs[case.name]
        if runs is None:
            return None
        return _timed(lambda: elkai.DistanceMatrix(rows).solve_tsp(runs=runs))[0]
    for runs in (1, 2, 5, 10):
        seconds, tour = _timed(lambda: elkai.DistanceMatrix(rows).solve_tsp(runs=runs))
        if case.reached(case.measure(tour[:-1])):
            _elkai_runs[case.name] = runs
            return seconds
    _elkai_runs[case.name] = None
    return None


def run_fast_tsp(case: Case, threads: int, limit: float) -> Optional[float]:
    import fast_tsp

    rows = case.matrix.tolist()
    for budget in [b for b in FAST_TSP_BUDGETS if b < limit] + [limit]:
        seconds, tour = _timed(lambda b=budget: fast_tsp.find_tour(rows, duration_seconds=b, max_threads=threads))
        if case.reached(case.measure(tour)):
            return seconds
    return None


def run_ortools(case: Case, limit: float) -> tuple[Optional[float], float]:
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2

    n = len(case.matrix)
    manager = pywrapcp.RoutingIndexManager(n, 1, 0)
    routing = pywrapcp.RoutingModel(manager)
    matrix = case.matrix
    callback = routing.RegisterTransitCallback(
        lambda i, j: int(matrix[manager.IndexToNode(i), manager.IndexToNode(j)])
    )
    routing.SetArcCostEvaluatorOfAllVehicles(callback)
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    params.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    params.time_limit.FromMilliseconds(int(limit * 1000))
    start = time.perf_counter()
    solution = routing.SolveWithParameters(params)
    seconds = time.perf_counter() - start
    tour, index = [], routing.Start(0)
    while not routing.IsEnd(index):
        tour.append(manager.IndexToNode(index))
        index = solution.Value(routing.NextVar(index))
    length = case.measure(tour)
    return (seconds if case.reached(length) else None), 100 * (length - case.reference) / case.reference


def median_text(times: list[Optional[float]], limit: float) -> str:
    """The median time with the runs that reached the reference ("2.10 s (5/5)"); runs that did
    not count as longer than any."""
    reached = sum(t is not None for t in times)
    median = statistics.median_low(sorted(t if t is not None else float("inf") for t in times))
    return f"> {limit:g} s ({reached}/{len(times)})" if median == float("inf") else f"{median:.2f} s ({reached}/{len(times)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--tsplib", default=os.environ.get("FORMICA_TSPLIB_DIR", "../shared/tsplib"))
    parser.add_argument("--only", nargs="*", help="instances whose names start with these (default: all)")
    parser.add_argument("--budgets", help="comma-separated seconds: the anytime table instead (module docstring)")
    args = parser.parse_args()
    if args.budgets:
        anytime_table(args)
        return
    print("| instance | reference | formica | elkai (LKH-3) | fast-tsp | OR-Tools (GLS) | load before / after |")
    print("|---|---|---|---|---|---|---|")
    for case in cases(args.tsplib):
        import elkai

        if args.only and not any(case.name.startswith(prefix) for prefix in args.only):
            continue
        if not case.reference:  # LKH-3's length: elkai with 10 runs
            case.reference = case.measure(elkai.DistanceMatrix(case.matrix.tolist()).solve_tsp(runs=10)[:-1])
        load_before = os.getloadavg()[0]
        ours: list[Optional[float]] = []
        lkh: list[Optional[float]] = []
        fast: Optional[list[Optional[float]]] = [] if case.symmetric else None
        for seed in range(1, args.seeds + 1):  # interleaved, so that a busier minute hits all alike
            ours.append(run_formica(case, seed, args.threads, args.limit))
            lkh.append(run_elkai(case))
            if fast is not None:
                fast.append(run_fast_tsp(case, args.threads, args.limit))
        ortools_time, ortools_gap = run_ortools(case, args.limit)
        ortools = f"{ortools_time:.2f} s" if ortools_time is not None else f"not reached ({ortools_gap:+.2f} %)"
        reference = f"{case.reference:.6g}" if case.name in OPTIMA else f"{case.reference:.6g} (LKH-3)"
        print(
            f"| {case.name} | {reference} | {median_text(ours, args.limit)} | {median_text(lkh, args.limit)} | "
            f"{median_text(fast, args.limit) if fast is not None else 'symmetric only'} | {ortools} | "
            f"{load_before:.1f} / {os.getloadavg()[0]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
