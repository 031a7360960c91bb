# SPDX-License-Identifier: MIT
"""formica.solve: one instance (symmetric or asymmetric, closed tour or open path), in the C++ core
with the GIL released; beside it, as in the extension's solve.cpp, parameters(), backend_info()
and device_memory_in_use(): what solve accepts and where it runs.

solve() gathers its keywords into one SolveSettings, checked once, and hands it to _run, which
turns the problem into what the core takes and the core's answer into a Result.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._arguments import INT64, PATH_TYPES, core_path, flag, parameter, text, whole_number
from ._graph import graph_matrix, is_graph
from ._messages import check_names, python_messages
from ._problem import (
    DirectedMatrix,
    Problem,
    ProblemLike,
    as_problem,
    as_tour,
    asymmetric_matrix,
    attach_partial,
    solver_target,
)
from ._progress import ImprovementBar
from ._result import Result, Route, make_result

#: callback(length, tour, seconds), called at each improvement of the best tour.
ImprovementCallback = Callable[[Union[int, float], np.ndarray, float], Any]


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
    settings = SolveSettings.create(
        params, algorithm=algorithm, backend=backend, time_limit=time_limit, iterations=iterations, target=target,
        seed=seed, metric=metric, initial_tour=initial_tour, open=open, start_city=start_city, end_city=end_city,
        callback=callback, progress=progress,
    )
    if settings.graph_options and not is_graph(problem):
        named = ", ".join(name + "=" for name in settings.graph_options)
        raise ValueError(f"{named} apply to networkx graphs; got {type(problem).__name__}")
    with python_messages():
        return _run(problem, settings)


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


#: The keywords of solve() for networkx graphs, which arrive among the solver parameters.
_GRAPH_OPTIONS = ("weight", "complete")
#: solve()'s own keywords, beside the solver parameters (formica.parameters()).
_SOLVE_KEYWORDS = ("metric", "initial_tour", "open", "start_city", "end_city", "callback", "progress",
                   *_GRAPH_OPTIONS)


@dataclass(frozen=True, eq=False)
class SolveSettings:
    """What formica.solve was asked besides the problem, as solve()'s keywords name it (see there):
    made once by create(), which refuses unknown names and normalises the values, then handed
    down whole. The checks that need the problem as well are _run's."""

    algorithm: str
    backend: str
    time_limit: Optional[float]
    iterations: Optional[int]
    #: In the problem's units, as the user gave it (solver_parameters() converts it).
    target: Optional[float]
    seed: int
    metric: Optional[str]
    initial_tour: Optional[npt.ArrayLike]
    open: bool
    start_city: Optional[int]
    end_city: Optional[int]
    callback: Optional[ImprovementCallback]
    progress: bool
    #: The other solver parameters by name (formica.parameters()), read-only.
    params: Mapping[str, Any]
    #: weight= and complete=, for a networkx graph (graph_matrix), read-only.
    graph_options: Mapping[str, Any]

    @classmethod
    def create(
        cls,
        params: dict[str, Any],
        *,
        open: bool,
        start_city: Optional[int],
        end_city: Optional[int],
        callback: Optional[ImprovementCallback],
        **keywords: Any,
    ) -> SolveSettings:
        """The settings of a solve() call: `params` its **params (the graph options among them),
        `keywords` its other keywords. ValueError for an unknown name; TypeError for a value of the
        wrong type (_arguments.py), a callback that is not callable among them."""
        params = dict(params)
        graph_options = {name: params.pop(name) for name in _GRAPH_OPTIONS if name in params}
        if "complete" in graph_options:
            graph_options["complete"] = flag("complete", graph_options["complete"])
        check_names(params, [*parameters(), *_SOLVE_KEYWORDS])
        kinds = _core.parameter_kinds()
        params = {name: parameter(name, value, kinds[name]) for name, value in params.items()}
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be a callable (length, tour, seconds), got {callback!r}")
        return cls(
            open=flag("open", open),
            start_city=_optional(whole_number, "start_city", start_city, *INT64),
            end_city=_optional(whole_number, "end_city", end_city, *INT64),
            callback=callback,
            params=MappingProxyType(params),
            graph_options=MappingProxyType(graph_options),
            **_checked_keywords(keywords),
        )

    def solver_parameters(self, scale: Optional[float]) -> dict[str, str]:
        """The solver's parameters as the core takes them: by name, each value as the command line
        spells it, the target in the solver's units (`scale`: the problem's fixed-point scale)."""
        values: dict[str, Any] = {
            "algorithm": self.algorithm,
            "backend": self.backend,
            "time_limit": self.time_limit,
            "iterations": self.iterations,
            "seed": self.seed,
            **self.params,
        }
        if self.target is not None:
            values["target"] = solver_target(self.target, scale)
        return {name: parameter_text(value) for name, value in values.items() if value is not None}


def _optional(check: Callable[..., Any], name: str, value: Any, *limits: Any) -> Any:
    """`check(name, value, *limits)`, or None for None."""
    return None if value is None else check(name, value, *limits)


#: The kinds of solve()'s keywords that are solver parameters (whose defaults are None or differ).
_KEYWORD_KINDS = {"algorithm": "text", "backend": "text", "time_limit": "number", "iterations": "integer",
                  "seed": "integer"}


def _checked_keywords(keywords: dict[str, Any]) -> dict[str, Any]:
    """solve()'s keywords beside the solver parameters, each of its type; text is the core's to read
    as the command line's, and ranges are the core's to check, as for the parameters."""
    checked = dict(keywords)
    for name, kind in _KEYWORD_KINDS.items():
        checked[name] = _optional(parameter, name, keywords[name], kind)
    checked["metric"] = _optional(text, "metric", keywords["metric"])
    solver_target(keywords["target"], None)  # its type and sign, before any work (converted in solver_parameters)
    checked["progress"] = flag("progress", keywords["progress"])
    return checked


def _run(problem: ProblemLike, settings: SolveSettings) -> Result:
    """Solves `problem` as `settings` say: the problem as the core takes it, the core's run, and
    its answer as a Result (attached to the exception as ``result`` on Ctrl-C)."""
    metric = settings.metric
    if isinstance(problem, PATH_TYPES):
        if metric is not None:
            raise ValueError("metric= applies to arrays; a TSPLIB file names its own EDGE_WEIGHT_TYPE")
        problem = _core.load_problem(core_path("the problem's path", problem))
    labels = None
    if is_graph(problem):
        problem, labels = graph_matrix(problem, **settings.graph_options)
    route = Route(
        settings.open,
        settings.start_city,
        settings.end_city,
        DirectedMatrix(*problem) if isinstance(problem, tuple) else asymmetric_matrix(problem, metric),
    )
    if route.asymmetric is not None or route.is_path:
        if settings.initial_tour is not None:
            raise ValueError(
                "initial_tour starts a closed tour of a symmetric instance; it does not apply to "
                + ("an asymmetric instance" if route.asymmetric is not None else "an open path")
            )
        if settings.callback is not None or settings.progress:
            raise ValueError(
                "callback= and progress= follow closed tours of symmetric instances; they do not apply to "
                + ("an asymmetric instance" if route.asymmetric is not None else "an open path")
            )
    prepared = None if route.asymmetric is not None else as_problem(problem, metric)
    units = prepared if prepared is not None else route.asymmetric  # a DirectedMatrix has a scale too
    text = settings.solver_parameters(units.scale)  # type: ignore[union-attr]
    ends = (route.open, route.start_city, route.end_city)
    bar = ImprovementBar() if settings.progress else None
    target = settings.target
    try:
        if route.asymmetric is not None:
            raw = _core.solve_asymmetric(route.asymmetric.name, route.asymmetric.weights, text, *ends)
        elif route.is_path:
            raw = _core.solve_path(prepared.instance, text, *ends)  # type: ignore[union-attr]
        else:
            watcher = _improvement_watcher(prepared, settings.callback, bar)  # type: ignore[arg-type]
            start = None if settings.initial_tour is None else as_tour(settings.initial_tour)
            raw = _core.solve(prepared.instance, text, start, watcher)  # type: ignore[union-attr]
    except BaseException as error:
        attach_partial(error, "result", lambda partial: _labelled(make_result(partial, prepared, target, route), labels))
        raise
    finally:
        if bar is not None:
            bar.close()
    return _labelled(make_result(raw, prepared, target, route), labels)


def _labelled(result: Result, labels: Optional[list[Any]]) -> Result:
    """`result` with the graph's node labels in tour order (Result.nodes), when it came from a graph."""
    return result if labels is None else dataclasses.replace(result, nodes=[labels[i] for i in result.tour])


def _improvement_watcher(
    problem: Problem,
    callback: Optional[ImprovementCallback],
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


def parameter_text(value: Any) -> str:
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
