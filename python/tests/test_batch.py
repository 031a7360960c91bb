# SPDX-License-Identifier: MIT
"""formica.solve_batch: every kind of batch, exact results, seeds and limits, errors that name the
instance, progress, Ctrl-C, pickling, and the cluster example on a process pool."""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

import formica

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _example(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    # On sys.path, so that the process pool's children (spawned: they inherit sys.path) import it too.
    monkeypatch.syspath_prepend(str(EXAMPLES))
    return importlib.import_module("batch_on_a_cluster")


def _points(b: int, n: int, seed: int = 1) -> np.ndarray:
    """Whole-number coordinates: TSPLIB's EUC_2D (test_floats.py has float ones)."""
    return np.random.default_rng(seed).uniform(0, 1000, size=(b, n, 2)).round()


def _matrix(n: int, seed: int) -> np.ndarray:
    m = np.random.default_rng(seed).integers(1, 1000, size=(n, n))
    m = m + m.T
    np.fill_diagonal(m, 0)
    return m


def _check(results: list[formica.Result], problems: list) -> None:
    assert len(results) == len(problems)
    for result, problem in zip(results, problems):
        n = len(result.tour)
        assert result.tour.dtype == np.int32 and sorted(result.tour.tolist()) == list(range(n))
        assert result.length == formica.tour_length(problem, result.tour)
        assert result.history and result.history[-1].length == result.length
        assert result.backend == "cpu" and result.device.startswith("CPU")


def test_a_stacked_array_gives_one_result_per_instance() -> None:
    points = _points(5, 30)
    results = formica.solve_batch(points, kicks=40, walks=2, backend="cpu", progress=False)
    _check(results, list(points))
    assert [r.instance for r in results] == [f"batch-{i:05d}" for i in range(5)]
    for i, r in enumerate(results):
        assert r.stop_reason == "kicks" and r.iterations == 40 * 2
        assert r.config["seed"] == 1 + i and r.config["walks"] == 2 and r.config["kicks"] == 40
        assert r.config["backend"] == "cpu" and r.config["local_search"] == "three-opt"
        assert r.gap is None and r.seconds > 0


def test_jagged_lists_matrices_paths_and_instances(tmp_path: Path, data) -> None:
    path = tmp_path / "gen.tsp"
    path.write_text(Path(data("square.tsp")).read_text().replace("square", "gen"))
    problems = [_points(1, 12)[0], _points(1, 40, 2)[0], _matrix(9, 4), data("square.tsp"), str(path),
                formica.generate(33, "uniform", 5), [[0, 0], [3, 0], [3, 4]]]
    results = formica.solve_batch(problems, kicks=30, backend="cpu", progress=False)
    _check(results, problems)
    assert [r.instance for r in results] == ["batch-00000", "batch-00001", "batch-00002", "square", "gen",
                                             "uniform33-s5", "batch-00006"]
    assert [len(r.tour) for r in results] == [12, 40, 9, 4, 4, 33, 3]
    assert results[3].length == 40 and results[3].stop_reason == "exact"
    assert results[6].length == 12


def test_metric_float_gives_unrounded_lengths() -> None:
    points = np.random.default_rng(2).uniform(0, 1, size=(3, 20, 2))
    results = formica.solve_batch(points, kicks=20, metric="float", backend="cpu", progress=False)
    for r, p in zip(results, points):
        assert isinstance(r.length, float) and r.length == pytest.approx(formica.tour_length(p, r.tour, metric="float"))


def test_the_same_seed_gives_the_same_tours() -> None:
    points = _points(4, 60, 3)
    a = formica.solve_batch(points, kicks=50, walks=2, seed=11, backend="cpu", progress=False)
    b = formica.solve_batch(points, kicks=50, walks=2, seed=11, threads=1, backend="cpu", progress=False)
    assert all(np.array_equal(x.tour, y.tour) for x, y in zip(a, b))
    # Instance i of a batch is instance 0 of a batch of its own with seed + i.
    alone = formica.solve_batch(points[2:3], kicks=50, walks=2, seed=13, backend="cpu", progress=False)
    assert np.array_equal(alone[0].tour, a[2].tour)


def test_per_instance_seeds_time_limits_and_targets() -> None:
    points = _points(3, 80, 4)
    results = formica.solve_batch(points, kicks=30, walks=1, backend="cpu", progress=False,
                                  seeds=[None, 99, None], targets=[None, None, 10**12])
    assert [r.config["seed"] for r in results] == [1, 99, 3]
    assert results[2].stop_reason == "target" and results[2].config["target"] == 10**12
    assert results[0].config["target"] is None
    start = time.monotonic()
    timed = formica.solve_batch(_points(2, 300, 5), time_limits=[0.2, None], kicks=10**9, walks=1, threads=2,
                                time_limit=0.6, backend="cpu", progress=False)
    assert time.monotonic() - start < 10
    assert [r.stop_reason for r in timed] == ["time limit", "time limit"]
    assert timed[0].config["time_limit"] == 0.2 and timed[1].config["time_limit"] == 0.6
    assert timed[0].seconds < timed[1].seconds
    with pytest.raises(ValueError, match="seeds has 2 values but the batch has 3 instances"):
        formica.solve_batch(points, seeds=[1, 2], progress=False)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: _nan_batch(), r"^instance 2: city 4 has a non-finite y coordinate$"),
        (lambda: [_points(1, 10)[0], np.zeros((2, 2))], r"^instance 1: an instance needs at least 3 cities, got 2$"),
        (lambda: _points(3, 10)[:, :, :1].repeat(3, axis=2), r"^instance 0: an instance is an \(n, 2\) array of coordinates, got shape \(10, 3\)"),
        (lambda: [_points(1, 10)[0], _points(1, 10)[0][:, :1]], r"^instance 1: a problem is an \(n, 2\)"),
        (lambda: [_points(1, 10)[0], [[0, 1], [1, 2, 3], [3, 3]]], r"^instance 1: the coordinates are not a rectangular"),
        (lambda: [_matrix(5, 1), np.array([[0, 1, 2], [1, 0, 3], [2, 5, 0]])], r"^instance 1: weights are not symmetric"),
        (lambda: [_points(1, 5)[0], "/nonexistent/x.tsp"], r"^instance 1: /nonexistent/x.tsp: no such file"),
        (lambda: _far_batch(0.5), r"^instance 1: city 2 has x coordinate 1e\+300, beyond \+-1e\+150 \(float coordinates"),
        (lambda: _far_batch(0.0), r"^instance 1: city 2 has x coordinate 1e\+300, beyond \+-5e\+08 \(distances must fit"),
        (lambda: [], r"^the batch holds no instance$"),
        (lambda: _points(1, 10)[0], r"^a batch array has shape \(B, n, 2\), got \(10, 2\)"),
        (lambda: "folder", r"^solve_batch takes a list of instances"),
    ],
)
def test_bad_input_names_the_instance_before_any_work(make, message) -> None:
    calls = []
    with pytest.raises(ValueError, match=message):
        formica.solve_batch(make(), kicks=5, backend="cpu", progress=lambda *a: calls.append(a))
    assert calls == [], "nothing was solved"


def _far_batch(fraction: float) -> np.ndarray:
    """Whole coordinates (fraction 0) or float ones, one of them 1e300: a range error, as in solve,
    rather than a length of inf."""
    points = np.floor(_points(3, 10) * 100) + fraction
    points[1, 1, 0] = 1e300
    return points


def _nan_batch() -> np.ndarray:
    points = _points(4, 10)
    points[2, 3, 1] = np.nan
    return points


def test_bad_parameters_raise_the_command_lines_messages() -> None:
    points = _points(2, 10)
    with pytest.raises(ValueError, match=r"^unknown parameter 'rho' \(valid: backend, time_limit, kicks"):
        formica.solve_batch(points, rho=0.5, progress=False)
    with pytest.raises(ValueError, match="^ls_neighbours must be from 2 to 32"):
        formica.solve_batch(points, ls_neighbours=1, progress=False)
    with pytest.raises(ValueError, match=r"^unknown backend 'tpu'"):
        formica.solve_batch(points, backend="tpu", progress=False)
    with pytest.raises(ValueError, match=r"^threads must be from 0 \(every hardware thread\) to 2048, got 100000$"):
        formica.solve_batch(points, threads=100_000, progress=False)
    with pytest.raises(ValueError, match="instance 1: kicks must be at least 0"):
        formica._core.solve_batch([formica.generate(9), formica.generate(9)], {}, [None, {"kicks": -1}], None)
    with pytest.raises(TypeError, match=r"progress must be None, True, False or a callable"):
        formica.solve_batch(points, progress="yes")
    assert set(formica.batch_parameters()) == {"backend", "time_limit", "kicks", "seed", "threads", "walks",
                                                "kick_segment", "ls_neighbours", "neighbour_lists", "local_search"}
    r = formica.solve_batch(points, kicks=5, ls_neighbours=6, neighbour_lists="nearest", local_search="two-opt",
                            backend="cpu", progress=False)[0]
    assert (r.config["ls_neighbours"], r.config["neighbour_lists"], r.config["local_search"]) == (6, "nearest", "two-opt")


def test_a_progress_callable_sees_every_instance_finish() -> None:
    calls: list[tuple[int, int, float]] = []
    formica.solve_batch(_points(6, 40), kicks=200, walks=1, threads=2, backend="cpu", progress=lambda *a: calls.append(a))
    assert calls and calls[-1][:2] == (6, 6)
    assert all(total == 6 for _, total, _ in calls)
    assert [d for d, _, _ in calls] == sorted({d for d, _, _ in calls})  # called when the count changed
    assert all(isinstance(s, float) and s >= 0 for _, _, s in calls)


def test_the_progress_line_without_tqdm(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    formica.solve_batch(_points(3, 20), kicks=10, backend="cpu", progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\rformica: ") and "\rformica: 3/3 instances solved, " in err and err.endswith(" s\n")
    assert err.count("\n") == 1
    formica.solve_batch(_points(3, 20), kicks=10, backend="cpu")  # stderr is no terminal here: no bar
    assert capsys.readouterr().err == ""


def test_the_progress_bar_uses_tqdm_where_installed(monkeypatch) -> None:
    bars = []

    class FakeTqdm:
        def __init__(self, total, unit, desc, file):
            self.total, self.n, self.closed = total, 0, False
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    formica.solve_batch(_points(4, 20), kicks=10, backend="cpu", progress=True)
    assert len(bars) == 1 and bars[0].total == 4 and bars[0].n == 4 and bars[0].closed


def test_an_exception_in_the_progress_callable_stops_the_batch_with_its_results() -> None:
    def fail(done, total, seconds):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here") as error:
        formica.solve_batch(_points(2, 200), kicks=10**8, walks=1, threads=2, backend="cpu", progress=fail)
    results = error.value.results
    assert [r.stop_reason for r in results] == ["interrupted", "interrupted"]
    assert all(sorted(r.tour.tolist()) == list(range(200)) for r in results)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_returns_what_is_done(ctrl_c: None) -> None:
    points = _points(3, 300, 6)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as error:
            formica.solve_batch(points, time_limit=60, walks=1, threads=2, backend="cpu", progress=False)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 20
    results = error.value.results
    _check(results, list(points))
    assert [r.stop_reason for r in results] == ["interrupted"] * 3


def test_the_gil_is_released_while_solving() -> None:
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    formica.solve_batch(_points(2, 300), time_limit=1.0, walks=1, threads=1, backend="cpu", progress=False)
    done.set()
    counter.join()
    assert ticks >= 50, f"the counting thread ran only {ticks} times in a 1 s batch"


def test_results_and_instances_pickle(data) -> None:
    problems = [_points(1, 15)[0], _matrix(8, 2), data("square.tsp")]
    results = formica.solve_batch(problems, kicks=10, backend="cpu", progress=False)
    for result, problem in zip(results, problems):
        copy = pickle.loads(pickle.dumps(result))
        assert np.array_equal(copy.tour, result.tour) and copy.length == result.length
        assert copy.config == result.config and copy.instance == result.instance
        assert copy._problem.instance.n == result._problem.instance.n
        assert formica.tour_length(copy._problem.instance, copy.tour) == result.length
    instance = formica.read_tsplib(data("square.tsp"))
    clone = pickle.loads(pickle.dumps(instance))
    assert (clone.name, clone.comment, clone.edge_weight_type) == (instance.name, instance.comment, "EUC_2D")
    assert np.array_equal(clone.coordinates, instance.coordinates)
    matrix = pickle.loads(pickle.dumps(formica._core.instance_from_matrix("m", _matrix(6, 3).astype(np.int32))))
    assert np.array_equal(matrix.matrix, _matrix(6, 3))


def test_the_cluster_example_on_a_process_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example(monkeypatch)
    points = list(_points(7, 40, 8))
    chunked = example.solve_in_chunks(points, executor="process", chunk_size=3, workers=2, kicks=30, walks=2,
                                      backend="cpu", threads=1)
    whole = formica.solve_batch(points, kicks=30, walks=2, backend="cpu", threads=1, progress=False)
    assert len(chunked) == 7
    assert all(np.array_equal(a.tour, b.tour) and a.length == b.length for a, b in zip(chunked, whole))
    assert [r.config["seed"] for r in chunked] == list(range(1, 8))
    with pytest.raises(ValueError, match="executor is 'process', 'ray' or 'dask'"):
        example.solve_in_chunks(points, executor="spark")


@pytest.mark.parametrize("executor, package", [("ray", "ray"), ("dask", "dask.distributed")])
def test_the_cluster_example_on_ray_and_dask(executor: str, package: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip(package, reason=f"skipped: {package} is not installed")
    example = _example(monkeypatch)
    points = list(_points(4, 30, 9))
    results = example.solve_in_chunks(points, executor=executor, chunk_size=2, workers=2, kicks=20, walks=1,
                                      backend="cpu", threads=1)
    whole = formica.solve_batch(points, kicks=20, walks=1, backend="cpu", threads=1, progress=False)
    assert all(np.array_equal(a.tour, b.tour) for a, b in zip(results, whole))


def test_start_tours_are_where_every_walk_of_their_instance_starts() -> None:
    points = _points(2, 120, seed=5)
    long_run = formica.solve_batch(points, kicks=3000, seed=1, backend="cpu", threads=2, progress=False)
    no_kicks = dict(kicks=0, seed=1, backend="cpu", threads=2, progress=False)
    warm = formica.solve_batch(points, start_tours=[long_run[0].tour, None], **no_kicks)
    cold = formica.solve_batch(points, **no_kicks)
    assert warm[0].length <= long_run[0].length  # climbed from the given tour, never longer
    assert cold[0].length > long_run[0].length  # a nearest-neighbour start climbed without kicks
    assert warm[1].length == cold[1].length  # None: the instance's own start
    assert sorted(warm[0].tour.tolist()) == list(range(120))
    # Any integer sequence will do: a list, an int64 array.
    as_list = formica.solve_batch(points, start_tours=[list(map(int, long_run[0].tour)), None], **no_kicks)
    assert as_list[0].length == warm[0].length


@pytest.mark.parametrize(
    "tour, message",
    [
        (list(range(119)), "instance 0: the start tour has 119 cities, the instance 120"),
        ([0] * 120, "instance 0: the start tour is not a permutation of 0 .. 119"),
        (list(range(1, 121)), "instance 0: the start tour is not a permutation of 0 .. 119 (city 120)"),
        ([[0, 1], [2, 3]], "instance 0: a start tour is a 1-D sequence of city indices"),
        (np.linspace(0, 1, 120), "instance 0: a start tour is a 1-D sequence of city indices"),
    ],
)
def test_a_start_tour_that_is_no_tour_is_refused_naming_its_instance(tour: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        formica.solve_batch(_points(2, 120), start_tours=[tour, None], kicks=1, backend="cpu", progress=False)
    with pytest.raises(ValueError, match="start_tours has 1 values but the batch has 2 instances"):
        formica.solve_batch(_points(2, 120), start_tours=[None], kicks=1, backend="cpu", progress=False)
