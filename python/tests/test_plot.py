# SPDX-License-Identifier: MIT
"""Pictures: SVG from formica's own writer (the same documents as the command line's), PNG and
matplotlib axes through matplotlib."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

import formica

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def result() -> formica.Result:
    return formica.solve(formica.generate(80, "clustered", 2), iterations=15, seed=3)


def parse_svg(path) -> ElementTree.Element:
    root = ElementTree.parse(path).getroot()  # raises on malformed XML
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ElementTree.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_tour_svg_is_valid_and_draws_every_city(tmp_path, result) -> None:
    path = tmp_path / "tour.svg"
    assert result.plot(path) is None
    root = parse_svg(path)
    (polygon,) = root.iter(f"{SVG}polygon")
    assert len(polygon.get("points").split()) == 80
    assert len(list(root.iter(f"{SVG}circle"))) == 80
    assert texts(root)[0] == f"clustered80-s2: length {result.length}"


def test_plot_tour_of_a_problem_matches_result_plot(tmp_path, result) -> None:
    instance = formica.generate(80, "clustered", 2)
    formica.plot_tour(instance, result.tour, tmp_path / "a.svg")
    result.plot(tmp_path / "b.svg")
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()


def test_title_has_the_gap_when_the_optimum_is_known(tmp_path, tsplib) -> None:
    run = formica.solve(tsplib("eil51"), iterations=5)
    run.plot(tmp_path / "eil51.svg")
    assert texts(parse_svg(tmp_path / "eil51.svg"))[0] == f"eil51: length {run.length}, gap {run.gap:.2f}%"


def test_history_svg_is_valid_with_a_log_time_axis(tmp_path, result) -> None:
    path = tmp_path / "history.svg"
    assert result.plot_history(path) is None
    root = parse_svg(path)
    labels = texts(root)
    assert labels[0] == result.title
    assert "time (seconds, log scale)" in labels and "best tour length" in labels
    decades = [t for t in labels if t.endswith(" s")]
    assert len(decades) >= 2
    (line,) = root.iter(f"{SVG}path")
    assert line.get("d").count("H") == len(result.history)  # a step per improvement, then to the end
    with pytest.raises(ValueError, match="has no known optimum, so there is no gap to plot"):
        result.plot_history(tmp_path / "gap.svg", y="gap")


def test_float_metric_pictures(tmp_path) -> None:
    points = np.random.default_rng(4).uniform(0, 1, size=(30, 2))
    run = formica.solve(points, metric="float", iterations=5)
    run.plot(tmp_path / "t.svg")
    run.plot_history(tmp_path / "h.svg")
    assert texts(parse_svg(tmp_path / "t.svg"))[0] == f"points30: length {run.length:.10g}"
    parse_svg(tmp_path / "h.svg")
    formica.plot_tour(points, run.tour, tmp_path / "p.svg", metric="float")
    assert (tmp_path / "p.svg").read_text() == (tmp_path / "t.svg").read_text()


def test_svg_escapes_names(tmp_path) -> None:
    path = tmp_path / "odd.tsp"
    path.write_text("NAME : a&b<c>\"d'\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\nEOF\n")
    formica.plot_tour(path, [0, 1, 2], tmp_path / "odd.svg")
    assert texts(parse_svg(tmp_path / "odd.svg"))[0] == "a&b<c>\"d': length 12"


def test_pictures_match_the_command_line(tmp_path, cli) -> None:
    instance = tmp_path / "g.tsp"
    assert cli("generate", "--cities", 50, "--kind", "uniform", "--seed", 8, "--output", instance).returncode == 0
    run = cli("solve", instance, "--iterations", 6, "--seed", 2, "--svg", tmp_path / "cli.svg",
              "--plot-history", tmp_path / "cli_history.svg", "--quiet")
    assert run.returncode == 0, run.stderr
    result = formica.solve(instance, iterations=6, seed=2)
    result.plot(tmp_path / "py.svg")
    assert (tmp_path / "cli.svg").read_text() == (tmp_path / "py.svg").read_text()
    root = parse_svg(tmp_path / "cli_history.svg")
    assert texts(root)[0] == result.title


def test_bad_picture_requests(tmp_path, result) -> None:
    matrix = np.array([[0, 1, 2], [1, 0, 3], [2, 3, 0]])
    with pytest.raises(ValueError, match="matrix3 has no coordinates to draw"):
        formica.plot_tour(matrix, [0, 1, 2], tmp_path / "m.svg")
    with pytest.raises(ValueError, match=r"unknown picture format '.pdf' \(use .svg or .png\)"):
        result.plot(tmp_path / "t.pdf")
    with pytest.raises(ValueError, match="tour visits city 1 twice"):
        formica.plot_tour(formica.generate(5), [0, 0, 1, 2, 3], tmp_path / "bad.svg")
    assert not (tmp_path / "bad.svg").exists()
    with pytest.raises(ValueError, match=r"^unknown y 'time'"):
        result.plot_history(tmp_path / "h.svg", y="time")


def test_png_files(tmp_path, result) -> None:
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is not installed")
    result.plot(tmp_path / "tour.png")
    result.plot_history(tmp_path / "history.PNG")
    formica.plot_tour(formica.generate(80, "clustered", 2), result.tour, tmp_path / "again.png")
    for name in ("tour.png", "history.PNG", "again.png"):
        content = (tmp_path / name).read_bytes()
        assert content.startswith(PNG_SIGNATURE) and len(content) > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.png", "history.PNG", "tour.png"]  # no leftovers


def test_drawing_on_a_matplotlib_axis(result) -> None:
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is not installed")
    from matplotlib.figure import Figure

    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert result.plot(ax=left) is left
    assert result.plot_history(ax=right) is right
    assert left.get_title() == right.get_title() == result.title
    (tour_line,) = left.get_lines()
    assert len(tour_line.get_xdata()) == 81  # closed: back to the first city
    assert right.get_xscale() == "log"
    with pytest.raises(ValueError, match="give a path or an axis to draw on, not both"):
        result.plot("x.png", ax=left)
