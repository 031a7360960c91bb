# SPDX-License-Identifier: MIT
"""python -m formica (the package's own command line) and formica.backend_info(). Its error lines
match the C++ command line's: test_solve.py runs both front ends on the same bad input."""

from __future__ import annotations

import re

import pytest

import formica


def test_backend_info_says_what_auto_uses() -> None:
    info = formica.backend_info()
    assert set(info) == {"cuda_compiled", "cuda_device", "default"}
    assert isinstance(info["cuda_compiled"], bool)
    if not info["cuda_compiled"]:
        assert info["cuda_device"] is None
    assert info["cuda_device"] is None or (isinstance(info["cuda_device"], str) and info["cuda_device"])
    assert info["default"] == ("cuda" if info["cuda_device"] is not None else "cpu")
    result = formica.solve(formica.generate(20), iterations=1)
    assert result.backend == info["default"]


def test_device_memory_in_use_is_a_byte_count_where_there_is_a_device() -> None:
    in_use = formica.device_memory_in_use()
    if formica.backend_info()["cuda_device"] is None:
        assert in_use is None
    else:  # the context this process holds takes some of the device's memory
        assert isinstance(in_use, int) and in_use > 0


def test_version_and_info(module) -> None:
    version = module("--version")
    assert (version.returncode, version.stdout) == (0, f"formica {formica.__version__}\n")
    info = module("info")
    assert info.returncode == 0, info.stderr
    lines = info.stdout.splitlines()
    assert lines[0].startswith(f"formica {formica.__version__} (")
    assert lines[1].startswith("CUDA backend: ")
    assert lines[2] == f"default backend: {formica.backend_info()['default']}"


def test_solve_a_generated_instance(tmp_path, module) -> None:
    tour_file = tmp_path / "best.tour"
    run = module("solve", "--cities", 60, "--kind", "clustered", "--instance-seed", 4,
                 "--iterations", 5, "--seed", 3, "--backend", "cpu", "--rho", 0.3, "--tour-out", tour_file)
    assert run.returncode == 0, run.stderr
    match = re.fullmatch(
        r"clustered60-s4: best (\d+) after 5 iterations in [0-9.]+ s, mmas on cpu \(.+, stopped by iterations\)\n",
        run.stdout,
    )
    assert match, run.stdout
    instance = formica.generate(60, "clustered", 4)
    tour = formica.read_tour(tour_file)
    assert formica.tour_length(instance, tour) == int(match.group(1))
    expected = formica.solve(instance, iterations=5, seed=3, backend="cpu", rho=0.3)
    assert tour.tolist() == expected.tour.tolist()


def test_solve_uses_the_command_lines_default_seed(module) -> None:
    run = module("solve", "--cities", 40, "--iterations", 3, "--backend", "cpu")
    assert run.returncode == 0, run.stderr
    expected = formica.solve(formica.generate(40), iterations=3, seed=1, backend="cpu")
    assert run.stdout.startswith(f"uniform40-s1: best {expected.length} after 3 iterations")


def test_solve_a_tsplib_file(data, module) -> None:
    run = module("solve", data("square.tsp"), "--time-limit", 0.2, "--backend", "cpu")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("square: best 40 after ")
    assert run.stdout.endswith(", stopped by exact)\n")  # four cities: solved exactly at once


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "data:garbage.tsp"], None),
        (["solve", "--cities", 2], None),
        (["solve"], "give an instance file or --cities N (one of them)"),
        (["solve", "--cities", 10, "--ants", "many"], "--ants: 'many' is not a number"),
        (["solve", "--cities", 10, "--frobnicate", 1], None),
        (["solve", "--cities", 10, "--time", 1], None),  # no abbreviations, as in formica solve
        (["launch"], None),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message, data, module) -> None:
    run = module(*(data(a[5:]) if str(a).startswith("data:") else a for a in args))
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("formica: error: ") and run.stderr.count("\n") == 1, run.stderr
    if message is not None:
        assert run.stderr == f"formica: error: {message}\n"
