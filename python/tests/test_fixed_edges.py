# SPDX-License-Identifier: MIT
"""TSPLIB's FIXED_EDGES_SECTION from Python: formica.solve keeps the fixed edges in every tour it
returns or hands to a callback, pickling keeps them, and solve_batch, which cannot keep them,
refuses the instance."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

import formica


def _grid_with_fixed_edges(tmp_path: Path) -> Path:
    """40 cities on an 8 x 5 grid; the fixed edges join far corners (1-based 1-40, 40-8, 33-17)."""
    lines = ["NAME : grid", "TYPE : TSP", "DIMENSION : 40", "EDGE_WEIGHT_TYPE : EUC_2D", "FIXED_EDGES_SECTION",
             "1 40", "40 8", "33 17", "-1", "NODE_COORD_SECTION"]
    lines += [f"{i + 1} {10 * (i % 8)} {10 * (i // 8)}" for i in range(40)]
    path = tmp_path / "grid.tsp"
    path.write_text("\n".join(lines + ["EOF"]) + "\n")
    return path


def _holds(tour: np.ndarray, edges: list[tuple[int, int]]) -> bool:
    position = np.empty(len(tour), dtype=int)
    position[tour] = np.arange(len(tour))
    return all(abs(position[a] - position[b]) in (1, len(tour) - 1) for a, b in edges)


def test_solve_keeps_the_fixed_edges_in_every_tour(tmp_path: Path) -> None:
    instance = formica.read_tsplib(_grid_with_fixed_edges(tmp_path))
    edges = instance.fixed_edges
    assert edges == [(0, 39), (39, 7), (32, 16)]
    assert instance.optimum is None
    seen = []

    def callback(length, tour, seconds):
        seen.append(_holds(tour, edges) and length == formica.tour_length(instance, tour))

    for problem in (instance, _grid_with_fixed_edges(tmp_path)):
        result = formica.solve(problem, iterations=20, seed=2, backend="cpu", callback=callback)
        assert _holds(result.tour, edges)
        assert result.length == formica.tour_length(instance, result.tour)
    assert seen and all(seen)
    # Left to itself, a search takes none of these long edges.
    free = formica.solve(instance.coordinates, iterations=20, seed=2, backend="cpu")
    assert not _holds(free.tour, edges)


def test_pickling_keeps_the_fixed_edges(tmp_path: Path) -> None:
    instance = formica.read_tsplib(_grid_with_fixed_edges(tmp_path))
    again = pickle.loads(pickle.dumps(instance))
    assert again.fixed_edges == instance.fixed_edges
    assert _holds(formica.solve(again, iterations=5, backend="cpu").tour, instance.fixed_edges)


def test_routes_and_the_batch_refuse_what_they_cannot_keep(tmp_path: Path) -> None:
    path = _grid_with_fixed_edges(tmp_path)
    with pytest.raises(ValueError, match=r"grid has fixed edges \(FIXED_EDGES_SECTION\): formica keeps them in closed tours only"):
        formica.solve(path, open=True, iterations=2)
    with pytest.raises(ValueError, match=r"instance 0 \(grid\) has fixed edges \(FIXED_EDGES_SECTION\), which the batch solver does not keep"):
        formica.solve_batch([path], kicks=1, backend="cpu", progress=False)


def test_a_bad_fixed_edge_is_a_value_error_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.tsp"
    path.write_text("NAME : b\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nFIXED_EDGES_SECTION\n1 5\n-1\n"
                    "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n")
    with pytest.raises(ValueError, match=r"bad\.tsp:5: fixed edge: city 5 is not in 1\.\.4"):
        formica.solve(path)


def test_the_bound_is_one_of_the_tours_through_the_fixed_edges(tmp_path: Path) -> None:
    instance = formica.read_tsplib(_grid_with_fixed_edges(tmp_path))
    bound = formica.lower_bound(instance)
    free = formica.lower_bound(instance.coordinates)
    assert bound.fixed_edges == "kept" and free.fixed_edges == "none"
    # Proven for them: below the tour found through them, and above the free instance's bound,
    # since the far corners' edges must be paid for.
    found = formica.solve(instance, iterations=50, seed=1, backend="cpu")
    assert free.bound < bound.bound <= found.length
    assert bound.gap(found.length) >= 0
