# SPDX-License-Identifier: MIT
"""Open paths, fixed endpoints and asymmetric matrices through formica.solve, against brute force."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import formica


def _path_length(distance: np.ndarray, order: tuple[int, ...]) -> int:
    return int(sum(distance[order[i], order[i + 1]] for i in range(len(order) - 1)))


def _euclidean(points: np.ndarray) -> np.ndarray:
    steps = points[:, None, :] - points[None, :, :]
    return np.floor(np.sqrt((steps * steps).sum(axis=2)) + 0.5).astype(np.int64)  # TSPLIB nint


def _best(n: int, length, accept=lambda order: True) -> int:
    return min(length(order) for order in itertools.permutations(range(n)) if accept(order))


@pytest.fixture
def points() -> np.ndarray:
    return np.random.default_rng(5).uniform(0, 1000, size=(8, 2)).round()


def test_open_path(points: np.ndarray) -> None:
    d = _euclidean(points)
    result = formica.solve(points, open=True, iterations=20, backend="cpu", seed=1)
    assert result.open and result.start_city is None and not result.asymmetric
    assert result.length == _path_length(d, tuple(result.tour))
    assert result.length == _best(8, lambda o: _path_length(d, o))
    assert result.history[-1].length == result.length
    assert result.optimum is None


def test_fixed_start_and_end(points: np.ndarray) -> None:
    d = _euclidean(points)
    start = formica.solve(points, start_city=3, iterations=20, backend="cpu", seed=1)
    assert start.tour[0] == 3 and start.open and start.start_city == 3
    assert start.length == _best(8, lambda o: _path_length(d, o), lambda o: o[0] == 3)
    end = formica.solve(points, end_city=5, iterations=20, backend="cpu", seed=2)
    assert end.tour[-1] == 5
    assert end.length == _best(8, lambda o: _path_length(d, o), lambda o: o[-1] == 5)
    both = formica.solve(points, start_city=0, end_city=7, iterations=20, backend="cpu", seed=3)
    assert both.tour[0] == 0 and both.tour[-1] == 7
    assert both.length == _best(8, lambda o: _path_length(d, o), lambda o: o[0] == 0 and o[-1] == 7)


def test_asymmetric_matrix() -> None:
    rng = np.random.default_rng(11)
    matrix = rng.integers(1, 1000, size=(7, 7))
    np.fill_diagonal(matrix, 0)
    directed = lambda o: _path_length(matrix, o) + int(matrix[o[-1], o[0]])  # noqa: E731
    result = formica.solve(matrix, iterations=20, backend="cpu", seed=1)
    assert result.asymmetric and not result.open
    assert result.length == directed(tuple(result.tour))
    assert result.length == _best(7, directed)
    path = formica.solve(matrix, start_city=2, iterations=20, backend="cpu", seed=1)
    assert path.tour[0] == 2 and path.asymmetric and path.open
    assert path.length == _best(7, lambda o: _path_length(matrix, o), lambda o: o[0] == 2)
    with pytest.raises(ValueError, match="asymmetric matrix: it has no coordinates to draw"):
        result.plot()


def test_asymmetric_float_matrix_keeps_exact_float_lengths() -> None:
    rng = np.random.default_rng(12)
    matrix = rng.uniform(0.5, 9.5, size=(7, 7))
    np.fill_diagonal(matrix, np.nan)  # the diagonal is ignored, whatever it holds
    along = lambda o: float(sum(matrix[o[i], o[i + 1]] for i in range(len(o) - 1)))  # noqa: E731
    directed = lambda o: along(o) + float(matrix[o[-1], o[0]])  # noqa: E731
    result = formica.solve(matrix, iterations=20, backend="cpu", seed=1)
    assert result.asymmetric and isinstance(result.length, float)
    assert result.length == pytest.approx(directed(tuple(result.tour)), rel=1e-12)
    assert result.length == pytest.approx(_best(7, directed), rel=1e-6)
    assert result.history[-1].length == pytest.approx(result.length, rel=1e-6)  # float units, not fixed point
    path = formica.solve(matrix, start_city=2, iterations=20, backend="cpu", seed=1)
    assert path.tour[0] == 2 and isinstance(path.length, float)
    assert path.length == pytest.approx(_best(7, along, lambda o: o[0] == 2), rel=1e-6)
    # A target in the matrix's units; metric="float" gives an integer matrix float lengths too.
    reached = formica.solve(matrix, target=result.length + 0.5, time_limit=10, backend="cpu", seed=1)
    assert reached.stop_reason in ("target", "exact") and reached.length <= result.length + 0.5
    whole = np.where(np.isnan(matrix), 0, np.rint(matrix)).astype(np.int64)
    assert isinstance(formica.solve(whole, metric="float", iterations=5, backend="cpu").length, float)
    with pytest.raises(ValueError, match=r"^weight \d\.\d+ from city 1 to city 2 is not an integer; metric='explicit'"):
        formica.solve(matrix, metric="explicit", iterations=1)


def test_asymmetric_tsplib_file(data: Callable[[str], str]) -> None:
    result = formica.solve(data("atsp6.atsp"), iterations=20, backend="cpu", seed=1)
    assert result.asymmetric and result.instance == "atsp6" and len(result.tour) == 6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"start_city": 8}, r"^start_city= 8: no such city; the instance's cities are 0\.\.7$"),
        ({"end_city": -1}, r"^end_city= -1: no such city; the instance's cities are 0\.\.7$"),
        ({"start_city": 2, "end_city": 2}, r"^start_city= and end_city= name the same city 2"),
        ({"open": True, "initial_tour": list(range(8))}, r"^initial_tour starts a closed tour .* an open path$"),
    ],
)
def test_bad_routes_raise_value_error(points: np.ndarray, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        formica.solve(points, iterations=1, backend="cpu", **kwargs)


def test_path_plot_is_open(points: np.ndarray, tmp_path: Path) -> None:
    result = formica.solve(points, open=True, iterations=5, backend="cpu")
    result.plot(tmp_path / "path.svg")
    assert "<polyline" in (tmp_path / "path.svg").read_text()
