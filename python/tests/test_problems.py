# SPDX-License-Identifier: MIT
"""What formica accepts as a problem: coordinate arrays under every metric, distance matrices,
TSPLIB files and Instances; exact lengths; and the ValueError for everything else."""

from __future__ import annotations

import math

import numpy as np
import pytest

import formica


def nint(x: float) -> int:
    return int(x + 0.5)


def geo_radians(v: float) -> float:
    degrees = float(int(v))
    return 3.141592 * (degrees + 5.0 * (v - degrees) / 3.0) / 180.0


def reference_distance(metric: str, a: np.ndarray, b: np.ndarray) -> float:
    """TSPLIB95's definitions, written out independently of the C++ core."""
    d = a - b
    if metric == "euc_2d" or metric == "euc_3d":
        return nint(math.sqrt(float((d * d).sum())))
    if metric == "ceil_2d":
        return math.ceil(math.sqrt(float((d * d).sum())))
    if metric == "att":
        r = math.sqrt(float((d * d).sum()) / 10.0)
        t = nint(r)
        return t + 1 if t < r else t
    if metric == "man_2d":
        return nint(abs(d[0]) + abs(d[1]))
    if metric == "max_2d":
        return max(nint(abs(d[0])), nint(abs(d[1])))
    if metric == "geo":
        lat_i, lon_i, lat_j, lon_j = geo_radians(a[0]), geo_radians(a[1]), geo_radians(b[0]), geo_radians(b[1])
        q1, q2, q3 = math.cos(lon_i - lon_j), math.cos(lat_i - lat_j), math.cos(lat_i + lat_j)
        return int(6378.388 * math.acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0)
    if metric == "float":
        return math.sqrt(float((d * d).sum()))
    raise AssertionError(metric)


def reference_length(metric: str, points: np.ndarray, tour: np.ndarray) -> float:
    return sum(reference_distance(metric, points[tour[i]], points[tour[(i + 1) % len(tour)]]) for i in range(len(tour)))


@pytest.fixture
def points() -> np.ndarray:
    return np.random.default_rng(7).uniform(0, 500, size=(40, 2))


@pytest.mark.parametrize("metric", ["euc_2d", "ceil_2d", "att", "man_2d", "max_2d", "geo"])
def test_every_planar_metric_measures_as_tsplib_defines(metric: str, points: np.ndarray) -> None:
    if metric == "geo":  # latitude and longitude in DDD.MM
        points = np.column_stack([points[:, 0] / 6 - 40, points[:, 1] / 3 - 80])
    tour = np.random.default_rng(3).permutation(len(points))
    length = formica.tour_length(points, tour, metric=metric)
    assert isinstance(length, int)
    assert length == reference_length(metric, points, tour)
    result = formica.solve(points, metric=metric, iterations=3, seed=2)
    assert result.length == reference_length(metric, points, result.tour)
    assert result.config["algorithm"] == "mmas"  # auto, resolved


def test_default_metric_is_euc_2d_and_euc_3d_for_whole_numbers_float_otherwise(points: np.ndarray) -> None:
    tour = np.arange(len(points))
    whole = points.round()
    assert formica.tour_length(whole, tour) == formica.tour_length(whole, tour, metric="euc_2d")
    assert formica.tour_length(points, tour) == formica.tour_length(points, tour, metric="float")
    cube = np.random.default_rng(5).uniform(0, 100, size=(25, 3)).round()
    assert formica.tour_length(cube, np.arange(25)) == reference_length("euc_3d", cube, np.arange(25))
    # A 3 x 3 array is a matrix unless metric="euc_3d" says it holds three 3-D points.
    three = np.array([[0, 3, 4], [3, 0, 5], [4, 5, 0]])
    assert formica.tour_length(three, [0, 1, 2]) == 12
    assert formica.tour_length(three, [0, 1, 2], metric="euc_3d") == reference_length("euc_3d", three, np.arange(3))


def test_float_metric_is_unrounded_and_exact_in_double(points: np.ndarray) -> None:
    small = points / 1000.0  # distances well below 1: TSPLIB rounding would make most of them 0
    result = formica.solve(small, metric="float", iterations=10, seed=1)
    assert isinstance(result.length, float)
    assert result.length == pytest.approx(reference_length("float", small, result.tour), rel=1e-12)
    assert result.length == formica.tour_length(small, result.tour, metric="float")
    # The solver ranks tours by fixed-point lengths within n / (2 scale) of the exact ones.
    extent = float((small.max(axis=0) - small.min(axis=0)).max())
    assert abs(result.history[-1].length - result.length) <= len(small) * extent / 2**24
    assert result.gap is None and result.optimum is None


@pytest.mark.parametrize("size", [1e-6, 1.0, 3e9])
def test_float_metric_at_any_scale(size: float) -> None:
    points = np.random.default_rng(8).uniform(0, size, size=(40, 2)) + 5 * size
    result = formica.solve(points, metric="float", iterations=5, seed=2)
    assert result.length == pytest.approx(reference_length("float", points, result.tour), rel=1e-12)
    extent = float((points.max(axis=0) - points.min(axis=0)).max())
    assert abs(result.history[-1].length - result.length) <= len(points) * extent / 2**24
    # A tour measured by the solver in fixed point is a tour of the same points.
    assert result.length == formica.tour_length(points, result.tour, metric="float")


def test_integer_matrix_is_explicit_and_integral_floats_are_accepted() -> None:
    rng = np.random.default_rng(11)
    upper = np.triu(rng.integers(1, 1000, size=(30, 30)), 1)
    matrix = upper + upper.T
    tour = rng.permutation(30)
    expected = sum(int(matrix[tour[i], tour[(i + 1) % 30]]) for i in range(30))
    assert formica.tour_length(matrix, tour) == expected
    assert formica.tour_length(matrix.astype(np.float64), tour) == expected
    assert formica.tour_length(matrix.astype(np.int16), tour) == expected
    a = formica.solve(matrix, iterations=5, seed=4)
    b = formica.solve(matrix.astype(np.float32), iterations=5, seed=4)
    assert a.length == b.length and np.array_equal(a.tour, b.tour)


def test_non_integral_float_matrix_keeps_the_float_metric() -> None:
    rng = np.random.default_rng(2)
    upper = np.triu(rng.uniform(0.1, 1.0, size=(12, 12)), 1)
    matrix = upper + upper.T
    with pytest.raises(ValueError, match=r"between cities 1 and 2 is not an integer; metric='explicit' takes integer"):
        formica.solve(matrix, iterations=1, metric="explicit")
    tour = rng.permutation(12)
    assert formica.tour_length(matrix, tour) == formica.tour_length(matrix, tour, metric="float")
    length = formica.tour_length(matrix, tour, metric="float")
    assert length == pytest.approx(sum(matrix[tour[i], tour[(i + 1) % 12]] for i in range(12)), rel=1e-12)
    result = formica.solve(matrix, metric="float", iterations=5, seed=1)
    assert result.length == formica.tour_length(matrix, result.tour, metric="float")


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (np.array([[0, 1, 2], [1, 0, 3], [2, 4, 0]]), "weights are not symmetric: d(2,3) = 3 but d(3,2) = 4"),
        (np.array([[0, -1, 2], [-1, 0, 3], [2, 3, 0]]), "negative weight -1 between cities 1 and 2"),
        (np.array([[0, 2**31, 2], [2**31, 0, 3], [2, 3, 0]]), "weight 2147483648 between cities 1 and 2 is larger than 2147483647"),
        (np.array([[0.0, np.nan, 2], [np.nan, 0, 3], [2, 3, 0]]), "weight nan between cities 1 and 2 is not finite"),
    ],
)
def test_bad_matrices_raise_value_error(matrix: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError) as error:
        formica.tour_length(matrix, [0, 1, 2])
    assert str(error.value) == message


def test_float_matrix_checks_symmetry_and_sign() -> None:
    with pytest.raises(ValueError, match=r"^weights are not symmetric: d\(1,2\) = 1.5 but d\(2,1\) = 2.5$"):
        formica.tour_length(np.array([[0, 1.5, 1], [2.5, 0, 1], [1, 1, 0]]), [0, 1, 2], metric="float")
    with pytest.raises(ValueError, match=r"^negative weight -0.5 between cities 1 and 3$"):
        formica.tour_length(np.array([[0, 1, -0.5], [1, 0, 1], [-0.5, 1, 0]]), [0, 1, 2], metric="float")


@pytest.mark.parametrize(
    ("problem", "metric", "message"),
    [
        (np.zeros(5), None, "a problem is an (n, 2) or (n, 3) array of coordinates, an (n, n) distance matrix"),
        (np.zeros((6, 4)), None, "got an array of shape (6, 4)"),
        (np.zeros((2, 2)), None, "an instance needs at least 3 cities, got 2"),
        (np.zeros((5, 2)), "euc_3d", "metric 'euc_3d' needs an (n, 3) array of coordinates, got shape (5, 2)"),
        (np.zeros((5, 3)), "att", "metric 'att' needs an (n, 2) array of coordinates, got shape (5, 3)"),
        (np.zeros((5, 2)), "explicit", "metric 'explicit' needs an (n, n) distance matrix"),
        (np.zeros((5, 5)), "euc_2d", "metric 'euc_2d' needs coordinates; a distance matrix takes metric='explicit'"),
        (np.zeros((5, 2)), "euclid", "unknown metric 'euclid' (valid: euc_2d, ceil_2d, att, geo, man_2d, max_2d, euc_3d, explicit, float)"),
        (np.array([[0, 0], [1, np.nan], [2, 2]]), None, "city 2 has a non-finite y coordinate"),
        (np.array([["a", "b"], ["c", "d"], ["e", "f"]]), None, "coordinates must be numbers"),
    ],
)
def test_bad_problems_raise_value_error(problem: np.ndarray, metric: str | None, message: str) -> None:
    with pytest.raises(ValueError) as error:
        formica.solve(problem, metric=metric, iterations=1)
    assert message in str(error.value)


def test_tsplib_files_and_instances(data) -> None:
    square = formica.read_tsplib(data("square.tsp"))
    assert (square.name, square.n, len(square), square.edge_weight_type) == ("square", 4, 4, "EUC_2D")
    assert square.coordinates.tolist() == [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert square.matrix is None and square.optimum is None
    assert square.distance(0, 2) == 14
    assert repr(square) == "<formica.Instance square: 4 cities, EUC_2D>"
    for problem in (data("square.tsp"), square):
        result = formica.solve(problem, iterations=2)
        assert result.length == 40 and result.instance == "square"
    with pytest.raises(ValueError, match="metric= applies to arrays"):
        formica.solve(data("square.tsp"), metric="att")
    with pytest.raises(ValueError, match=r"cities \(0, 4\) are not both in 0..3"):
        square.distance(0, 4)


def test_pathlib_paths_and_tsplib_optimum(tsplib) -> None:
    from pathlib import Path

    eil51 = formica.read_tsplib(Path(tsplib("eil51")))
    assert eil51.optimum == 426
    result = formica.solve(Path(tsplib("eil51")), iterations=3)
    assert result.optimum == 426 and result.gap == pytest.approx(100 * (result.length - 426) / 426)


def test_tours_are_validated_read_and_written(tmp_path, data) -> None:
    assert formica.read_tour(data("square.tour")).tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="^tour visits city 2 twice$"):
        formica.tour_length(data("square.tsp"), [0, 1, 1, 3])
    with pytest.raises(ValueError, match="^tour has 3 cities but the instance has 4$"):
        formica.tour_length(data("square.tsp"), [0, 1, 2])
    with pytest.raises(ValueError, match="a tour is a 1-D array of integer city indices"):
        formica.tour_length(data("square.tsp"), [0.0, 1.0, 2.0, 3.0])
    path = tmp_path / "t.tour"
    formica.write_tour(path, [3, 1, 0, 2], comment="by hand")
    text = path.read_text()
    assert text.startswith("NAME : t.tour\nCOMMENT : by hand\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n4\n2\n1\n3\n-1\n")
    assert formica.read_tour(path).tolist() == [3, 1, 0, 2]
    with pytest.raises(ValueError, match="tour position 2 holds city 5, outside 1..2"):
        formica.write_tour(tmp_path / "bad.tour", [0, 4])
    assert not (tmp_path / "bad.tour").exists()


def test_generate_matches_the_command_line(tmp_path, cli) -> None:
    instance = formica.generate(60, "clustered", 5)
    assert (instance.name, instance.n, instance.edge_weight_type) == ("clustered60-s5", 60, "EUC_2D")
    out = tmp_path / "g.tsp"
    assert cli("generate", "--cities", 60, "--kind", "clustered", "--seed", 5, "--output", out).returncode == 0
    assert np.array_equal(formica.read_tsplib(out).coordinates, instance.coordinates)
    assert formica.generate(100).name == "uniform100-s1"
    with pytest.raises(ValueError, match=r"^unknown kind 'grid' \(valid: uniform, clustered\)$"):
        formica.generate(10, "grid", 1)


def test_a_three_by_three_array_is_a_matrix_only_with_a_zero_diagonal() -> None:
    """Three 3-D points or the matrix of 3 cities: a zero diagonal says matrix; any other (3, 3)
    array needs a metric, rather than being solved as weights it may not be."""
    points = np.random.default_rng(3).uniform(1, 10, size=(3, 3))
    message = r"a \(3, 3\) array is three 3-D points or the distance matrix of 3 cities, and this one's diagonal is not zero"
    for solve in (formica.solve, lambda p: formica.solve_batch([p], kicks=1, backend="cpu", progress=False)):
        with pytest.raises(ValueError, match=message):
            solve(points)
    as_points = formica.solve(points, metric="euc_3d", iterations=1)
    assert sorted(as_points.tour) == [0, 1, 2]
    matrix = np.array([[0, 1, 2], [1, 0, 3], [2, 3, 0]])
    assert formica.solve(matrix, iterations=1).length == 6
    with_diagonal = matrix + np.eye(3, dtype=int)
    with pytest.raises(ValueError, match=message):
        formica.solve(with_diagonal, iterations=1)
    assert formica.solve(with_diagonal, metric="explicit", iterations=1).length == 6


def test_an_array_of_two_points_is_refused() -> None:
    """(2, 2) could be two 2-D points or a matrix of two cities: either way fewer than 3 cities."""
    with pytest.raises(ValueError, match="an instance needs at least 3 cities, got 2"):
        formica.solve(np.ones((2, 2)), iterations=1)
