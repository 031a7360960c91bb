# SPDX-License-Identifier: MIT
"""Runs that stop when they are done: small instances exactly, default budgets when the tour
stops improving or meets the Held-Karp bound; named budgets as named."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import formica


def _optimum(points: np.ndarray) -> float:
    """The shortest closed tour by Held-Karp over subsets, in Python (a reference for n <= 10)."""
    n = len(points)
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    best = {(1 << j, j): d[0, j + 1] for j in range(n - 1)}
    for size in range(2, n):
        for subset in itertools.combinations(range(n - 1), size):
            mask = sum(1 << j for j in subset)
            for j in subset:
                rest = mask & ~(1 << j)
                best[(mask, j)] = min(best[(rest, k)] + d[k + 1, j + 1] for k in subset if k != j)
    full = (1 << (n - 1)) - 1
    return min(best[(full, j)] + d[j + 1, 0] for j in range(n - 1))


def test_ten_points_return_the_optimum_at_once() -> None:
    points = np.random.default_rng(7).random((10, 2))
    start = time.perf_counter()
    result = formica.solve(points)
    assert time.perf_counter() - start < 0.1
    assert result.stop_reason == "exact"
    assert result.length == pytest.approx(_optimum(points), rel=1e-9)


@pytest.mark.parametrize("n", [3, 4, 12])
def test_up_to_twelve_cities_are_exact_even_with_a_budget(n) -> None:
    points = np.random.default_rng(n).uniform(0, 1000, size=(n, 2)).round()
    result = formica.solve(points, time_limit=5)
    assert result.stop_reason == "exact" and result.seconds < 0.1
    assert sorted(result.tour) == list(range(n))


def test_a_default_budget_grows_with_n_and_stops_when_improvements_stop() -> None:
    points = np.random.default_rng(1).uniform(0, 1000, size=(200, 2)).round()
    result = formica.solve(points, seed=2)
    assert result.config["time_limit"] == pytest.approx(2.0)  # n / 100 seconds
    assert result.stop_reason in ("no improvement", "optimal")
    assert result.seconds < 2.0


def test_a_tour_that_meets_the_bound_ends_the_run() -> None:
    angles = np.arange(60) * 2 * np.pi / 60
    circle = np.c_[1000 * np.cos(angles), 1000 * np.sin(angles)].round()
    result = formica.solve(circle, seed=1)
    assert result.stop_reason == "optimal"
    assert result.length == formica.lower_bound(circle).bound


def test_named_budgets_are_kept() -> None:
    points = np.random.default_rng(1).uniform(0, 1000, size=(100, 2)).round()
    result = formica.solve(points, time_limit=0.4, seed=1)
    assert result.stop_reason == "time limit" and result.seconds >= 0.35
    assert formica.solve(points, iterations=3, seed=1).stop_reason == "iterations"


def test_a_tour_of_length_zero_ends_even_a_named_budget() -> None:
    start = time.perf_counter()
    result = formica.solve(np.full((50, 2), 7.0), time_limit=30, seed=1)
    assert result.length == 0 and result.stop_reason == "optimal"
    assert time.perf_counter() - start < 5
    start = time.perf_counter()
    spread = np.random.default_rng(2).uniform(0, 1000, size=(30, 2)).round()
    batch = formica.solve_batch([spread, np.full((30, 2), 7.0)], time_limit=30, kicks=50, seed=1)
    assert batch[1].length == 0 and batch[1].stop_reason == "optimal"
    assert batch[0].stop_reason == "kicks"
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(
    ("target", "error"), [(float("nan"), ValueError), (float("inf"), ValueError), ("100", TypeError), (True, TypeError)]
)
def test_a_target_that_is_not_a_finite_length_is_refused(target: object, error: type[Exception]) -> None:
    points = np.random.default_rng(1).uniform(0, 1000, size=(20, 2)).round()
    with pytest.raises(error, match=r"^target must be a (finite length|length \(a number\))"):
        formica.solve(points, target=target, time_limit=1)
    with pytest.raises(error, match=r"^targets\[0\] must be a (finite length|length \(a number\))"):
        formica.solve_batch([points], targets=[target], time_limit=1)
