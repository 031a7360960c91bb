# SPDX-License-Identifier: MIT
"""solve(callback=...), solve(progress=True) and messages in Python's spelling."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import formica


@pytest.fixture
def points() -> np.ndarray:
    return np.random.default_rng(5).random((150, 2))


def test_the_callback_sees_improvements_and_false_stops_the_run(points) -> None:
    calls: list[tuple[float, np.ndarray, float]] = []

    def callback(length, tour, seconds):
        assert not threading.current_thread() is threading.main_thread()  # the solver's thread
        calls.append((length, tour.copy(), seconds))
        return len(calls) < 2

    result = formica.solve(points, time_limit=20, callback=callback, seed=1)
    assert result.stop_reason == "callback" and result.seconds < 5
    assert len(calls) == 2
    length, tour, _ = calls[-1]
    assert length == formica.tour_length(points, tour)  # exact, in the user's units
    assert calls[0][0] > calls[1][0] >= result.length  # the final polish may still shorten it


def test_an_exception_in_the_callback_propagates_with_the_result(points) -> None:
    def callback(length, tour, seconds):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough") as error:
        formica.solve(points, time_limit=20, callback=callback)
    assert error.value.result.stop_reason == "callback"
    assert sorted(error.value.result.tour) == list(range(len(points)))


def test_progress_shows_the_best_length(points, capsys) -> None:
    formica.solve(points, iterations=5, progress=True)
    assert "formica" in capsys.readouterr().err


def test_callback_and_progress_need_a_closed_tour(points) -> None:
    with pytest.raises(ValueError, match=r"callback= and progress= follow closed tours"):
        formica.solve(points, open=True, progress=True, iterations=1)


def test_a_callback_that_is_not_callable_is_refused_before_the_problem_is_read(tmp_path) -> None:
    """solve() checks its own keywords before it reads the problem: the wrong keyword is named even
    where the problem is wrong too (here a file that does not exist)."""
    with pytest.raises(TypeError, match=r"^callback must be a callable \(length, tour, seconds\), got 3$"):
        formica.solve(str(tmp_path / "missing.tsp"), callback=3)


def test_a_misspelled_keyword_lists_python_names(points) -> None:
    with pytest.raises(ValueError) as error:
        formica.solve(points, time_limt=1)
    message = str(error.value)
    assert message.startswith("unknown parameter 'time_limt' (valid: algorithm, backend, iterations, time_limit")
    assert message.endswith("did you mean time_limit?")
    assert "time-limit" not in message and "island_interval" in message


def test_core_messages_use_python_names(points) -> None:
    with pytest.raises(ValueError, match=r"^time_limit must be in \(0, 10000000\] seconds, got -1$"):
        formica.solve(points, time_limit=-1)
    with pytest.raises(ValueError, match=r"^unknown parameter 'walkz' \(valid: .*kicks.*\); did you mean walks\?$"):
        formica.solve_batch([points], walkz=2)
