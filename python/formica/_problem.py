# SPDX-License-Identifier: MIT
"""What formica.solve accepts as a problem, turned into an instance of the C++ core.

A problem is a TSPLIB file path (or a TSPLIB name), a formica.Instance, an (n, 2) or (n, 3) array
of coordinates, or an (n, n) distance matrix. The core works with exact integer lengths; the
unrounded ``metric="float"`` is a fixed-point view of it (see ``FLOAT_SCALE_UNITS``).
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._arguments import INT64, PATH_TYPES, core_path, text

#: Metrics for coordinate arrays, as TSPLIB names them, plus "float" (unrounded distances).
COORDINATE_METRICS = ("euc_2d", "ceil_2d", "att", "geo", "man_2d", "max_2d", "euc_3d")
#: Every value ``metric=`` takes.
METRICS = COORDINATE_METRICS + ("explicit", "float")

#: With metric="float" the core sees each distance rounded to a multiple of 1 / scale, where
#: scale is the power of two that maps the problem's extent (its largest coordinate range, or
#: its largest matrix entry) into (FLOAT_SCALE_UNITS / 2, FLOAT_SCALE_UNITS] units.
FLOAT_SCALE_UNITS = 2.0**24

ProblemLike = Union[str, bytes, "os.PathLike[Any]", _core.Instance, npt.ArrayLike]
_INT32_MAX = np.iinfo(np.int32).max


@dataclass(frozen=True)
class Problem:
    """An instance of the core, and how to measure and draw tours of it in the user's units."""

    instance: _core.Instance
    #: Fixed-point scale of metric="float"; None when lengths are exact integers.
    scale: Optional[float] = None
    #: The user's float coordinates or matrix, for metric="float".
    values: Optional[np.ndarray] = None

    @property
    def name(self) -> str:
        return self.instance.name

    @property
    def optimum(self) -> Optional[int]:
        return self.instance.optimum

    def tour_length(self, tour: np.ndarray) -> Union[int, float]:
        """Exact length: the TSPLIB integer sum, or for metric="float" the sum in double."""
        fixed_point = _core.tour_length(self.instance, tour)  # validates the permutation
        if self.values is None:
            return int(fixed_point)
        if self.instance.edge_weight_type == "EXPLICIT":
            return _matrix_walk(self.values, tour, closed=True)
        successor = np.roll(tour, -1)
        steps = self.values[successor] - self.values[tour]
        return float(np.sqrt((steps * steps).sum(axis=1)).sum())

    def path_length(self, path: np.ndarray, fixed_point: int) -> Union[int, float]:
        """Exact length of an open path whose core length is `fixed_point`: that integer, or for
        metric="float" the sum of its edges in double."""
        if self.values is None:
            return int(fixed_point)
        if self.instance.edge_weight_type == "EXPLICIT":
            return _matrix_walk(self.values, path, closed=False)
        steps = self.values[path[1:]] - self.values[path[:-1]]
        return float(np.sqrt((steps * steps).sum(axis=1)).sum())

    def to_user_units(self, length: int) -> Union[int, float]:
        """A length of the core (fixed-point for metric="float") in the problem's units."""
        return length if self.scale is None else length / self.scale

    def drawing_coordinates(self) -> tuple[np.ndarray, np.ndarray]:
        """The (x, y) the cities are drawn at, in the problem's units."""
        points = _core.drawing_coordinates(self.instance)
        if points is None:
            raise ValueError(
                f"{self.name} has no coordinates to draw (a distance matrix, or an EXPLICIT "
                "instance without DISPLAY_DATA_SECTION)"
            )
        x, y = points
        return (x, y) if self.scale is None else (x / self.scale, y / self.scale)


def as_tour(tour: npt.ArrayLike) -> np.ndarray:
    """A tour as a contiguous int32 array of 0-based cities (values checked by the core)."""
    array = np.asarray(tour)
    if array.ndim != 1 or not (np.issubdtype(array.dtype, np.integer) or array.size == 0):
        raise ValueError(f"a tour is a 1-D array of integer city indices, got {array.dtype} of shape {array.shape}")
    if array.size and (array.min() < np.iinfo(np.int32).min or array.max() > _INT32_MAX):
        raise ValueError("a tour's city indices must fit in int32")
    return np.ascontiguousarray(array, dtype=np.int32)


def solver_target(target: Any, scale: Optional[float], name: str = "target") -> Optional[int]:
    """A target length in the solver's units, floored (its lengths are integers): fixed point for
    float distances (`scale`), else the length itself. TypeError for anything but a number,
    ValueError for one that is not finite or is negative (named as given, not in the solver's units)."""
    if target is None:
        return None
    if isinstance(target, (bool, np.bool_)) or not isinstance(target, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a length (a number), got {target!r}")
    if isinstance(target, (float, np.floating)) and not math.isfinite(target):
        raise ValueError(f"{name} must be a finite length, got {target}")
    if target < 0:
        raise ValueError(f"{name} must be a non-negative length, got {target}")
    # No tour is longer than the solver's largest length: a target beyond it stops at the first tour.
    return min(math.floor(target if scale is None else target * scale), INT64[1])


def _fixed_point_matrix(values: np.ndarray) -> tuple[float, np.ndarray]:
    """The scale (_scale_for its largest entry) and the int32 matrix the core sees for a float
    matrix: each weight x scale, rounded."""
    scale = _scale_for(float(values.max()) if values.size else 0.0)
    return scale, np.rint(values * scale).astype(np.int32)


def _matrix_walk(values: np.ndarray, order: np.ndarray, closed: bool) -> float:
    """The length of `order` under the weights `values` (row = from, column = to), summed in
    double: a closed tour, or an open path."""
    ahead = np.roll(order, -1) if closed else order[1:]
    return float(values[order if closed else order[:-1], ahead].sum())


def _scale_for(magnitude: float) -> float:
    """The power of two mapping `magnitude` into (FLOAT_SCALE_UNITS / 2, FLOAT_SCALE_UNITS]."""
    if not magnitude > 0 or not math.isfinite(magnitude):
        return 1.0
    return 2.0 ** math.floor(math.log2(FLOAT_SCALE_UNITS / magnitude))


def _whole(array: np.ndarray) -> bool:
    """True for integers, and floats that are all whole numbers (non-finite ones count as whole:
    the core reports them)."""
    if not np.issubdtype(array.dtype, np.floating):
        return True
    finite = array[np.isfinite(array)]
    return bool((finite == np.floor(finite)).all())


def _coordinates(array: np.ndarray, metric: Optional[str]) -> Problem:
    n, dimensions = array.shape
    if metric is None:
        # Non-integer floats keep their exact distances; whole numbers keep TSPLIB's integer metric.
        metric = "euc_3d" if dimensions == 3 else "euc_2d"
        if np.issubdtype(array.dtype, np.floating) and not _whole(array):
            metric = "float"
    if metric == "explicit":
        raise ValueError(f"metric 'explicit' needs an (n, n) distance matrix, got an array of shape {array.shape}")
    want = 3 if metric == "euc_3d" else (dimensions if metric == "float" else 2)
    if dimensions != want:
        raise ValueError(f"metric '{metric}' needs an (n, {want}) array of coordinates, got shape {array.shape}")
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise ValueError(f"coordinates must be numbers, got dtype {array.dtype}")
    values = np.ascontiguousarray(array, dtype=np.float64)
    if metric != "float":
        instance = _core.instance_from_coordinates(f"points{n}", values, metric)
        _warn_if_collapsed(instance, values, metric)
        return Problem(instance)
    # Unrounded Euclidean distances: scaling by a power of two is exact, so the core's rounded
    # distances are those of the user's points to within half a unit of 1 / scale. Any scale
    # works up to where squared distances overflow: 1e300 would pass scaled, and measure inf.
    _core.check_float_coordinates(values)
    finite = values[np.isfinite(values).all(axis=1)] if n else values
    extent = float((finite.max(axis=0) - finite.min(axis=0)).max()) if finite.size else 0.0
    scale = _scale_for(extent)
    instance = _core.instance_from_coordinates(f"points{n}", values * scale, "euc_3d" if dimensions == 3 else "euc_2d")
    return Problem(instance, scale, values)


#: Cities sampled by the check that a named integer metric keeps the points apart.
_COLLAPSE_SAMPLE = 200


def _warn_if_collapsed(instance: _core.Instance, values: np.ndarray, metric: str) -> None:
    """Warns when the integer metric the user named puts most cities at distance 0 from their
    nearest neighbour (points in a unit square under "euc_2d", say): every tour would then measure
    about 0, and the solver would have nothing to tell tours apart by."""
    n = len(values)
    if n < 4 or not np.isfinite(values).all():
        return
    sample = np.random.default_rng(0).choice(n, size=min(n, _COLLAPSE_SAMPLE), replace=False)
    zero = apart = 0
    for i in sample:
        gaps = np.abs(values - values[i]).sum(axis=1)
        gaps[i] = np.inf
        j = int(np.argmin(gaps))
        if gaps[j] == 0:
            continue  # a duplicate city is at distance 0 under every metric
        apart += 1
        zero += instance.distance(int(i), j) == 0
    if apart and zero > apart // 2:
        warnings.warn(
            f"metric '{metric}' rounds distances to integers, and {100 * zero // apart}% of these cities are at "
            "distance 0 from their nearest neighbour: tour lengths would mean little. Leave metric unset "
            "(non-integer coordinates then keep their exact distances, metric='float') or scale the coordinates.",
            UserWarning,
            stacklevel=5,
        )


def _first_cell(mask: np.ndarray) -> tuple[int, int]:
    i, j = np.argwhere(mask)[0]
    return int(i), int(j)


def _matrix(array: np.ndarray, metric: Optional[str]) -> Problem:
    n = array.shape[0]
    name = f"matrix{n}"
    if metric not in (None, "explicit", "float"):
        raise ValueError(
            f"metric '{metric}' needs coordinates; a distance matrix takes metric='explicit' (the default) or 'float'"
        )
    if np.issubdtype(array.dtype, np.bool_) or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise ValueError(f"a distance matrix must hold numbers, got dtype {array.dtype}")
    if np.issubdtype(array.dtype, np.floating):
        if not np.isfinite(array).all():
            i, j = _first_cell(~np.isfinite(array))
            raise ValueError(f"weight {array[i, j]} between cities {i + 1} and {j + 1} is not finite")
        if metric == "float" or (metric is None and not _whole(array)):
            return _float_matrix(name, np.ascontiguousarray(array, dtype=np.float64))
        if not (array == np.floor(array)).all():
            i, j = _first_cell(array != np.floor(array))
            raise ValueError(
                f"weight {float(array[i, j])} between cities {i + 1} and {j + 1} is not an integer; "
                "metric='explicit' takes integer weights: leave metric unset (or pass metric='float') for float distances"
            )
    elif metric == "float":
        return _float_matrix(name, np.ascontiguousarray(array, dtype=np.float64))
    if array.size and array.max() > _INT32_MAX:
        i, j = _first_cell(array > _INT32_MAX)
        raise ValueError(f"weight {array[i, j]} between cities {i + 1} and {j + 1} is larger than {_INT32_MAX}")
    _expect_non_negative(array)
    return Problem(_core.instance_from_matrix(name, np.ascontiguousarray(array, dtype=np.int32)))


def _expect_non_negative(values: np.ndarray) -> None:
    """The core's check (and words) for negative weights, before a conversion could hide them."""
    if values.size and values.min() < 0:
        i, j = _first_cell(values < 0)
        raise ValueError(f"negative weight {values[i, j]} between cities {i + 1} and {j + 1}")


def _float_matrix(name: str, values: np.ndarray) -> Problem:
    _expect_non_negative(values)
    if not np.array_equal(values, values.T):
        i, j = _first_cell(values != values.T)
        raise ValueError(
            f"weights are not symmetric: d({i + 1},{j + 1}) = {values[i, j]} but d({j + 1},{i + 1}) = {values[j, i]}"
        )
    scale, fixed = _fixed_point_matrix(values)
    return Problem(_core.instance_from_matrix(name, fixed), scale, values)


@dataclass(frozen=True)
class DirectedMatrix:
    """An asymmetric instance as the core takes it: a name and an (n, n) int32 matrix, the way
    from i to j in row i, column j (diagonal 0). For float weights the core sees them in fixed
    point (``scale``, as metric="float" does), and ``values`` holds the user's, by which tours are
    measured exactly."""

    name: str
    weights: np.ndarray
    #: Fixed-point scale of float weights; None when lengths are exact integers.
    scale: Optional[float] = None
    values: Optional[np.ndarray] = None

    def length(self, order: np.ndarray, closed: bool, fixed_point: int) -> Union[int, float]:
        """Exact length of the directed tour (`closed`) or path `order`, whose length in the core's
        units is `fixed_point`: that integer, or for float weights the sum in double."""
        return int(fixed_point) if self.values is None else _matrix_walk(self.values, order, closed)

    def to_user_units(self, length: int) -> Union[int, float]:
        """A length of the core (fixed-point for float weights) in the matrix's units."""
        return length if self.scale is None else length / self.scale


def asymmetric_matrix(problem: Any, metric: Optional[str]) -> Optional[DirectedMatrix]:
    """The DirectedMatrix of `problem` when it is a square matrix of numbers that is not
    symmetric (metric None, "explicit" or "float"); None for anything else, which as_problem then
    takes. The diagonal is ignored. Weights that are not all whole numbers, or metric="float",
    keep their float values (exact lengths, as for a symmetric float matrix)."""
    if isinstance(problem, (*PATH_TYPES, _core.Instance, Problem)) or metric not in (None, "explicit", "float"):
        return None
    array = np.asarray(problem)
    if array.ndim != 2 or array.shape[0] != array.shape[1] or array.shape[0] < 3:
        return None
    _expect_unambiguous(array, metric)
    if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        return None
    if np.issubdtype(array.dtype, np.bool_) or np.array_equal(array, array.T):
        return None
    n = array.shape[0]
    off_diagonal = ~np.eye(n, dtype=bool)
    if np.issubdtype(array.dtype, np.floating) and not np.isfinite(array[off_diagonal]).all():
        i, j = _first_cell(~np.isfinite(array) & off_diagonal)
        raise ValueError(f"weight {array[i, j]} from city {i + 1} to city {j + 1} is not finite")
    if (array[off_diagonal] < 0).any():
        i, j = _first_cell((array < 0) & off_diagonal)
        raise ValueError(f"negative weight {array[i, j]} from city {i + 1} to city {j + 1}")
    clean = np.where(off_diagonal, array, 0)
    name = f"matrix{n}"
    if metric == "float" or (metric is None and not _whole(clean)):
        values = np.ascontiguousarray(clean, dtype=np.float64)
        scale, fixed = _fixed_point_matrix(values)
        return DirectedMatrix(name, fixed, scale, values)
    if not _whole(clean):
        i, j = _first_cell((clean != np.floor(clean)) & off_diagonal)
        raise ValueError(
            f"weight {float(array[i, j])} from city {i + 1} to city {j + 1} is not an integer; "
            "metric='explicit' takes integer weights: leave metric unset (or pass metric='float') for float weights"
        )
    if (clean > _INT32_MAX).any():
        i, j = _first_cell(clean > _INT32_MAX)
        raise ValueError(f"weight {array[i, j]} from city {i + 1} to city {j + 1} is larger than {_INT32_MAX}")
    return DirectedMatrix(name, np.ascontiguousarray(clean, dtype=np.int32))


def _expect_unambiguous(array: np.ndarray, metric: Optional[str]) -> None:
    """A (3, 3) array is three 3-D points or the distance matrix of 3 cities. Without a metric it
    is taken for a matrix when its diagonal is zero, as a distance matrix's is; any other is
    refused rather than guessed (a matrix's diagonal would be ignored, points solved as weights)."""
    if metric is not None or array.shape != (3, 3):
        return
    if not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)):
        return
    if (np.diagonal(array) != 0).any():
        raise ValueError(
            "a (3, 3) array is three 3-D points or the distance matrix of 3 cities, and this one's diagonal is "
            "not zero: pass metric='euc_3d' for points or metric='explicit' for a matrix (formica takes (n, 2) or "
            "(n, 3) arrays of coordinates and (n, n) distance matrices)"
        )


def attach_partial(error: BaseException, attribute: str, make: Callable[[Any], Any]) -> None:
    """After Ctrl-C in a core call: what the core had is on `error` as `_formica_result`; it goes
    to the exception's `attribute` ("result", or "results" for a batch), made by `make`."""
    partial = getattr(error, "_formica_result", None)
    if partial is not None:
        delattr(error, "_formica_result")
        setattr(error, attribute, make(partial))


def as_problem(problem: Any, metric: Optional[str] = None) -> Problem:
    """Turns anything formica.solve accepts into a Problem; ValueError for what it does not."""
    if metric is not None and text("metric", metric) not in METRICS:
        raise ValueError(f"unknown metric '{metric}' (valid: {', '.join(METRICS)})")
    if isinstance(problem, Problem):
        return problem
    if isinstance(problem, _core.Instance):
        if metric is not None:
            raise ValueError("metric= applies to arrays; an Instance has its own edge weight type")
        return Problem(problem)
    if isinstance(problem, PATH_TYPES):
        if metric is not None:
            raise ValueError("metric= applies to arrays; a TSPLIB file names its own EDGE_WEIGHT_TYPE")
        return Problem(_core.load_instance(core_path("the problem's path", problem)))
    array = np.asarray(problem)
    _expect_unambiguous(array, metric)
    # A square array is a distance matrix, except 3 x 3 with metric="euc_3d" (three 3-D points).
    if array.ndim == 2 and array.shape[0] == array.shape[1] >= 3 and not (array.shape[0] == 3 and metric == "euc_3d"):
        return _matrix(array, metric)
    if array.ndim == 2 and array.shape[1] in (2, 3):
        return _coordinates(array, metric)
    raise ValueError(
        "a problem is an (n, 2) or (n, 3) array of coordinates, an (n, n) distance matrix, a TSPLIB "
        f"file path or a formica.Instance; got an array of shape {array.shape}"
    )
