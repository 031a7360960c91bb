# SPDX-License-Identifier: MIT
"""The TSPLIB instances formica ships (data/tsplib/, the package's formica/tsplib): found by name
from any folder without FORMICA_TSPLIB_DIR, and an unknown name as one line with exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import formica

PACKAGE = Path(formica.__file__).resolve().parent


def _module_in(folder: Path, *args: object) -> subprocess.CompletedProcess[str]:
    """python -m formica ARGS, run in `folder` with FORMICA_TSPLIB_DIR unset (and the package under test)."""
    env = {k: v for k, v in os.environ.items() if k != "FORMICA_TSPLIB_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "formica", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=folder, env=env)


def test_the_package_holds_the_instances_the_examples_name() -> None:
    folder = PACKAGE / "tsplib"
    for name in ("pr76", "kroA200", "pr1002", "pr2392", "pcb3038", "fnl4461", "usa13509"):
        assert (folder / f"{name}.tsp.gz").is_file(), name
    assert (folder / "README.md").is_file()


def test_solve_by_name_from_any_folder(tmp_path, monkeypatch) -> None:
    run = _module_in(tmp_path, "solve", "pr2392", "--time-limit", 1)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("pr2392: best "), run.stdout
    monkeypatch.delenv("FORMICA_TSPLIB_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    result = formica.solve("pr76", iterations=1, seed=1)
    assert len(result.tour) == 76
    assert formica.read_tsplib("pr76.tsp.gz").optimum == 108159


def test_an_unknown_name_is_one_line_and_exit_code_2(tmp_path) -> None:
    run = _module_in(tmp_path, "solve", "pr9999", "--time-limit", 1)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, run.stderr
    assert "pr9999: no such file, nor a TSPLIB instance of that name in ../shared/tsplib/tsp" in run.stderr
    assert "set FORMICA_TSPLIB_DIR to a folder holding tsp/NAME.tsp" in run.stderr
    # The package's own copy is the one found: it is there wherever the package is installed.
    assert f"among formica's own in {PACKAGE / 'tsplib'} (" in run.stderr, run.stderr
