# SPDX-License-Identifier: MIT
"""GA-EAX's first population at short budgets: auto's default (100 tours) against a named
--population 50 and 30, 2 threads, seeds 1-5, each budget a fresh run of `formica solve`. Prints a
line per instance and budget (median gap % above the optimum, mean in brackets) and the mean of
the medians per budget and variant.

    python run.py FORMICA TSPLIB_DIR
"""
import json
import statistics
import subprocess
import sys
import tempfile

INSTANCES = ["pr439", "pcb442", "d657", "rat783", "pr1002", "d1291", "fl1400", "fl1577", "d1655", "u2152",
             "u2319", "pr2392", "pcb3038", "fnl4461"]
BUDGETS = [0.25, 0.5, 1.0]
SEEDS = 5
VARIANTS = {"default": [], "--population 50": ["--population", "50"], "--population 30": ["--population", "30"]}


def gap(formica: str, path: str, budget: float, seed: int, extra: list[str], report: str) -> float:
    subprocess.run([formica, "solve", path, "--time-limit", str(budget), "--seed", str(seed), "--threads", "2",
                    "--json", report, "--quiet", *extra], check=True, capture_output=True)
    with open(report) as f:
        run = json.load(f)
    return 100 * (run["best_length"] / run["optimum"] - 1)


def main() -> None:
    formica, tsplib = sys.argv[1], sys.argv[2]
    report = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    medians: dict[tuple[float, str], list[float]] = {}
    for name in INSTANCES:
        for budget in BUDGETS:
            gaps: dict[str, list[float]] = {v: [] for v in VARIANTS}
            for seed in range(1, SEEDS + 1):  # interleaved: a busier minute hits every variant alike
                for variant, extra in VARIANTS.items():
                    gaps[variant].append(gap(formica, f"{tsplib}/{name}.tsp", budget, seed, extra, report))
            for variant, values in gaps.items():
                medians.setdefault((budget, variant), []).append(statistics.median(values))
            print(name, budget, " | ".join(f"{v}: {statistics.median(g):.3f} % (mean {statistics.mean(g):.3f})"
                                           for v, g in gaps.items()), flush=True)
    for (budget, variant), values in sorted(medians.items()):
        print(f"mean of medians, {budget} s, {variant}: {statistics.mean(values):.4f} %")


if __name__ == "__main__":
    main()
