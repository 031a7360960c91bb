#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Several GPUs of one host (docs/distributed.md): `formica solve --gpus G` (one island per GPU, islands in
# one process exchanging through host memory) against `--gpus 1` at the same wall time, the
# default solver, several seeds; prints every run's gap to the TSPLIB optimum (each run's --json)
# and the medians. Both runs use the whole host: with G islands each takes an G-th of the CPU
# threads (solver/portfolio.cpp), with one it takes them all.
#   bench/gpus_compare.sh BUILD_DIR [SECONDS] [INSTANCE...]
# Defaults: G = every GPU (GPUS=N to choose), 10 s, pr2392 fnl4461 usa13509, seeds 1 to 3 (SEEDS).
# EXTRA="--lk-threads 14" and the like go to both runs. TSPLIB files from $FORMICA_TSPLIB_DIR/tsp.
set -euo pipefail
build=$1
seconds=${2:-10}
shift $(($# >= 2 ? 2 : 1))
instances=("$@")
[ ${#instances[@]} -gt 0 ] || instances=(pr2392 fnl4461 usa13509)
gpus=${GPUS:-$(nvidia-smi -L | wc -l)} seeds=${SEEDS:-3}
read -r -a extra <<<"${EXTRA:-}"
tsplib=${FORMICA_TSPLIB_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/shared/tsplib}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

echo "formica --gpus ${gpus} against --gpus 1, ${seconds} s, default solver, $(nproc) CPU threads here, ${extra[*]:-no extra flags}"
nvidia-smi --query-gpu=index,name --format=csv,noheader
printf '%-10s %-8s %-40s %s\n' instance gpus "gaps % (seeds 1..${seeds}), [iterations]" median
for name in "${instances[@]}"; do
  file="$tsplib/tsp/$name.tsp"
  [ -f "$file" ] || { echo "no $file (set FORMICA_TSPLIB_DIR)" >&2; exit 1; }
  for g in 1 "$gpus"; do
    gaps=() iterations=()
    for seed in $(seq 1 "$seeds"); do
      "$build/formica" solve "$file" --gpus "$g" --time-limit "$seconds" --seed "$seed" "${extra[@]}" --quiet \
        --json "$work/run.json" --tour-out "$work/run.tour" >/dev/null
      "$build/formica" verify "$file" "$work/run.tour" >/dev/null
      gaps+=("$(field "$work/run.json" '"%.3f" % d["gap"]')")
      iterations+=("$(field "$work/run.json" 'd["iterations"]')")
    done
    printf '%-10s %-8s %-40s %s\n' "$name" "$g" "${gaps[*]} [${iterations[*]}]" "$(median "${gaps[@]}")"
  done
done
