# SPDX-License-Identifier: MIT
"""NetworkX graphs as problems: formica.solve(G) solves the graph's weight matrix and names the tour
by the graph's nodes. NetworkX is imported only when a graph comes in."""

from __future__ import annotations

from typing import Any

import numpy as np


def is_graph(problem: Any) -> bool:
    """True for a networkx Graph, DiGraph, MultiGraph or MultiDiGraph (without importing networkx)."""
    return type(problem).__module__.startswith("networkx.") and hasattr(problem, "is_directed")


def graph_matrix(graph: Any, weight: str = "weight", complete: bool = True) -> tuple[np.ndarray, list[Any]]:
    """The (n, n) weight matrix of `graph` (rows and columns in the order of ``graph.nodes``) and
    its nodes. An edge without the `weight` attribute weighs 1; of parallel edges the lightest
    counts. A pair of nodes without an edge raises ValueError, or with complete=False weighs
    n x (the largest weight) + 1, more than any tour of the graph's own edges, so that a tour uses
    such a pair only where the graph has no Hamiltonian cycle."""
    import networkx as nx

    nodes = list(graph.nodes)
    n = len(nodes)
    if n < 3:
        raise ValueError(f"a tour needs a graph of at least 3 nodes, got {n}")
    matrix = nx.to_numpy_array(graph, nodelist=nodes, weight=weight, nonedge=np.nan, multigraph_weight=min,
                               dtype=np.float64)
    np.fill_diagonal(matrix, 0.0)
    missing = np.isnan(matrix)
    if missing.any():
        i, j = (int(k) for k in np.argwhere(missing)[0])
        if complete:
            raise ValueError(
                f"the graph has no edge from node {nodes[i]!r} to node {nodes[j]!r} ({int(missing.sum())} pairs "
                "without an edge): formica.solve needs a complete graph; pass complete=False to give missing "
                "edges a weight larger than any tour of the graph's edges"
            )
        present = matrix[~missing]
        matrix[missing] = n * float(present.max(initial=0.0)) + 1.0
    if (matrix == np.floor(matrix)).all() and np.abs(matrix).max() <= np.iinfo(np.int32).max:
        return matrix.astype(np.int64), nodes
    return matrix, nodes
