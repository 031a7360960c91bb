#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/lkh_compare.py's traced LKH-3 runs (--lkh-anytime), with a stand-in for LKH-3 that prints
its trace the way LKH-3 does (no elkai, no formica binary needed)."""

import importlib.util
import io
import sys
import tempfile
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("lkh_compare", ROOT / "bench" / "lkh_compare.py")
lkh_compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lkh_compare)

# Reads the problem, "sets up" for 0.3 s, reports two trial costs 0.3 s apart (a third, the optimum,
# for SEED = 2000), then its tour; SEED = 1001 never ends.
FAKE_LKH = r"""
import re, sys, time
parameters = sys.argv[1]
seed = int(re.search(r"SEED = (\d+)", parameters).group(1))
assert "TOTAL_TIME_LIMIT" in parameters and "TRACE_LEVEL = 1" in parameters
problem = sys.stdin.read()
assert problem.startswith("NAME")
if seed == 1001:
    time.sleep(3600)
time.sleep(0.3)
print("Lower bound = 90.0, Ascent time = 0.30 sec.", flush=True)
print("Preprocessing time = 0.30 sec.", flush=True)
print("* 1: Cost = 120, Time = 0.00 sec.", flush=True)
time.sleep(0.3)
print("* 4: Cost = " + str(100 + seed % 1000) + ", Time = 0.30 sec.", flush=True)
if seed == 2000:
    print("* 9: Cost = 95, Time = 0.31 sec.", flush=True)
    print("TOUR [1, 2, 3]", flush=True)
    sys.exit(0)
time.sleep(0.1 if seed < 2000 else 3600)
print("TOUR [3, 2, 1]", flush=True)
"""

PROBLEM = "NAME : fake\nTYPE : TSP\nDIMENSION : 3\nEOF\n"


def child():
    return [sys.executable, "-c", FAKE_LKH]


class TracedLkh(unittest.TestCase):
    def test_every_improvement_is_stamped_and_read_at_each_budget(self):
        runs = lkh_compare.run_lkh_anytime(PROBLEM, 2.0, 1, 1, None, child())
        (run,) = runs
        self.assertEqual([c for _, c in run.events], [120, 100])
        self.assertGreaterEqual(run.events[0][0], 0.25)  # after the stand-in's set-up
        self.assertGreaterEqual(run.events[1][0] - run.events[0][0], 0.25)
        self.assertIsNotNone(run.setup_s)
        self.assertEqual(run.tour, [3, 2, 1])
        self.assertIsNone(lkh_compare.best_by(runs, 0.1))  # still setting up: no tour
        self.assertEqual(lkh_compare.best_by(runs, run.events[0][0]), 120)
        self.assertEqual(lkh_compare.best_by(runs, 2.0), 100)

    def test_a_final_tour_shorter_than_the_trace_counts_from_its_end_and_a_longer_one_is_an_error(self):
        runs = lkh_compare.run_lkh_anytime(PROBLEM, 2.0, 1, 1, None, child())
        (run,) = runs
        self.assertIsNotNone(run.ended_s)
        self.assertGreaterEqual(run.ended_s, run.events[-1][0])
        with self.assertRaises(ValueError):
            run.reconcile(101)
        run.reconcile(100)  # as the trace said: nothing changes
        self.assertEqual([c for _, c in run.events], [120, 100])
        run.reconcile(97)
        self.assertEqual(run.events[-1], (run.ended_s, 97))
        self.assertEqual(lkh_compare.best_by(runs, run.ended_s), 97)
        self.assertEqual(lkh_compare.best_by(runs, run.events[1][0]), 100)

    def test_the_best_of_the_processes_counts_and_a_process_past_the_cap_is_stopped(self):
        start = time.perf_counter()
        runs = lkh_compare.run_lkh_anytime(PROBLEM, 0.5, 1, 2, None, child())  # seeds 1000 and 1001
        elapsed = time.perf_counter() - start
        self.assertLess(elapsed, 1.1 * 0.5 + 5.0 + 2.0)
        self.assertEqual(runs[0].tour, [3, 2, 1])
        self.assertIsNone(runs[1].tour)  # the one that never ends was stopped, with no tour
        self.assertEqual(runs[1].events, [])
        self.assertEqual(lkh_compare.best_by(runs, 10.0), 100)

    def test_the_others_stop_once_one_process_ends_at_the_optimum(self):
        start = time.perf_counter()
        runs = lkh_compare.run_lkh_anytime(PROBLEM, 60.0, 2, 2, 95, child())  # seeds 2000 and 2001
        self.assertLess(time.perf_counter() - start, 5.0)
        self.assertEqual(runs[0].tour, [1, 2, 3])
        self.assertEqual(lkh_compare.best_by(runs, 60.0), 95)
        self.assertIsNone(runs[1].tour)
        self.assertIn("OPTIMUM = 95", lkh_compare.lkh_parameters(60.0, 1, 95))
        self.assertNotIn("OPTIMUM", lkh_compare.lkh_parameters(60.0, 1, None))


class Table(unittest.TestCase):
    def row(self, solver, seed, gap):
        return {"instance": "x", "n": 3, "solver": solver, "budget": 10.0, "seed": seed, "wall_s": 10.0,
                "length": None if gap is None else 1, "gap_pct": gap, "processes": 1}

    def test_a_run_without_a_tour_counts_as_worse_than_any(self):
        self.assertEqual(lkh_compare.median_gap([self.row("lkh3", 1, None), self.row("lkh3", 2, 0.5),
                                                 self.row("lkh3", 3, 0.1)]), 0.5)
        self.assertIsNone(lkh_compare.median_gap([self.row("lkh3", 1, None), self.row("lkh3", 2, None),
                                                  self.row("lkh3", 3, 0.1)]))

    def test_the_table_says_when_lkh_has_no_tour_yet(self):
        out = io.StringIO()
        lkh_compare.write_table([self.row("formica", 1, 0.2), self.row("lkh3", 1, None)], out)
        self.assertIn("| x | 10 | 0.2000 % | 10.00 | no tour | 10.00 | no tour yet (set-up) | yes |", out.getvalue())
        out = io.StringIO()
        lkh_compare.write_table([self.row("formica", 1, 0.2), self.row("lkh3", 1, 0.1)], out)
        self.assertIn("| NO |", out.getvalue())

    def test_earlier_runs_are_read_back_relabelled_and_plotted(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "runs.csv"
            path.write_text("instance,n,solver,budget,seed,wall_s,length,gap_pct,processes\n"
                            "x,3,formica,1.0,1,1.0,,,1\n"
                            "x,3,formica,10.0,1,9.5,101,1.0,1\n"
                            "x,3,lkh3,10.0,1,10.0,100,0.0,16\n")
            rows = lkh_compare.read_rows(f"{path}=formica (eax)")
            self.assertEqual([r["solver"] for r in rows], ["formica (eax)", "formica (eax)", "lkh3"])
            self.assertIsNone(rows[0]["length"])
            self.assertIsNone(rows[0]["gap_pct"])
            self.assertEqual((rows[1]["length"], rows[1]["gap_pct"], rows[1]["wall_s"]), (101, 1.0, 9.5))
            self.assertEqual(lkh_compare.read_rows(str(path))[0]["solver"], "formica")
            plot_path = Path(tmp) / "curves.png"
            lkh_compare.plot(rows, str(plot_path))
            self.assertGreater(plot_path.stat().st_size, 1000)


if __name__ == "__main__":
    unittest.main()
