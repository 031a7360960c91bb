# SPDX-License-Identifier: MIT
"""NetworkX graphs: formica.solve(G) and formica.networkx.method for NetworkX's TSP."""

from __future__ import annotations

import numpy as np
import pytest

import formica
import formica.networkx

nx = pytest.importorskip("networkx", reason="skipped: networkx is not installed (pip install networkx)")


def _euclidean_graph(n: int, seed: int, directed: bool = False) -> "nx.Graph":
    points = np.random.default_rng(seed).uniform(0, 100, size=(n, 2)).round()
    graph = nx.DiGraph() if directed else nx.Graph()
    labels = [f"city{i}" for i in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                graph.add_edge(labels[i], labels[j], weight=float(np.hypot(*(points[i] - points[j]))))
    return graph


def test_solve_takes_a_weighted_graph_and_returns_its_labels() -> None:
    graph = _euclidean_graph(30, 1)
    result = formica.solve(graph, iterations=20, seed=1)
    assert sorted(result.nodes) == sorted(graph.nodes)
    walked = sum(graph[u][v]["weight"] for u, v in zip(result.nodes, result.nodes[1:] + result.nodes[:1]))
    assert result.length == pytest.approx(walked, rel=1e-9)


def test_a_directed_graph_with_integer_weights_is_an_asymmetric_problem() -> None:
    graph = nx.DiGraph()
    rng = np.random.default_rng(3)
    for i in range(20):
        for j in range(20):
            if i != j:
                graph.add_edge(i, j, weight=int(rng.integers(1, 100)))
    result = formica.solve(graph, iterations=5, seed=1)
    assert result.asymmetric and sorted(result.nodes) == list(range(20))
    cycle = result.nodes + result.nodes[:1]
    assert result.length == sum(graph[u][v]["weight"] for u, v in zip(cycle, cycle[1:]))


def test_a_directed_graph_with_float_weights_keeps_them() -> None:
    graph = nx.DiGraph()
    rng = np.random.default_rng(4)
    for i in range(15):
        for j in range(15):
            if i != j:
                graph.add_edge(f"stop{i}", f"stop{j}", weight=float(rng.uniform(1, 60)))
    result = formica.solve(graph, iterations=5, seed=1)
    assert result.asymmetric and isinstance(result.length, float)
    cycle = result.nodes + result.nodes[:1]
    assert result.length == pytest.approx(sum(graph[u][v]["weight"] for u, v in zip(cycle, cycle[1:])), rel=1e-12)


def test_missing_edges_raise_or_weigh_heavily() -> None:
    graph = nx.cycle_graph(8)  # unweighted: every edge weighs 1
    graph.add_edges_from([(0, 4), (1, 5)])
    graph.add_nodes_from(range(8, 12))
    nx.add_path(graph, [7, 8, 9, 10, 11, 0])
    graph.remove_edge(7, 0)
    with pytest.raises(ValueError, match=r"the graph has no edge from node 0 to node 2 .*pass complete=False"):
        formica.solve(graph, iterations=1)
    result = formica.solve(graph, complete=False, iterations=10, seed=1)
    assert result.length == 12  # the graph's Hamiltonian cycle, no heavy pair
    with pytest.raises(ValueError, match=r"weight=, complete= apply to networkx graphs"):
        formica.solve(np.zeros((5, 2)), weight="w", complete=False)


def test_formica_is_a_method_of_networkx_tsp() -> None:
    graph = _euclidean_graph(25, 2)
    cycle = nx.approximation.traveling_salesman_problem(graph, method=formica.networkx.method)
    assert cycle[0] == cycle[-1] and sorted(cycle[:-1]) == sorted(graph.nodes)
    length = sum(graph[u][v]["weight"] for u, v in zip(cycle, cycle[1:]))
    christofides = nx.approximation.traveling_salesman_problem(graph)
    assert length <= sum(graph[u][v]["weight"] for u, v in zip(christofides, christofides[1:])) + 1e-9
