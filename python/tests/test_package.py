"""The package itself: type stubs that match the extension, py.typed, and documentation."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
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


def test_the_installed_package_states_its_licence() -> None:
    try:
        installed = importlib.metadata.distribution("formica")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("skipped: formica is not installed (the build folder's package has no metadata)")
    if Path(installed.locate_file("formica/__init__.py")).resolve() != Path(formica.__file__).resolve():
        pytest.skip("skipped: the formica under test is not the installed one")
    assert installed.metadata["License-Expression"] == "MIT"
    assert any(Path(str(f)).name == "LICENSE" for f in installed.files or [])
