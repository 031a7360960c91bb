#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproduces this folder's runs on a machine's first two cores: the default of the commit before
# GA-EAX's crossing (auto's colonies and Lin-Kernighan thread below it), GA-EAX with 100 and 50
# start tours climbed by Lin-Kernighan, and fast-tsp, at short budgets, every tour verified.
#   bench/results/2026-12-07-eax-short-budgets/run.sh BUILD/formica OUT_DIR   (pip install fast-tsp)
set -euo pipefail
formica=${1:?formica binary}; out=${2:?output folder}
here=$(cd "$(dirname "$0")/../../.." && pwd)
sweep() { # name solvers instances budgets seeds formica-args
  taskset -c 0,1 python3 "$here/bench/protocol.py" --formica "$formica" --out "$out/$1" --threads 2 --solvers "$2" \
    --instances "$3" --budgets "$4" --seeds "$5" --formica-args "--threads 2 $6"
}
eax="--algorithm eax --eax-climb lin-kernighan --population"
for config in "fast|fast-tsp|" "default|formica|" "eax50|formica|$eax 50" "eax100|formica|$eax 100"; do
  IFS='|' read -r name solvers args <<< "$config"
  sweep "small_$name" "$solvers" pcb442,rat783,pr1002,d1291,u1817 0.25,0.5,1,2 3 "$args"
  [ "$name" = eax50 ] && continue
  sweep "mid_$name" "$solvers" pcb3038,fnl4461,rl5915 0.25,0.5,1,2,5 3 "$args"
  [ "$name" = fast ] && continue
  sweep "usa_$name" formica usa13509 1,1.5,2.5,3,6,12 2 "$args"
  sweep "pla_$name" formica pla33810 10.5,21 1 "$args"
done
