# SPDX-License-Identifier: MIT
"""formica.lower_bound: the Held-Karp bound of a symmetric instance (the extension's bound.cpp),
and LowerBound, what it returns, in the problem's units (for float distances, through the
fixed-point form the solver sees)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

from . import _core
from ._arguments import INT32, INT64, real_number, whole_number
from ._problem import ProblemLike, as_problem, asymmetric_matrix, attach_partial


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
        fixed_edges: "kept" (a bound of the tours through the instance's fixed edges), "ignored"
            (a bound of every tour: too many cities to weigh the fixed edges) or "none".
    """

    bound: Union[int, float]
    value: float
    is_optimum: bool
    iterations: int
    seconds: float
    method: str
    stop_reason: str
    penalties: np.ndarray
    fixed_edges: str = "none"

    def gap(self, length: float) -> float:
        """How far a tour of `length` is above the bound, in percent: a proven bound on its gap.

        Raises ValueError for a length below the bound, which no tour of this instance has: the
        tour is of another instance, or the bound is wrong; never a negative gap.
        """
        if isinstance(length, (bool, np.bool_)) or not isinstance(length, (int, np.integer)):
            length = real_number("length", length)  # an int keeps every digit
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
    seconds, from 10 to 120, and holds for the whole computation (a 1-tree that cannot finish in
    time gives way to a weaker bound, still proven), unless `iterations` is given without it;
    `threads` 0 uses every core. The GIL is released; Ctrl-C ends the
    ascent and raises KeyboardInterrupt with the bound reached (still proven) as ``result``.
    """
    iterations = None if iterations is None else whole_number("iterations", iterations, *INT64)
    time_limit = None if time_limit is None else real_number("time_limit", time_limit)
    threads = whole_number("threads", threads, *INT32)
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
