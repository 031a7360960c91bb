# SPDX-License-Identifier: MIT
"""Hostile arguments to the public functions: each raises TypeError (a value of the wrong type),
ValueError (a value out of range) or works, with a message that names the keyword and the value
as given, never nanobind's "incompatible function arguments" or "std::bad_cast"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import formica
from formica import _core

SQUARE = Path(__file__).resolve().parents[2] / "tests" / "data" / "square.tsp"


@pytest.fixture
def points() -> np.ndarray:
    return np.random.default_rng(5).uniform(0, 1000, size=(20, 2)).round()


@pytest.fixture
def float_points() -> np.ndarray:
    return np.random.default_rng(5).uniform(0, 1, size=(20, 2))


def raises(error: type[BaseException], match: str, call, *args, **kwargs) -> str:
    """The message of the `error` that `call` raises, checked to match and to be one line of ours."""
    with pytest.raises(error, match=match) as caught:
        call(*args, **kwargs)
    message = str(caught.value)
    assert "\n" not in message and "incompatible function arguments" not in message and "bad_cast" not in message
    return message


# --- file names -----------------------------------------------------------------------------------


@pytest.fixture
def non_utf8_file(tmp_path: Path) -> bytes:
    """square.tsp under a name whose bytes are not UTF-8."""
    path = os.path.join(os.fsencode(tmp_path), b"caf\xe9.tsp")
    shutil.copyfile(SQUARE, path)
    return path


def test_a_file_name_that_is_not_utf8_is_read_as_bytes_or_as_os_fsdecode_spells_it(non_utf8_file: bytes) -> None:
    assert formica.read_tsplib(non_utf8_file).n == 4
    assert formica.read_tsplib(os.fsdecode(non_utf8_file)).n == 4  # surrogate escapes
    assert formica.solve(non_utf8_file, iterations=1).length > 0
    tour = os.path.join(os.path.dirname(non_utf8_file), b"t\xff.tour")
    formica.write_tour(tour, [0, 1, 2, 3])
    assert list(formica.read_tour(os.fsdecode(tour))) == [0, 1, 2, 3]


def test_a_missing_file_with_a_name_that_is_not_utf8_is_named_escaped(tmp_path: Path) -> None:
    missing = os.path.join(os.fsencode(tmp_path), b"no\xff.tsp")
    raises(ValueError, r"no\\xff\.tsp: no such file", formica.read_tsplib, missing)


def test_file_names_no_system_can_hold_are_value_errors() -> None:
    raises(ValueError, "not a file name this system can encode", formica.read_tsplib, "\ud800.tsp")
    raises(ValueError, "holds a NUL byte", formica.read_tour, "a\0b.tour")
    raises(ValueError, "no instance given", formica.read_tsplib, "")
    raises(TypeError, "path must be a path", formica.read_tsplib, 3)


# --- formica.generate ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        ({"n": 10**30}, ValueError, "n must be at most 50000000, got 10000"),
        ({"n": 2**63}, ValueError, "n must be at most 50000000, got 9223372036854775808"),
        ({"n": 2}, ValueError, "n must be at least 3, got 2"),
        ({"n": 1.5}, TypeError, "n must be a whole number, got 1.5"),
        ({"n": True}, TypeError, r"n must be a whole number, not a bool \(True\)"),
        ({"n": "10"}, TypeError, "n must be a whole number, got '10'"),
        ({"n": 10, "seed": -1}, ValueError, "seed must be at least 0, got -1"),
        ({"n": 10, "seed": 2**64}, ValueError, "seed must be at most 18446744073709551615"),
        ({"n": 10, "kind": 3}, TypeError, "kind must be a str, got 3"),
        ({"n": 10, "kind": "ring"}, ValueError, "unknown"),
    ],
)
def test_generate_checks_its_arguments(kwargs, kind, message) -> None:
    raises(kind, message, formica.generate, **kwargs)


def test_generate_takes_whole_floats_and_numpy_integers() -> None:
    assert formica.generate(np.int64(12), seed=np.uint64(3)).n == 12
    assert formica.generate(12.0).n == 12


# --- formica.solve ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        ({"start_city": 1.5}, TypeError, "start_city must be a whole number, got 1.5"),
        ({"start_city": True}, TypeError, r"start_city must be a whole number, not a bool \(True\)"),
        ({"end_city": "3"}, TypeError, "end_city must be a whole number"),
        ({"start_city": 10**30}, ValueError, "start_city must be at most 9223372036854775807"),
        ({"start_city": 20}, ValueError, "start_city= 20: no such city; the instance's cities are 0..19"),
        ({"seed": -1}, ValueError, r"seed: '-1' is negative \(0 to 18446744073709551615\)"),
        ({"seed": True}, TypeError, "seed must be a whole number, not a bool"),
        ({"iterations": 10**30}, ValueError, "iterations: '1000000000000000000000000000000' is out of range"),
        ({"iterations": 1.5}, TypeError, "iterations must be a whole number, got 1.5"),
        ({"time_limit": "ten"}, ValueError, "time_limit: 'ten' is not a number"),
        ({"time_limit": [10]}, TypeError, r"time_limit must be a number, got \[10\]"),
        ({"time_limit": float("nan")}, ValueError, "time_limit must be a number, got nan"),
        ({"time_limit": float("inf")}, ValueError, "time_limit must be finite, got inf"),
        ({"time_limit": 10**400}, ValueError, "time_limit is out of range"),
        ({"time_limit": 10000001}, ValueError, r"time_limit must be in \(0, 10000000\] seconds, got 10000001"),
        ({"target": "short"}, TypeError, "target must be a length"),
        ({"open": "yes"}, TypeError, "open must be True or False, got 'yes'"),
        ({"progress": 1}, TypeError, "progress must be True or False, got 1"),
        ({"callback": 3}, TypeError, "callback must be a callable"),
        ({"algorithm": 3}, TypeError, "algorithm must be a str, got 3"),
        ({"metric": 3}, TypeError, "metric must be a str, got 3"),
        ({"gpus": -1}, ValueError, r"gpus must be 'all' or in \[0, 1024\], got -1"),
        ({"ants": True}, TypeError, "ants must be a whole number, not a bool"),
        ({"ants": 2.5}, TypeError, "ants must be a whole number, got 2.5"),
        ({"ants": 10**30}, ValueError, r"ants: '1000000000000000000000000000000' is out of range \(-2147483648 to"),
        ({"alpha": [1]}, TypeError, r"alpha must be a number, got \[1\]"),
        ({"alpha": float("nan")}, ValueError, "alpha must be a number, got nan"),
        ({"alpha": "nan"}, ValueError, "alpha: 'nan' is not a number"),
        ({"polish": 1}, TypeError, "polish must be True or False, got 1"),
        ({"selection": 2}, TypeError, "selection must be a str, got 2"),
        ({"algorithm": "\udcff"}, ValueError, "algorithm is not valid text"),
    ],
)
def test_solve_checks_every_keyword(points, kwargs, kind, message) -> None:
    raises(kind, message, formica.solve, points, **{"iterations": 1, **kwargs})


def test_a_negative_target_is_named_as_given_not_in_fixed_point(float_points) -> None:
    raises(ValueError, "target must be a non-negative length, got -1$", formica.solve, float_points, target=-1)


def test_a_whole_float_city_is_a_city(points) -> None:
    result = formica.solve(points, start_city=2.0, iterations=1)
    assert result.start_city == 2 and result.tour[0] == 2


@pytest.mark.parametrize(
    ("coordinates", "message"),
    [
        ([[95.0, 10.0], [10.0, 20.0], [20.0, 30.0]], "city 1: latitude 95 is beyond [+]-90 degrees"),
        ([[10.0, 10.0], [10.0, -200.0], [20.0, 30.0]], "city 2: longitude -200 is beyond [+]-180 degrees"),
        ([[10.0, 10.0], [89.99, 20.0], [20.0, 30.0]], "city 2: latitude 89.99 is 90.65 degrees, beyond"),
    ],
)
def test_geo_coordinates_off_the_globe_are_refused(coordinates, message) -> None:
    raises(ValueError, message, formica.solve, np.array(coordinates), metric="geo")
    raises(ValueError, message, formica.tour_length, np.array(coordinates), [0, 1, 2], metric="geo")


# --- formica.solve_batch ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        ({"seeds": [-1, None]}, ValueError, r"seeds\[0\] must be at least 0, got -1"),
        ({"seeds": [None, 2**64]}, ValueError, r"seeds\[1\] must be at most 18446744073709551615"),
        ({"seeds": [1.5, None]}, TypeError, r"seeds\[0\] must be a whole number, got 1.5"),
        ({"seeds": 3}, TypeError, "seeds must be a sequence"),
        ({"time_limits": [float("nan"), None]}, ValueError, r"time_limits\[0\] must be a number, got nan"),
        ({"time_limits": [None, 1e30]}, ValueError, r"instance 1: time_limit must be in \(0, 10000000\] seconds"),
        ({"targets": [-1, None]}, ValueError, r"targets\[0\] must be a non-negative length, got -1"),
        ({"seed": -1}, ValueError, r"seed: '-1' is negative \(0 to 18446744073709551615\)"),
        ({"kicks": 1.5}, TypeError, "kicks must be a whole number, got 1.5"),
        ({"threads": True}, TypeError, "threads must be a whole number, not a bool"),
        ({"time_limit": 1e30}, ValueError, r"time_limit must be in \(0, 10000000\] seconds, got 1e\+30"),
        ({"ls_neighbours": 2.5}, TypeError, "ls_neighbours must be a whole number, got 2.5"),
        ({"local_search": 1}, TypeError, "local_search must be a str, got 1"),
        ({"progress": "yes"}, TypeError, "progress must be None, True, False or a callable"),
    ],
)
def test_solve_batch_checks_every_keyword(points, kwargs, kind, message) -> None:
    raises(kind, message, formica.solve_batch, [points, points], **{"kicks": 5, **kwargs})


def test_a_value_the_core_cannot_take_is_named_not_a_failed_cast(points) -> None:
    instance = formica.generate(10)
    raises(ValueError, "instance 0: seed -1 is not a whole number formica can take", _core.solve_batch,
           [instance], {"kicks": "1"}, [{"seed": -1}], None)
    raises(TypeError, "a value of the wrong type reached formica's core", _core.solve_batch, [1], {}, None, None)


# --- the others ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        ({"iterations": 1.5}, TypeError, "iterations must be a whole number, got 1.5"),
        ({"iterations": 2**70}, ValueError, "iterations must be at most 9223372036854775807"),
        ({"threads": True}, TypeError, "threads must be a whole number, not a bool"),
        ({"threads": 2**40}, ValueError, "threads must be at most 2147483647"),
        ({"time_limit": float("nan")}, ValueError, "time_limit must be a number, got nan"),
        ({"time_limit": 1e30}, ValueError, r"time_limit must be in \(0, 10000000\] seconds, got 1e\+30"),
    ],
)
def test_lower_bound_checks_its_arguments(points, kwargs, kind, message) -> None:
    raises(kind, message, formica.lower_bound, points, **kwargs)


def test_bound_gap_takes_numbers_only(points) -> None:
    bound = formica.lower_bound(points, iterations=5)
    raises(TypeError, "length must be a number", bound.gap, "long")
    assert bound.gap(bound.bound) == 0.0


def test_instance_distance_takes_city_indices() -> None:
    instance = formica.generate(10)
    raises(TypeError, "i must be a whole number", instance.distance, 1.5, 0)
    raises(TypeError, "j must be a whole number", instance.distance, 0, True)
    raises(ValueError, r"cities \(0, 9223372036854775807\) are not both in 0..9", instance.distance, 0, 10**30)
    assert instance.distance(np.int64(1), 2) == instance.distance(1, 2)


def test_tours_and_pictures_check_their_arguments(tmp_path: Path, points) -> None:
    raises(TypeError, "name must be a str, got 3", formica.write_tour, tmp_path / "a.tour", [0, 1, 2], name=3)
    raises(TypeError, "comment must be a str", formica.write_tour, tmp_path / "a.tour", [0, 1, 2], comment=b"x")
    raises(TypeError, "result must be a formica.Result", formica.plot_history, "result", tmp_path / "h.svg")
    raises(TypeError, "path must be a path", formica.plot_tour, points, np.arange(20), 3)
    raises(TypeError, "metric must be a str", formica.tour_length, points, np.arange(20), metric=2)
