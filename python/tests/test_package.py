# SPDX-License-Identifier: MIT
"""The package itself: type stubs that match the extension, py.typed, documentation, and the installed
package (its metadata; importing and solving away from the source tree)."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import formica
from formica import _core

PACKAGE = Path(formica.__file__).parent
REPOSITORY = Path(__file__).resolve().parents[2]


def stub_names(body: list[ast.stmt]) -> set[str]:
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_") or n in ("__version__", "__len__")}


def test_the_extension_matches_its_stubs() -> None:
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    assert stub_names(tree.body) == public(dir(_core))
    (instance,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Instance"]
    assert stub_names(instance.body) == public(dir(_core.Instance))


def test_the_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").exists()


def test_every_public_name_is_documented() -> None:
    assert formica.__doc__
    for name in formica.__all__:
        item = getattr(formica, name)
        if callable(item):
            assert inspect.getdoc(item), name
    for name in ("plot", "plot_history", "title"):
        assert inspect.getdoc(getattr(formica.Result, name)), name
    for name in public(dir(formica.Instance)) - {"__len__"}:
        assert inspect.getdoc(getattr(formica.Instance, name)), name


def test_every_solver_parameter_is_listed_with_help() -> None:
    parameters = formica.parameters()
    assert {"algorithm", "backend", "iterations", "time_limit", "seed", "ants", "rho", "selection"} <= set(parameters)
    assert all(parameters.values())
    assert formica.__version__.count(".") == 2


def test_auto_has_one_description() -> None:
    """The C++ portfolio's description of auto is the one --help, the docstring and the README give."""
    description = _core.portfolio_description()
    assert description in formica.parameters()["algorithm"]
    docstring = inspect.getdoc(formica.solve) or ""
    assert " ".join(description.split()) in " ".join(docstring.split())
    lines = (REPOSITORY / "README.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(" describe auto as:")) + 1
    quoted = []
    for line in lines[start:]:
        if not line.startswith(">") and quoted:
            break
        if line.startswith(">"):
            quoted.append(line[1:].strip())
    assert " ".join(quoted) == description


def installed() -> importlib.metadata.Distribution:
    """The installed formica distribution when it is the package under test; skips otherwise."""
    try:
        distribution = importlib.metadata.distribution("formica")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("skipped: formica is not installed (the build folder's package has no metadata)")
    if Path(distribution.locate_file("formica/__init__.py")).resolve() != Path(formica.__file__).resolve():
        pytest.skip("skipped: the formica under test is not the installed one")
    return distribution


def test_the_installed_package_states_its_licence() -> None:
    installed_formica = installed()
    assert installed_formica.metadata["License-Expression"] == "MIT"
    assert any(Path(str(f)).name == "LICENSE" for f in installed_formica.files or [])


# Run by a fresh interpreter in an empty folder: solves 200 random points and a shipped TSPLIB
# instance by name on the CPU, then lists the shared libraries the process has loaded.
_SOLVE_ALONE = """
import json, numpy as np, formica
points = np.random.default_rng(1).uniform(0, 1000, size=(200, 2))
result = formica.solve(points, time_limit=0.5, seed=1, backend="cpu")
named = formica.solve("kroA200", time_limit=0.5, seed=1, backend="cpu")
assert sorted(result.tour) == list(range(200)) and sorted(named.tour) == list(range(200))
assert result.length == formica.tour_length(points, result.tour) and named.length >= 29368
formica.backend_info()
loaded = {line.split()[-1] for line in open("/proc/self/maps") if ".so" in line}
print(json.dumps({"file": formica.__file__, "libraries": sorted(loaded)}))
"""


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="skipped: needs Linux's /proc/self/maps")
def test_the_installed_package_solves_without_the_source_tree(tmp_path: Path) -> None:
    """What a wheel installed on another machine does: a fresh interpreter, started in an empty folder
    without PYTHONPATH or FORMICA_TSPLIB_DIR, imports the installed package (not the checkout's) and solves, and loads no
    CUDA runtime, NCCL or MPI library (the wheel links the CUDA runtime statically, and leaves NCCL
    and MPI out), so that it runs where none of them is installed."""
    installed_formica = installed()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP", "FORMICA_TSPLIB_DIR")}
    run = subprocess.run([sys.executable, "-c", _SOLVE_ALONE], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.splitlines()[-1])
    package = Path(report["file"]).resolve()
    assert package == Path(installed_formica.locate_file("formica/__init__.py")).resolve()
    assert REPOSITORY not in package.parents
    unwanted = [path for path in report["libraries"] if re.match(r"lib(cudart|nccl|mpi)\b", Path(path).name)]
    assert not unwanted, f"the installed package loaded {unwanted}"
