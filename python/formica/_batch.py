# SPDX-License-Identifier: MIT
"""formica.solve_batch: many small instances at once, on every CPU core or on one GPU.

Each instance becomes a Problem exactly as formica.solve would make it (``as_problem``), all of
them before anything is solved, so that one bad instance raises ``ValueError("instance {i}: ...")``
and costs nothing else. The batch then runs in the C++ core with the GIL released.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from typing import Any, Callable, Optional, Union

import numpy as np

from . import _core
from ._arguments import PATH_TYPES, UINT64, parameter, real_number, text, whole_number
from ._messages import check_names, python_messages
from ._problem import Problem, as_problem, attach_partial, solver_target
from ._progress import BatchBar
from ._result import Result, make_result
from ._solve import parameter_text

#: Instances that bring their own name (array instances are named "batch-00017").
_NAMED = (*PATH_TYPES, _core.Instance, Problem)

#: progress(done, total, seconds): instances finished, instances in all, seconds since the start.
ProgressCallback = Callable[[int, int, float], Any]


def solve_batch(
    instances: Any,
    *,
    time_limit: Optional[float] = None,
    kicks: Optional[int] = None,
    seed: int = 1,
    backend: str = "auto",
    threads: int = 0,
    walks: int = 0,
    progress: Union[None, bool, ProgressCallback] = None,
    seeds: Optional[Sequence[Optional[int]]] = None,
    time_limits: Optional[Sequence[Optional[float]]] = None,
    targets: Optional[Sequence[Optional[float]]] = None,
    start_tours: Optional[Sequence[Optional[Any]]] = None,
    metric: Optional[str] = None,
    **parameters: Any,
) -> list[Result]:
    """Solves many (small) TSP instances at once and returns one Result per instance, in order.

    Each instance runs its own iterated local search (independent walks of double-bridge kicks
    repaired by 2-opt + Or-opt + 3-opt); all of them run side by side on the CPU's threads or on
    one GPU. Instances of fewer than 8 cities are solved exactly.

    Args:
        instances: one of
            - a (B, n, 2) array: B instances of n cities each;
            - a list of (n_i, 2) coordinate arrays (sizes may differ), of (n_i, n_i) distance
              matrices, of TSPLIB .tsp paths or formica.Instance objects, mixed as you like.
              (n_i, 3) arrays are 3-D points with metric="euc_3d" only.
        time_limit: seconds each instance may run, counted from the batch's start.
        kicks: kicks per walk. Without kicks and time_limit: 20 x n per walk.
        seed: the seed of instance 0; instance i gets seed + i (its Result.config["seed"]), so an
            instance solved alone with that seed gives what it gave in the batch.
        backend: "auto" (the GPU when one is present), "cpu" or "cuda".
        threads: CPU threads, 0 for all.
        walks: independent walks per instance, 0 to fill the threads or the GPU.
        progress: None shows a progress bar on stderr when stderr is a terminal (tqdm when it is
            installed, a line otherwise); True always, False never; a callable is called as
            progress(done, total, seconds) as instances finish (on the calling thread).
        seeds, time_limits, targets: per instance, one value (or None for the batch's) each:
            its own seed, time limit, and a length to stop at.
        start_tours: per instance, a tour (a permutation of 0 .. n_i - 1, e.g. yesterday's
            route or another solver's) that every walk of the instance starts from instead of a
            nearest-neighbour tour, or None for those; the result is never longer than it.
        metric: for coordinate arrays and matrices, as in formica.solve ("float", exact
            distances, for coordinates that are not all whole numbers; "euc_2d" for whole
            numbers; ...).
        **parameters: other batch parameters by name: kick_segment, ls_neighbours (2 to 32),
            neighbour_lists ("quadrant" or "nearest"), local_search ("two-opt", "or-opt",
            "three-opt"); formica.batch_parameters() lists them all with help.

    Returns:
        a list of Result: iterations are kicks (all walks together), stop_reason is "kicks",
        "time limit", "target", "optimal" (a tour of length 0), "interrupted" or "exact". Array
        instances are named
        "batch-00000", "batch-00001", ...

    Raises:
        ValueError: invalid input, before anything is solved; a bad instance's message starts
            with "instance {i}: ".
        MemoryError: the batch does not fit in memory.
        KeyboardInterrupt: on Ctrl-C (or an exception from a progress callable), after every
            instance stopped cleanly; the exception's ``results`` attribute holds a Result per
            instance with its best tour so far (stop_reason "interrupted").

    Results (and Instances) pickle, so batches can be handed to process pools, Ray or Dask:
    see python/examples/batch_on_a_cluster.py.
    """
    check_names(parameters, batch_parameters())
    kinds = _core.batch_parameter_kinds()
    parameters = {name: parameter(name, value, kinds[name]) for name, value in parameters.items()}
    # The batch's own keywords as the parameters are checked: their ranges are the core's.
    settings = {
        "backend": parameter("backend", backend, "text"),
        "time_limit": None if time_limit is None else parameter("time_limit", time_limit, "number"),
        "kicks": None if kicks is None else parameter("kicks", kicks, "integer"),
        "seed": parameter("seed", seed, "integer"),
        "threads": parameter("threads", threads, "integer"),
        "walks": parameter("walks", walks, "integer"),
        **parameters,
    }
    if metric is not None:
        text("metric", metric)
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        _reporter(progress)  # raises TypeError naming what progress may be
    with python_messages():
        problems, names = _problems(instances, metric)
    count = len(problems)
    per_seed = [None if s is None else whole_number(f"seeds[{i}]", s, *UINT64)
                for i, s in enumerate(_per_instance("seeds", seeds, count))]
    per_time = [None if t is None else real_number(f"time_limits[{i}]", t)
                for i, t in enumerate(_per_instance("time_limits", time_limits, count))]
    per_target = _per_instance("targets", targets, count)
    for i, target in enumerate(per_target):
        solver_target(target, None, f"targets[{i}]")
    per_start = [
        None if tour is None else _start_tour(i, tour, problem.instance.n)
        for i, (tour, problem) in enumerate(zip(_per_instance("start_tours", start_tours, count), problems))
    ]
    limits = None
    if seeds is not None or time_limits is not None or targets is not None or start_tours is not None:
        limits = [
            {"seed": s, "time_limit": t, "target": solver_target(target, problem.scale), "start": start}
            for s, t, target, problem, start in zip(per_seed, per_time, per_target, problems, per_start)
        ]
    spelled = {name: parameter_text(value) for name, value in settings.items() if value is not None}
    reporter = _reporter(progress)

    def results(raw: list[dict[str, Any]]) -> list[Result]:
        out = []
        for r, problem, name, target in zip(raw, problems, names, per_target):
            result = make_result(r, problem, target)
            out.append(result if name is None else dataclasses.replace(result, instance=name))
        return out

    try:
        with python_messages():
            raw = _core.solve_batch([p.instance for p in problems], spelled, limits, reporter)
    except BaseException as error:
        attach_partial(error, "results", results)
        raise
    finally:
        if isinstance(reporter, BatchBar):
            reporter.close()
    return results(raw)


def batch_parameters() -> dict[str, str]:
    """Every parameter solve_batch accepts, by name, with its help text."""
    return dict(_core.batch_parameters())


def _problems(instances: Any, metric: Optional[str]) -> tuple[list[Problem], list[Optional[str]]]:
    """Every instance as a Problem, and the name of each array instance (None for the others)."""
    if isinstance(instances, _NAMED):
        raise ValueError(
            "solve_batch takes a list of instances (or a (B, n, 2) array); for one instance use formica.solve, "
            "for a folder of .tsp files pass sorted(pathlib.Path(folder).glob('*.tsp'))"
        )
    if isinstance(instances, np.ndarray):
        if instances.ndim != 3:
            raise ValueError(
                f"a batch array has shape (B, n, 2), got {instances.shape}; pass a list for instances of different sizes"
            )
        items: list[Any] = list(instances)
    else:
        try:
            items = list(instances)
        except TypeError:
            raise ValueError(
                f"a batch is a (B, n, 2) array or a list of instances, got {type(instances).__name__}"
            ) from None
    if not items:
        raise ValueError("the batch holds no instance")
    problems, names = [], []
    for i, item in enumerate(items):
        try:
            problem = _problem(item, metric)
        except ValueError as error:
            raise ValueError(f"instance {i}: {error}") from None
        problems.append(problem)
        names.append(None if isinstance(item, _NAMED) else f"batch-{i:05d}")
    return problems, names


def _problem(item: Any, metric: Optional[str]) -> Problem:
    if isinstance(item, _NAMED):
        return as_problem(item, metric)
    try:
        array = np.asarray(item)
    except ValueError as error:  # a ragged nested list
        raise ValueError(f"the coordinates are not a rectangular (n, 2) array ({error})") from None
    if array.ndim == 2 and array.shape[1] == 3 and array.shape[0] != 3 and metric not in ("euc_3d", "float"):
        raise ValueError(f"an instance is an (n, 2) array of coordinates, got shape {array.shape} "
                         "(for 3-D points pass metric='euc_3d')")
    return as_problem(array, metric)


def _per_instance(name: str, values: Optional[Sequence[Any]], count: int) -> list[Any]:
    if values is None:
        return [None] * count
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of one value (or None) per instance, got {type(values).__name__}")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} values but the batch has {count} instances")
    return values


def _start_tour(i: int, tour: Any, n: int) -> list[int]:
    """Instance i's start tour as a list of city indices; the batch checks it is a permutation."""
    array = np.asarray(tour)
    if array.ndim != 1 or not (np.issubdtype(array.dtype, np.integer) or array.size == 0):
        raise ValueError(f"instance {i}: a start tour is a 1-D sequence of city indices, got shape {array.shape} "
                         f"of {array.dtype}")
    if array.size and (int(array.min()) < 0 or int(array.max()) >= n):
        bad = int(array.min()) if int(array.min()) < 0 else int(array.max())
        raise ValueError(f"instance {i}: the start tour is not a permutation of 0 .. {n - 1} (city {bad})")
    return [int(c) for c in array]


def _reporter(progress: Union[None, bool, ProgressCallback]) -> Optional[Callable[..., Any]]:
    if progress is None:
        progress = sys.stderr is not None and sys.stderr.isatty()
    if progress is True:
        return BatchBar()
    if progress is False:
        return None
    if callable(progress):
        return progress
    raise TypeError(f"progress must be None, True, False or a callable (done, total, seconds), got {progress!r}")
