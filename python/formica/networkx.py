# SPDX-License-Identifier: MIT
"""formica for NetworkX: a ``method`` for ``networkx.approximation.traveling_salesman_problem``.

::

    import networkx as nx, formica.networkx
    tour = nx.approximation.traveling_salesman_problem(G, method=formica.networkx.method)

NetworkX hands the method the complete graph of shortest-path distances between the nodes and
expands the cycle it returns into a walk of G. ``formica.solve(G)`` solves a complete weighted
graph directly (see solve's docs for graphs with missing edges).
"""

from __future__ import annotations

from typing import Any

from . import solve

__all__ = ["method"]


def method(G: Any, weight: str = "weight", **parameters: Any) -> list[Any]:
    """The shortest closed cycle formica finds through the nodes of the complete graph `G`, as
    NetworkX's TSP methods return it: a list of nodes whose last is its first. `parameters` go to
    formica.solve (time_limit=, seed=, ...)."""
    result = solve(G, weight=weight, **parameters)
    nodes = list(result.nodes or [])
    return nodes + nodes[:1]
