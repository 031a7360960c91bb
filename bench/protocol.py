#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The benchmark protocol: how close formica gets, and how fast, beside LKH-3 and fast-tsp, on
instances it was never tuned on, on the machine it runs on (docs/benchmarks.md#the-protocol).

    pip install elkai fast-tsp
    python3 bench/protocol.py --formica build/formica --out bench/out/protocol [--seeds 5]
        [--sets small,medium,large] [--threads T] [--table TABLE.md]

The instances are TSPLIB's (found as lkh_compare.py finds them: $FORMICA_TSPLIB_DIR/tsp), three
sets held apart from every instance the default's rules were tuned on (none of them appears in a
tuning experiment of the rules in force; rd400 and u574 appear in docs/tuning.md's measurement of
an earlier rule, since replaced by one measured without them): SETS below. Each instance gets one budget, set by its
size: n / 500 seconds, rounded to half seconds, from 1 s to 30 s. For every instance and seed
(1 to --seeds), interleaved so that a busier minute hits every solver alike:
  * formica default: `formica solve FILE --time-limit B --seed S` (the GPU where there is one),
    its wall time measured around the process, set-up included;
  * formica --backend cpu: the same on the host's cores alone, a column only where the default
    ran on a GPU (elsewhere it is the same run);
  * LKH-3 (the one bundled with elkai, default parameters, RUNS = 1, TIME_LIMIT = B) as T processes
    with seeds S * 1000 + k, the best tour of the T kept: how a user with T cores runs it. Its
    TIME_LIMIT does not count its set-up, so its wall time can pass B; the table shows it;
  * fast-tsp: find_tour(duration_seconds=B, max_threads=T) on the instance's integer distance
    matrix (TSPLIB's own distances), up to FAST_TSP_MAX_CITIES cities (a Python list of n^2).
Every tour is checked by `formica verify` (a permutation, its exact TSPLIB length), and the gap is
to the optimum `formica info` knows. Output under --out: runs.csv (one row per run) and table.md:
per instance, each solver's median gap (min-max over the seeds) and median wall time, the
hardware named once above it.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lkh_compare as lk  # noqa: E402  (the TSPLIB lookup, formica's runs, LKH-3 through elkai)

#: Held apart from tuning: three sizes a user brings.
SETS = {
    "small": ["rd400", "d493", "u574"],
    "medium": ["rl1323", "u1432", "vm1748"],
    "large": ["fl3795", "rl5934", "brd14051"],
}
#: fast-tsp takes the whole matrix as a Python list of lists: n^2 ints.
FAST_TSP_MAX_CITIES = 6000
SOLVERS = ("formica", "formica-cpu", "lkh3", "fast-tsp")


def budget_for(n: int) -> float:
    """n / 500 seconds, rounded to half seconds, from 1 to 30."""
    return min(30.0, max(1.0, round(n / 500 * 2) / 2))


def hardware() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    text = f"{len(os.sched_getaffinity(0))} hardware threads of {cpu}"
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=30).stdout.strip().splitlines()
        if gpu:
            text += f", {len(gpu)} x {gpu[0]}"
    except (OSError, subprocess.SubprocessError):
        pass
    return text


def euc_matrix(path: Path) -> list[list[int]]:
    """The instance's integer distances as TSPLIB's EUC_2D defines them (the sets hold EUC_2D
    instances only)."""
    import numpy as np

    text = lk.tsplib_text(path)
    if "EUC_2D" not in text.split("NODE_COORD_SECTION")[0]:
        sys.exit(f"protocol: {path}: fast-tsp's matrix is built for EUC_2D instances only")
    rows = text.split("NODE_COORD_SECTION")[1].split("EOF")[0].split()
    coords = np.array(rows, dtype=np.float64).reshape(-1, 3)[:, 1:]
    distances = np.sqrt(((coords[:, None, :] - coords[None, :, :]) ** 2).sum(axis=2))
    return np.floor(distances + 0.5).astype(np.int64).tolist()


def checked_length(formica: str, path: Path, tour_file: Path, report: dict) -> int:
    """The exact length `formica verify` gives formica's tour file, which must be the one its report
    states."""
    length = lk.verified_length(formica, str(path), tour_file, f"protocol: {tour_file}")
    if length != report["best_length"]:
        sys.exit(f"protocol: {tour_file}: verify says length {length}, the report {report['best_length']}")
    return length


def run_fast_tsp(matrix: list[list[int]], budget: float, threads: int) -> tuple[float, list[int]]:
    import fast_tsp

    start = time.perf_counter()
    tour = fast_tsp.find_tour(matrix, duration_seconds=budget, max_threads=threads)
    return time.perf_counter() - start, list(tour)


def summary(rows: list[dict], key: tuple[str, float], solver: str) -> str:
    mine = [r for r in rows if (r["instance"], r["budget"]) == key and r["solver"] == solver]
    if not mine:
        return "not run"
    gaps = sorted(r["gap_pct"] for r in mine)
    wall = statistics.median(r["wall_s"] for r in mine)
    spread = f" ({gaps[0]:.3f}-{gaps[-1]:.3f})" if len(gaps) > 1 else ""
    return f"{statistics.median(gaps):.3f} %{spread}, {wall:.1f} s"


def write_table(rows: list[dict], machine: str, seeds: int, threads: int, out) -> None:
    solvers = [s for s in SOLVERS if any(r["solver"] == s for r in rows)]
    names = {"formica": "formica default", "formica-cpu": "formica --backend cpu",
             "lkh3": f"LKH-3 (elkai, {threads} processes)", "fast-tsp": f"fast-tsp ({threads} threads)"}
    out.write(f"{machine}; {seeds} seeds; median gap above the optimum (min-max) and median wall time, "
              "set-up included.\n\n")
    out.write("| instance | n | budget | " + " | ".join(names[s] for s in solvers) + " |\n")
    out.write("|---|---|---|" + "---|" * len(solvers) + "\n")
    seen = []
    for r in rows:
        if (r["instance"], r["budget"]) not in seen:
            seen.append((r["instance"], r["budget"]))
    for key in seen:
        first = next(r for r in rows if (r["instance"], r["budget"]) == key)
        cells = [summary(rows, key, s) for s in solvers]
        out.write(f"| {key[0]} | {first['n']:,} | {key[1]:g} s | " + " | ".join(cells) + " |\n")


def one_seed(args, wanted: set[str], name: str, path: Path, n: int, optimum: int, budget: float, seed: int,
             problem: str, matrix, pool, work: Path, on_gpu: bool) -> list[dict]:
    """Every solver's run on one instance, budget and seed, as rows."""
    runs: list[tuple[str, float, list[int] | None, int | None]] = []
    for solver, extra in (("formica", []), ("formica-cpu", ["--backend", "cpu"])):
        if solver not in wanted or (extra and not on_gpu):
            continue
        tour_file = work / f"{solver}_{name}_{seed}.tour"
        wall, report = lk.run_formica(args.formica, str(path), budget, seed,
                                      [*extra, *args.formica_args.split(), "--tour-out", str(tour_file)], work)
        on_gpu = on_gpu or report.get("backend") == "cuda"
        runs.append((solver, wall, None, checked_length(args.formica, path, tour_file, report)))
    if pool is not None:
        wall, tours = lk.run_lkh(pool, problem, budget, seed, args.threads)
        lengths = [lk.verify(args.formica, str(path), t, work, f"lkh_{name}_{seed}_{k}") for k, t in enumerate(tours)]
        runs.append(("lkh3", wall, None, min(lengths)))
    if matrix is not None:
        wall, tour = run_fast_tsp(matrix, budget, args.threads)
        runs.append(("fast-tsp", wall, tour, None))
    rows = []
    for solver, wall, tour, length in runs:
        if tour is not None:
            length = lk.verify(args.formica, str(path), tour, work, f"{solver}_{name}_{seed}")
        rows.append({"instance": name, "n": n, "budget": budget, "solver": solver, "seed": seed,
                     "wall_s": round(wall, 3), "length": length,
                     "gap_pct": round(100.0 * (length - optimum) / optimum, 4), "on_gpu": on_gpu})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--formica", default="build/formica")
    parser.add_argument("--out", required=True, help="folder for runs.csv and table.md")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sets", default="small,medium,large")
    parser.add_argument("--instances", help="comma-separated instances instead of the sets")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        help="LKH-3's processes and fast-tsp's threads (default: every hardware thread the "
                        "process may run on)")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="every budget times this (a quick try)")
    parser.add_argument("--budgets", help="comma-separated budgets in seconds for every instance, instead of n's "
                        "(short budgets: formica beside fast-tsp from 0.25 s)")
    parser.add_argument("--formica-args", default="", help="more arguments for every formica run (e.g. --threads 2)")
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    args = parser.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = out / "tours"
    work.mkdir(exist_ok=True)
    wanted = set(args.solvers.split(","))
    instances = args.instances.split(",") if args.instances else [i for s in args.sets.split(",") for i in SETS[s]]
    machine = hardware()
    print(machine, flush=True)
    rows: list[dict] = []
    pool = multiprocessing.Pool(args.threads) if "lkh3" in wanted else None
    for name in instances:
        path = lk.tsplib_path(name)
        n, optimum = lk.instance_info(args.formica, str(path))
        if optimum is None:
            sys.exit(f"protocol: formica knows no optimum for {name}")
        budgets = [float(b) for b in args.budgets.split(",")] if args.budgets else [budget_for(n) * args.budget_scale]
        problem = lk.tsplib_text(path)
        matrix = euc_matrix(path) if "fast-tsp" in wanted and n <= FAST_TSP_MAX_CITIES else None
        on_gpu = False
        for budget in budgets:
            for seed in range(1, args.seeds + 1):
                for row in one_seed(args, wanted, name, path, n, optimum, budget, seed, problem, matrix, pool, work,
                                    on_gpu):
                    on_gpu = on_gpu or row.pop("on_gpu")
                    rows.append(row)
                    print(",".join(str(v) for v in row.values()), flush=True)
    if pool is not None:
        pool.close()
    with open(out / "runs.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    with open(out / "table.md", "w") as f:
        write_table(rows, machine, args.seeds, args.threads, f)
    print((out / "table.md").read_text())


if __name__ == "__main__":
    main()
