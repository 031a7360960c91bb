# SPDX-License-Identifier: MIT
"""What a notebook shows of a Result: a short repr, an SVG of the tour, and plot beside
plot_history without their titles running into each other; and a build that stays out of the
source tree."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import formica
from conftest import REPOSITORY


@pytest.fixture(scope="module")
def result() -> formica.Result:
    return formica.solve(np.random.default_rng(3).uniform(0, 1000, size=(300, 2)).round(), iterations=3, seed=1)


@pytest.fixture(scope="module")
def long_title() -> formica.Result:
    """A result with a long title (a generated instance's name and an eight-digit length)."""
    return formica.solve(formica.generate(300, seed=4), iterations=3, seed=1)


def test_repr_is_short(result) -> None:
    text = repr(result)
    assert len(text) < 120
    assert text.startswith("Result(n=300, length=") and "gap=None" in text and "algorithm='mmas'" in text
    assert "seconds=" in text


def test_repr_svg_draws_the_tour(result) -> None:
    svg = result._repr_svg_()
    assert svg is not None and "<svg" in svg and result.title in svg
    assert formica.solve(np.random.default_rng(1).integers(1, 9, (20, 20)), iterations=1)._repr_svg_() is None


def test_plot_and_plot_history_side_by_side_keep_apart(long_title) -> None:
    result = long_title
    matplotlib = pytest.importorskip("matplotlib", reason="skipped: matplotlib is not installed")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2)  # matplotlib's default size: 3.2 inches a picture
    try:
        result.plot(ax=left)
        result.plot_history(ax=right)
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        titles = [axis.title.get_window_extent(renderer) for axis in (left, right)]
        assert not titles[0].overlaps(titles[1])
        assert not right.yaxis.label.get_window_extent(renderer).overlaps(left.get_window_extent(renderer))
    finally:
        plt.close(figure)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="skipped: tomllib needs Python 3.11")
def test_pip_install_builds_outside_the_source_tree() -> None:
    import tomllib

    pyproject = REPOSITORY / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("skipped: no source tree beside the tests")
    settings = tomllib.loads(pyproject.read_text())["tool"]["scikit-build"]
    assert "build-dir" not in settings  # scikit-build-core then builds in a temporary folder
