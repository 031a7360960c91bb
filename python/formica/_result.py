# SPDX-License-Identifier: MIT
"""What a solve returns: formica.Result (the best tour and how the run went) and its HistoryPoint,
and make_result, which builds a Result from what the core returned (formica.solve and
formica.solve_batch both use it)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

import numpy as np

from . import _core
from ._problem import DirectedMatrix, Problem, as_tour
from .plot import plot_history

if TYPE_CHECKING:
    from matplotlib.axes import Axes


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


@dataclass(frozen=True)
class Route:
    """What formica.solve was asked for beyond a closed symmetric tour."""

    open: bool = False
    start_city: Optional[int] = None
    end_city: Optional[int] = None
    asymmetric: Optional[DirectedMatrix] = None

    @property
    def is_path(self) -> bool:
        return self.open or self.start_city is not None or self.end_city is not None


def make_result(
    raw: dict[str, Any], problem: Optional[Problem], target: Optional[float], route: Optional[Route] = None
) -> Result:
    route = route if route is not None else Route()
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
