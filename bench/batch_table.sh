#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The batch table of docs/batch.md on a GPU machine: batch_bench rows and LKH-3 (elkai, default settings, one
# process per core) on the same instances, on the same host.
#   bench/batch_table.sh BIN_DIR OUT_DIR ROW...
# ROW is one of b20 b50 b100 b100-auto b1000; BIN_DIR holds batch_bench; OUT_DIR gets each row's
# log (NAME.txt) and per-instance CSVs (NAME.csv, NAME-elkai.csv).
set -uo pipefail
bin=$1 out=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
lscpu | grep -E '^Model name|^CPU\(s\)' | tr -s ' '
# row NAME CITIES INSTANCES ELKAI_COUNT [batch_bench options...]
row() {
  local name=$1 cities=$2 instances=$3 count=$4
  shift 4
  "$bin/batch_bench" --cities "$cities" --instances "$instances" --csv "$out/$name.csv" --npy "/tmp/$cities.npy" "$@" |
    tee "$out/$name.txt"
  local reuse=()
  [ -f "$out/elkai-$cities.csv" ] && reuse=(--reuse)
  python3 "$root/bench/batch_reference.py" "/tmp/$cities.npy" --count "$count" --csv "$out/elkai-$cities.csv" \
    "${reuse[@]}" --formica "$out/$name.csv" | tee -a "$out/$name.txt"
}
for r in "$@"; do
  case $r in
    b20) row b20 20 10000 10000 --repeats 3 --set walks=4 ;;
    b50) row b50 50 10000 2000 --repeats 3 --set walks=4 ;;
    b100) row b100 100 10000 1280 --repeats 3 --set walks=3 --set kicks=2000 --solve-loop 30 ;;
    b100-auto) row b100-auto 100 10000 1280 --repeats 3 ;;
    b1000) row b1000 1000 1000 16 --repeats 1 --set time-limit=60 ;;
    *) echo "unknown row $r" >&2; exit 2 ;;
  esac
done
