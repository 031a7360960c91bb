#!/usr/bin/env bash
# Issue 19's table on a GPU machine: batch_bench rows (10,000 instances of 20, 50 and 100 cities,
# 1,000 of 1,000) and LKH-3 through elkai on the same instances, on the same host.
#   bench/batch_table.sh BIN_DIR OUT_DIR [ELKAI_COUNT]
# BIN_DIR holds batch_bench; OUT_DIR gets the CSVs and the log. ELKAI_COUNT (default 640) instances
# of each set go to elkai (all host cores); formica's figures are over the same instances too.
set -uo pipefail
bin=$1 out=$2 count=${3:-640}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
lscpu | grep -E '^Model name|^CPU\(s\)' | tr -s ' '
row() {  # row NAME CITIES INSTANCES [--set ...]
  local name=$1 cities=$2 instances=$3; shift 3
  "$bin/batch_bench" --cities "$cities" --instances "$instances" --repeats 3 --csv "$out/$name.csv" \
    --npy "/tmp/$name.npy" "$@" | tee "$out/$name.txt"
  python3 "$root/bench/batch_reference.py" "/tmp/$name.npy" --count "$count" --csv "$out/$name-elkai.csv" \
    --formica "$out/$name.csv" | tee -a "$out/$name.txt"
}
row b100 100 10000
row b20 20 10000
row b50 50 10000
row b1000 1000 1000
