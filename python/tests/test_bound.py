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
        ({"time_limit": -1.0}, "time_limit must be a positive number"),
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
