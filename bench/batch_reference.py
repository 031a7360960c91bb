#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LKH-3 (through the `elkai` package, default settings: 10 runs) on the instances batch_bench wrote.

    python3 bench/batch_reference.py INSTANCES.npy [--count M] [--processes P] [--csv OUT.csv]
                                     [--formica FORMICA.csv]

Each instance is a row of the (B, n, 2) .npy that `batch_bench --npy` writes; its TSPLIB EUC_2D
integer distance matrix (nint of the Euclidean distance, as formica measures) goes to
elkai.DistanceMatrix(...).solve_tsp(), one instance per process, P processes at once (default:
every core), so the wall time is LKH-3's throughput on this host. With --formica (batch_bench's
--csv of the same instances) it prints both means over the same instances, the gap between them
and how many instances formica solved to LKH-3's length or shorter.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import time

import numpy as np


def tsplib_matrix(points: np.ndarray) -> np.ndarray:
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    return np.floor(d + 0.5).astype(np.int64)


def solve_one(points: np.ndarray) -> tuple[int, float]:
    import elkai

    matrix = tsplib_matrix(points)
    start = time.perf_counter()
    tour = elkai.DistanceMatrix(matrix.tolist()).solve_tsp()
    seconds = time.perf_counter() - start
    order = tour[:-1] if len(tour) == len(points) + 1 else tour
    assert sorted(order) == list(range(len(points))), "elkai returned no permutation"
    length = int(sum(matrix[order[i], order[(i + 1) % len(order)]] for i in range(len(order))))
    return length, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("npy")
    parser.add_argument("--count", type=int, default=0, help="the first M instances (default: all)")
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    parser.add_argument("--csv", help="per-instance lengths and seconds")
    parser.add_argument("--formica", help="batch_bench --csv of the same instances, to compare")
    parser.add_argument("--reuse", action="store_true",
                        help="read elkai's lengths from --csv (an earlier run's) instead of running it again")
    args = parser.parse_args()

    instances = np.load(args.npy)
    if args.count:
        instances = instances[: args.count]
    if args.reuse:
        with open(args.csv) as f:
            results = [(int(row["length"]), float(row["seconds"])) for row in csv.DictReader(f)][: len(instances)]
        lengths = np.array([r[0] for r in results], dtype=np.float64)
        print(f"elkai lengths of {len(results)} instances read from {args.csv}")
    else:
        start = time.perf_counter()
        with multiprocessing.Pool(args.processes) as pool:
            results = pool.map(solve_one, list(instances), chunksize=1)
        wall = time.perf_counter() - start
        lengths = np.array([r[0] for r in results], dtype=np.float64)
        from importlib.metadata import version

        print(f"elkai {version('elkai')} (LKH-3, default settings), {len(instances)} instances of "
              f"{instances.shape[1]} cities, {args.processes} processes: {wall:.2f} s wall, "
              f"{len(instances) / wall:.2f} instances/s, mean length {lengths.mean():.1f}, "
              f"mean seconds per instance {np.mean([r[1] for r in results]):.3f}")
    if args.csv and not args.reuse:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["index", "n", "length", "seconds"])
            for i, (length, seconds) in enumerate(results):
                out.writerow([i, instances.shape[1], length, f"{seconds:.4f}"])
    if args.formica:
        with open(args.formica) as f:
            formica = {int(row["index"]): int(row["length"]) for row in csv.DictReader(f)}
        ours = np.array([formica[i] for i in range(len(instances))], dtype=np.float64)
        gap = (ours.mean() / lengths.mean() - 1.0) * 100.0
        at_or_below = int((ours <= lengths).sum())
        print(f"formica over the same {len(instances)} instances: mean length {ours.mean():.1f}, "
              f"{gap:+.4f} % against elkai's mean; {at_or_below} of {len(instances)} at elkai's length or "
              f"shorter, {int((ours < lengths).sum())} shorter, worst {((ours / lengths).max() - 1) * 100:.3f} %")


if __name__ == "__main__":
    main()
