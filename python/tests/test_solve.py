# SPDX-License-Identifier: MIT
"""formica.solve: results, parameters, stopping rules, agreement with the command line, the GIL
and Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

import formica
from formica._messages import python_spelling


@pytest.fixture
def points() -> np.ndarray:
    """Whole-number coordinates: TSPLIB's EUC_2D (test_floats.py has float ones)."""
    return np.random.default_rng(3).uniform(0, 1000, size=(50, 2)).round()


def test_result_fields(points: np.ndarray) -> None:
    result = formica.solve(points, iterations=12, seed=5)
    assert result.tour.dtype == np.int32 and sorted(result.tour.tolist()) == list(range(50))
    assert result.length == formica.tour_length(points, result.tour)
    assert result.iterations == 12 and result.stop_reason == "iterations"
    assert result.seconds > 0 and result.gap is None and result.instance == "points50"
    assert result.backend in ("cpu", "cuda") and result.device
    # phase_seconds: set-up, iterations, finish and polish follow each other within the run
    assert set(result.phase_seconds) == {"setup", "search", "finish", "polish"}
    assert all(v >= 0 for v in result.phase_seconds.values())
    assert result.phase_seconds["search"] > 0
    assert sum(result.phase_seconds.values()) <= result.seconds + 1e-9
    # history: improvements in order, the last one the returned length
    assert [h.iteration for h in result.history] == sorted({h.iteration for h in result.history})
    assert all(a.length > b.length for a, b in zip(result.history, result.history[1:]))
    assert result.history[-1].length == result.length
    # config: every parameter, as it ran
    assert set(result.config) == set(formica.parameters())
    assert result.config["algorithm"] == "mmas"  # "auto" resolved
    assert result.config["backend"] == result.backend
    assert result.config["ants"] > 0 and result.config["threads"] >= 1
    assert result.config["local_search"] == "three-opt" and result.config["polish"] is True
    assert (result.config["seed"], result.config["iterations"], result.config["time_limit"]) == (5, 12, None)


def test_same_seed_same_result_and_params_reach_the_solver(points: np.ndarray) -> None:
    a = formica.solve(points, iterations=6, seed=9, rho=0.25, selection="stochastic-trial", hybrid_switch=0.5)
    b = formica.solve(points, iterations=6, seed=9, rho=0.25, selection="stochastic-trial", hybrid_switch=0.5, threads=1)
    assert np.array_equal(a.tour, b.tour) and a.length == b.length
    assert (a.config["rho"], a.config["selection"], a.config["hybrid_switch"]) == (0.25, "stochastic-trial", 0.5)
    assert b.config["threads"] == 1
    c = formica.solve(points, iterations=6, seed=9, alpha=np.float64(1.5), ants=np.int64(7))
    assert (c.config["alpha"], c.config["ants"]) == (1.5, 7)


FINDERS = {"search", "host_lin_kernighan", "host_eax", "merges", "other_ranks", "polish"}


def check_found_by(result: formica.Result) -> None:
    """found_by adds up: every drop from the first tour to the returned one (the history's last
    length: the solver's own, fixed-point for metric="float") went to one finder."""
    found = result.found_by
    assert found is not None and set(found) == {"first_length", "search", "gains", "shares"}
    assert set(found["gains"]) == FINDERS and set(found["shares"]) == FINDERS
    assert all(gain >= 0 for gain in found["gains"].values())
    total = found["first_length"] - result.history[-1].length
    assert sum(found["gains"].values()) == pytest.approx(total)
    for finder in FINDERS:
        share = found["gains"][finder] / total if total > 0 else 0.0
        assert found["shares"][finder] == pytest.approx(share)


def test_found_by_credits_every_improvement_of_the_best_tour(points: np.ndarray) -> None:
    result = formica.solve(points, iterations=12, seed=5)
    check_found_by(result)
    assert result.found_by["search"] == f"mmas on the {'GPU' if result.backend == 'cuda' else 'CPU'}"
    assert result.found_by["first_length"] > result.length  # 50 cities: the colonies improve on their start
    # A path's ledger is in the path's units (no closing edge, no dummy city), a float metric's in
    # the problem's units.
    check_found_by(formica.solve(points, iterations=12, seed=5, open=True))
    check_found_by(formica.solve(points / 7.0, iterations=12, seed=5, metric="float"))


def test_stopping_rules() -> None:
    big = formica.generate(600, "uniform", 2)
    start = time.monotonic()
    timed = formica.solve(big, time_limit=0.5, backend="cpu")
    assert timed.stop_reason == "time limit" and time.monotonic() - start < 10
    assert timed.config["time_limit"] == 0.5
    targeted = formica.solve(big, target=10**12)
    assert targeted.stop_reason == "target" and targeted.iterations == 1
    # With neither iterations nor a time limit the solver's default budget applies: n / 100 s.
    assert targeted.config["time_limit"] == 6.0 and targeted.config["iterations"] is None


def test_boolean_parameters_take_python_booleans(points: np.ndarray) -> None:
    rough = formica.solve(points, iterations=2, seed=1, algorithm="as", polish=False)
    polished = formica.solve(points, iterations=2, seed=1, algorithm="as", polish=True)
    assert rough.config["polish"] is False and polished.config["polish"] is True
    assert polished.length <= rough.length


def test_initial_tour_continues_an_earlier_result() -> None:
    points = np.random.default_rng(8).uniform(0, 1000, size=(300, 2)).round()
    earlier = formica.solve(points, iterations=3, seed=2)
    later = formica.solve(points, iterations=1, seed=3, initial_tour=earlier.tour)
    assert later.history[0].length <= earlier.length and later.length <= earlier.length
    with pytest.raises(ValueError, match="^initial_tour: not a tour of points300: tour has 299 cities"):
        formica.solve(points, iterations=1, initial_tour=earlier.tour[:-1])
    with pytest.raises(ValueError, match="^initial_tour: only focused colonies start from a tour"):
        formica.solve(points, iterations=1, algorithm="as", initial_tour=earlier.tour)


def test_eax_runs_on_host_threads_and_takes_a_start_tour() -> None:
    points = np.random.default_rng(9).uniform(0, 1000, size=(200, 2))
    first = formica.solve(points, algorithm="eax", population=30, eax_growth=0, time_limit=60, seed=4)
    assert first.backend == "cpu" and first.stop_reason == "finished"
    assert first.config["algorithm"] == "eax" and first.config["population"] == 30
    assert sorted(first.tour) == list(range(200))
    again = formica.solve(points, algorithm="eax", population=30, eax_growth=0, time_limit=60, seed=4)
    assert np.array_equal(again.tour, first.tour)
    later = formica.solve(points, algorithm="eax", population=8, iterations=2, initial_tour=first.tour)
    assert later.length <= first.length
    with pytest.raises(ValueError, match="^unknown eax_selection 'best' \\(valid: greedy, entropy\\)"):
        formica.solve(points, algorithm="eax", eax_selection="best")


def test_auto_runs_eax_given_time_and_the_host_threads_can_run_it_beside_the_colonies() -> None:
    points = np.random.default_rng(5).uniform(0, 1000, size=(1000, 2))
    # 1,000 cities and 5 s: past GA-EAX's budget on any thread count (portfolio.h); the huge
    # target ends the run after its first step.
    auto = formica.solve(points, time_limit=5, target=10**12, backend="cpu")
    assert auto.config["algorithm"] == "eax"
    assert auto.config["eax_climb"] == "lin-kernighan"  # auto's choice on the CPU
    hybrid = formica.solve(points[:300], algorithm="mmas", backend="cpu", threads=1, focused_edges=32,
                           local_search="two-opt", merge_tours=True, lk_threads=1, host_search="eax",
                           time_limit=1.0)
    assert hybrid.config["host_search"] == "eax"
    assert sorted(hybrid.tour) == list(range(300))
    with pytest.raises(ValueError, match="^host_search='eax': GA-EAX's threads share one population"):
        formica.solve(points[:300], algorithm="mmas", merge_tours=True, lk_threads=1, host_search="eax",
                      lk_independent=True, iterations=1)


def test_float_metric_target_is_in_the_problems_units() -> None:
    small = np.random.default_rng(1).uniform(0, 1, size=(30, 2))
    result = formica.solve(small, metric="float", target=100.0)
    assert result.stop_reason == "target" and result.config["target"] == 100.0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"rho": 2}, "--rho must be in (0, 1], got 2"),
        ({"iterations": 0}, "--iterations must be at least 1, got 0"),
        ({"alpha": -1}, "--alpha must be in [0, 20], got -1"),
        (
            {"selection": "best"},
            "unknown --selection 'best' (valid: roulette, compression, stochastic-trial, hybrid, i-roulette, "
            "tile-roulette)",
        ),
        (
            {"algorithm": "as", "backend": "cpu", "construction": "stc"},
            "--construction stc: GPU-only choice, but this run uses the cpu backend (one thread per ant, one "
            "pheromone update); use --backend cuda or leave them at their defaults",
        ),
        (
            {"algorithm": "mmas", "construction": "stc"},
            "--construction stc: Ant System construction choices, but --algorithm mmas builds its tours from "
            "candidate lists (its GPU construction is --ant-construction)",
        ),
        ({"backend": "tpu"}, "unknown --backend 'tpu' (valid: auto, cpu, cuda)"),
        ({"algorithm": "x"}, "unknown --algorithm 'x' (valid: auto, as, mmas, acs, gaco, two-opt, eax)"),
        ({"ants": "many"}, "--ants: 'many' is not a number"),
        ({"polish": "yes"}, "--polish: 'yes' is not true or false"),
    ],
)
def test_invalid_parameters_raise_the_command_lines_message_in_python_spelling(
    points, params, message, data, command_line
) -> None:
    with pytest.raises(ValueError) as error:
        formica.solve(points, **params)
    assert str(error.value) == python_spelling(message)
    assert "--" not in str(error.value)
    options = [f"--{name}={value}" for name, value in params.items()]
    run = command_line("solve", data("square.tsp"), *options)
    assert run.returncode == 2
    assert run.stderr == f"formica: error: {message}\n"


def test_unknown_parameter_names_the_valid_ones(points) -> None:
    with pytest.raises(ValueError, match=r"^unknown parameter 'frobnicate' \(valid: algorithm, backend, iterations"):
        formica.solve(points, frobnicate=1)


@pytest.mark.parametrize("name", ["nan_coordinate.tsp", "truncated.tsp", "unknown_edge_weight_type.tsp", "garbage.tsp"])
def test_bad_files_raise_the_command_lines_message(name, data, command_line) -> None:
    with pytest.raises(ValueError) as error:
        formica.solve(data(name), iterations=1)
    run = command_line("solve", data(name), "--iterations", 1)
    assert run.returncode == 2
    assert run.stderr == f"formica: error: {error.value}\n"


def test_result_equals_the_command_lines_for_the_same_seed(tmp_path, cli) -> None:
    instance = tmp_path / "c.tsp"
    assert cli("generate", "--cities", 70, "--kind", "clustered", "--seed", 3, "--output", instance).returncode == 0
    report = tmp_path / "c.json"
    run = cli("solve", instance, "--iterations", 8, "--seed", 7, "--rho", 0.3, "--json", report, "--quiet")
    assert run.returncode == 0, run.stderr
    expected = json.loads(report.read_text())
    result = formica.solve(instance, iterations=8, seed=7, rho=0.3)  # the CLI's default seed is 1: pass it
    assert result.tour.tolist() == expected["tour"]
    assert result.length == expected["best_length"]
    assert result.iterations == expected["iterations"]
    assert [(h.iteration, h.length) for h in result.history] == [
        (h["iteration"], h["length"]) for h in expected["history"]
    ]
    assert result.config == expected["parameters"]
    assert result.backend == expected["backend"]
    assert result.found_by == expected["found_by"]


def test_the_gil_is_released_while_solving() -> None:
    ticks = 0
    running = threading.Event()
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        running.set()
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    running.wait()
    before = ticks
    formica.solve(formica.generate(300, "uniform", 1), time_limit=1.0, threads=1)
    during = ticks - before
    done.set()
    counter.join()
    assert during >= 50, f"the counting thread ran only {during} times in a 1 s solve"


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_raises_keyboard_interrupt_with_the_best_result(ctrl_c: None) -> None:
    instance = formica.generate(200, "uniform", 4)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as error:
            formica.solve(instance, time_limit=60)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 20
    result = error.value.result
    assert isinstance(result, formica.Result)
    assert result.stop_reason == "interrupted" and result.iterations >= 1
    assert sorted(result.tour.tolist()) == list(range(200))
    assert result.length == formica.tour_length(instance, result.tour)


def test_islands_in_one_process_exchange_and_return_one_valid_tour() -> None:
    points = np.random.default_rng(11).uniform(0, 1000, size=(300, 2))
    result = formica.solve(points, backend="cpu", islands=3, threads=1, time_limit=1.5, island_interval=0.25)
    assert sorted(result.tour.tolist()) == list(range(300))
    assert result.length == formica.tour_length(points, result.tour)
    assert result.config["islands"] == 3 and result.config["threads"] == 1 and result.config["gpus"] == 0
    with pytest.raises(ValueError, match="^gpus=2: the run is on the CPU"):
        formica.solve(points, backend="cpu", gpus=2, iterations=1)
    with pytest.raises(ValueError, match="^islands must be in"):
        formica.solve(points, backend="cpu", islands=0, iterations=1)
