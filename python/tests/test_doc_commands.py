# SPDX-License-Identifier: MIT
"""The shell commands in the code blocks of README.md and docs/cli.md, run as a reader would run
them: on the formica command line under test, in an empty folder, with FORMICA_TSPLIB_DIR unset (so
with the TSPLIB instances formica ships). Every `--time-limit` is capped at 1 s to keep CI short.
A command fails the test when it exits with anything but 0.

Commands are the lines of code blocks without a language or tagged sh, bash or console ("$ " prompts
are dropped); ```python and ```text blocks are not commands. The few commands that are not run
are listed in NOT_RUN, each with its reason, which the test prints.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import formica

REPOSITORY = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "docs/cli.md")
TIME_LIMIT_CAP = 1.0

_CI = "CI runs the README's set-up commands itself (.ci/run)"
_WHEEL = "builds and installs the package (minutes); CI builds the wheel, installs it and tests it (.ci/run)"
_GPU = "needs a CUDA device (--backend cuda)"

# Commands that are not run: the command as the document writes it (without its comment), and why.
NOT_RUN = {
    "scripts/setup && cmake -S . -B build && cmake --build build -j 8 && build/formica solve": _CI,
    "scripts/setup && cmake -S . -B build && cmake --build build -j 8 && ctest --test-dir build -j 2 --output-on-failure": _CI,
    "pip install .": _WHEEL,
    "pip install --no-build-isolation .": _WHEEL,
    "scripts/build_wheel": _WHEEL,
    "pip install dist/formica-*.whl": _WHEEL,
}
# Run only where a CUDA device is: commands that name the GPU.
NEEDS_GPU = {
    "build/formica solve pr1002 --algorithm as --backend cuda --selection hybrid --iterations 100",
    "build/formica solve fnl4461 --algorithm two-opt --backend cuda --restarts 132 --k-swap inf",
}


def commands(document: str) -> list[str]:
    """The shell commands of `document`'s code blocks, in order, without prompts and comments."""
    found: list[str] = []
    language = None
    for line in (REPOSITORY / document).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            language = None if language is not None else line[3:].strip() or "sh"
        elif language in ("sh", "bash", "console") and line.strip():
            command = line[2:] if line.startswith("$ ") else line
            found.append(re.sub(r"\s+#.*$", "", command))
    return found


def _capped(command: str) -> str:
    return re.sub(r"--time-limit\s+([0-9.]+)",
                  lambda m: f"--time-limit {min(float(m.group(1)), TIME_LIMIT_CAP):g}", command)


def _inputs(folder: Path, cli: str) -> None:
    """What the batch examples read and do not make: a folder of small instances and a (B, n, 2) array."""
    (folder / "routes").mkdir()
    for seed in (1, 2, 3):
        subprocess.run([cli, "generate", "--cities", "40", "--kind", "uniform", "--seed", str(seed),
                        "--output", str(folder / "routes" / f"route{seed}.tsp")], check=True, capture_output=True)
    np.save(folder / "points.npy", np.random.default_rng(1).uniform(0, 1000, size=(4, 40, 2)))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_documents_commands_run(document: str, tmp_path: Path, capsys) -> None:
    cli = os.environ.get("FORMICA_CLI")
    if not cli or not Path(cli).exists():
        pytest.skip("skipped: the formica command line was not found (set FORMICA_CLI)")
    listed = commands(document)
    assert listed, f"{document} has no command blocks"
    gpu = formica.backend_info()["cuda_device"] is not None
    env = {k: v for k, v in os.environ.items() if k != "FORMICA_TSPLIB_DIR"}
    package = Path(formica.__file__).resolve().parent.parent  # python -m formica: the package under test
    env["PYTHONPATH"] = os.pathsep.join([str(package), env.get("PYTHONPATH", "")])
    _inputs(tmp_path, cli)
    failures = []
    for command in listed:
        reason = NOT_RUN.get(command) or (_GPU if command in NEEDS_GPU and not gpu else None)
        if reason:
            with capsys.disabled():
                print(f"\n{document}: not run: {command!r}: {reason}")
            continue
        shell = _capped(command).replace("build/formica", shlex.quote(cli), 1)
        shell = re.sub(r"^python -m formica", shlex.quote(sys.executable) + " -m formica", shell)
        run = subprocess.run(["bash", "-c", shell], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            failures.append(f"{command!r} exited with {run.returncode}: {run.stderr.strip()[-400:]}")
    assert not failures, "\n".join(failures)


def test_every_command_that_is_not_run_is_in_a_document() -> None:
    written = {command for document in DOCUMENTS for command in commands(document)}
    assert set(NOT_RUN) <= written and NEEDS_GPU <= written, "a listed command no longer appears in the documents"
