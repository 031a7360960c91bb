#!/usr/bin/env bash
# The engine ablation's baseline on a GPU host: the default against --backend cpu, seed 1, one
# 60-s run each, budgets read from the history; then GA-EAX's host threads at 1 to 16 on usa13509.
# Run from the repository root on the GPU machine:  bench/results/2026-12-07-gpu-baseline/run.sh BUILD OUT
set -euo pipefail
build=${1:-build} out=${2:-out}
python3 bench/engine_ablation.py --formica "$build/formica" --instances usa13509,pla33810,pla85900 \
  --seeds 1 --budgets 10,30,60 --reach-budget 60 --config default="" --config cpu="--backend cpu" --out "$out/ablation"
for threads in 1 2 4 8 16; do
  "$build/eax_bench" --instance "${FORMICA_TSPLIB_DIR:-../shared/tsplib}/tsp/usa13509.tsp" --start nearest-neighbour \
    --generations 10 --seconds 50 --threads "$threads" | tail -n 1
done
