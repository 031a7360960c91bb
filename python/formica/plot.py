# SPDX-License-Identifier: MIT
"""Pictures of tours and of convergence.

A path ending in .svg gets the SVG document the command line writes (``formica solve --svg`` and
``--plot-history``), made by formica's C++ core without any plotting library. A path ending in
.png, or a matplotlib axis, uses matplotlib (optional: ``pip install matplotlib``).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._arguments import PATH_TYPES, core_path, path_text, text
from ._problem import ProblemLike, as_problem, as_tour

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ._result import Result

__all__ = ["plot_history", "plot_tour"]

PathLike = Union[str, bytes, "os.PathLike[Any]"]

_TOUR_COLOUR = "#1f77b4"
_CITY_COLOUR = "#d62728"


def plot_tour(
    problem: ProblemLike,
    tour: npt.ArrayLike,
    path: Optional[PathLike] = None,
    ax: Optional[Axes] = None,
    *,
    metric: Optional[str] = None,
) -> Optional[Axes]:
    """Draws a closed tour over the cities, titled with the instance's name, length and gap.

    Args:
        problem: coordinates, a TSPLIB path or an Instance, as in formica.solve (a distance
            matrix has nothing to draw: ValueError), with `metric` as there.
        tour: 0-based city indices, a permutation (ValueError otherwise).
        path: write the picture here: .svg (formica's own writer) or .png (matplotlib).
        ax: otherwise draw on this matplotlib axis (the current one when both are None).

    Returns:
        the axis drawn on, or None when writing a file.
    """
    prepared = as_problem(problem, metric)
    order = as_tour(tour)
    length = prepared.tour_length(order)
    optimum = prepared.optimum if prepared.scale is None else None
    gap = None if optimum is None else 100.0 * (length - optimum) / optimum
    length_text = str(length) if isinstance(length, int) else f"{length:.10g}"
    x, y = prepared.drawing_coordinates()
    return _draw_tour(x, y, order, _core.picture_title(prepared.name, length_text, gap), path, ax)


def plot_history(
    result: Result, path: Optional[PathLike] = None, ax: Optional[Axes] = None, *, y: str = "auto"
) -> Optional[Axes]:
    """Draws a run's best length, or its gap, against time (log scale) from result.history.

    Args:
        result: a formica.Result.
        path: write the picture here: .svg (formica's own writer) or .png (matplotlib).
        ax: otherwise draw on this matplotlib axis (the current one when both are None).
        y: "length", "gap" (needs a known optimum) or "auto" (the gap when known).

    Returns:
        the axis drawn on, or None when writing a file.
    """
    from ._result import Result

    if not isinstance(result, Result):
        raise TypeError(f"result must be a formica.Result, got {type(result).__name__}")
    if text("y", y) not in ("auto", "length", "gap"):
        raise ValueError(f"unknown y '{y}' (valid: auto, length, gap)")
    if y == "gap" and result.optimum is None:
        raise ValueError(f"{result.instance} has no known optimum, so there is no gap to plot")
    optimum = result.optimum if y != "length" else None
    seconds = np.array([h.seconds for h in result.history], dtype=np.float64)
    lengths = np.array([h.length for h in result.history], dtype=np.float64)
    values = lengths if optimum is None else 100.0 * (lengths - optimum) / optimum
    label = "best tour length" if optimum is None else "gap above the optimum (%)"
    _check_target(path, ax)
    if path is not None and _suffix(path) == ".svg":
        svg = _core.convergence_svg(seconds, values, float(result.seconds), result.title, label)
        _core.write_text_file(core_path("path", path), svg)
        return None

    def draw(axis: Axes) -> None:
        if len(seconds) == 0:
            raise ValueError("convergence plot: the history is empty")
        # A log axis cannot show 0 s: such a point sits at the left end, as in the SVG.
        positive = seconds[seconds > 0]
        floor = positive.min() if positive.size else max(result.seconds, 1e-3)
        times = np.append(np.maximum(seconds, floor), max(result.seconds, seconds[-1], floor))
        axis.step(times, np.append(values, values[-1]), where="post", color=_TOUR_COLOUR, linewidth=2)
        axis.set_xscale("log")
        axis.set_xlabel("time (seconds, log scale)")
        axis.set_ylabel(label)
        axis.set_title(result.title)
        axis.grid(True, which="major", color="#dddddd")

    return _render(draw, path, ax, size=(8.0, 4.8))


def _suffix(path: PathLike) -> str:
    return Path(path_text(path)).suffix.lower()


def _check_target(path: Optional[PathLike], ax: Optional[Axes]) -> None:
    if path is not None and not isinstance(path, PATH_TYPES):
        raise TypeError(f"path must be a path (str, bytes or os.PathLike) or None, got {type(path).__name__}")
    if path is not None and ax is not None:
        raise ValueError("give a path or an axis to draw on, not both")
    if path is not None and _suffix(path) not in (".svg", ".png"):
        raise ValueError(f"{path_text(path)!r}: unknown picture format '{_suffix(path)}' (use .svg or .png)")


def _draw_tour(
    x: np.ndarray,
    y: np.ndarray,
    tour: np.ndarray,
    title: str,
    path: Optional[PathLike],
    ax: Optional[Axes],
    closed: bool = True,
) -> Optional[Axes]:
    """Draws `tour` (an open path when not `closed`) over the points (x, y) into an SVG or PNG file
    or onto a matplotlib axis."""
    _check_target(path, ax)
    order = as_tour(tour)
    if path is not None and _suffix(path) == ".svg":
        xs, ys = np.ascontiguousarray(x, dtype=np.float64), np.ascontiguousarray(y, dtype=np.float64)
        _core.write_text_file(core_path("path", path), _core.tour_svg(xs, ys, order, title, closed))
        return None
    if len(order) != len(x):
        raise ValueError(f"tour has {len(order)} cities but the instance has {len(x)}")
    drawn = np.append(order, order[:1]) if closed else order

    def draw(axis: Axes) -> None:
        axis.plot(x[drawn], y[drawn], color=_TOUR_COLOUR, linewidth=1.0)
        n = len(x)
        if n <= 10000:  # as in the SVG: dots while the cities stay distinguishable
            axis.scatter(x, y, s=12 if n <= 100 else 5 if n <= 1000 else 1, color=_CITY_COLOUR, zorder=3)
        axis.set_aspect("equal", adjustable="datalim")
        axis.set_title(title)

    return _render(draw, path, ax, size=(8.0, 8.0))


def _render(draw: Any, path: Optional[PathLike], ax: Optional[Axes], size: tuple[float, float]) -> Optional[Axes]:
    """Runs `draw` on `ax`, on the current axis, or on a new figure saved to a .png `path`."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise ImportError("drawing PNG pictures or on an axis needs matplotlib: pip install matplotlib") from error
    if path is None:
        if ax is None:
            import matplotlib.pyplot as plt

            ax = plt.gca()
        draw(ax)
        # Pictures side by side (plot beside plot_history) keep their labels apart when the figure
        # lays itself out; one the user laid out already is left as it is.
        figure = ax.figure
        if hasattr(figure, "get_layout_engine") and figure.get_layout_engine() is None:
            figure.set_layout_engine("constrained")
        return ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure: Figure = Figure(figsize=size, dpi=100)
    FigureCanvasAgg(figure)
    draw(figure.add_subplot())
    figure.tight_layout()
    _save_atomically(figure, Path(path_text(path)))
    return None


def _save_atomically(figure: Figure, path: Path) -> None:
    """Saves a PNG by formica's rules for every output file: whole or not at all (a temporary beside
    it, renamed), a link's target written, a FIFO or device in place."""
    png = io.BytesIO()
    figure.savefig(png, format="png")
    _core.write_file(core_path("path", path), png.getvalue())
