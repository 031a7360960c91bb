#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the GPU adds: formica's default beside the same host without its GPU, at every budget.

    python3 bench/engine_ablation.py --formica BUILD/formica --instances usa13509,pla33810 \\
        --seeds 3 --budgets 10,30,60,120,300 [--config LABEL="ARGS" ...] [--out DIR]

Every instance is a TSPLIB name (found in $FORMICA_TSPLIB_DIR/tsp, default ../shared/tsplib/tsp)
or `uniformN` for `formica generate --cities N --seed 1`. Each configuration runs once per seed at
the largest budget (`formica solve --time-limit MAX --seed s --json`), one run at a time, and its
row at budget b is the best length its history had reached b seconds after the process started
(program start and set-up counted; the final polish only in the last row). The configurations by
default are the three of the ablation:
    default   formica solve                        (GPU and host threads: auto)
    cpu       formica solve --backend cpu          (the host alone, every core)
    gpu-only  formica solve --lk-threads 0         (the GPU search without host threads)
Every tour is checked by `formica verify`. Written to --out: runs.csv (one line per run and
budget), ablation.md (medians and ranges per instance, configuration and budget, the time each
configuration took to reach the host alone's median length at --reach-budget, and the median
shares of who found the improvements: the JSON's found_by), and each run's JSON without its tour.
"""
import argparse
import csv
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_CONFIGS = {"default": "", "cpu": "--backend cpu", "gpu-only": "--lk-threads 0"}


def instance_path(name, tsplib, work):
    """The .tsp file of `name`: a TSPLIB file, or a generated uniform instance."""
    if name.startswith("uniform") and name[len("uniform"):].isdigit():
        path = Path(work) / f"{name}.tsp"
        if not path.exists():
            subprocess.run([ARGS.formica, "generate", "--cities", name[len("uniform"):], "--seed", "1",
                            "--output", str(path)], check=True, stdout=subprocess.DEVNULL)
        return path
    path = Path(tsplib) / "tsp" / f"{name}.tsp"
    if not path.exists():
        sys.exit(f"engine_ablation: {path}: no such instance")
    return path


def best_at(history, budget, last):
    """Shortest length of `history` within `budget` seconds (the last budget also takes the rest)."""
    lengths = [h["length"] for h in history if last or h["seconds"] <= budget]
    return min(lengths) if lengths else None


def first_reach(history, length):
    """Seconds at which `history` first reached `length` or less; None if never."""
    for h in history:
        if h["length"] <= length:
            return h["seconds"]
    return None


def run_one(path, label, extra, seed, budget, out):
    json_path = out / f"{path.stem}_{label}_s{seed}.json"
    with tempfile.TemporaryDirectory() as work:
        tour = Path(work) / "t.tour"
        command = [ARGS.formica, "solve", str(path), "--time-limit", str(budget), "--seed", str(seed),
                   "--json", str(json_path), "--tour-out", str(tour), "--quiet", *shlex.split(extra)]
        start = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.monotonic() - start
        if done.returncode != 0:
            sys.exit(f"engine_ablation: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
        verified = subprocess.run([ARGS.formica, "verify", str(path), str(tour)], capture_output=True, text=True)
        if verified.returncode != 0:
            sys.exit(f"engine_ablation: tour of {json_path.name} fails verify: {verified.stdout}{verified.stderr}")
    doc = json.loads(json_path.read_text())
    doc.pop("tour", None)
    json_path.write_text(json.dumps(doc, indent=1))
    return doc, wall


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    return f"{statistics.median(values):.4f} ({min(values):.4f}-{max(values):.4f})"


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--formica", required=True)
    parser.add_argument("--instances", required=True, help="comma-separated TSPLIB names or uniformN")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--budgets", default="10,30,60,120,300", help="seconds, comma-separated")
    parser.add_argument("--config", action="append", default=[], metavar='LABEL="ARGS"',
                        help="a configuration (replaces the default three when given)")
    parser.add_argument("--reference", default="cpu", help="the configuration the others are measured against")
    parser.add_argument("--reach-budget", type=float, default=120.0,
                        help="the reference's budget whose median length the others race to")
    parser.add_argument("--out", default="engine_ablation_out")
    ARGS = parser.parse_args()
    configs = dict(DEFAULT_CONFIGS)
    if ARGS.config:
        configs = dict(c.split("=", 1) for c in ARGS.config)
    budgets = [float(b) for b in ARGS.budgets.split(",")]
    out = Path(ARGS.out)
    out.mkdir(parents=True, exist_ok=True)
    tsplib = os.environ.get("FORMICA_TSPLIB_DIR", str(Path(__file__).resolve().parents[2] / "shared" / "tsplib"))
    optima = {}
    solutions = Path(tsplib) / "solutions.csv"
    if solutions.exists():
        for row in csv.DictReader(solutions.open()):
            if row.get("optimum", "").strip().isdigit():
                optima[row["name"].strip()] = int(row["optimum"])

    rows, docs = [], {}
    with tempfile.TemporaryDirectory() as work:
        for name in ARGS.instances.split(","):
            path = instance_path(name, tsplib, work)
            for label, extra in configs.items():
                for seed in range(1, ARGS.seeds + 1):
                    doc, wall = run_one(path, label, extra, seed, max(budgets), out)
                    docs[(name, label, seed)] = doc
                    for b in budgets:
                        rows.append({"instance": name, "config": label, "seed": seed, "budget": b,
                                     "length": best_at(doc["history"], b, b == max(budgets)),
                                     "wall_seconds": round(wall, 2), "device": doc["device"]})
                    print(f"{name} {label} s{seed}: {doc['best_length']} in {wall:.1f} s", flush=True)
    with (out / "runs.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)

    lines = ["# What the GPU adds: the default beside the host alone", "",
             f"formica {ARGS.formica}; seeds 1-{ARGS.seeds}; one run per seed at {max(budgets):g} s, each budget "
             "read from its history; gap in % above the optimum (or above the best length of all runs where "
             "the optimum is unknown): median (range).", ""]
    for name in ARGS.instances.split(","):
        lengths = [r["length"] for r in rows if r["instance"] == name and r["length"] is not None]
        base = optima.get(name, min(lengths))
        devices = sorted({r["device"] for r in rows if r["instance"] == name})
        lines += [f"## {name} ({'optimum' if name in optima else 'best of all runs'} {base}; {', '.join(devices)})", "",
                  "| configuration | " + " | ".join(f"{b:g} s" for b in budgets) +
                  f" | reaches {ARGS.reference}'s {ARGS.reach_budget:g}-s median at | found by (median shares) |",
                  "|---" * (len(budgets) + 3) + "|"]
        reference = [r["length"] for r in rows if r["instance"] == name and r["config"] == ARGS.reference
                     and r["budget"] == ARGS.reach_budget and r["length"] is not None]
        target = statistics.median(reference) if reference else None
        for label in configs:
            cells = []
            for b in budgets:
                gaps = [100.0 * (r["length"] - base) / base for r in rows if r["instance"] == name
                        and r["config"] == label and r["budget"] == b and r["length"] is not None]
                cells.append(spread(gaps))
            seeds = [docs[(name, label, s)] for s in range(1, ARGS.seeds + 1)]
            reach = [first_reach(d["history"], target) for d in seeds] if target is not None else []
            reached = [t for t in reach if t is not None]
            reach_cell = (f"{statistics.median(reached):.1f} s ({len(reached)}/{len(reach)} seeds)" if reached
                          else ("never" if reach else "-"))
            shares = {}
            for d in seeds:
                found = d.get("found_by") or {}
                for key, share in (found.get("shares") or {}).items():
                    shares.setdefault(key, []).append(share)
            found_cell = ", ".join(f"{key} {100 * statistics.median(v):.0f} %" for key, v in shares.items()
                                   if statistics.median(v) > 0) or "-"
            lines.append(f"| {label} | " + " | ".join(cells) + f" | {reach_cell} | {found_cell} |")
        lines.append("")
    (out / "ablation.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
