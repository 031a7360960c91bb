#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproduces this folder's runs on a machine's first two cores: auto of the commit before GA-EAX
# from 400 cities with quadrant lists (OLD_FORMICA, 89b114f), auto of this commit, and fast-tsp, at
# short budgets on the tuning set's 400 to 999 cities, every tour verified.
#   bench/results/2026-12-07-eax-small-lists/run.sh OLD_FORMICA NEW_FORMICA OUT_DIR   (pip install fast-tsp)
set -euo pipefail
old=${1:?formica binary before the change}; new=${2:?formica binary of this change}; out=${3:?output folder}
here=$(cd "$(dirname "$0")/../../.." && pwd)
instances=fl417,gr431,pr439,pcb442,rat575,p654,d657,u724
sweep() { # name formica solvers formica-args [instances]
  taskset -c 0,1 python3 "$here/bench/protocol.py" --formica "$2" --out "$out/$1" --threads 2 --solvers "$3" \
    --instances "${5:-$instances}" --budgets 0.25,0.5,1 --seeds 5 --formica-args "--threads 2 $4"
}
sweep before "$old" formica ""
sweep default "$new" formica ""
sweep fast "$new" fast-tsp "" "${instances/gr431,/}"  # fast-tsp: EUC_2D only
