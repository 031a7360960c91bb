# SPDX-License-Identifier: MIT
"""The float points of bench/python_peers.py (1,000 seeded uniform points, the float metric) to
LKH-3's length, GA-EAX set up as auto sets it up for a target, with --eax-chain-neighbours K.
Prints one line per run: K, seed, wall seconds, whether the reference was reached.

    PYTHONPATH=build-cpu/python python bench/results/2026-12-05-eax-chain-lists/float_points.py --seeds 17 0 5 10
"""

import argparse
import time

import numpy as np

import formica

#: LKH-3's length (elkai, 10 runs) on the peers' integer matrix, measured on the exact distances.
REFERENCE = 22.909738203349633

parser = argparse.ArgumentParser()
parser.add_argument("--seeds", type=int, default=17)
parser.add_argument("neighbours", type=int, nargs="+")
args = parser.parse_args()
points = np.random.default_rng(1000).random((1000, 2))
exact = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
for seed in range(1, args.seeds + 1):
    for k in args.neighbours:
        start = time.perf_counter()
        result = formica.solve(points, target=REFERENCE, time_limit=10, seed=seed, threads=2, algorithm="eax",
                               eax_climb="lin-kernighan", population=50, eax_chain_neighbours=k)
        seconds = time.perf_counter() - start
        order = np.asarray(result.tour)
        length = float(exact[order, np.roll(order, -1)].sum())
        print(k, seed, f"{seconds:.2f}", length <= REFERENCE * (1 + 1e-9) + 1e-9, flush=True)
