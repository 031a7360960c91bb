# SPDX-License-Identifier: MIT
"""Instances from files and generators: formica.read_tsplib and formica.generate (the extension's
instance.cpp makes formica.Instance)."""

from __future__ import annotations

import os
from typing import Any, Union

from . import _core
from ._arguments import UINT64, core_path, text, whole_number
from ._core import Instance
from ._messages import python_messages


def read_tsplib(path: Union[str, bytes, "os.PathLike[Any]"]) -> Instance:
    """Reads a TSPLIB .tsp file: EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D or EXPLICIT.

    A bare name such as "pr1002" is looked up in $FORMICA_TSPLIB_DIR/tsp, then among the TSPLIB
    instances the package ships (those its examples use), as on the command line. Gzipped files
    (.tsp.gz) are read as they are.
    Raises ValueError naming the file, line and reason for a malformed file.
    """
    return _core.load_instance(core_path("path", path))


def generate(n: int, kind: str = "uniform", seed: int = 1) -> Instance:
    """A seeded random EUC_2D instance in the style of the DIMACS challenge generators.

    kind="uniform" spreads n cities over a 1,000,000 x 1,000,000 square; kind="clustered" puts
    them around n / 100 centres. The same (n, kind, seed) always gives the same instance, named
    like the command line's (e.g. "uniform1000-s1"). n is from 3 to 50,000,000 and seed from 0 to
    2**64 - 1 (ValueError otherwise; TypeError for what is not a whole number).
    """
    n = whole_number("n", n, 3, _core.max_generated_cities)
    kind = text("kind", kind)
    seed = whole_number("seed", seed, *UINT64)
    with python_messages():
        return _core.generate(n, kind, seed)
