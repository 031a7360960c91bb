# SPDX-License-Identifier: MIT
"""Tours: formica.tour_length, and formica.read_tour and formica.write_tour for TSPLIB .tour files
(the extension's tour.cpp)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._arguments import core_path, path_text, text
from ._problem import ProblemLike, as_problem, as_tour


def tour_length(problem: ProblemLike, tour: npt.ArrayLike, *, metric: Optional[str] = None) -> Union[int, float]:
    """The exact length of a closed tour (0-based city indices) of `problem`.

    `problem` and `metric` are as in solve(). Raises ValueError unless `tour` visits every city
    exactly once.
    """
    return as_problem(problem, metric).tour_length(as_tour(tour))


def read_tour(path: Union[str, bytes, "os.PathLike[Any]"]) -> np.ndarray:
    """The cities of a TSPLIB .tour file as a 0-based int32 array."""
    return _core.read_tour(core_path("path", path))


def write_tour(
    path: Union[str, bytes, "os.PathLike[Any]"], tour: npt.ArrayLike, *, name: Optional[str] = None, comment: str = ""
) -> None:
    """Writes a 0-based tour as a TSPLIB .tour file (1-based), whole or not at all.

    `name` (default: the file's stem) goes in the NAME line, `comment` in a COMMENT line. Raises
    ValueError unless `tour` is a permutation of 0..n-1.
    """
    file = core_path("path", path)
    if name is None:  # the file's stem, with what is not UTF-8 in it spelled out as escapes
        name = Path(path_text(path)).stem.encode("utf-8", "backslashreplace").decode("utf-8")
    _core.write_tour(file, text("name", name), as_tour(tour), text("comment", comment))
