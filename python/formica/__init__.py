"""formica: a GPU solver for the symmetric Traveling Salesman Problem, from Python.

A thin layer over formica's C++ library::

    import numpy as np, formica
    points = np.random.default_rng(1).uniform(0, 1000, size=(200, 2))
    result = formica.solve(points, iterations=50, seed=1)
    result.tour, result.length, result.plot("tour.svg")

``formica.solve`` takes coordinates, a distance matrix, a TSPLIB file, an ``Instance`` or a
NetworkX graph and returns a ``Result``; ``formica.solve_batch`` solves many small instances at
once and returns a list of them. Lengths are exact: TSPLIB integer distances summed in 64 bits
for integer input, unrounded distances summed in double for float input (``metric="float"``, the
default for coordinates that are not all whole numbers). docs/python.md is the guide. Invalid input raises ``ValueError``
with the message the ``formica`` command line prints; an instance too large for memory raises
``MemoryError``. ``formica.backend_info()`` says whether the GPU is used; ``python -m formica
solve FILE`` solves from the shell.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._batch import batch_parameters, solve_batch
from ._graph import graph_matrix, is_graph
from ._messages import check_names, python_messages
from ._progress import ImprovementBar
from ._core import Instance
from ._problem import (
    METRICS,
    DirectedMatrix,
    Problem,
    ProblemLike,
    as_problem,
    as_tour,
    asymmetric_matrix,
    attach_partial,
    solver_target,
)
from .plot import plot_history, plot_tour

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "METRICS",
    "HistoryPoint",
    "Instance",
    "LowerBound",
    "Result",
    "backend_info",
    "device_memory_in_use",
    "batch_parameters",
    "generate",
    "lower_bound",
    "parameters",
    "plot_history",
    "plot_tour",
    "read_tour",
    "read_tsplib",
    "solve",
    "solve_batch",
    "tour_length",
    "write_tour",
]

__version__: str = _core.__version__


class HistoryPoint(NamedTuple):
    """One improvement of the best tour: after `iteration` iterations, at `seconds`, `length`."""

    iteration: int
    seconds: float
    length: Union[int, float]


@dataclass(frozen=True, eq=False, repr=False)
class Result:
    """What formica.solve (or formica.solve_batch, for one instance of the batch) found.

    Attributes:
        tour: the best tour, 0-based city indices (int32), a validated permutation.
        length: its exact length: an int for TSPLIB metrics and integer matrices, a float (summed
            in double) for metric="float".
        gap: percent above the known optimum, None when no optimum is known.
        optimum: the proven optimal length of a TSPLIB instance, None when unknown.
        iterations: completed iterations (solve_batch: kicks, all walks together).
        seconds: wall-clock seconds from the solver's start to the end of the run.
        history: every improvement of the best length, in order (see HistoryPoint). With
            metric="float" these lengths are the solver's fixed-point lengths in the problem's
            units, within n / (2 * scale) of the exact ones.
        config: every solver parameter as it ran: "auto" resolved to the algorithm and backend
            that ran, the number of ants and CPU threads actually used.
        backend: "cpu" or "cuda".
        device: "CPU, 16 threads" or the GPU's name.
        stop_reason: "iterations", "time limit", "target", "interrupted", "exact" (up to 12
            cities, solved by dynamic programming), "optimal" (the tour met the Held-Karp
            bound), "no improvement", "callback" or "finished" (see solve's "When it stops";
            solve_batch: "kicks", "time limit", "target", "interrupted" or "exact").
        instance: the instance's name.
        open: True when the tour is a Hamiltonian path (open=, start_city= or end_city=): its
            length has no closing edge, and it runs from start_city to end_city.
        start_city, end_city: the fixed ends of the path (0-based), None when free.
        asymmetric: True when the problem was an asymmetric matrix: the tour is directed.
        phase_seconds: where formica.solve's seconds went, each phase since the previous ended:
            {"setup", "search", "finish", "polish"} (the search's lists, start tour and buffers;
            the iterations; host threads joined and tours merged; the final polish). None for
            solve_batch's results.
        found_by: who found the improvements of the best tour, as ``formica solve --json``
            reports it: {"first_length": the first tour's length, "search": the run's own search
            (e.g. "mmas on the CPU"), "gains": {finder: length gained}, "shares": {finder: share
            of the whole gain}}, the finders being "search", "host_lin_kernighan", "host_eax",
            "merges", "other_ranks" and "polish"; the gains add up to first_length - length
            (in the problem's units). None for solve_batch's results.
        nodes: for a networkx graph, its node labels in tour order (tour holds their indices in
            the order of ``G.nodes``); None otherwise.
    """

    tour: np.ndarray
    length: Union[int, float]
    gap: Optional[float]
    optimum: Optional[int]
    iterations: int
    seconds: float
    history: list[HistoryPoint]
    config: dict[str, Any]
    backend: str
    device: str
    stop_reason: str
    instance: str
    _problem: Optional[Problem] = field(repr=False)
    open: bool = False
    start_city: Optional[int] = None
    end_city: Optional[int] = None
    asymmetric: bool = False
    phase_seconds: Optional[dict[str, float]] = None
    found_by: Optional[dict[str, Any]] = None
    nodes: Optional[list[Any]] = None

    def plot(self, path: Union[str, os.PathLike[str], None] = None, ax: Optional[Axes] = None) -> Optional[Axes]:
        """Draws the tour over the cities, titled with instance, length and gap.

        Writes an SVG (the same picture as ``formica solve --svg``) or a PNG (matplotlib) when
        `path` ends in .svg or .png; otherwise draws on the matplotlib axis `ax` (the current one
        if None) and returns it.
        """
        from .plot import _draw_tour

        if self._problem is None:
            raise ValueError(f"{self.instance} is an asymmetric matrix: it has no coordinates to draw")
        x, y = self._problem.drawing_coordinates()
        return _draw_tour(x, y, self.tour, self.title, path, ax, closed=not self.open)

    def plot_history(
        self, path: Union[str, os.PathLike[str], None] = None, ax: Optional[Axes] = None, *, y: str = "auto"
    ) -> Optional[Axes]:
        """Draws the best length (y="length") or gap (y="gap") against time on a log axis.

        y="auto" draws the gap when the optimum is known, the length otherwise. Writes .svg (the
        same picture as ``formica solve --plot-history``) or .png, or draws on `ax`; see plot().
        """
        return plot_history(self, path, ax, y=y)

    def __repr__(self) -> str:
        gap = "None" if self.gap is None else f"{self.gap:.4g}%"
        return (
            f"Result(n={len(self.tour)}, length={_length_text(self.length)}, gap={gap}, "
            f"algorithm={self.config.get('algorithm')!r}, seconds={self.seconds:.3g})"
        )

    def _repr_svg_(self) -> Optional[str]:
        """The tour as an SVG picture, for notebooks (None where there are no coordinates)."""
        if self._problem is None:
            return None
        try:
            x, y = self._problem.drawing_coordinates()
        except ValueError:
            return None
        xs, ys = np.ascontiguousarray(x, dtype=np.float64), np.ascontiguousarray(y, dtype=np.float64)
        return str(_core.tour_svg(xs, ys, as_tour(self.tour), self.title, not self.open))

    @property
    def title(self) -> str:
        """The pictures' title: "name: length L, gap G%"."""
        return _core.picture_title(self.instance, _length_text(self.length), self.gap)


def _length_text(length: Union[int, float]) -> str:
    return str(length) if isinstance(length, int) else f"{length:.10g}"


def _gap(length: Union[int, float], optimum: Optional[int]) -> Optional[float]:
    return None if optimum is None else 100.0 * (length - optimum) / optimum


def _parameter_text(value: Any) -> str:
    """A parameter's value as the command line would spell it."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


@dataclass(frozen=True)
class _Route:
    """What formica.solve was asked for beyond a closed symmetric tour."""

    open: bool = False
    start_city: Optional[int] = None
    end_city: Optional[int] = None
    asymmetric: Optional[DirectedMatrix] = None

    @property
    def is_path(self) -> bool:
        return self.open or self.start_city is not None or self.end_city is not None


def _make_result(
    raw: dict[str, Any], problem: Optional[Problem], target: Optional[float], route: Optional[_Route] = None
) -> Result:
    route = route if route is not None else _Route()
    tour = raw["tour"]
    # What measures lengths in the user's units: the problem, or for an asymmetric matrix its DirectedMatrix.
    units: Union[Problem, DirectedMatrix] = problem if problem is not None else route.asymmetric  # type: ignore[assignment]
    if problem is None:  # an asymmetric matrix: the core measured the directed tour or path
        length: Union[int, float] = route.asymmetric.length(tour, not route.is_path, raw["length"])  # type: ignore[union-attr]
    elif route.is_path:
        length = problem.path_length(tour, raw["length"])
    else:
        length = problem.tour_length(tour)
    config = json.loads(raw["config"])
    scale = units.scale
    if scale is not None and target is not None:
        config["target"] = target  # the solver saw it in fixed-point units
    # The known optima are those of closed symmetric tours.
    optimum = problem.optimum if problem is not None and scale is None and not route.is_path else None
    to_user_units = units.to_user_units
    history = [HistoryPoint(i, s, to_user_units(l)) for i, s, l in raw["history"]]
    found_by = json.loads(raw["found_by"]) if "found_by" in raw else None
    if found_by is not None:
        found_by["first_length"] = to_user_units(found_by["first_length"])
        found_by["gains"] = {finder: to_user_units(gain) for finder, gain in found_by["gains"].items()}
    return Result(
        tour=tour,
        length=length,
        gap=_gap(length, optimum),
        optimum=optimum,
        iterations=raw["iterations"],
        seconds=raw["seconds"],
        history=history,
        config=config,
        backend=raw["backend"],
        device=raw["device"],
        stop_reason=raw["stop_reason"],
        instance=units.name,
        _problem=problem,
        open=route.is_path,
        start_city=route.start_city,
        end_city=route.end_city,
        asymmetric=route.asymmetric is not None,
        phase_seconds=raw.get("phase_seconds"),
        found_by=found_by,
    )


def solve(
    problem: ProblemLike,
    *,
    algorithm: str = "auto",
    backend: str = "auto",
    time_limit: Optional[float] = None,
    iterations: Optional[int] = None,
    target: Optional[float] = None,
    seed: int = 0,
    metric: Optional[str] = None,
    initial_tour: Optional[npt.ArrayLike] = None,
    open: bool = False,
    start_city: Optional[int] = None,
    end_city: Optional[int] = None,
    callback: Optional[Callable[[Union[int, float], np.ndarray, float], Any]] = None,
    progress: bool = False,
    **params: Any,
) -> Result:
    """Solves a TSP (symmetric or asymmetric, closed tour or open path) and returns the best tour found.

    Args:
        problem: one of
            - an (n, 2) array of coordinates, or (n, 3) for metric="euc_3d";
            - an (n, n) symmetric distance matrix: integers or whole-number floats (integer
              lengths), or other floats (exact float lengths, metric="float"). A 3 x 3 array is
              a matrix unless metric="euc_3d";
            - a TSPLIB .tsp path (or a TSPLIB name, looked up in $FORMICA_TSPLIB_DIR/tsp, then
              among the instances formica ships);
            - a formica.Instance;
            - an (n, n) matrix that is not symmetric, or a TSPLIB TYPE: ATSP file: an
              asymmetric instance (matrix[i, j] is the way from i to j; the diagonal is ignored),
              solved through its 2n-city symmetric form; the tour is directed. Weights that are
              not all whole numbers keep exact float lengths, as for a symmetric matrix.
            - a weighted networkx Graph or DiGraph (its weight matrix in the order of G.nodes;
              weight= names the edge attribute, default "weight"): Result.nodes holds the node
              labels in tour order. A pair of nodes without an edge raises ValueError, unless
              complete=False, which weighs it n x (the largest weight) + 1.
        algorithm: "auto" ({auto}) or a name from formica.parameters()["algorithm"], e.g. "as".
        backend: "auto" (the GPU when one is present and the algorithm has a CUDA version),
            "cpu" or "cuda".
        time_limit: stop after this many seconds, counted from the solver's start (once the
            problem is converted). With neither time_limit nor iterations: see "When it stops".
        iterations: stop after this many iterations.
        target: stop once the best length is at most this.
        seed: random seed; the same seed, problem, parameters and device give the same result.
            (The command line's default seed is 1; pass it to reproduce a CLI run.)
        metric: for coordinate arrays, a TSPLIB distance: "euc_2d" (default for (n, 2) whole
            numbers), "ceil_2d", "att", "geo", "man_2d", "max_2d", "euc_3d" (default for (n, 3)
            whole numbers); or "float" (the default for coordinates that are not all whole
            numbers) for unrounded distances (Euclidean for coordinates, the values themselves for
            a matrix). The solver works on integers: with "float" it sees each distance rounded
            to a multiple of 1 / scale, scale being the power of two that maps the extent of the
            problem (its widest coordinate range, or largest matrix entry) into (2**23, 2**24]
            units; Result.length is then the unrounded length, summed in double.
        initial_tour: a tour to start from (0-based city indices, e.g. an earlier Result's
            tour): every colony starts from it. Focused colonies (algorithm="auto", or
            "mmas"/"acs" with focused_edges) and algorithm="eax" (one tour of its population)
            only; others raise ValueError.
        open: find a Hamiltonian path (no closing edge) instead of a closed tour.
        start_city, end_city: fix the path's first or last city (0-based); either implies open.
            Result.tour then runs from start_city to end_city. Paths are solved through one
            dummy city, without a matrix on the CPU (on the GPU an (n + 1)^2 matrix: see
            docs/paths-and-atsp.md for the size this allows).
        callback: called as ``callback(length, tour, seconds)`` every time the best tour
            improves (and once with the exact tour of up to 12 cities): its exact length, the
            tour (0-based int32 array) and the seconds since the start. It runs on the solver's
            thread holding the GIL; returning False stops the run, which keeps that tour
            (stop_reason "callback"); an exception it raises stops the run and propagates, with
            the Result so far as its ``result`` attribute. Closed tours of symmetric problems only.
        progress: show the best length and the time on stderr as the search improves (tqdm
            when it is installed, one line rewritten in place otherwise), as solve_batch does.
        **params: any other solver parameter by name (ants=, alpha=, beta=, rho=, selection=,
            threads=, ...; the full list with help is formica.parameters()).

    Returns:
        a Result.

    When it stops: instances of up to 12 cities are solved exactly by dynamic programming at
    once (stop_reason "exact"). Otherwise the run stops at the first of: `iterations`,
    `time_limit`, `target`, Ctrl-C, the callback returning False. A run given neither
    `time_limit` nor `iterations` has a default budget of n / 100 seconds up to 1,000 cities
    (10 s up to 20,000 cities, then n / 2000 s, at most 60 s), and stops earlier when its tour
    meets the Held-Karp bound computed beside it (stop_reason "optimal", up to 5,000 cities) or
    when it has not improved for as long as it took to find its best tour, at least 0.1 s
    (stop_reason "no improvement").

    Raises:
        ValueError: invalid input (the message is the one the command line prints).
        MemoryError: the instance does not fit in memory.
        KeyboardInterrupt: on Ctrl-C, after the solver stopped cleanly; the exception's
            ``result`` attribute holds the Result with the best tour found so far
            (stop_reason "interrupted").

    The GIL is released while the solver runs, so other Python threads go on.
    """
    graph_options = {name: params.pop(name) for name in ("weight", "complete") if name in params}
    check_names(params, [*parameters(), *_SOLVE_KEYWORDS])
    if graph_options and not is_graph(problem):
        named = ", ".join(name + "=" for name in graph_options)
        raise ValueError(f"{named} apply to networkx graphs; got {type(problem).__name__}")
    with python_messages():
        return _solve(problem, algorithm, backend, time_limit, iterations, target, seed, metric, initial_tour,
                      open, start_city, end_city, callback, progress, params, graph_options)


def _describe_auto(doc: Optional[str]) -> Optional[str]:
    """`doc` with its line that holds "{auto}" filled in with what algorithm="auto" runs (the C++
    portfolio's own description, which `formica solve --help` gives too), wrapped to 100 columns."""
    if doc is None:  # python -OO
        return None

    def fill(line: re.Match[str]) -> str:
        indent, text = line.group(1), line.group(2).replace("{auto}", _core.portfolio_description())
        return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent + "    ",
                             break_long_words=False, break_on_hyphens=False)

    return re.sub(r"^( *)(.*\{auto\}.*)$", fill, doc, count=1, flags=re.M)


solve.__doc__ = _describe_auto(solve.__doc__)


def _solve(
    problem: ProblemLike,
    algorithm: str,
    backend: str,
    time_limit: Optional[float],
    iterations: Optional[int],
    target: Optional[float],
    seed: int,
    metric: Optional[str],
    initial_tour: Optional[npt.ArrayLike],
    open: bool,
    start_city: Optional[int],
    end_city: Optional[int],
    callback: Optional[Callable[[Union[int, float], np.ndarray, float], Any]],
    progress: bool,
    params: dict[str, Any],
    graph_options: dict[str, Any],
) -> Result:
    if isinstance(problem, (str, os.PathLike)):
        if metric is not None:
            raise ValueError("metric= applies to arrays; a TSPLIB file names its own EDGE_WEIGHT_TYPE")
        problem = _core.load_problem(os.fspath(problem))
    labels = None
    if is_graph(problem):
        problem, labels = graph_matrix(problem, **graph_options)
    route = _Route(
        bool(open),
        None if start_city is None else int(start_city),
        None if end_city is None else int(end_city),
        DirectedMatrix(*problem) if isinstance(problem, tuple) else asymmetric_matrix(problem, metric),
    )
    if route.asymmetric is not None or route.is_path:
        if initial_tour is not None:
            raise ValueError(
                "initial_tour starts a closed tour of a symmetric instance; it does not apply to "
                + ("an asymmetric instance" if route.asymmetric is not None else "an open path")
            )
        if callback is not None or progress:
            raise ValueError(
                "callback= and progress= follow closed tours of symmetric instances; they do not apply to "
                + ("an asymmetric instance" if route.asymmetric is not None else "an open path")
            )
    if callback is not None and not callable(callback):
        raise ValueError(f"callback is a callable (length, tour, seconds), got {callback!r}")
    prepared = None if route.asymmetric is not None else as_problem(problem, metric)
    settings: dict[str, Any] = {
        "algorithm": algorithm,
        "backend": backend,
        "time_limit": time_limit,
        "iterations": iterations,
        "seed": seed,
        **params,
    }
    if target is not None:
        units = prepared if prepared is not None else route.asymmetric  # a DirectedMatrix has a scale too
        settings["target"] = solver_target(target, units.scale)  # type: ignore[union-attr]
    text = {name: _parameter_text(value) for name, value in settings.items() if value is not None}
    ends = (route.open, route.start_city, route.end_city)
    bar = ImprovementBar() if progress else None
    try:
        if route.asymmetric is not None:
            raw = _core.solve_asymmetric(route.asymmetric.name, route.asymmetric.weights, text, *ends)
        elif route.is_path:
            raw = _core.solve_path(prepared.instance, text, *ends)  # type: ignore[union-attr]
        else:
            watcher = _improvement_watcher(prepared, callback, bar)  # type: ignore[arg-type]
            start = None if initial_tour is None else as_tour(initial_tour)
            raw = _core.solve(prepared.instance, text, start, watcher)  # type: ignore[union-attr]
    except BaseException as error:
        attach_partial(error, "result", lambda partial: _labelled(_make_result(partial, prepared, target, route), labels))
        raise
    finally:
        if bar is not None:
            bar.close()
    return _labelled(_make_result(raw, prepared, target, route), labels)


#: solve()'s own keywords, beside the solver parameters (formica.parameters()).
_SOLVE_KEYWORDS = ("metric", "initial_tour", "open", "start_city", "end_city", "callback", "progress", "weight",
                   "complete")


def _labelled(result: Result, labels: Optional[list[Any]]) -> Result:
    """`result` with the graph's node labels in tour order (Result.nodes), when it came from a graph."""
    return result if labels is None else dataclasses.replace(result, nodes=[labels[i] for i in result.tour])


def _improvement_watcher(
    problem: Problem,
    callback: Optional[Callable[[Union[int, float], np.ndarray, float], Any]],
    bar: Optional[ImprovementBar],
) -> Optional[Callable[[np.ndarray, int, float], bool]]:
    """What the core calls at each improvement (tour, length in its units, seconds): the user's
    callback with the exact length, and the progress bar."""
    if callback is None and bar is None:
        return None

    def watch(tour: np.ndarray, fixed_point: int, seconds: float) -> bool:
        length = problem.tour_length(tour) if problem.scale is not None else int(fixed_point)
        if bar is not None:
            bar(length, seconds)
        return True if callback is None else callback(length, tour, seconds) is not False

    return watch


@dataclass(frozen=True, eq=False)
class LowerBound:
    """A proven lower bound on every tour of an instance: the Held-Karp bound (lower_bound()).

    Attributes:
        bound: every closed tour is at least this long (an integer: the 1-tree value rounded up;
            a float for float distances, see lower_bound()).
        value: the complete graph's minimum 1-tree value under the penalties, less twice their sum.
        is_optimum: the minimum 1-tree is a tour, so ``bound`` is the optimum (never claimed for
            float distances).
        iterations: subgradient ascent iterations run.
        seconds: all of it, the proof included.
        method: how the complete graph's minimum 1-tree was found ("dense Prim", ...).
        stop_reason: "schedule", "tour", "iterations", "time limit" or "interrupted".
        penalties: the cities' penalties (float64, distance units).
    """

    bound: Union[int, float]
    value: float
    is_optimum: bool
    iterations: int
    seconds: float
    method: str
    stop_reason: str
    penalties: np.ndarray

    def gap(self, length: float) -> float:
        """How far a tour of `length` is above the bound, in percent: a proven bound on its gap.

        Raises ValueError for a length below the bound, which no tour of this instance has: the
        tour is of another instance, or the bound is wrong; never a negative gap.
        """
        if length < self.bound:
            raise ValueError(
                f"a tour of length {length} is shorter than the proven bound {self.bound}: "
                "it is not a tour of this instance, or the bound is wrong"
            )
        return 100.0 * (length - self.bound) / self.bound


def lower_bound(
    problem: ProblemLike,
    *,
    metric: Optional[str] = None,
    iterations: Optional[int] = None,
    time_limit: Optional[float] = None,
    threads: int = 0,
) -> LowerBound:
    """The Held-Karp lower bound of a symmetric instance, proven over the complete graph.

    Minimum 1-trees under node penalties raised by subgradient ascent (as in LKH); the figure is
    the complete graph's minimum 1-tree for the best penalties, exact TSPLIB integer distances,
    rounded up, so no tour is shorter (the command line's ``formica bound``). `problem` and
    `metric` are as in solve(), for a closed symmetric tour (asymmetric matrices raise
    ValueError). Float distances (non-integer coordinates, or metric="float") are bounded through
    the fixed-point form the solver sees: its bound B gives (B - n / 2) / scale, proven for the
    exact distances since each of a tour's n edges is rounded by at most half a unit. `time_limit` defaults to n / 2000
    seconds, from 10 to 120; `threads` 0 uses every core. The GIL is released; Ctrl-C ends the
    ascent and raises KeyboardInterrupt with the bound reached (still proven) as ``result``.
    """
    if asymmetric_matrix(problem, metric) is not None:
        raise ValueError("the Held-Karp bound is for symmetric instances; this matrix is not symmetric")
    prepared = as_problem(problem, metric)

    def make(raw: dict[str, Any]) -> LowerBound:
        if prepared.scale is None:
            return LowerBound(**raw)
        return _float_bound(raw, prepared.scale, prepared.instance.n)

    try:
        raw = _core.lower_bound(prepared.instance, iterations, time_limit, threads)
    except BaseException as error:
        attach_partial(error, "result", make)
        raise
    return make(raw)


def _float_bound(raw: dict[str, Any], scale: float, n: int) -> LowerBound:
    """The bound of a float instance in its units. The core bounded its fixed-point form, whose
    distances are within half a unit (1 / scale) of the exact ones, so every tour of n edges is at
    least (bound - n / 2) / scale long."""
    bound = max(0.0, (raw["bound"] - n / 2) / scale)
    return LowerBound(
        **{
            **raw,
            "bound": bound,
            "value": max(0.0, (raw["value"] - n / 2) / scale),
            "is_optimum": False,  # a tour that is optimal in fixed point need not be in the exact distances
            "penalties": raw["penalties"] / scale,
        }
    )


def read_tsplib(path: Union[str, os.PathLike[str]]) -> Instance:
    """Reads a TSPLIB .tsp file: EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D or EXPLICIT.

    A bare name such as "pr1002" is looked up in $FORMICA_TSPLIB_DIR/tsp, then among the TSPLIB
    instances the package ships (those its examples use), as on the command line. Gzipped files
    (.tsp.gz) are read as they are.
    Raises ValueError naming the file, line and reason for a malformed file.
    """
    return _core.load_instance(os.fspath(path))


def generate(n: int, kind: str = "uniform", seed: int = 1) -> Instance:
    """A seeded random EUC_2D instance in the style of the DIMACS challenge generators.

    kind="uniform" spreads n cities over a 1,000,000 x 1,000,000 square; kind="clustered" puts
    them around n / 100 centres. The same (n, kind, seed) always gives the same instance, named
    like the command line's (e.g. "uniform1000-s1").
    """
    with python_messages():
        return _core.generate(n, kind, seed)


def tour_length(problem: ProblemLike, tour: npt.ArrayLike, *, metric: Optional[str] = None) -> Union[int, float]:
    """The exact length of a closed tour (0-based city indices) of `problem`.

    `problem` and `metric` are as in solve(). Raises ValueError unless `tour` visits every city
    exactly once.
    """
    return as_problem(problem, metric).tour_length(as_tour(tour))


def read_tour(path: Union[str, os.PathLike[str]]) -> np.ndarray:
    """The cities of a TSPLIB .tour file as a 0-based int32 array."""
    return _core.read_tour(os.fspath(path))


def write_tour(
    path: Union[str, os.PathLike[str]], tour: npt.ArrayLike, *, name: Optional[str] = None, comment: str = ""
) -> None:
    """Writes a 0-based tour as a TSPLIB .tour file (1-based), whole or not at all.

    `name` (default: the file's stem) goes in the NAME line, `comment` in a COMMENT line. Raises
    ValueError unless `tour` is a permutation of 0..n-1.
    """
    _core.write_tour(os.fspath(path), name if name is not None else Path(path).stem, as_tour(tour), comment)


def backend_info() -> dict[str, Any]:
    """Which backends this build of formica has and which one backend="auto" uses.

    Returns a dict: "cuda_compiled" (bool: the extension was built with nvcc), "cuda_device" (the
    first CUDA device's name, or None where there is no device or no driver) and "default"
    ("cuda" or "cpu"). A wheel built with CUDA imports and runs on machines without a GPU: it
    then solves on the CPU.
    """
    return dict(_core.backend_info())


def device_memory_in_use() -> int | None:
    """Bytes of the CUDA device's memory in use, by every process on it (total minus free), or None
    where there is no device. For leak checks on a device a process has to itself: read it before
    and after many solves. Creates the device's context if this process has none yet.
    """
    return _core.device_memory_in_use()


def parameters() -> dict[str, str]:
    """Every solver parameter solve() accepts, by name, with its help text."""
    return dict(_core.parameters())
