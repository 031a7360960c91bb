# SPDX-License-Identifier: MIT
"""Solving a large batch of small TSP instances on many machines: Ray, Dask or a process pool.

formica.solve_batch already uses every core (or the GPU) of one machine. To go further, split the
instances into chunks, hand each chunk to a worker that calls formica.solve_batch, and join the
results. Instances and Results pickle, so no formica-specific glue is needed: any executor that
maps a function over arguments will do.

Every chunk passes its instances' global seeds (seed + global index), so each instance gets the
seed it would get in one big batch, and with a kick budget the same tour however the batch was
split. (Walks per instance default to filling the worker's cores; pass walks= to fix them too.)

Run it as a script to try it on this machine:

    python batch_on_a_cluster.py --executor process --instances 64 --cities 100
    python batch_on_a_cluster.py --executor ray      # after `pip install ray`
    python batch_on_a_cluster.py --executor dask     # after `pip install "dask[distributed]"`

On a cluster, connect first (ray.init(address="auto"), or a dask.distributed.Client pointing at
the scheduler) and call solve_in_chunks(..., executor="ray" or "dask"): the workers need formica
installed, nothing else.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import formica


def solve_chunk(instances: Sequence[Any], seeds: Sequence[int], options: dict[str, Any]) -> list[formica.Result]:
    """One worker's share: a plain call of formica.solve_batch (no progress bar on a worker)."""
    return formica.solve_batch(list(instances), seeds=list(seeds), progress=False, **options)


def chunks(count: int, chunk_size: int) -> list[range]:
    """The instances' indices, chunk_size at a time."""
    return [range(start, min(start + chunk_size, count)) for start in range(0, count, chunk_size)]


def solve_in_chunks(
    instances: Sequence[Any],
    *,
    executor: str = "process",
    chunk_size: int = 16,
    workers: int | None = None,
    seed: int = 1,
    **options: Any,
) -> list[formica.Result]:
    """Solves `instances` (anything formica.solve_batch takes, as a list) chunk by chunk on workers.

    executor: "process" (a concurrent.futures.ProcessPoolExecutor of `workers` processes on this
    machine, always there),
    "ray" (the Ray cluster ray.init connects to; a local one if none) or "dask" (the current
    dask.distributed Client; a local one if none). `options` go to formica.solve_batch
    (kicks=, time_limit=, backend=, threads=, walks=, ...). Results come back in input order.
    """
    parts = chunks(len(instances), chunk_size)
    jobs = [([instances[i] for i in part], [seed + i for i in part]) for part in parts]
    if executor == "process":
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # "spawn": a forked child of a process whose OpenMP threads have run can hang in its own.
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            solved = list(pool.map(solve_chunk, *zip(*jobs), [options] * len(jobs)))
    elif executor == "ray":
        import ray

        if not ray.is_initialized():
            ray.init(num_cpus=workers)
        remote = ray.remote(solve_chunk)
        solved = ray.get([remote.remote(chunk, seeds, options) for chunk, seeds in jobs])
    elif executor == "dask":
        from dask.distributed import Client, get_client

        try:
            client = get_client()
        except ValueError:
            client = Client(n_workers=workers, processes=True)
        futures = client.map(solve_chunk, *zip(*jobs), [options] * len(jobs), pure=False)
        solved = client.gather(futures)
    else:
        raise ValueError(f"executor is 'process', 'ray' or 'dask', got {executor!r}")
    return [result for chunk in solved for result in chunk]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executor", default="process", choices=("process", "ray", "dask"))
    parser.add_argument("--instances", type=int, default=64)
    parser.add_argument("--cities", type=int, default=100)
    parser.add_argument("--chunk-size", type=int, default=16)
    parser.add_argument("--kicks", type=int, default=500)
    args = parser.parse_args()
    points = np.random.default_rng(1).uniform(0, 1000, size=(args.instances, args.cities, 2))
    start = time.monotonic()
    results = solve_in_chunks(list(points), executor=args.executor, chunk_size=args.chunk_size, kicks=args.kicks)
    print(f"{len(results)} instances in {time.monotonic() - start:.2f} s on {args.executor} workers, "
          f"mean length {np.mean([r.length for r in results]):.1f}")


if __name__ == "__main__":
    main()
