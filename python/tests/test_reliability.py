# SPDX-License-Identifier: MIT
"""Reliability: many solves in one process without growth of host memory, and solves
from several Python threads at once giving the single-threaded tours.

FORMICA_SOAK sets the number of soak solves (default 600, about 10 s on 2 cores; docs/reliability.md's
figures are from FORMICA_SOAK=10000). Memory is the process's resident set (/proc/self/statm) and,
where the solves run on a GPU, the device's memory in use (formica.device_memory_in_use(): every
process's, so the figure is meaningful on a device the test has to itself, as on the GPU machine).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import formica

SOAK = int(os.environ.get("FORMICA_SOAK", "600"))
STATM = Path("/proc/self/statm")


def resident_bytes() -> int:
    return int(STATM.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def soak_solve(i: int, points: np.ndarray, matrix: np.ndarray) -> int:
    """One small solve of a kind that turns with i: coordinates, a matrix, an open path, a batch."""
    kind = i % 4
    if kind == 0:
        result = formica.solve(points, iterations=2, seed=i)
    elif kind == 1:
        result = formica.solve(matrix, iterations=2, seed=i)
    elif kind == 2:
        result = formica.solve(points, iterations=2, seed=i, open=True, start_city=0)
    else:
        return sum(r.length for r in formica.solve_batch([points, points[::-1]], kicks=5, seed=i))
    assert sorted(result.tour.tolist()) == list(range(len(points)))
    return result.length


def soak_figures() -> dict[str, Any]:
    """The soak itself: SOAK solves after a warm-up of 100, the resident set (and, on a GPU, the
    device's memory in use) after the warm-up, halfway and at the end, in bytes."""
    rng = np.random.default_rng(22)
    points = rng.uniform(0, 1000, size=(12, 2))
    matrix = np.rint(np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))).astype(np.int32)
    gpu = formica.backend_info()["default"] == "cuda"

    def device_bytes() -> int:
        return (formica.device_memory_in_use() or 0) if gpu else 0

    for i in range(100):  # warm-up: allocator pools, the thread pool, first-use caches
        soak_solve(i, points, matrix)
    figures: dict[str, Any] = {"backend": formica.backend_info()["default"], "gpu": gpu}
    for mark, solves in (("before", range(0)), ("middle", range(SOAK // 2)), ("after", range(SOAK // 2, SOAK))):
        for i in solves:
            soak_solve(i, points, matrix)
        gc.collect()
        figures[mark], figures[f"device_{mark}"] = resident_bytes(), device_bytes()
    return figures


@pytest.mark.skipif(not STATM.exists(), reason="skipped: /proc/self/statm is Linux's")
def test_many_solves_do_not_grow_host_memory() -> None:
    # The soak runs in a process of its own with one malloc arena (glibc's MALLOC_ARENA_MAX=1).
    # With the default, glibc gives threads arenas of their own (up to 8 per core), and the pages
    # each arena keeps after the threads a solve starts raise the resident set by an amount that
    # levels off and is no leak (measured on a GPU host: docs/reliability.md, the soak); with one
    # arena, what grows is what the solves leak.
    env = {**os.environ, "MALLOC_ARENA_MAX": "1",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent), *sys.path])}
    child = subprocess.run(
        [sys.executable, "-c", "import json, test_reliability as t; print(json.dumps(t.soak_figures()))"],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    figures = json.loads(child.stdout.strip().splitlines()[-1])
    before, middle, after = figures["before"], figures["middle"], figures["after"]
    device_before, device_middle, device_after = figures["device_before"], figures["device_middle"], figures["device_after"]
    mib = 1 << 20
    device_line = (
        f"; device memory in use {device_before / mib:.1f} MiB before, {device_middle / mib:.1f} MiB halfway, "
        f"{device_after / mib:.1f} MiB after"
        if figures["gpu"]
        else ""
    )
    print(
        f"\nsoak: {SOAK} solves ({figures['backend']}, one malloc arena), resident "
        f"{before / mib:.1f} MiB before, {middle / mib:.1f} MiB halfway, {after / mib:.1f} MiB after{device_line}",
        file=sys.stderr,
    )
    # A leak grows the resident set with every solve; allocator noise does not grow with the count.
    # 2 MiB plus 64 bytes a solve: a leak of one tour's worth per solve shows at FORMICA_SOAK=10000.
    allowed = 2 * mib + 64 * SOAK
    assert after - before < allowed, f"resident set grew {(after - before) / mib:.2f} MiB over {SOAK} solves"
    assert after - middle < allowed / 2 + mib, f"second half grew {(after - middle) / mib:.2f} MiB"
    # The device allocates in pages of 2 MiB: any leak of device memory per solve shows as growth.
    assert device_after - device_before <= 2 * mib, (
        f"device memory in use grew {(device_after - device_before) / mib:.2f} MiB over {SOAK} solves"
    )


def test_solves_from_several_threads_equal_the_single_threaded_ones() -> None:
    # Fixed iterations, no Lin-Kernighan threads: a run depends on its seed alone (see docs/reliability.md).
    instances = [formica.generate(150, "clustered", s) for s in range(1, 9)]
    seeds = list(range(8))
    options = dict(iterations=3, lk_threads=0, threads=1)
    expected = [formica.solve(inst, seed=seed, **options) for inst, seed in zip(instances, seeds)]
    barrier = threading.Barrier(4)

    def run(k: int) -> list[formica.Result]:
        barrier.wait()  # the four threads start their solves together
        return [formica.solve(instances[j], seed=seeds[j], **options) for j in range(k, len(instances), 4)]

    with ThreadPoolExecutor(max_workers=4) as pool:
        chunks = list(pool.map(run, range(4)))
    got = {j: r for k, chunk in enumerate(chunks) for j, r in zip(range(k, len(instances), 4), chunk)}
    for j, want in enumerate(expected):
        assert sorted(got[j].tour.tolist()) == list(range(150))
        assert got[j].length == formica.tour_length(instances[j], got[j].tour)
        assert np.array_equal(got[j].tour, want.tour), f"instance {j}: another tour from a thread"
        assert got[j].length == want.length


def test_batches_from_several_threads_equal_the_single_threaded_ones() -> None:
    instances = [formica.generate(60, "uniform", s) for s in range(1, 13)]
    expected = formica.solve_batch(instances, kicks=20, seed=3)

    def run(_: int) -> list[formica.Result]:
        return formica.solve_batch(instances, kicks=20, seed=3)

    with ThreadPoolExecutor(max_workers=3) as pool:
        for results in pool.map(run, range(3)):
            assert [r.length for r in results] == [r.length for r in expected]
            assert all(np.array_equal(a.tour, b.tour) for a, b in zip(results, expected))


HOSTILE_NAME = b"NAME : a\x1b[31mred\xff\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nEOF\n"


def test_a_binary_file_raises_value_error_with_file_and_line(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 in a file reach Python escaped, as the command line prints them:
    a ValueError naming the file and line, never a UnicodeDecodeError."""
    junk = tmp_path / "binary.tsp"
    junk.write_bytes(b"\xff\xfe\x1b[2Jjunk\n")
    for read in (formica.read_tsplib, formica.read_tour, formica.solve):
        with pytest.raises(ValueError, match=r"binary\.tsp:1: unknown keyword '\\xff\\xfe\\x1b\[2Jjunk'"):
            read(junk)


def test_a_hostile_name_is_escaped(tmp_path: Path) -> None:
    path = tmp_path / "named.tsp"
    path.write_bytes(HOSTILE_NAME)
    assert formica.read_tsplib(path).name == "a\\x1b[31mred\\xff"


@contextlib.contextmanager
def endless_fifo(tmp_path: Path, name: str, line: bytes):
    """A FIFO fed `line` without end by a writer process (a process, not a thread: the read holds
    the GIL while it waits for the writer to open); yields the FIFO's path."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    feed = f"import sys\nwith open(sys.argv[1], 'wb') as out:\n    while True:\n        out.write({line!r} * 8192)\n"
    writer = subprocess.Popen([sys.executable, "-c", feed, str(fifo)], stderr=subprocess.DEVNULL)
    try:
        yield fifo
    finally:
        writer.kill()
        writer.wait(timeout=10)


def test_a_stream_that_never_ends_is_refused_at_once(tmp_path: Path) -> None:
    """A FIFO fed by a writer process that never stops: the reader ends at the first bad line."""
    with endless_fifo(tmp_path, "endless.tsp", b"garbage\n") as fifo:
        start = time.monotonic()
        with pytest.raises(ValueError, match=r"endless\.tsp:1: unknown keyword 'garbage'"):
            formica.read_tsplib(fifo)
        assert time.monotonic() - start < 5.0


def test_a_fifo_that_no_process_writes_to_is_refused_after_the_timeout(tmp_path: Path, monkeypatch) -> None:
    """Opening a FIFO without a writer waits for none: silence for FORMICA_INPUT_TIMEOUT seconds
    is a ValueError naming the file, for every reader."""
    monkeypatch.setenv("FORMICA_INPUT_TIMEOUT", "1")
    fifo = tmp_path / "silent.tsp"
    os.mkfifo(fifo)
    for read in (formica.read_tsplib, formica.read_tour, formica.solve):
        start = time.monotonic()
        with pytest.raises(ValueError, match=r"silent\.tsp: nothing to read for 1 s \(a FIFO or pipe that no process"):
            read(fifo)
        assert time.monotonic() - start < 5.0


def test_endless_comment_lines_end_at_the_header_cap(tmp_path: Path) -> None:
    """Header lines are each valid: a stream of them ends at the cap, not at the size bound."""
    with endless_fifo(tmp_path, "comments.tsp", b"COMMENT : x\n") as fifo:
        start = time.monotonic()
        with pytest.raises(ValueError, match=r"comments\.tsp:10001: more than 10000 header lines"):
            formica.solve(fifo)
        assert time.monotonic() - start < 5.0


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_files_of_the_longest_name_are_written_whole(tmp_path: Path) -> None:
    """A 255-byte name (NAME_MAX): the temporary beside it is cut to fit, and none is left."""
    pytest.importorskip("matplotlib")
    result = formica.solve(formica.generate(30, "uniform", 3), iterations=2, seed=1)
    tour, picture, svg = (tmp_path / ("t" * 251 + suffix) for suffix in (".tou", ".png", ".svg"))
    formica.write_tour(tour, result.tour)
    result.plot_history(picture)
    result.plot(svg)
    assert np.array_equal(formica.read_tour(tour), result.tour)
    assert picture.read_bytes().startswith(PNG_SIGNATURE)
    assert b"<svg" in svg.read_bytes()[:200]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (tour, picture, svg))


def test_a_png_follows_links_and_keeps_them(tmp_path: Path) -> None:
    """A PNG is written as every formica output: a link's target replaced, the link kept."""
    pytest.importorskip("matplotlib")
    result = formica.solve(formica.generate(30, "uniform", 3), iterations=2, seed=1)
    target, link = tmp_path / "real.png", tmp_path / "link.png"
    target.write_bytes(b"old")
    link.symlink_to(target.name)
    result.plot(link)
    assert link.is_symlink()
    assert target.read_bytes().startswith(PNG_SIGNATURE)


def test_outputs_the_api_cannot_write_are_one_value_error(tmp_path: Path) -> None:
    """A kernel interface, a FIFO without a reader, another picture format: ValueError, nothing written."""
    result = formica.solve(formica.generate(30, "uniform", 3), iterations=2, seed=1)
    with pytest.raises(ValueError, match=r"/proc/self/status: is in /proc, a kernel interface"):
        formica.write_tour("/proc/self/status", result.tour)
    with pytest.raises(ValueError, match=r"/sys/kernel/history\.svg: is in /sys, a kernel interface"):
        result.plot_history("/sys/kernel/history.svg")
    fifo = tmp_path / "tour.fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"tour\.fifo: a FIFO that no process reads \(start its reader first\)"):
        formica.write_tour(fifo, result.tour)
    with pytest.raises(ValueError, match=r"unknown picture format '\.jpg' \(use \.svg or \.png\)"):
        result.plot(tmp_path / "tour.jpg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tour.fifo"]


def test_python_m_formica_puts_the_summary_on_stderr_when_the_tour_is_on_stdout(tmp_path: Path) -> None:
    """stdout redirected to a file and named as --tour-out: the tour alone in it, the summary on stderr."""
    out = tmp_path / "out.tour"
    with out.open("wb") as stdout:
        done = subprocess.run([sys.executable, "-m", "formica", "solve", "--cities", "20", "--iterations", "2",
                               "--tour-out", "/dev/stdout"], stdout=stdout, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    assert done.returncode == 0, done.stderr
    assert formica.read_tour(out).size == 20
    assert ": best " in done.stderr


def python_m_formica(*args: Any, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """python -m formica with `args`, its stdout and stderr as text."""
    return subprocess.run([sys.executable, "-m", "formica", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def test_python_m_formica_refuses_a_proc_output_before_the_search() -> None:
    """A /proc target is refused by formica's rules before the search: at once, though the limit is long."""
    started = time.monotonic()
    done = python_m_formica("solve", "--cities", 200, "--time-limit", 60, "--tour-out", "/proc/self/comm")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("formica: error: --tour-out /proc/self/comm: "), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert time.monotonic() - started < 20  # the interpreter's start, not the 60-s search


def test_python_m_formica_refuses_a_fifo_without_reader_before_the_search(tmp_path: Path) -> None:
    fifo = tmp_path / "tour.fifo"
    os.mkfifo(fifo)
    done = python_m_formica("solve", "--cities", 200, "--time-limit", 60, "--tour-out", fifo)
    assert done.returncode == 2, done.stderr
    assert "tour.fifo: a FIFO that no process reads (start its reader first)" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tour.fifo"]


def test_python_m_formica_holds_a_fifo_open_until_the_tour_is_written(tmp_path: Path) -> None:
    """A reader that is there gets the whole tour at the end, no EOF when the output is checked."""
    fifo = tmp_path / "tour.fifo"
    os.mkfifo(fifo)
    # The reader is Python itself: the wheel's tests run with the venv alone on the PATH (no `cat`).
    reader = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())", str(fifo)],
        stdout=subprocess.PIPE,
    )
    done = python_m_formica("solve", "--cities", 30, "--iterations", 3, "--tour-out", fifo)
    text = reader.communicate(timeout=60)[0]
    assert done.returncode == 0, done.stderr
    (tmp_path / "copy.tour").write_bytes(text)
    assert formica.read_tour(tmp_path / "copy.tour").size == 30


def test_python_m_formica_refuses_an_output_that_a_link_makes_its_input(tmp_path: Path) -> None:
    """--tour-out a link to the instance: one file once links are followed, refused before the search."""
    instance = tmp_path / "u200.tsp"
    cities = "".join(f"{i + 1} {(i * 37) % 101} {(i * 53) % 97}\n" for i in range(200))
    instance.write_text(f"NAME: u200\nTYPE: TSP\nDIMENSION: 200\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n{cities}EOF\n")
    (tmp_path / "link.tour").symlink_to(instance)
    done = python_m_formica("solve", instance, "--time-limit", 60, "--tour-out", tmp_path / "link.tour")
    assert done.returncode == 2, done.stderr
    assert "link.tour" in done.stderr and "the instance" in done.stderr, done.stderr


def test_two_outputs_one_file_through_a_link_are_refused(tmp_path: Path) -> None:
    """The checker python -m formica uses: two outputs that a link makes one file, refused."""
    (tmp_path / "a.tour").write_text("")
    (tmp_path / "b.tour").symlink_to(tmp_path / "a.tour")
    outputs = [("--tour-out", os.fsencode(tmp_path / "a.tour")), ("--json", os.fsencode(tmp_path / "b.tour"))]
    with pytest.raises(ValueError, match="--tour-out and --json name the same file"):
        formica._core.CheckedOutputs(outputs, [])


def test_python_m_formica_writes_a_normal_tour_file(tmp_path: Path) -> None:
    out = tmp_path / "out.tour"
    done = python_m_formica("solve", "--cities", 30, "--iterations", 3, "--tour-out", out)
    assert done.returncode == 0, done.stderr
    assert formica.read_tour(out).size == 30
    assert ": best " in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tour"]
