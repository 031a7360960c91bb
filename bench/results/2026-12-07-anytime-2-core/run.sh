#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# formica's default beside fast-tsp at budgets of 0.25, 0.5, 1 and 2 s on 2 threads, instances of 400
# to 5,000 cities held apart from tuning (bench/python_peers.py --budgets), 5 seeds. Needs the
# formica package (pip install . or PYTHONPATH=build/python), fast-tsp, and FORMICA_TSPLIB_DIR.
#   bench/results/2026-12-07-anytime-2-core/run.sh > table.md
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 bench/python_peers.py --seeds 5 --threads 2 --budgets 0.25,0.5,1,2
