# SPDX-License-Identifier: MIT
"""formica.lower_bound: the Held-Karp bound from Python (the command line's `formica bound`)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import formica


def test_eil51_gets_the_published_held_karp_value_rounded_up(tsplib) -> None:
    bound = formica.lower_bound(tsplib("eil51"), threads=2)
    assert isinstance(bound, formica.LowerBound)
    assert bound.bound == 423  # 422.5 rounded up; the optimum is 426
    assert 422 < bound.value <= 423  # the ascent ends near the published 422.5
    assert not bound.is_optimum
    assert bound.iterations > 0 and bound.seconds > 0
    assert bound.penalties.shape == (51,) and bound.penalties.dtype == np.float64
    assert bound.gap(426) == pytest.approx(100 * 3 / 423)


def test_no_tour_is_shorter_than_the_bound() -> None:
    points = np.random.default_rng(5).uniform(0, 1000, size=(300, 2))
    bound = formica.lower_bound(points)
    result = formica.solve(points, iterations=20, seed=1, backend="cpu")
    assert 0.97 * result.length <= bound.bound <= result.length


def test_the_bound_is_at_most_the_optimum_found_by_enumeration() -> None:
    rng = np.random.default_rng(9)
    matrix = rng.integers(1, 100, size=(8, 8))
    matrix = np.triu(matrix, 1) + np.triu(matrix, 1).T
    best = min(
        sum(matrix[a, b] for a, b in zip((0, *order), (*order, 0)))
        for order in itertools.permutations(range(1, 8))
    )
    bound = formica.lower_bound(matrix)
    assert bound.bound <= best
    if bound.is_optimum:  # a 1-tree that is a tour is an optimal tour
        assert bound.bound == best


def test_iterations_bound_the_ascent_and_the_result_is_the_same_each_time() -> None:
    instance = formica.generate(500, seed=2)
    first = formica.lower_bound(instance, iterations=30, threads=1)
    again = formica.lower_bound(instance, iterations=30, threads=2)
    assert first.iterations <= 30 and first.stop_reason in ("iterations", "tour", "schedule")
    assert first.bound == again.bound
    np.testing.assert_array_equal(first.penalties, again.penalties)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": 0}, "iterations must be a positive number"),
        ({"time_limit": -1.0}, r"time_limit must be in \(0, 10000000\] seconds, got -1"),
        ({"threads": -2}, "threads must not be negative"),
        ({"threads": 100_000}, r"threads must be at most 2048 \(0: all of this machine's\), got 100000"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message) -> None:
    points = np.random.default_rng(1).uniform(0, 10, size=(20, 2))
    with pytest.raises(ValueError, match=message):
        formica.lower_bound(points, **kwargs)


def test_an_asymmetric_matrix_is_refused() -> None:
    matrix = np.arange(16).reshape(4, 4)
    with pytest.raises(ValueError, match="symmetric instances"):
        formica.lower_bound(matrix)


def _stacked_corners(n: int, corners: int, scale: float, offset: float = 0.0) -> np.ndarray:
    """n cities on `corners` of the corners (+-scale, +-scale), a point each (moved inwards by
    `offset`): the shape that once gave bounds above 10^16 at 5e8, the largest coordinates taken."""
    corner = np.arange(n) % corners
    x = np.where(corner == 1, -scale + offset, scale - offset)
    y = np.where(corner == 2, -scale + offset, scale - offset)
    return np.stack([x, y], axis=1)


@pytest.mark.parametrize(
    ("metric", "scale", "corners"),
    [
        ("euc_2d", 5e8, 2),
        ("euc_2d", 5e8, 4),
        ("euc_2d", 4e8, 2),
        ("euc_2d", 1e6, 3),
        ("ceil_2d", 5e8, 2),
        ("ceil_2d", 4e8, 3),
        ("att", 5e8, 3),
        ("man_2d", 5e8, 2),
        ("max_2d", 5e8, 3),
        ("max_2d", 4e8, 2),
    ],
)
def test_cities_on_far_corners_are_bounded_below_the_tour(metric, scale, corners) -> None:
    points = _stacked_corners(400, corners, scale)
    bound = formica.lower_bound(points, metric=metric, threads=1)
    result = formica.solve(points, metric=metric, iterations=3, seed=1, backend="cpu")
    assert formica.tour_length(points, result.tour, metric=metric) == result.length
    assert 0 < bound.bound <= result.length
    assert bound.value <= bound.bound
    assert np.abs(bound.penalties).max() <= 2.0**52 / 100  # the ascent's range, in distance units
    assert bound.gap(result.length) >= 0


def test_float_coordinates_on_far_corners_are_bounded_below_the_tour() -> None:
    points = _stacked_corners(400, 2, 5e8, offset=0.25)  # not whole: exact float distances
    bound = formica.lower_bound(points, threads=1)
    result = formica.solve(points, iterations=3, seed=1, backend="cpu")
    assert isinstance(result.length, float)
    assert 0 < bound.bound <= result.length


def test_a_matrix_of_the_largest_weights_is_bounded_below_the_tour() -> None:
    rng = np.random.default_rng(3)
    largest = np.iinfo(np.int32).max
    for n in (6, 40):
        matrix = largest - rng.integers(0, 2**20, size=(n, n))
        matrix = np.triu(matrix, 1) + np.triu(matrix, 1).T
        bound = formica.lower_bound(matrix, threads=1)
        result = formica.solve(matrix, iterations=3, seed=1, backend="cpu")
        assert formica.tour_length(matrix, result.tour) == result.length
        assert (n - 1) * (largest - 2**20) <= bound.bound <= result.length


def test_coordinates_beyond_the_largest_are_value_errors() -> None:
    points = _stacked_corners(10, 2, 5e8 + 1)
    with pytest.raises(ValueError, match="beyond"):
        formica.lower_bound(points)


def test_a_gap_below_the_bound_is_a_value_error() -> None:
    bound = formica.lower_bound(_stacked_corners(50, 2, 4e8), threads=1)
    assert bound.gap(bound.bound) == 0
    with pytest.raises(ValueError, match="shorter than the proven bound"):
        bound.gap(bound.bound - 1)


def test_the_time_limit_holds_for_the_one_trees_too() -> None:
    # 30,000 cities at one point: the minimum 1-tree is a star whose every leaf searches the whole
    # k-d tree (about 10 s on two cores); a 1-s limit gives way to the nearest-neighbour bound.
    import time

    points = np.full((30_000, 2), 7.0)
    start = time.monotonic()
    bound = formica.lower_bound(points, time_limit=1.0, threads=2)
    assert time.monotonic() - start < 1.7
    assert bound.bound == 0
