#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# GA-EAX's Lin-Kernighan climbs from random starts over K quadrant neighbours (--eax-chain-neighbours
# K: 5, 10) against the search's 10 nearest (0): time to the optimum with a target, or the length at
# the limit, on the CPU backend with 2 threads, as auto sets GA-EAX up for a run with a target (50
# tours climbed by Lin-Kernighan; naming an eax parameter alone would make auto run the colonies).
# Prints one line per run: instance, K, seed, length, wall s, CPU s.
#   bench/results/2026-12-05-eax-chain-lists/run.sh build-cpu/formica /path/to/tsplib/tsp
set -euo pipefail
formica=${1:?formica executable}
tsp=${2:?folder of TSPLIB .tsp files}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
run() {  # instance optimum limit seeds...
  local name=$1 optimum=$2 limit=$3
  shift 3
  for seed in "$@"; do
    for k in 0 5 10; do
      local length
      length=$(/usr/bin/time -f "%e %U" -o "$times" "$formica" solve "$tsp/$name.tsp" --target "$optimum" \
        --time-limit "$limit" --threads 2 --seed "$seed" --algorithm eax --eax-climb lin-kernighan --population 50 \
        --eax-chain-neighbours "$k" 2>&1 |
        grep -oE 'best [0-9]+' | tail -1 | cut -d' ' -f2)
      echo "$name $k $seed $length $(cat "$times")"
    done
  done
}
run rat783 8806 10 1 2 3 4 5 6 7 8
run pr1002 259045 10 1 2 3 4 5 6 7 8
run d1291 50801 10 1 2 3 4 5
run fl1577 22249 10 1 2 3
run u1817 57201 10 1 2 3 4 5 6
run pcb3038 137694 10 1 2 3
