#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MMAS, ACS and GACO on one GPU machine (docs/papers.md):
#   (a) speed targets: MMAS with 20 candidates and m = n on pr1002, fnl4461, usa13509, and with
#       100 ants on usa13509 (median ms per iteration, construction separately, GPU named);
#   (b) Li and Jin's Table 1: mean of the best lengths of independent runs, 3000 iterations, on
#       eil51, eil76, kroA100, d198, lin318, rat575: the GPU runs 50 runs at once (independent
#       matrix groups of one search) and once alone (for the speed-up per run); the sequential CPU
#       runs fewer runs (10, 10, 10, 5, 2, 1), one process per row, in the background;
#   (c) 10 seconds per run on pr1002, pr2392, fnl4461, GPU and sequential CPU.
# Exact TSPLIB lengths, and beside them the unrounded Euclidean length of the same tours.
#   FORMICA_TSPLIB_DIR=... bench/variants_table.sh BUILD_DIR OUT_DIR
# Expected time on an H200 machine with 16 cores: about 4 minutes.
set -uo pipefail
build=$1 out=$2
mkdir -p "$out"
variants="mmas acs gaco"
table_instances="eil51 eil76 kroA100 d198 lin318 rat575"
big_instances="pr1002 pr2392 fnl4461"
# Sequential CPU runs per instance (CPU_RUNS_SCALE=2 doubles them); the GPU always runs 50.
cpu_runs() {
  local runs
  case $1 in d198) runs=2 ;; lin318 | rat575) runs=1 ;; *) runs=5 ;; esac
  echo $((runs * ${CPU_RUNS_SCALE:-1}))
}

pids=()
for instance in $table_instances; do
  for v in $variants; do
    "$build/colony_runs" --instances "$instance" --runs "$(cpu_runs "$instance")" --iterations 3000 \
      --config "$v-cpu:algorithm=$v,backend=cpu,threads=1" --csv "$out/cpu_table_${instance}_$v.csv" \
      >"$out/cpu_table_${instance}_$v.txt" 2>&1 &
    pids+=($!)
  done
done
for instance in $big_instances; do
  for v in $variants; do
    "$build/colony_runs" --instances "$instance" --runs 1 --time-limit "${TEN_SECOND_LIMIT:-10}" \
      --config "$v-cpu:algorithm=$v,backend=cpu,threads=1" --csv "$out/cpu_10s_${instance}_$v.csv" \
      >"$out/cpu_10s_${instance}_$v.txt" 2>&1 &
    pids+=($!)
  done
done

echo "== (a) speed targets: MMAS, 20 candidates, no local search"
"$build/formica_bench" --instances pr1002,fnl4461 --config "mmas-k20-m=n:algorithm=mmas,backend=cuda" \
  --warmup 3 --iterations 30 --csv "$out/speed_small.csv"
"$build/formica_bench" --instances usa13509 --config "mmas-k20-m=n:algorithm=mmas,backend=cuda" \
  --config "mmas-k20-m=100:algorithm=mmas,backend=cuda,ants=100" --warmup 2 --iterations 10 --csv "$out/speed_usa.csv"

echo "== (b) Li and Jin Table 1 shape: 3000 iterations, GPU"
configs=()
for v in $variants; do configs+=(--config "$v-gpu:algorithm=$v,backend=cuda"); done
"$build/colony_runs" --instances "${table_instances// /,}" --runs 50 --iterations 3000 "${configs[@]}" \
  --csv "$out/gpu_table_50.csv"
"$build/colony_runs" --instances "${table_instances// /,}" --runs 1 --iterations 3000 "${configs[@]}" \
  --csv "$out/gpu_table_1.csv"

echo "== (c) 10 seconds per run, GPU (${TEN_SECOND_LIMIT:-10} s)"
"$build/colony_runs" --instances "${big_instances// /,}" --runs 1 --time-limit "${TEN_SECOND_LIMIT:-10}" "${configs[@]}" \
  --csv "$out/gpu_10s.csv"

wait "${pids[@]}"
echo "== sequential CPU (threads = 1)"
cat "$out"/cpu_table_*.txt "$out"/cpu_10s_*.txt | grep -v '^#' | sort -u
echo "== speed-up of the GPU over the sequential CPU, per run (CPU s/run / GPU s for one run) and"
echo "   in throughput (CPU s/run x 50 / GPU s for 50 runs at once)"
awk -F, 'FNR == 1 { next }
  FILENAME ~ /cpu_table/ { key = $1 "," substr($3, 1, index($3, "-") - 1); cpu[key] = $8 / $6 }
  FILENAME ~ /gpu_table_1/ { key = $1 "," substr($3, 1, index($3, "-") - 1); one[key] = $8 }
  FILENAME ~ /gpu_table_50/ { key = $1 "," substr($3, 1, index($3, "-") - 1); fifty[key] = $8 }
  END { printf "%-16s %12s %12s %12s %10s %12s\n", "instance,variant", "CPU s/run", "GPU s (1)", "GPU s (50)", "per run", "throughput"
        for (k in cpu) if ((k in one) && (k in fifty))
          printf "%-16s %12.2f %12.2f %12.2f %9.1fx %11.1fx\n", k, cpu[k], one[k], fifty[k], cpu[k] / one[k], 50 * cpu[k] / fifty[k] }' \
  "$out"/cpu_table_*.csv "$out/gpu_table_1.csv" "$out/gpu_table_50.csv" | sort
