#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproduces this folder's runs on a GPU host (one seed; add --seeds 3 for the issue's protocol):
# the default, --backend cpu and the default as it ran before (--gpu-wait spin, with Lin-Kernighan
# threads where the GPU's old rule ran them), 60 s, every budget read from each run's history.
#   bench/results/2026-12-06-gpu-never-behind/run.sh BUILD/formica OUT_DIR
set -euo pipefail
formica=${1:?formica binary}; out=${2:?output folder}
here=$(cd "$(dirname "$0")/../../.." && pwd)
ablation() { python3 "$here/bench/engine_ablation.py" --formica "$formica" --seeds 1 --budgets 10,30,60 \
  --reach-budget 60 "$@"; }
ablation --instances pla33810 --out "$out/pla33810" --config 'cpu=--backend cpu' --config 'default=' \
  --config 'old=--gpu-wait spin --host-search lin-kernighan'
ablation --instances usa13509 --out "$out/usa13509" --config 'cpu=--backend cpu' --config 'default='
ablation --instances pla85900 --out "$out/pla85900" --config 'cpu=--backend cpu' --config 'default='
ablation --instances uniform200000 --out "$out/uniform200000" --config 'cpu=--backend cpu' --config 'default='
python3 "$here/bench/gpu_busy.py" --out "$out/busy" -- "$formica" solve "$FORMICA_TSPLIB_DIR/tsp/pla85900.tsp" \
  --time-limit 60 --quiet
