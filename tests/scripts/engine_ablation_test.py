#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/engine_ablation.py end to end, with a stand-in for the formica binary (no build needed):
every budget read from one run's history, the time to reach the reference's median, the median
shares of who found the improvements, and a tour that fails `verify` stopping the benchmark."""

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "engine_ablation.py"

# `solve` writes a JSON whose history depends on the configuration (--backend cpu is slower) and
# the seed; `verify` fails when FAKE_BAD_TOUR is set; `generate` writes a small file.
FAKE_FORMICA = r"""#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
def value(flag):
    return args[args.index(flag) + 1]
if args[0] == "generate":
    open(value("--output"), "w").write("NAME: u\nTYPE: TSP\nDIMENSION: 3\nEOF\n")
    sys.exit(0)
if args[0] == "verify":
    sys.exit(1 if os.environ.get("FAKE_BAD_TOUR") else 0)
assert args[0] == "solve" and "--quiet" in args
seed, limit = int(value("--seed")), float(value("--time-limit"))
cpu = "--backend" in args and value("--backend") == "cpu"
slow = 2.0 if cpu else 1.0
history = [{"iteration": 1, "seconds": 0.5 * slow, "length": 1200 + seed},
           {"iteration": 2, "seconds": 2.5 * slow, "length": 1100 + seed},
           {"iteration": 3, "seconds": 9.0 * slow, "length": 1050 + seed}]
shares = {"search": 0.25, "host_eax": 0.75} if not cpu else {"search": 1.0, "host_eax": 0.0}
doc = {"device": "stand-in", "best_length": min(h["length"] for h in history), "history": history,
       "tour": [0, 1, 2], "found_by": {"shares": shares}}
open(value("--json"), "w").write(json.dumps(doc))
open(value("--tour-out"), "w").write("TOUR_SECTION\n1\n2\n3\n-1\nEOF\n")
"""


class EngineAblation(unittest.TestCase):
    def run_script(self, work, extra_env=None):
        fake = Path(work) / "formica"
        fake.write_text(FAKE_FORMICA)
        fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
        tsplib = Path(work) / "tsplib"
        (tsplib / "tsp").mkdir(parents=True)
        (tsplib / "tsp" / "tiny.tsp").write_text("NAME: tiny\n")
        (tsplib / "solutions.csv").write_text("name,dimension,edge_weight_type,optimum,optimum_is_proven\n"
                                              "tiny,3,EUC_2D,1000,true\n")
        env = dict(os.environ, FORMICA_TSPLIB_DIR=str(tsplib), **(extra_env or {}))
        return subprocess.run([sys.executable, str(SCRIPT), "--formica", str(fake), "--instances",
                               "tiny,uniform10", "--seeds", "3", "--budgets", "1,3,20",
                               "--reach-budget", "20", "--out", str(Path(work) / "out")],
                              capture_output=True, text=True, env=env)

    def test_every_budget_is_read_from_the_history_of_one_run_per_seed(self):
        with tempfile.TemporaryDirectory() as work:
            done = self.run_script(work)
            self.assertEqual(done.returncode, 0, done.stderr)
            table = (Path(work) / "out" / "ablation.md").read_text()
            # tiny, default: seeds 1-3 at 1 s are 1201-1203 over the optimum 1000 (20.1-20.3 %),
            # at 3 s 1101-1103, at the last budget 1051-1053.
            self.assertIn("| default | 20.2000 (20.1000-20.3000) | 10.2000 (10.1000-10.3000) | "
                          "5.2000 (5.1000-5.3000) |", table)
            # cpu, twice as slow, has its first tour at exactly 1 s, and its second only at 5 s.
            self.assertIn("| cpu | 20.2000 (20.1000-20.3000) | 20.2000 (20.1000-20.3000) | 5.2000", table)
            # cpu's 20-s median is 1052: the default reaches it at 9 s on seeds 1-2 (1051, 1052), not seed 3.
            self.assertIn("9.0 s (2/3 seeds)", table)
            self.assertIn("search 25 %, host_eax 75 %", table)
            # uniform10 has no known optimum: gaps against the best of all runs.
            self.assertIn("## uniform10 (best of all runs 1051", table)
            runs = (Path(work) / "out" / "runs.csv").read_text().splitlines()
            self.assertEqual(len(runs), 1 + 2 * 3 * 3 * 3)  # instances x configurations x seeds x budgets
            kept = json.loads((Path(work) / "out" / "tiny_default_s1.json").read_text())
            self.assertNotIn("tour", kept)

    def test_a_tour_that_fails_verify_stops_the_benchmark(self):
        with tempfile.TemporaryDirectory() as work:
            done = self.run_script(work, {"FAKE_BAD_TOUR": "1"})
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("fails verify", done.stderr)


if __name__ == "__main__":
    unittest.main()
