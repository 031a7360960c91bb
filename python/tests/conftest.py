# SPDX-License-Identifier: MIT
"""Shared fixtures: the test data folder, the TSPLIB folder and the formica command line.

CTest runs this suite with PYTHONPATH pointing at the build folder's package and FORMICA_CLI at
the command line it built; CI runs it again against the installed wheel, from outside the source
tree and without FORMICA_CLI, where the tests that compare with the command line skip (pytest -rs
prints why). FORMICA_TEST_DATA_DIR and FORMICA_TSPLIB_DIR move the data folders (as for the C++
tests).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator, Optional

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("FORMICA_TEST_DATA_DIR") or REPOSITORY / "tests" / "data")


def tsplib_dir() -> Optional[Path]:
    folder = Path(os.environ.get("FORMICA_TSPLIB_DIR") or REPOSITORY.parent / "shared" / "tsplib")
    return folder if (folder / "tsp").is_dir() else None


@pytest.fixture
def data() -> Callable[[str], str]:
    """The path of a file in tests/data."""
    return lambda name: str(DATA / name)


@pytest.fixture
def tsplib() -> Callable[[str], str]:
    """The path of a TSPLIB instance; skips when the TSPLIB folder is absent."""
    folder = tsplib_dir()
    if folder is None:
        pytest.skip("skipped: TSPLIB data not found (set FORMICA_TSPLIB_DIR; default ../shared/tsplib)")
    return lambda name: str(folder / "tsp" / f"{name}.tsp")


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs the formica command line; skips when it was not built (FORMICA_CLI unset)."""
    path = os.environ.get("FORMICA_CLI")
    if not path or not Path(path).exists():
        pytest.skip("skipped: the formica command line was not found (set FORMICA_CLI)")
    return lambda *args: subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.fixture
def module() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs python -m formica with this interpreter, so with the package under test."""
    return lambda *args: subprocess.run(
        [sys.executable, "-m", "formica", *map(str, args)], capture_output=True, text=True, timeout=300
    )


@pytest.fixture(params=["formica", "python -m formica"])
def command_line(request: pytest.FixtureRequest) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Each front end that prints formica's error lines: the C++ command line (skips when it was not
    built, as `cli` does) and python -m formica."""
    return request.getfixturevalue("cli" if request.param == "formica" else "module")


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C handler for the test. A process started in the background by a shell
    without job control (`cmd &` in a script) inherits SIGINT ignored, and Python then installs no
    handler: a test that sends itself SIGINT would wait for its whole time limit instead."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
