#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""formica against LKH-3 at the same time budgets, on the same host (docs/against-lkh3.md).

    python3 bench/lkh_compare.py --formica BUILD/formica --instances pcb3038,fnl4461 \\
        --budgets 1,3,10,30 --seeds 3 [--lkh-processes P] [--formica-args "..."] \\
        [--csv OUT.csv] [--plot OUT.png] [--table OUT.md]
    python3 bench/lkh_compare.py --from-csv a.csv b.csv=LABEL ... [--plot OUT.png] [--table OUT.md]

For every instance, budget b and seed s:
  * formica: `formica solve INSTANCE --time-limit b --seed s --json ...`, its wall time measured
    around the process (start-up, reading and set-up included);
  * LKH-3: the one bundled with the `elkai` package (pip install elkai), default parameters with
    RUNS = 1 and TIME_LIMIT = b, on the TSPLIB file itself (LKH computes the distances, as
    formica does), P processes at once with seeds s * 1000 + k, the best of the P tours kept:
    how a user with P cores runs a single-threaded heuristic. LKH's TIME_LIMIT does not cover its
    set-up (the subgradient ascent for the alpha-nearness candidates), so its wall time can pass
    b: the table and the plot put every run at the wall time it took, set-up counted.
With --formica-anytime formica runs once per seed, at the largest budget, and its row at budget b
is the best length its history had reached b seconds after the process started (its JSON's
history, program start included; the final polish counts only in the last row): one run gives
formica's whole curve, where separate runs would each set themselves up for their own budget.
With --lkh-anytime LKH-3 does the same: once per seed, its P processes given TOTAL_TIME_LIMIT =
the largest budget (which, unlike TIME_LIMIT, counts its set-up), each printing its trace
(TRACE_LEVEL = 1, line-buffered, every line stamped with the wall time the benchmark read it),
and its row at budget b is the shortest length any process had reported b seconds after they
were started; before the first process has set up there is no tour, and the row says so. A
process still running at the largest budget plus 5 % is stopped (it has no final tour).
With --stop-at-optimum formica gets --target OPTIMUM and LKH-3 OPTIMUM = OPTIMUM (it stops a
process at it); in anytime mode the other LKH processes are stopped as soon as one reports it.
Every tour is written as a TSPLIB .tour and checked by `formica verify` (a permutation, and the
length printed is the exact TSPLIB length); the gap is to the optimum that `formica info` knows.
LKH-3's anytime lengths are its own trace; the final tour of every process that ends is verified
and must measure no more than its trace last said (shorter, it counts from when it came).

Output: one CSV row per run (instance, n, solver, budget, seed, wall_s, length, gap_pct), a
Markdown table of median gaps per instance and budget with formica's standing, and with --plot
one panel per instance of gap against wall time (log axis), both solvers.

--from-csv runs nothing: it reads the rows of earlier runs' --csv files and writes their table and
plot; FILE=LABEL names that file's formica rows LABEL (two formica settings on one plot).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def tsplib_path(name: str) -> Path:
    """A TSPLIB instance by path, or by name under $FORMICA_TSPLIB_DIR/tsp (.tsp or .tsp.gz)."""
    path = Path(name)
    if path.exists():
        return path
    root = Path(os.environ.get("FORMICA_TSPLIB_DIR", "shared/tsplib"))
    for candidate in (root / "tsp" / f"{name}.tsp", root / "tsp" / f"{name}.tsp.gz", root / f"{name}.tsp"):
        if candidate.exists():
            return candidate
    sys.exit(f"lkh_compare: no TSPLIB file for '{name}' (set FORMICA_TSPLIB_DIR)")


def tsplib_text(path: Path) -> str:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return f.read()


def instance_info(formica: str, instance: str) -> tuple[int, int | None]:
    """(n, optimum or None) from `formica info`."""
    out = subprocess.run([formica, "info", instance], capture_output=True, text=True, check=True).stdout
    n = int(re.search(r"^n: (\d+)$", out, re.M).group(1))
    optimum = re.search(r"^optimum: (\d+)", out, re.M)
    return n, int(optimum.group(1)) if optimum else None


def verified_length(formica: str, instance: str, tour_file: Path, who: str) -> int:
    """The exact length `formica verify` prints for the .tour file; exits, the message starting with
    `who`, if it is not a tour of the instance."""
    result = subprocess.run([formica, "verify", instance, str(tour_file)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{who}: formica verify failed: {result.stderr.strip() or result.stdout.strip()}")
    return int(re.search(r"length\D*(\d+)", result.stdout).group(1))


def verify(formica: str, instance: str, tour: list[int], workdir: Path, tag: str) -> int:
    """Writes `tour` (0-based) as a .tour file; returns the exact length `formica verify` prints."""
    path = workdir / f"{tag}.tour"
    path.write_text(f"NAME : {tag}\nTYPE : TOUR\nDIMENSION : {len(tour)}\nTOUR_SECTION\n"
                    + "\n".join(str(c + 1) for c in tour) + "\n-1\nEOF\n")
    return verified_length(formica, instance, path, f"lkh_compare: {tag}")


def run_formica(formica: str, instance: str, budget: float, seed: int, extra: list[str], workdir: Path) -> tuple[float, dict]:
    """One `formica solve`; returns its wall time and its JSON report."""
    out = workdir / "formica.json"
    start = time.perf_counter()
    subprocess.run([formica, "solve", instance, "--time-limit", str(budget), "--seed", str(seed), "--json", str(out),
                    "--quiet", *extra], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    return wall, json.loads(out.read_text())


def anytime_length(report: dict, budget: float) -> int | None:
    """The best length formica's history had reached `budget` seconds after start, or None."""
    reached = [h["length"] for h in report["history"] if h["seconds"] <= budget]
    return min(reached) if reached else None


def lkh_once(args: tuple[str, float, int]) -> tuple[float, list[int]]:
    """One LKH-3 run through elkai's solver entry point; returns (its wall time, 0-based tour)."""
    problem, budget, seed = args
    from elkai import _elkai  # the bundled LKH-3: solve_problem(parameters, problem text)

    parameters = f"RUNS = 1\nTIME_LIMIT = {budget}\nSEED = {seed}\nPROBLEM_FILE = :stdin:\n"
    start = time.perf_counter()
    tour = _elkai.solve_problem(parameters, problem)
    return time.perf_counter() - start, [c - 1 for c in tour]


# One LKH-3 process of --lkh-anytime: parameters in argv[1], the TSPLIB text on stdin. LKH prints
# its trace with C stdio, which a pipe would buffer to the end: line-buffered here, and the tour
# printed after it on one line.
LKH_CHILD = r"""
import ctypes, json, sys
libc = ctypes.CDLL(None)
libc.setvbuf(ctypes.c_void_p.in_dll(libc, "stdout"), None, 1, 0)
from elkai import _elkai
tour = _elkai.solve_problem(sys.argv[1], sys.stdin.read())
libc.fflush(None)
print("TOUR " + json.dumps(tour), flush=True)
"""

LKH_COST = re.compile(r"^\* \d+: Cost = (\d+)")


def lkh_parameters(budget: float, seed: int, optimum: int | None) -> str:
    text = f"RUNS = 1\nTOTAL_TIME_LIMIT = {budget}\nTRACE_LEVEL = 1\nSEED = {seed}\nPROBLEM_FILE = :stdin:\n"
    return text + (f"OPTIMUM = {optimum}\n" if optimum is not None else "")


class LkhProcess:
    """One traced LKH-3 process: (seconds since the start, cost) for every improvement it printed,
    its final tour (1-based, as LKH gives it) if it ended."""

    def __init__(self, argv: list[str], problem: str, start: float):
        self.events: list[tuple[float, int]] = []
        self.tour: list[int] | None = None
        self.setup_s: float | None = None
        self.ended_s: float | None = None
        self._start = start
        self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._reader = threading.Thread(target=self._read, args=(problem,), daemon=True)
        self._reader.start()

    def _read(self, problem: str) -> None:
        try:
            self._proc.stdin.write(problem)
            self._proc.stdin.close()
        except BrokenPipeError:
            pass
        for line in self._proc.stdout:
            now = time.perf_counter() - self._start
            if line.startswith("TOUR "):
                self.tour = json.loads(line[5:])
                self.ended_s = now
            elif line.startswith("Preprocessing time"):
                self.setup_s = now
            elif match := LKH_COST.match(line):
                self.events.append((now, int(match.group(1))))
        self._proc.wait()


    def reconcile(self, final: int) -> None:
        """Takes the verified length of the final tour: LKH-3 can end shorter than its last trace
        line (usa13509, 600 s: the trace's last cost 19986406, the tour 19986382), which then counts
        from the moment the tour came; a tour longer than the trace said is an error (ValueError)."""
        last = self.events[-1][1] if self.events else None
        if last is not None and final > last:
            raise ValueError(f"reported {last}, its tour measures {final}")
        if last is None or final < last:
            self.events.append((self.ended_s, final))

    def done(self) -> bool:
        return not self._reader.is_alive()

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._reader.join()


def run_lkh_anytime(problem: str, budget: float, seed: int, processes: int, optimum: int | None,
                    child: list[str] | None = None) -> list[LkhProcess]:
    """P traced LKH-3 processes at once (seeds seed * 1000 + k), each with TOTAL_TIME_LIMIT =
    budget; stops those still running at 1.1 budget + 5 s, or all once one reports the optimum."""
    start = time.perf_counter()
    runs = []
    for k in range(processes):
        parameters = lkh_parameters(budget, seed * 1000 + k, optimum)
        argv = (child or [sys.executable, "-c", LKH_CHILD]) + [parameters]
        runs.append(LkhProcess(argv, problem, start))
    cap = 1.1 * budget + 5.0
    while not all(r.done() for r in runs) and time.perf_counter() - start <= cap:
        if optimum is not None and any(r.done() and r.tour and r.events and r.events[-1][1] <= optimum for r in runs):
            break  # that process's tour is the optimum, and it is verified below
        time.sleep(0.05)
    for r in runs:
        r.stop()
    return runs


def best_by(runs: list[LkhProcess], seconds: float) -> int | None:
    """The shortest length any process had reported `seconds` after the start, or None."""
    costs = [c for r in runs for t, c in r.events if t <= seconds]
    return min(costs) if costs else None


def run_lkh(pool, problem: str, budget: float, seed: int, processes: int) -> tuple[float, list[list[int]]]:
    start = time.perf_counter()
    results = pool.map(lkh_once, [(problem, budget, seed * 1000 + k) for k in range(processes)])
    return time.perf_counter() - start, [tour for _, tour in results]


def median_gap(rows: list[dict]) -> float | None:
    """Median gap of the runs, a run without a tour counted as worse than any; None if that median
    has no tour."""
    gaps = sorted(r["gap_pct"] if r["gap_pct"] is not None else float("inf") for r in rows)
    m = statistics.median(gaps)
    return None if m == float("inf") else m


def read_rows(spec: str) -> list[dict]:
    """The rows of an earlier --csv file, given as FILE or FILE=LABEL (its formica rows' solver
    renamed LABEL), typed as the runs write them."""
    path, _, label = spec.partition("=")
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            number = lambda key, kind: kind(r[key]) if r[key] not in ("", None) else None
            rows.append({"instance": r["instance"], "n": int(r["n"]),
                         "solver": label if label and r["solver"] == "formica" else r["solver"],
                         "budget": float(r["budget"]), "seed": int(r["seed"]), "wall_s": float(r["wall_s"]),
                         "length": number("length", int), "gap_pct": number("gap_pct", float),
                         "processes": int(r["processes"])})
    return rows


def write_table(rows: list[dict], out) -> None:
    by_key: dict[tuple[str, float, str], list[dict]] = {}
    for r in rows:
        by_key.setdefault((r["instance"], r["budget"], r["solver"]), []).append(r)
    out.write("| instance | budget (s) | formica median gap | wall (s) | LKH-3 median gap | wall (s) | LKH-3 within the budget "
              "| formica no worse |\n")
    out.write("|---|---:|---:|---:|---:|---:|---|---|\n")
    for instance, budget in sorted({(r["instance"], r["budget"]) for r in rows}, key=lambda k: (k[0], k[1])):
        f, l = by_key.get((instance, budget, "formica"), []), by_key.get((instance, budget, "lkh3"), [])
        if not f or not l:
            continue
        fg, lg = median_gap(f), median_gap(l)
        fw, lw = statistics.median(r["wall_s"] for r in f), statistics.median(r["wall_s"] for r in l)
        on_time = "yes" if lw <= max(1.05 * budget, budget + 0.05) else "no (set-up)"
        if lg is None:
            on_time = "no tour yet (set-up)"
        no_worse = lg is None or (fg is not None and fg <= lg)
        show = lambda g: "no tour" if g is None else f"{g:.4f} %"
        out.write(f"| {instance} | {budget:g} | {show(fg)} | {fw:.2f} | {show(lg)} | {lw:.2f} | {on_time} "
                  f"| {'yes' if no_worse else 'NO'} |\n")


def plot(rows: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    instances = sorted({r["instance"] for r in rows})
    fig, axes = plt.subplots(1, len(instances), figsize=(5 * len(instances), 4), squeeze=False)
    for ax, instance in zip(axes[0], instances):
        solvers = sorted({r["solver"] for r in rows if r["instance"] == instance}, key=lambda x: (x == "lkh3", x))
        for solver in solvers:
            style = "s--" if solver == "lkh3" else "o-"
            mine = [r for r in rows if r["instance"] == instance and r["solver"] == solver]
            points = []  # a budget whose median run has no tour yet draws nothing
            for b in sorted({r["budget"] for r in mine}):
                at = [r for r in mine if r["budget"] == b]
                if (gap := median_gap(at)) is not None:
                    points.append((statistics.median(r["wall_s"] for r in at), gap))
            ax.plot([x for x, _ in points], [y for _, y in points], style,
                    label="LKH-3 (elkai)" if solver == "lkh3" else solver)
            ax.scatter([r["wall_s"] for r in mine if r["gap_pct"] is not None],
                       [r["gap_pct"] for r in mine if r["gap_pct"] is not None], s=8, alpha=0.4)
        ax.set_xscale("log")
        ax.set_xlabel("wall time (s), set-up included")
        ax.set_ylabel("gap to optimum (%)")
        ax.set_title(instance)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formica", help="the formica binary")
    parser.add_argument("--instances", help="comma-separated TSPLIB names or paths")
    parser.add_argument("--from-csv", nargs="+", metavar="FILE[=LABEL]",
                        help="run nothing: the table and plot of earlier --csv files")
    parser.add_argument("--budgets", default="1,3,10,30", help="comma-separated seconds")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1, help="seeds first-seed .. first-seed + seeds - 1")
    parser.add_argument("--lkh-processes", type=int, default=os.cpu_count() or 1,
                        help="LKH-3 processes per run (best tour kept); default: every core")
    parser.add_argument("--formica-args", default="", help="extra arguments for formica solve")
    parser.add_argument("--solvers", default="formica,lkh3", help="which to run (formica, lkh3)")
    parser.add_argument("--formica-anytime", action="store_true",
                        help="one formica run per seed at the largest budget, read at every budget from its history")
    parser.add_argument("--lkh-anytime", action="store_true",
                        help="one traced LKH-3 run per seed (TOTAL_TIME_LIMIT = the largest budget, set-up counted), "
                             "read at every budget from its trace")
    parser.add_argument("--stop-at-optimum", action="store_true",
                        help="formica --target OPTIMUM, LKH-3 OPTIMUM = OPTIMUM: runs end at the optimum")
    parser.add_argument("--csv", help="write every run as a CSV row")
    parser.add_argument("--table", help="write the Markdown table here as well as to stdout")
    parser.add_argument("--plot", help="gap against wall time, one panel per instance (PNG)")
    args = parser.parse_args()
    if args.from_csv:
        rows = [row for spec in args.from_csv for row in read_rows(spec)]
        write_table(rows, sys.stdout)
        if args.table:
            with open(args.table, "w") as f:
                write_table(rows, f)
        if args.plot:
            plot(rows, args.plot)
        return
    if not args.formica or not args.instances:
        parser.error("--formica and --instances are needed unless --from-csv is given")

    budgets = [float(b) for b in args.budgets.split(",")]
    solvers = set(args.solvers.split(","))
    rows: list[dict] = []
    writer = None
    csv_file = open(args.csv, "w", newline="") if args.csv else None
    fields = ["instance", "n", "solver", "budget", "seed", "wall_s", "length", "gap_pct", "processes"]
    if csv_file:
        writer = csv.DictWriter(csv_file, fieldnames=fields)
        writer.writeheader()
    with tempfile.TemporaryDirectory() as tmp, multiprocessing.Pool(args.lkh_processes) as pool:
        workdir = Path(tmp)
        for name in args.instances.split(","):
            path = tsplib_path(name)
            n, optimum = instance_info(args.formica, str(path))
            if optimum is None:
                sys.exit(f"lkh_compare: {name}: no known optimum, so no gap")
            problem = tsplib_text(path)
            formica_args = args.formica_args.split() + (["--target", str(optimum)] if args.stop_at_optimum else [])
            anytime: dict[int, tuple[float, dict]] = {}
            if "formica" in solvers and args.formica_anytime:
                for seed in range(args.first_seed, args.first_seed + args.seeds):
                    wall, report = run_formica(args.formica, str(path), max(budgets), seed, formica_args, workdir)
                    final = verify(args.formica, str(path), report["tour"], workdir, "formica")
                    if final != report["best_length"]:
                        sys.exit(f"lkh_compare: formica reported {report['best_length']}, its tour measures {final}")
                    anytime[seed] = (wall, report)
            lkh_traces: dict[int, list[LkhProcess]] = {}
            if "lkh3" in solvers and args.lkh_anytime:
                for seed in range(args.first_seed, args.first_seed + args.seeds):
                    runs = run_lkh_anytime(problem, max(budgets), seed, args.lkh_processes,
                                           optimum if args.stop_at_optimum else None)
                    for k, r in enumerate(runs):
                        if r.tour is None:
                            continue
                        final = verify(args.formica, str(path), [c - 1 for c in r.tour], workdir, f"lkh{k}")
                        try:
                            r.reconcile(final)
                        except ValueError as error:
                            sys.exit(f"lkh_compare: LKH-3 process {k} {error}")
                    ended = [r for r in runs if r.tour is not None]
                    setups = [r.setup_s for r in runs if r.setup_s is not None]
                    print(f"# {name} seed {seed}: LKH-3 set-up {min(setups):.1f}-{max(setups):.1f} s" if setups
                          else f"# {name} seed {seed}: no LKH-3 process finished its set-up",
                          f"; {len(ended)} of {len(runs)} processes ended with a verified tour, the rest stopped",
                          file=sys.stderr, flush=True)
                    lkh_traces[seed] = runs
            for budget in budgets:
                for seed in range(args.first_seed, args.first_seed + args.seeds):
                    runs = []
                    if "formica" in solvers and args.formica_anytime:
                        wall, report = anytime[seed]
                        length = report["best_length"] if budget == max(budgets) else anytime_length(report, budget)
                        runs.append(("formica", wall if budget == max(budgets) else budget, length, 1))
                    elif "formica" in solvers:
                        wall, report = run_formica(args.formica, str(path), budget, seed, formica_args, workdir)
                        runs.append(("formica", wall, verify(args.formica, str(path), report["tour"], workdir, "formica"), 1))
                    if "lkh3" in solvers and args.lkh_anytime:
                        runs.append(("lkh3", budget, best_by(lkh_traces[seed], budget), args.lkh_processes))
                    elif "lkh3" in solvers:
                        wall, tours = run_lkh(pool, problem, budget, seed, args.lkh_processes)
                        best = min(verify(args.formica, str(path), t, workdir, f"lkh{k}") for k, t in enumerate(tours))
                        runs.append(("lkh3", wall, best, args.lkh_processes))
                    for solver, wall, length, processes in runs:
                        gap = None if length is None else round(100.0 * (length - optimum) / optimum, 4)
                        row = {"instance": name, "n": n, "solver": solver, "budget": budget, "seed": seed,
                               "wall_s": round(wall, 3), "length": length, "gap_pct": gap, "processes": processes}
                        rows.append(row)
                        print(",".join("" if row[f] is None else str(row[f]) for f in fields), flush=True)
                        if writer:
                            writer.writerow(row)
                            csv_file.flush()
    if csv_file:
        csv_file.close()
    write_table(rows, sys.stdout)
    if args.table:
        with open(args.table, "w") as f:
            write_table(rows, f)
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
