# SPDX-License-Identifier: MIT
"""Float coordinates keep their exact distances unless the user names an integer metric."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import formica


@pytest.fixture
def unit_points() -> np.ndarray:
    return np.random.default_rng(0).random((200, 2))


def test_float_points_get_the_float_metric_by_default(unit_points) -> None:
    default = formica.solve(unit_points, iterations=20, seed=3)
    named = formica.solve(unit_points, iterations=20, seed=3, metric="float")
    assert isinstance(default.length, float)
    assert default.length == named.length and np.array_equal(default.tour, named.tour)
    # 200 points in the unit square: a good tour is about 0.7124 * sqrt(200) = 10.1 long.
    assert 9.5 < default.length < 12.0
    assert default.length == formica.tour_length(unit_points, default.tour, metric="float")


def test_integer_valued_arrays_and_files_keep_integer_metrics(unit_points, data) -> None:
    whole = np.floor(unit_points * 1000)
    result = formica.solve(whole, iterations=5, seed=1)
    assert isinstance(result.length, int)
    assert result.length == formica.solve(whole.astype(np.int64), iterations=5, seed=1).length
    assert isinstance(formica.solve(data("square.tsp"), iterations=2).length, int)


def test_solve_batch_and_lower_bound_keep_float_metrics(unit_points) -> None:
    batch = formica.solve_batch([unit_points[:60], unit_points[60:]], kicks=50, backend="cpu")
    named = formica.solve_batch([unit_points[:60], unit_points[60:]], kicks=50, backend="cpu", metric="float")
    assert [r.length for r in batch] == [r.length for r in named]
    assert all(isinstance(r.length, float) and r.length > 3 for r in batch)
    bound = formica.lower_bound(unit_points, time_limit=2)
    tour = formica.solve(unit_points, iterations=20, seed=3)
    assert isinstance(bound.bound, float) and not bound.is_optimum
    assert 0.97 * tour.length < bound.bound <= tour.length


def test_a_named_metric_that_collapses_distances_warns_once(unit_points) -> None:
    with pytest.warns(UserWarning, match=r"metric 'euc_2d' rounds distances to integers, and \d+% of these cities"):
        formica.solve(unit_points, metric="euc_2d", iterations=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        formica.solve(unit_points * 1000, metric="euc_2d", iterations=1)  # spread out: no warning


def test_float_coordinates_too_far_for_double_are_refused() -> None:
    """Any scale works for float coordinates, up to where a squared distance overflows: beyond,
    a ValueError (as solve_batch gives), never a length of inf."""
    points = np.random.default_rng(5).uniform(0, 10, size=(20, 2))
    points[3, 1] = -1e300
    message = r"city 4 has y coordinate -1e\+300, beyond \+-1e\+150 \(float coordinates: their squared distances"
    with pytest.raises(ValueError, match=message):
        formica.solve(points, iterations=1)
    with pytest.raises(ValueError, match=message):
        formica.solve_batch([points], kicks=1, backend="cpu", progress=False)
