# SPDX-License-Identifier: MIT
"""formica: a GPU solver for the symmetric Traveling Salesman Problem, from Python.

A thin layer over formica's C++ library::

    import numpy as np, formica
    points = np.random.default_rng(1).uniform(0, 1000, size=(200, 2))
    result = formica.solve(points, iterations=50, seed=1)
    result.tour, result.length, result.plot("tour.svg")

``formica.solve`` takes coordinates, a distance matrix, a TSPLIB file, an ``Instance`` or a
NetworkX graph and returns a ``Result``; ``formica.solve_batch`` solves many small instances at
once and returns a list of them. Lengths are exact: TSPLIB integer distances summed in 64 bits
for integer input, unrounded distances summed in double for float input (``metric="float"``, the
default for coordinates that are not all whole numbers). docs/python.md is the guide. Invalid input raises ``ValueError``
with the message the ``formica`` command line prints; an instance too large for memory raises
``MemoryError``. ``formica.backend_info()`` says whether the GPU is used; ``python -m formica
solve FILE`` solves from the shell.
"""

# The package's names, each from the module that holds it, split as the extension's python/src/*.cpp
# are: solve (with parameters and backend_info) in _solve.py, Result in _result.py, lower_bound in
# _bound.py, read_tsplib and generate in _instance.py, tour_length and .tour files in _tour.py,
# solve_batch in _batch.py, what a problem may be in _problem.py, the pictures in plot.py.

from . import _core
from ._batch import batch_parameters, solve_batch
from ._bound import LowerBound, lower_bound
from ._core import Instance
from ._instance import generate, read_tsplib
from ._problem import METRICS
from ._result import HistoryPoint, Result
from ._solve import backend_info, device_memory_in_use, parameters, solve
from ._tour import read_tour, tour_length, write_tour
from .plot import plot_history, plot_tour

# Not part of the API (not in __all__), but importable from here while the package's code lived in
# this file: kept so that code which imported them goes on working.
from ._graph import graph_matrix, is_graph  # noqa: F401
from ._messages import check_names, python_messages  # noqa: F401
from ._problem import DirectedMatrix, Problem, ProblemLike, as_problem, as_tour  # noqa: F401
from ._problem import asymmetric_matrix, attach_partial, solver_target  # noqa: F401
from ._progress import ImprovementBar  # noqa: F401

__all__ = [
    "METRICS",
    "HistoryPoint",
    "Instance",
    "LowerBound",
    "Result",
    "backend_info",
    "device_memory_in_use",
    "batch_parameters",
    "generate",
    "lower_bound",
    "parameters",
    "plot_history",
    "plot_tour",
    "read_tour",
    "read_tsplib",
    "solve",
    "solve_batch",
    "tour_length",
    "write_tour",
]

__version__: str = _core.__version__
