#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Uchida et al. (2012) Tables 1-4 on one machine: tour construction, pheromone update and total
# time per selection method on the CPU (sequential) and the GPU (warp- and block-per-ant), and
# the best length after 100 iterations; alpha 1, beta 2, rho 0.5, m = n.
#   bench/uchida_tables.sh BUILD_DIR OUT_DIR [INSTANCES]
# The sequential CPU rows run in the background, one process per instance, while the GPU rows
# run; large instances get fewer CPU iterations (their CPU step takes tens of seconds).
set -uo pipefail
build=$1 out=$2
instances=${3:-d198,a280,lin318,pcb442,rat783,pr1002,pr2392,pcb3038}
methods="roulette compression stochastic-trial hybrid"
mkdir -p "$out"
cpu_pids=()
for instance in ${instances//,/ }; do
  case $instance in pr2392|pcb3038) iterations=1 ;; *) iterations=3 ;; esac
  configs=()
  for m in $methods; do configs+=(--config "cpu-$m:algorithm=as,backend=cpu,threads=1,selection=$m"); done
  "$build/formica_bench" --instances "$instance" "${configs[@]}" --warmup 0 --iterations $iterations \
    --csv "$out/cpu_$instance.csv" >"$out/cpu_$instance.txt" 2>&1 &
  cpu_pids+=($!)
done
configs=()
for c in warp-per-ant block-per-ant; do
  for m in $methods; do configs+=(--config "${c%-per-ant}-$m:algorithm=as,backend=cuda,construction=$c,selection=$m"); done
done
"$build/formica_bench" --instances "$instances" "${configs[@]}" --warmup 0 --iterations 100 --csv "$out/gpu.csv"
wait "${cpu_pids[@]}"
cat "$out"/cpu_*.txt | grep -v '^#' | sort -u
